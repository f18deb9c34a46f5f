"""The Consecutive OPS track of the image says the reduction of 7.8 truthfully: its last box
holds every count from 6 up, and a count of 7 reduces by 6, not 5 (issue 26)."""

from __future__ import annotations

from adjudicator.core.events import Viewer
from adjudicator.core.i18n import EN, say
from adjudicator.stalins_war import drawer
from adjudicator.stalins_war.rounds import reduction
from tests.stalins_war.helpers import dealt


def test_7_8_the_last_box_reads_the_markers_count_and_its_reduction():
    last = drawer.TRACK - 1
    for count in range(last, 12):
        assert say(drawer._label(last, count), EN) == f"{count}: -{reduction(count)}"
    assert say(drawer._label(last, 3), EN) == "6+: count-1"  # no marker in it: the rule


def test_7_6_the_boxes_before_the_last_are_the_printed_ones():
    said = [say(drawer._label(n, 0), EN) for n in range(drawer.TRACK - 1)]
    assert said == ["0: 0 N/A", "1: full", "2: -1", "3: -2", "4: -3", "5: -4"]


def test_7_8_a_count_of_7_is_drawn_otherwise_than_a_count_of_6():
    sw, state, _dice = dealt()
    images = []
    for count in (6, 7):
        state.players["axis"].count = count
        images.append(drawer.draw(sw, sw.view(state, Viewer.public()), title="t"))
    assert images[0] != images[1] and images[1].startswith(b"\x89PNG")

"""The block game's map (drawer/): what the legend promises is what the blocks show. A face-up
block shows its strength (2.4) as a number on its square, and the list of the viewer's own
blocks names each by the id a player types with its combat rating (2.10); the public map shows
no rating and no name of a block outside a battle, and its legend promises no face-up block."""

from __future__ import annotations

from adjudicator.core.events import Viewer
from adjudicator.northern_war import drawer
from app.i18n import language
from render import labels
from tests.northern_war.helpers import play, sample

SYSTEM = sample()


def _drawn(state, view, lang=None) -> list[labels.Label]:
    """Every label the drawer draws."""
    viewer = Viewer.of([view]) if view else Viewer.public()
    kwargs = {"language": lang} if lang else {}
    with labels.recording() as found:
        drawer.draw(SYSTEM, SYSTEM.view(state, viewer), (), view=view, **kwargs)
    return list(found)


def test_2_10_own_blocks_show_the_rating_and_the_strength_the_legend_names():
    sc = SYSTEM.scenario
    state = next(s for s, *_ in play(SYSTEM, 2) if s.phase == "action")
    said = [lab.text for lab in _drawn(state, "sweden")]
    assert "your block: its strength" in said
    own = [b for b in sc.blocks if sc.side_of(b) == "sweden" and state.status[b] == "map"]
    for b in own:  # each block by its id with its rating, its strength on its square
        assert any(text.startswith(f"{b} {sc.blocks[b].rating}") for text in said), b
    strengths = [text for text in said if text.isdigit()]
    for b in own:  # on the map and in the list of blocks
        assert strengths.count(str(state.strength[b])) >= 2, b
    public = " ".join(lab.text for lab in _drawn(state, None))
    for b, blk in sc.blocks.items():  # face down: no id, no rating, no name
        assert f"{b} {blk.rating}" not in public and blk.name not in public
    assert "your block" not in public


def test_2_10_the_legend_comes_last_in_every_language():
    state = next(s for s, *_ in play(SYSTEM, 2) if s.phase == "action")
    for lang in (None, language("ru")):
        found = _drawn(state, "sweden", lang)
        legend = [lab for lab in found if lab.kind == "legend"]
        others = [lab for lab in found if lab.kind != "legend"]
        assert len(legend) >= 2 + len(SYSTEM.scenario.nations)
        assert min(lab.box[1] for lab in legend) > max(lab.box[3] for lab in others)

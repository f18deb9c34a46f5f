"""More rules: the draw phase order (4.7, 16.5), the track boxes (7.6), a mud round and
variant 2 (9.8), the hooks (3.12, 12.5), the deadline default (5.7), the grammar round trip,
and what the opponent's view keeps (16.1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.core import commands as C
from adjudicator.core.events import Viewer
from adjudicator.stalins_war import texts, turns
from adjudicator.stalins_war.orders import Play, Roll, SpendLeave, SpendStrategic, Zero
from tests.stalins_war.helpers import at, dealt, give, refused, say


@pytest.fixture
def game():
    return dealt(5)


def test_4_7_16_5_automatic_cards_arrive_after_the_discard_and_in_public(game):
    sw, state, dice = game
    state.phase, state.to_move = "draw", "soviet"
    assert refused(sw, state, "soviet", "discard 1").rule == "4.1"  # not his yet
    state = say(sw, state, "soviet", "draw", dice)
    out = sw.apply(state, "axis", sw.grammar.parse("draw"), dice)
    public = [e.text for e in out.events if e.audience.public]
    assert any(
        "receives #1 Siberian Divisions* and #2 Evacuate Industry (4.5)" in t for t in public
    )


def test_7_6_7_8_the_track_boxes():
    labels = [texts.box_label(n) for n in range(5)]
    assert labels == ["0, N/A", "1st, Full OPS", "2nd, -1 OPS", "3rd, -2 OPS", "4th, -3 OPS"]


def test_9_8_a_mud_round_keeps_the_count_in_variant_2(game, monkeypatch):
    sw, state, _ = game
    monkeypatch.setattr(sw, "deck", replace(sw.deck, mud_rounds=frozenset({(1, 2)})))
    state.players["axis"].count = 3
    state = say(sw, at(state, "axis", 2), "axis", "pass0 reset")
    assert state.players["axis"].count == 3


def test_3_12_the_hand_size_hook_and_4_8_no_discard_down(game):
    sw, state, dice = game
    turns.set_hand_size(state, "axis", 4)
    state.phase, state.to_move = "draw", "soviet"
    state = say(sw, say(sw, state, "soviet", "draw", dice), "axis", "draw", dice)
    assert len(state.players["axis"].hand) == 6  # above the hand size: keeps all, draws none


def test_5_7_the_deadline_default_is_a_variant_1_round_end_or_draw(game):
    sw, state, _ = game
    assert sw.default_order(state) == Zero("move")
    opened = say(sw, give(state, "axis", 7), "axis", "play 7 ops")
    assert sw.grammar.format(sw.default_order(opened)) == "end"
    out = sw.apply(opened, "system", C.Default(), None)
    assert out.state.open is None and out.state.to_move == "soviet"


def test_16_1_the_opponent_sees_counts_only(game):
    sw, state, _ = game
    seen = sw.view(state, Viewer.of(["soviet"]))
    assert seen.players["axis"].hand == [] and seen.players["axis"].hidden == 6
    assert seen.players["soviet"].hand == state.players["soviet"].hand
    assert "hand 6" in texts.track_text(sw.deck, seen)
    assert sw.answer(seen, "axis", sw.grammar.parse("hand")).text.startswith("Only a seated")
    public = sw.view(state, Viewer.public())
    assert all(p.hand == [] for p in public.players.values())
    assert sw.view(state, Viewer.of([], over=True)) is state


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("play #7 ops", Play(7, "ops")),
        ("play 9 rp+ops", Play(9, "rp+ops")),
        ("pass0 reset swap 3", Zero("reset", 3)),
        ("spend leave e5 4pz 7pz stays 9pz", SpendLeave("e5", ("4pz", "7pz"), ("9pz",))),
        ("spend strategic a b from kiev", SpendStrategic(("a", "b"), "kiev")),
        ("roll 2d6 Attack on Kiev", Roll(2, 6, "Attack on Kiev")),
    ],
)
def test_the_order_language_round_trip(game, text, order):
    sw, _, _ = game
    assert sw.grammar.parse(text) == order
    assert sw.grammar.parse(sw.grammar.format(order)) == order


def test_a_bad_order_is_refused_by_the_grammar_with_its_usage(game):
    sw, _, _ = game
    with pytest.raises(Exception, match="Usage: play"):
        sw.grammar.parse("play 7 sideways")
    with pytest.raises(Exception, match="2d6"):
        sw.grammar.parse("roll lots for fun")


def test_options_lists_the_legal_orders_privately(game):
    sw, state, _ = game
    assert sw.is_private(sw.grammar.parse("options"))
    seen = sw.view(state, Viewer.of(["axis"]))
    text = sw.answer(seen, "axis", sw.grammar.parse("options")).text
    card = min(state.players["axis"].hand)
    assert (
        f"`play {card} ops`" in text
        and "`pass0 move`" in text
        and "`roll <N>d<F> <PURPOSE>`" in text
    )
    other = sw.answer(sw.view(state, Viewer.of(["soviet"])), "soviet", sw.grammar.parse("options"))
    assert "play" not in other.text and "roll" in other.text


def test_the_image_of_the_public_card_state_is_a_png_in_every_phase(game):
    from adjudicator.stalins_war import drawer

    sw, state, _ = game
    for s in (state, at(state, "soviet", 5)):
        png = drawer.draw(sw, sw.view(s, Viewer.public()), title="t")
        assert png.startswith(b"\x89PNG")
    s = say(sw, at(state, "soviet", 5), "soviet", "pass0 move")
    assert drawer.draw(sw, sw.view(s, Viewer.public())).startswith(b"\x89PNG")  # draw phase

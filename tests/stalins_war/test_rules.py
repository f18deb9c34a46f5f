"""The card rules, rule by rule (stalins-war-cards.md): the worked example W1 to W7, the tests
T1 to T14 and the rules around them. Sample deck facts used: Axis #7 (OPS 4), #10 (OPS 3),
#4 (OPS 3), #1 (event gives 3 OPS), #2 (starred), #3 and #8 (events give RP), #5 (RP + event),
#9 (RP + OPS, OPS 3); Soviet #10 (OPS 4), #8, #11, #13 (OPS 2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.core.dice import HashDice
from adjudicator.core.events import Viewer
from adjudicator.stalins_war import turns
from tests.stalins_war.helpers import at, dealt, give, refused, say


@pytest.fixture
def game():
    return dealt(1)


def axis_ops(sw, state, card: int, dice=None):
    state = say(sw, give(at(state, "axis"), "axis", card), "axis", f"play {card} ops", dice)
    return state


# -- the worked example (section 14) and T1 to T7
def test_14_worked_example_w1_to_w7(game):
    sw, state, _ = game
    p = state.players["axis"]
    p.count = 0  # W1: the last action of the previous turn was an RP round
    seen = []
    for rnd, card in ((1, 7), (2, 10), (3, 4)):
        state = give(at(state, "axis", rnd), "axis", card)
        state.players["axis"].hand.remove(card)
        state.players["axis"].hand.append(card)
        printed = sw.deck.card("axis", card).ops
        state = say(sw, state, "axis", f"play {card} ops")
        seen.append((state.players["axis"].count, printed, state.open.ops))
        state = say(sw, state, "axis", "end")
        soviet_count = state.players["soviet"].count
        state = say(sw, give(state, "soviet", 13), "soviet", "pass0 move")  # W7
        assert state.players["soviet"].count == soviet_count
    # W2: count 1, full OPS 4; W3: count 2, 4 - 1; W4: count 3, 4 - 2 (#10 and #4 print 3)
    assert [(c, ops) for c, _, ops in seen] == [(1, 4), (2, 3 - 1), (3, 3 - 2)]
    state = say(sw, give(at(state, "axis", 4), "axis", 6), "axis", "play 6 event")  # W5
    assert state.players["axis"].count == 0 and state.players["axis"].boxes[-1] == "event"
    state = say(sw, give(at(state, "axis", 5), "axis", 12), "axis", "play 12 ops")  # W6
    assert state.players["axis"].count == 1 and state.open.ops == 4


def test_14_worked_example_w2_w3_w4_with_printed_4_each_time(game):
    sw, state, _ = game
    results = []
    for rnd, card in ((1, 7), (2, 12), (3, 6)):  # three cards printed 4
        state = axis_ops(sw, at(state, "axis", rnd), card)
        results.append((state.players["axis"].count, state.open.ops))
        state = say(sw, state, "axis", "end")
        state = say(sw, state, "soviet", "pass0 move")
    assert results == [(1, 4), (2, 3), (3, 2)]


def test_t1_7_8_9_3_variant_1_keeps_the_count(game):
    sw, state, _ = game
    state.players["axis"].count = 3
    state = say(sw, at(state, "axis"), "axis", "pass0 move")
    assert state.players["axis"].count == 3
    state = axis_ops(sw, at(state, "axis", 2), 7)
    assert (state.players["axis"].count, state.open.ops) == (4, 1)


def test_t2_7_8_modified_ops_never_below_0(game):
    sw, state, _ = game
    state.players["axis"].count = 4
    state = axis_ops(sw, state, 3)  # printed 2
    assert state.players["axis"].count == 5 and state.open is None  # 0 OPS: the round ends
    assert state.played[-1]["kind"] == "ops"


def test_t3_9_7_variant_2_resets_the_count(game):
    sw, state, _ = game
    state.players["axis"].count = 2
    state = say(sw, at(state, "axis"), "axis", "pass0 reset")
    assert state.players["axis"].count == 0
    state = axis_ops(sw, at(state, "axis", 2), 10)
    assert (state.players["axis"].count, state.open.ops) == (1, 3)


def test_t4_7_9_12_6_the_count_carries_over_the_turn(game):
    sw, state, dice = game
    state.players["axis"].count = 2
    state = at(state, "soviet", 5)
    state = say(sw, state, "soviet", "pass0 move")  # the 5th Soviet action: the draw phase
    state = say(sw, state, "soviet", "draw", dice)
    state = say(sw, state, "axis", "draw", dice)
    assert (state.turn, state.round, state.to_move) == (2, 1, "axis")
    assert state.players["axis"].count == 2
    state = axis_ops(sw, state, 10)
    assert (state.players["axis"].count, state.open.ops) == (3, 1)


def test_t5_7_10a_an_rp_round_resets_the_count(game):
    sw, state, _ = game
    state.players["axis"].count = 2
    state = say(sw, give(at(state, "axis"), "axis", 7), "axis", "play 7 rp")
    assert state.players["axis"].count == 0 and state.players["axis"].rp["Germany"] == 2


def test_t6_7_12_a_mud_round_never_resets(game, monkeypatch):
    sw, state, _ = game
    monkeypatch.setattr(sw, "deck", replace(sw.deck, mud_rounds=frozenset({(1, 1)})))
    state.players["axis"].count = 2
    state = say(sw, give(at(state, "axis"), "axis", 7), "axis", "play 7 event")
    assert state.players["axis"].count == 2


def test_t7_7_14_an_event_giving_ops_resets_and_is_not_reduced(game):
    sw, state, _ = game
    state.players["axis"].count = 2
    state = say(sw, give(at(state, "axis"), "axis", 1), "axis", "play 1 event")
    assert state.players["axis"].count == 0 and state.open.ops == 3


# -- RP (section 10), T8, T9
def test_t8_10_3_10_9_10_10_soviet_rp_limits(game):
    sw, state, dice = game
    state = say(sw, give(at(state, "soviet", 1), "soviet", 8), "soviet", "play 8 rp")
    assert (
        refused(sw, give(at(state, "soviet", 2), "soviet", 11), "soviet", "play 11 rp").rule
        == "10.9"
    )
    state = say(sw, give(at(state, "soviet", 2), "soviet", 13), "soviet", "pass0 move")
    state = say(sw, give(at(state, "soviet", 3), "soviet", 11), "soviet", "play 11 rp")
    state = say(sw, at(state, "soviet", 4), "soviet", "pass0 move")
    rej = refused(sw, give(at(state, "soviet", 5), "soviet", 13), "soviet", "play 13 rp")
    assert rej.rule == "10.3" and "at most 2" in rej.message
    # 10.10: RP in round 5 of turn 4 and round 1 of turn 5
    fresh = at(dealt(2)[1], "soviet", 5, turn=4)
    fresh = say(sw, give(fresh, "soviet", 8), "soviet", "play 8 rp")
    fresh = say(sw, fresh, "soviet", "draw", dice)
    fresh = say(sw, fresh, "axis", "draw", dice)
    assert fresh.turn == 5
    fresh = say(sw, fresh, "axis", "pass0 move")
    fresh = say(sw, give(fresh, "soviet", 11), "soviet", "play 11 rp")
    assert fresh.players["soviet"].rp_plays == 1


def test_t9_10_4_10_5_10_8_axis_rp_limits(game):
    sw, state, _ = game
    t3 = say(sw, give(at(state, "axis", 1, turn=3), "axis", 7), "axis", "play 7 rp")
    t3 = say(sw, at(t3, "axis", 2), "axis", "pass0 move")
    assert refused(sw, give(at(t3, "axis", 3), "axis", 10), "axis", "play 10 rp").rule == "10.4"
    t5 = say(sw, give(at(state, "axis", 1, turn=5), "axis", 7), "axis", "play 7 rp")
    t5 = say(sw, at(t5, "axis", 2), "axis", "pass0 move")
    t5 = say(sw, give(at(t5, "axis", 3), "axis", 10), "axis", "play 10 rp")  # 10.5, 10.6
    assert t5.players["axis"].rp_plays == 2
    e = say(sw, give(at(state, "axis", 1, turn=3), "axis", 3), "axis", "play 3 event")
    e = say(sw, give(at(e, "axis", 2), "axis", 7), "axis", "play 7 rp")
    assert e.players["axis"].rp["Germany"] == 2 + 2  # the event's 2 and the card's 2
    assert refused(sw, give(at(e, "axis", 4), "axis", 8), "axis", "play 8 event").rule == "10.8"


def test_10_2_10_11_a_combined_play_is_an_rp_play_and_resets(game):
    sw, state, _ = game
    state.players["axis"].count = 2
    state = say(sw, give(at(state, "axis", 1, turn=3), "axis", 9), "axis", "play 9 rp+ops")
    assert state.players["axis"].count == 0 and state.open.ops == 3  # Q17: not reduced
    assert state.players["axis"].rp_plays == 1
    assert refused(sw, give(at(state, "axis"), "axis", 7), "axis", "play 7 rp+ops").rule == "10.2"


def test_10_14_recorded_rp_survive_the_end_of_the_turn(game):
    sw, state, dice = game
    state = say(sw, give(at(state, "soviet", 5), "soviet", 8), "soviet", "play 8 rp")
    state = say(sw, say(sw, state, "soviet", "draw", dice), "axis", "draw", dice)
    assert state.turn == 2 and state.players["soviet"].rp["USSR"] == 2


# -- section 8, T11, T12
def test_t11_8_3_to_8_6_8_15_8_20_leaving_enemy_zoc(game):
    sw, state, _ = game
    state = axis_ops(sw, state, 7)  # 4 OPS
    a = say(sw, state, "axis", "spend leave x a b stays c")
    assert a.open.ops == 4  # A and B leave, C stays: 0 OPS (8.4)
    a = say(sw, a, "axis", "spend leave x c")
    assert a.open.ops == 3  # the last one leaves: 1 OPS (8.6)
    b = say(sw, state, "axis", "spend leave x a b c stays none")  # D entered X: unnamed (8.5)
    assert b.open.ops == 3
    b = say(sw, b, "axis", "spend combat x")
    assert b.open.ops == 2 and "2 OPS in all" in b.open.spent[-1]  # 8.20
    assert refused(sw, b, "axis", "spend leave x d").rule == "8.14"
    assert refused(sw, b, "axis", "spend combat x").rule == "8.16"


def test_t12_8_9_strategic_movement_costs_1_ops_a_unit(game):
    sw, state, _ = game
    state = axis_ops(sw, state, 7)
    state = say(sw, state, "axis", "spend strategic u1 u2 u3 from y")
    assert state.open.ops == 1 and state.open.moves == ["y"]  # 8.13
    assert refused(sw, state, "axis", "spend strategic u4 u5").rule == "8.9"


def test_8_21_unspent_ops_are_lost_and_0_ends_the_round(game):
    sw, state, _ = game
    state = axis_ops(sw, state, 10)
    state = say(sw, state, "axis", "spend combat k1 k2 k3")
    assert state.open is None and state.to_move == "soviet"


# -- cards: 6.4, 11.4, 11.5, T13, T14
def test_t13_11_4_11_5_6_4_starred_event_removed_starred_ops_discarded(game):
    sw, state, _ = game
    ev = say(sw, give(at(state, "axis"), "axis", 2), "axis", "play 2 event")
    assert 2 in ev.players["axis"].removed and [2, True] not in ev.players["axis"].discard
    ops = say(sw, give(at(state, "axis"), "axis", 2), "axis", "play 2 ops")
    assert 2 not in ops.players["axis"].hand and [2, True] not in ops.players["axis"].discard
    ops = say(sw, ops, "axis", "end")  # 6.4: at the end of the action round
    assert [2, True] in ops.players["axis"].discard and 2 not in ops.players["axis"].removed


def test_t14_5_6_no_card_means_a_0_ops_round(game):
    sw, state, _ = game
    state = at(state, "axis")
    state.players["axis"].hand = []
    assert refused(sw, state, "axis", "play 7 ops").rule == "5.5"
    legal = sw.legal_orders(state, "axis")
    assert {sw.grammar.format(o) for o in legal} == {"pass0 move", "pass0 reset"}


def test_9_9_variant_2_swaps_one_card_face_down(game):
    sw, state, dice = game
    state = give(at(state, "axis"), "axis", 7)
    before = len(state.players["axis"].hand)
    new = say(sw, state, "axis", "pass0 reset swap 7", dice)
    assert 7 not in new.players["axis"].hand and len(new.players["axis"].hand) == before
    assert [7, False] in new.players["axis"].discard
    seen = sw.view(new, Viewer.of(["soviet"]))
    assert [None, False] in seen.players["axis"].discard  # 16.4: a count, not the card


# -- sequence: 5.3, 5.4, 2.4, section 4, T10
def test_5_3_5_4_axis_first_and_alternating(game):
    sw, state, _ = game
    assert (state.round, state.to_move) == (1, "axis")
    assert refused(sw, state, "soviet", "pass0 move").rule == "5.4"
    order = []
    for _ in range(10):
        order.append((state.round, state.to_move))
        state = say(sw, state, state.to_move, "pass0 move")
    assert order == [(r, s) for r in range(1, 6) for s in ("axis", "soviet")]
    assert state.phase == "draw" and state.to_move == "soviet"  # 2.4, 4.2


def test_t10_4_5_to_4_8_automatic_soviet_cards(game):
    sw, state, dice = game
    s = state.players["soviet"]
    state.phase, state.to_move = "draw", "soviet"
    s.hand = s.hand[:3]
    state = say(sw, say(sw, state, "soviet", "draw", dice), "axis", "draw", dice)
    hand = state.players["soviet"].hand
    assert {1, 2} <= set(hand) and len(hand) == 6  # 3 kept, #1 #2 received, 1 drawn
    state.phase, state.to_move = "draw", "soviet"  # turn 2: none (4.6)
    state.players["soviet"].hand = hand[:6]
    state = say(sw, say(sw, state, "soviet", "draw", dice), "axis", "draw", dice)
    assert state.players["soviet"].set_aside == [3, 4, 5, 6]
    state.phase, state.to_move = "draw", "soviet"  # turn 3, 6 kept: #3 arrives, 7 cards
    state = say(sw, say(sw, state, "soviet", "draw", dice), "axis", "draw", dice)
    assert 3 in state.players["soviet"].hand and len(state.players["soviet"].hand) == 7


def test_4_1_4_3_16_3_draw_phase_discards_are_counts_for_the_opponent(game):
    sw, state, dice = game
    state.phase, state.to_move = "draw", "soviet"
    card = min(state.players["soviet"].hand)
    out = sw.apply(state, "soviet", sw.grammar.parse(f"discard {card}"), dice)
    public = [e.text for e in out.events if e.audience.public]
    assert any("discards 1 card face down" in t for t in public)
    assert not any(f"#{card}" in t for t in public)
    assert refused(sw, state, "axis", "discard 7").rule == "4.2"


def test_3_8_3_10_the_deal(game):
    sw, state, _ = game
    for side, p in state.players.items():
        assert len(p.hand) == 6
        assert all(sw.deck.card(side, n).group == "blitzkrieg" for n in p.hand + p.deck)
    assert state.players["soviet"].set_aside == [1, 2, 3, 4, 5, 6]
    assert not set(range(1, 7)) & set(state.players["soviet"].hand + state.players["soviet"].deck)


def test_3_13_an_empty_deck_is_the_discard_pile_reshuffled(game):
    sw, state, dice = game
    p = state.players["axis"]
    p.discard = [[n, True] for n in p.deck] + [[99, False]][:0]
    p.deck = []
    events = turns.draw_cards(sw.deck, state, "axis", 1, dice)
    assert any(e.kind == "DeckReshuffled" for e in events) and not p.discard
    p.deck, p.discard = [], []
    before = len(p.hand)
    turns.draw_cards(sw.deck, state, "axis", 2, dice)
    assert len(p.hand) == before  # nothing to shuffle: he stops drawing


def test_3_4_total_war_shuffles_the_total_war_cards_in(game):
    sw, state, dice = game
    before = len(state.players["axis"].deck)
    state = say(sw, state, "axis", "totalwar", dice)
    assert len(state.players["axis"].deck) == before + 4 and state.players["axis"].total_war
    assert refused(sw, state, "axis", "totalwar").rule == "3.4"


def test_12_3_12_5_banked_ops_lost_and_the_game_ends_after_turn_18(game):
    sw, state, dice = game
    state = at(state, "soviet", 5, turn=18)
    state.players["axis"].banked = 2
    state = say(sw, state, "soviet", "pass0 move")
    state = say(sw, say(sw, state, "soviet", "draw", dice), "axis", "draw", dice)
    assert state.players["axis"].banked == 0 and state.result["turn"] == 18
    assert "rule 12.5" in state.result["text"] and sw.situation(state).over


def test_a_roll_is_public_with_its_purpose():
    sw, state, _dice = dealt(3)
    out = sw.apply(state, "soviet", sw.grammar.parse("roll 2d6 attack on Kiev"), HashDice(5))
    (event,) = out.events
    assert event.audience.public and "attack on Kiev" in event.text and len(out.rolls) == 2


def test_5_5_a_refusal_cites_the_rule_and_what_is_legal(game):
    sw, state, _ = game
    rej = refused(sw, state, "axis", "play 99 ops")
    assert rej.rule == "5.5" and "`hand`" in rej.message
    assert "99" in rej.message

"""A position deep in a game, set up with the moderator's editor only (issue 26): turn 7, action
round 4, an Axis hand of 6 with banked OPS, a deck order; then play goes on with real orders
through the application (GameService), into turn 8, and the game audits clean and replays equal.
Neither the other side's view nor the public view ever holds a hand card or the deck order the
moderator set (16.1)."""

from __future__ import annotations

import json
import time

import pytest

from app.service import GameService
from bots.demo import DemoSeeds
from storage import Store, state_hash
from tests.stalins_war.helpers import system

AXIS_HAND = [1, 4, 7, 9, 10, 12]  # Blitzkrieg cards (the sample deck)
AXIS_TOP = [2, 3]  # the draw deck's top, top first (16.7: only the moderator orders it)


def say(svc: GameService, user: str, text: str):
    (reply,) = svc.say("g", None, text, user=user)
    assert reply.ok, (user, text, reply.reply)
    return reply


def setup_by_editor(svc: GameService) -> list[str]:
    """The deal (the game's own orders), then the editor alone; the lines the moderator gave."""
    for line in ("seat axis alice", "seat soviet bob"):
        say(svc, "mod", line)
    say(svc, "alice", "draw")
    say(svc, "bob", "draw")
    hand = svc.state("g").players["axis"].hand
    lines = [f"place axis {n} deck bottom" for n in sorted(set(hand) - set(AXIS_HAND))]
    lines += [f"place axis {n} hand" for n in AXIS_HAND if n not in hand]
    lines += [f"set deck axis {','.join(map(str, AXIS_TOP))}"]
    soviet = svc.state("g").players["soviet"]
    lines += [f"place soviet {n} hand" for n in (3, 5)]  # reinforcements received (4.5)
    lines += [f"place soviet {n} discard" for n in (1, 2, 4, 6)]
    lines += [f"place soviet {n} deck bottom" for n in sorted(soviet.hand)[:2]]
    lines += [
        "set turn 7",
        "set round 4",
        "set count axis 2",
        "set banked axis 2",
        "set rp axis germany 3",
        "set rp soviet ussr 4",
    ]
    for line in lines:
        say(svc, "mod", line)
    return lines


@pytest.fixture
def game() -> GameService:
    svc = GameService(Store(":memory:"), seeds=DemoSeeds(26))
    svc.new_game("g", sandbox=True, creator="mod", system="stalins-war")
    return svc


def assert_audits_clean(svc: GameService) -> None:
    assert state_hash(svc.replay("g").to_json()) == state_hash(svc.record("g").snapshot)
    svc.verify("g")
    ok, text, _ = svc.audit("g")
    assert ok, text


def test_13_1_13_2_turn_7_round_4_set_by_the_editor_plays_on_and_audits_clean(game):
    start = time.process_time()
    svc = game
    setup_by_editor(svc)
    state = svc.state("g")
    axis = state.players["axis"]
    assert (state.turn, state.round, state.to_move, state.phase) == (7, 4, "axis", "action")
    assert sorted(axis.hand) == AXIS_HAND and axis.deck[:2] == AXIS_TOP
    assert (axis.banked, axis.count, axis.rp["Germany"]) == (2, 2, 3)
    assert state.players["soviet"].set_aside == [] and state.rules == 2
    assert_audits_clean(svc)

    # round 4: a 0-OPS round pays a Combat marker from the banked OPS (9.6); the rest stay banked
    say(svc, "alice", "pass0 move")
    say(svc, "alice", "spend combat kiev")
    ended = say(svc, "alice", "end")
    assert "1 banked OPS stay banked" in ended.reply
    assert svc.state("g").players["axis"].banked == 1
    say(svc, "bob", "play 3 ops")  # 4 OPS at count 1 (7.4 to 7.6)
    say(svc, "bob", "spend strategic u1 u2")
    say(svc, "bob", "end")
    # round 5: count 2 -> 3, 4 OPS less 2 (7.5); leaving ZOC names who stays (8.4, rules 2)
    say(svc, "alice", "play 7 ops")
    assert svc.state("g").open.ops == 2
    say(svc, "alice", "spend leave x a stays b")
    say(svc, "alice", "spend leave x b")
    ended = say(svc, "alice", "end")
    assert "1 OPS unspent are lost (8.21)" in ended.reply
    say(svc, "bob", "pass0 reset")
    # the draw phase: the Axis player holds 5 and draws the top card the moderator set (4.4)
    say(svc, "bob", "draw")
    say(svc, "alice", "draw")
    state = svc.state("g")
    assert (state.turn, state.round, state.phase) == (8, 1, "action")
    assert AXIS_TOP[0] in state.players["axis"].hand and len(state.players["axis"].hand) == 6
    assert state.players["axis"].banked == 0  # 12.3
    assert state.players["axis"].count == 3  # 7.9: carried into turn 8
    assert_audits_clean(svc)
    assert time.process_time() - start < 10


def test_16_1_the_other_side_and_the_public_never_see_what_the_moderator_set(game):
    svc = game
    deck = system().deck
    setup_by_editor(svc)
    names = [deck.card("axis", n).name for n in [*AXIS_HAND, *AXIS_TOP]]
    for view in ("soviet", None):
        shown = svc.show("g", view)
        axis = shown["players"]["axis"]
        assert axis["hand"] == [] and axis["hidden"] == 6
        assert set(axis["deck"]) == {None}
        seen = " ".join([json.dumps(shown), svc.log_text("g", view=view), svc.status("g", view)])
        leaked = [n for n in names if n in seen]
        assert leaked == [], (view, leaked)
    # the Axis player sees his own hand and the deck order set for him
    axis_log = svc.log_text("g", view="axis")
    assert all(n in axis_log for n in names)
    assert "Moderator sets the top of the Axis draw deck" in axis_log

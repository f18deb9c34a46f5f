"""Roles and moderation: seats, moderators, spectators; undo, rewind, pause/resume, seat/unseat,
moderator add/remove. Every moderator action is a chained log row naming who and why."""

from __future__ import annotations

import re

import pytest

from adjudicator.hells_gate import grammar
from adjudicator.hells_gate import orders as O
from app.service import GameService
from storage import Store, state_hash


@pytest.fixture
def svc():
    service = GameService(Store(":memory:"))
    service.new_game("g", sandbox=True, creator="mod")
    return service


@pytest.fixture
def seated(svc):
    for line in ("seat soviet alice", "seat german bob first seating"):
        assert say(svc, "mod", line).ok
    return svc


def say(svc: GameService, user: str | None, text: str, side: str | None = None, key=None):
    (reply,) = svc.say("g", side, text, user=user, key=key)
    return reply


def refused(reply, code: str) -> str:
    assert not reply.ok and reply.error["code"] == code, reply.reply
    return reply.error["message"]


def rows(svc: GameService):
    return svc.store.log("g")


def assert_consistent(svc: GameService) -> None:
    """State = fold of the effective rows; chain, seeds and rolls audit clean."""
    assert state_hash(svc.replay("g").to_json()) == state_hash(svc.record("g").snapshot)
    svc.verify("g")
    ok, text, _ = svc.audit("g")
    assert ok, text


def first_attack(svc: GameService) -> str:
    state = svc.state("g")
    attacks = [o for o in svc.rules("g").legal_orders(state, "soviet") if isinstance(o, O.Attack)]
    return grammar.format_order(min(attacks, key=grammar.format_order))


def finish_turn1_soviet_movement(svc: GameService, user: str | None = None) -> None:
    """Move the armor rule 12.2 requires, then end the phase."""
    side = None if user else "soviet"
    for _ in range(10):
        reply = say(svc, user, "end", side)
        if reply.ok:
            return
        example = re.search(r"e\.g\. `([^`]+)`", reply.reply)
        assert example, reply.reply
        assert say(svc, user, example.group(1), side).ok
    raise AssertionError("the movement phase did not end")


# -- seats and roles
def test_a_player_orders_only_for_his_own_side(seated):
    assert say(seated, "alice", "end").ok  # soviet-combat: alice plays soviet
    msg = refused(say(seated, "alice", "end", side="german"), "not-your-seat")
    assert "alice plays soviet, not german" in msg
    refused(say(seated, "bob", "end"), "not-your-phase")  # bob's seat is fine, the rules say no
    assert rows(seated)[-1].user == "alice"


def test_a_spectator_asks_but_gives_no_orders(seated):
    msg = refused(say(seated, "carol", "end"), "spectator")
    assert "carol holds no seat" in msg
    refused(say(seated, "carol", "salt mine"), "spectator")
    refused(say(seated, "carol", "undo"), "spectator")
    for question in ("status", "units", "rolls", "log 3", "options", "supply", "help undo"):
        assert say(seated, "carol", question).ok, question


def test_a_moderator_without_a_seat_gives_no_player_orders(seated):
    msg = refused(say(seated, "mod", "end"), "not-seated")
    assert "seat <SIDE> mod" in msg


def test_moderator_commands_need_a_moderator(seated):
    for line in ("pause lunch", "set weather mud", "rewind 1 oops", "seat german alice"):
        refused(say(seated, "alice", line), "moderator-only")
    refused(say(seated, None, "pause lunch", side="soviet"), "moderator-only")
    assert say(seated, "mod", "set weather mud").ok  # a sandbox game
    assert say(seated, None, "set weather snow", side="moderator").ok  # the local operator


def test_the_creator_is_the_first_moderator_and_moderators_come_and_go(svc):
    assert svc.record("g").moderators == ("mod",)
    refused(say(svc, "carol", "pause why not"), "moderator-only")
    assert say(svc, "mod", "moderator add carol second opinion").ok
    assert say(svc, "carol", "pause carol can now").ok
    refused(say(svc, "mod", "moderator add carol"), "already-moderator")
    assert say(svc, "carol", "moderator remove mod stepped down").ok
    refused(say(svc, "mod", "resume please"), "moderator-only")
    refused(say(svc, "carol", "moderator remove carol"), "last-moderator")
    refused(say(svc, "carol", "moderator remove dave"), "not-a-moderator")
    assert svc.record("g").moderators == ("carol",)
    last = rows(svc)[-1]
    assert (last.kind, last.user, last.payload) == (
        "moderation",
        "carol",
        {"action": "moderator-remove", "why": "stepped down", "user": "mod"},
    )


def test_seat_and_unseat_are_logged_with_who_and_why(seated):
    assert say(seated, "mod", "seat soviet dave alice went on holiday").ok
    row = rows(seated)[-1]
    assert (row.kind, row.actor, row.user, row.text) == (
        "moderation",
        "moderator",
        "mod",
        "seat soviet dave alice went on holiday",
    )
    assert row.payload == {
        "action": "seat",
        "why": "alice went on holiday",
        "side": "soviet",
        "user": "dave",
        "previous": "alice",
    }
    refused(say(seated, "alice", "end"), "spectator")
    assert say(seated, "dave", "end").ok
    refused(say(seated, "mod", "seat soviet dave"), "already-seated")
    assert not say(seated, "mod", "unseat soviet").ok  # a reason is required
    assert say(seated, "mod", "unseat soviet dave resigned").ok
    assert rows(seated)[-1].payload == {
        "action": "unseat",
        "why": "dave resigned",
        "side": "soviet",
        "user": "dave",
    }
    refused(say(seated, "mod", "unseat soviet again"), "seat-empty")
    assert seated.record("g").seats == {"soviet": None, "german": "bob"}
    assert_consistent(seated)


def test_pause_stops_orders_but_not_questions_or_moderators(seated):
    assert say(seated, "mod", "pause waiting for a ruling on 8.4").ok
    assert rows(seated)[-1].payload == {"action": "pause", "why": "waiting for a ruling on 8.4"}
    msg = refused(say(seated, "alice", "end"), "paused")
    assert "waiting for a ruling on 8.4" in msg and "resume" in msg
    refused(say(seated, "alice", "salt abc"), "paused")
    refused(say(seated, None, "end", side="soviet"), "paused")
    status = say(seated, "alice", "status")
    assert status.ok and "PAUSED by a moderator: waiting for a ruling on 8.4" in status.reply
    assert seated.show("g")["paused"] == "waiting for a ruling on 8.4"
    assert say(seated, "mod", "set weather mud").ok  # the moderator may fix things meanwhile
    refused(say(seated, "mod", "pause again"), "already-paused")
    assert say(seated, "mod", "resume ruling given").ok
    refused(say(seated, "mod", "resume twice"), "already-running")
    assert say(seated, "alice", "end").ok
    assert_consistent(seated)


# -- undo
def test_undo_takes_back_his_own_last_orders_and_keeps_the_rows(svc):
    before = svc.record("g").snapshot
    assert say(svc, None, "end", "soviet").ok  # combat -> movement
    after_end = svc.record("g").snapshot
    moves = [
        o for o in svc.rules("g").legal_orders(svc.state("g"), "soviet") if isinstance(o, O.Move)
    ]
    assert say(svc, None, grammar.format_order(moves[0]), "soviet").ok
    moved_row = rows(svc)[-1]

    reply = say(svc, None, "undo", "soviet")
    assert reply.ok and f"Undone: row {moved_row.index}" in reply.reply
    assert svc.record("g").snapshot == after_end
    undo = rows(svc)[-1]
    assert (undo.kind, undo.actor, undo.payload["targets"]) == ("undo", "soviet", [moved_row.index])
    assert moved_row.index in [r.index for r in rows(svc)]  # the undone row stays
    assert f"{moved_row.index}. soviet: {moved_row.text}  [undone or rewound]" in svc.log_text("g")

    assert say(svc, None, "undo", "soviet").ok  # and the `end` before it
    assert svc.record("g").snapshot == before
    assert_consistent(svc)
    refused(say(svc, None, "undo", "soviet"), "nothing-to-undo")


def test_undo_never_crosses_a_die_roll(svc):
    attack = first_attack(svc)
    assert say(svc, None, attack, "soviet").ok
    assert rows(svc)[-1].rolls  # the attack rolled
    msg = refused(say(svc, None, "undo", "soviet"), "undo-dice")
    assert "rolled a die" in msg
    assert_consistent(svc)


def test_undo_never_crosses_a_reveal(svc):
    assert say(svc, None, "end", "soviet").ok
    assert say(svc, "mod", "set turn 2").ok  # a new turn: epoch 1 revealed, epoch 2 opened
    assert [r.kind for r in rows(svc)[-3:]] == ["order", "reveal", "epoch"]
    msg = refused(say(svc, None, "undo", "soviet"), "undo-reveal")
    assert "never crosses a reveal" in msg


def test_undo_never_after_the_opponent_acted(seated):
    assert say(seated, "alice", "end").ok
    finish_turn1_soviet_movement(seated, "alice")
    state = seated.state("g")
    assert state.phase == "german-combat" and not rows(seated)[-1].rolls
    assert say(seated, "bob", "end").ok
    msg = refused(say(seated, "alice", "undo"), "undo-after-opponent")
    assert "German has acted since" in msg


def test_only_players_undo(seated):
    assert say(seated, "alice", "end").ok
    refused(say(seated, "mod", "undo"), "not-seated")
    refused(say(seated, None, "undo", "moderator"), "not-a-player")
    refused(say(seated, "bob", "undo"), "nothing-to-undo")


# -- rewind
def test_rewind_keeps_the_rows_reveals_the_epoch_and_opens_a_fresh_one(svc):
    assert say(svc, None, "end", "soviet").ok
    mark = svc.record("g")
    finish_turn1_soviet_movement(svc)
    assert say(svc, None, "end", "german").ok
    attack_rows = len(rows(svc))
    before = svc.record("g")
    assert before.head_index > mark.head_index

    reply = say(svc, "mod", f"rewind {mark.head_index} the Soviet player misread the map")
    assert reply.ok and f"Rewound to row {mark.head_index} by mod" in reply.reply
    log = rows(svc)
    rewind, reveal, epoch = log[attack_rows:]
    assert (rewind.kind, rewind.user, rewind.payload["to"], rewind.payload["why"]) == (
        "rewind",
        "mod",
        mark.head_index,
        "the Soviet player misread the map",
    )
    assert reveal.kind == "reveal" and reveal.payload["epoch"] == 1
    assert epoch.kind == "epoch" and epoch.payload["epoch"] == 2 and epoch.payload["turn"] == 1
    now = svc.record("g")
    assert now.snapshot == mark.snapshot and now.epoch == 2
    assert now.epoch_commitment not in (before.epoch_commitment, None)
    assert len(log) == attack_rows + 3  # nothing deleted
    text = svc.log_text("g")
    assert text.count("[undone or rewound]") == sum(
        1 for r in log if r.kind == "order" and mark.head_index < r.index < attack_rows
    )
    assert_consistent(svc)
    finish_turn1_soviet_movement(svc)  # the game goes on from the rewound state
    assert_consistent(svc)


def test_rewind_is_for_moderators_with_a_reason(svc):
    assert say(svc, None, "end", "soviet").ok
    refused(say(svc, None, "rewind 1 oops", "soviet"), "moderator-only")
    refused(say(svc, "bob", "rewind 1 oops"), "moderator-only")
    refused(say(svc, "mod", "rewind 1"), "syntax")
    assert say(svc, "mod", "pause tea").ok and say(svc, "mod", "resume tea").ok
    head = svc.record("g").head_index
    refused(say(svc, "mod", f"rewind {head} too late"), "bad-row")
    refused(say(svc, "mod", f"rewind {head - 1} only moderation after it"), "nothing-to-rewind")
    assert say(svc, "mod", "rewind 1 start over").ok
    assert_consistent(svc)


def test_a_rewind_after_dice_lets_nobody_reroll_from_a_known_seed(svc):
    assert say(svc, None, first_attack(svc), "soviet").ok
    rolled = rows(svc)[-1]
    assert rolled.rolls and rolled.rolls[0]["epoch"] == 1
    assert say(svc, "mod", "rewind 1 the attack was a misclick").ok
    assert say(svc, None, first_attack(svc), "soviet").ok
    again = [r for r in rows(svc) if r.kind == "order"][-1]
    assert again.rolls[0]["epoch"] == 2 and again.rolls[0]["n"] == 1  # a fresh, committed seed
    assert_consistent(svc)


def test_moderation_rows_are_idempotent_too(seated):
    first = say(seated, "mod", "pause tea", key="m-9")
    again = say(seated, "mod", "pause tea", key="m-9")
    assert first.ok and again.ok and again.duplicate and again.reply == first.reply
    assert sum(1 for r in rows(seated) if r.key == "m-9") == 1


# -- salts and rolls
def test_salts_are_taken_until_the_epochs_first_roll_then_reopen_with_the_next(seated):
    assert say(seated, "alice", "salt Alice's lucky socks").ok
    assert say(seated, "bob", "salt bob was here").ok
    refused(say(seated, "carol", "salt spectators cannot"), "spectator")
    refused(say(seated, "mod", "salt moderators cannot"), "not-seated")
    salts = [r.payload for r in rows(seated) if r.kind == "salt"]
    assert salts == [
        {"epoch": 1, "salt": "Alice's lucky socks"},
        {"epoch": 1, "salt": "bob was here"},
    ]
    assert say(seated, "alice", first_attack(seated)).ok  # the epoch's first roll
    msg = refused(say(seated, "alice", "salt too late"), "salts-closed")
    assert "epoch 1 (turn 1) has already rolled" in msg and "epoch 2, when turn 2 begins" in msg
    assert "salts closed" in say(seated, "carol", "status").reply
    assert say(seated, "mod", "set turn 2").ok  # epoch 1 revealed: its rolls recompute, salts in
    ok, text, report = seated.audit("g")
    assert ok and report.rolls_checked >= 1, text
    assert say(seated, "alice", "salt a new turn").ok
    assert rows(seated)[-1].payload == {"epoch": 2, "salt": "a new turn"}


def test_rolls_shows_purpose_epoch_n_value_and_what_a_moderator_fixed(seated):
    assert say(seated, "mod", "dice 4").ok
    assert say(seated, "alice", first_attack(seated)).ok
    reply = say(seated, "carol", "rolls")  # anyone may ask
    assert reply.ok and re.search(
        r"row \d+ soviet: combat \w+ = 4 \(fixed by a moderator", reply.reply
    )
    ok, text, report = seated.audit("g")
    assert ok and report.rolls_fixed == 1 and "Fixed by a moderator (1" in text
    assert say(seated, "mod", "set turn 2").ok
    assert say(seated, "alice", "end").ok
    assert say(seated, "mod", "rewind 1 let us roll for real").ok
    assert say(seated, "alice", first_attack(seated)).ok
    last = say(seated, "carol", "rolls 1").reply.splitlines()
    assert len(last) == 2 and re.search(r"combat \w+ = [1-6] \(epoch 3, n 1\)$", last[1])

"""Deadlines with an injected clock: reminders, defaults, decision deadlines, outages, extend,
pause/resume, idempotency. No sleeping: a FakeClock is moved by hand. The posts go to the real
outbox (its dedupe keys make a second run add nothing)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from adjudicator.core.system import Situation
from app import clock as C
from app import deadlines as D
from app import outage
from app.service import GameService
from bots import delivery
from bots.clock import FakeClock
from storage import Store, chat_store, clocks

SOVIET, GERMAN, MOD = "telegram:101", "discord:202", "telegram:909"
TG_CHAT, DC_CHAT = "-1001", "5550001"
H = timedelta(hours=1)


@pytest.fixture
def game(db_url, stores):
    """A started sandbox game 'g' seated on both platforms, bound to a Telegram group and a
    Discord channel, its phase deadline armed at clock time 0."""
    store: Store = stores(db_url)
    seeds = (f"{n:064x}" for n in itertools.count(1))
    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))  # near the log's wall clock
    service = GameService(store, seeds=lambda: next(seeds), now=clock.now)  # re-arms on clock
    service.new_game("g", sandbox=True, creator=MOD)
    for side, user in (("soviet", SOVIET), ("german", GERMAN)):
        assert service.say("g", "moderator", f"seat {side} {user}")[0].ok
    chat_store.remember_user(store, SOVIET, "alice", now=clock.now())
    chat_store.remember_user(store, GERMAN, "bob", now=clock.now())
    chat_store.bind(store, "telegram", TG_CHAT, "g", now=clock.now())
    chat_store.bind(store, "discord", DC_CHAT, "g", now=clock.now())
    C.rearm(store, "g", situation(service), clock)
    return store, service, clock


def due(store, service, clock, *, up: bool = True):
    """One tick at clock.now(). up: the service ran all along (its 30 s heartbeats, which a
    clock moved by hours skips, are written first), so a jump of the clock is no outage."""
    if up:
        outage.heartbeat(store, clock)
    return D.adjudicate_due(store, clock.now(), core=service.core)


def situation(service, name: str = "g") -> Situation:
    """Where the game stands, as its system tells (what the clock is armed for)."""
    return service.system(name).situation(service.state(name))


def texts(outs) -> list[str]:
    return [o.text for o in outs]


# -- durations
@pytest.mark.parametrize(
    ("text", "hours"),
    [("48h", 48), ("90m", 1.5), ("2d", 48), ("1d12h", 36), ("1d 12h", 36), ("1.5h", 1.5)],
)
def test_parse_duration(text, hours):
    assert C.parse_duration(text) == timedelta(hours=hours)


@pytest.mark.parametrize("text", ["", "48", "h", "soon", "2x", "0h", "400d", "12h later"])
def test_parse_duration_refuses_with_an_example(text):
    with pytest.raises(C.DeadlineError, match="duration"):
        C.parse_duration(text)


def test_format_duration():
    assert C.format_duration(timedelta(hours=3, minutes=12)) == "3 h 12 min"
    assert C.format_duration(timedelta(hours=47)) == "47 h"
    assert C.format_duration(timedelta(minutes=45)) == "45 min"
    assert C.format_duration(timedelta(seconds=20)) == "20 s"


# -- arming
def test_rearm_arms_a_phase_deadline_and_keeps_it_while_the_situation_stays(game):
    store, service, clock = game
    gc = C.load(store, "g")
    assert (gc.kind, gc.deadline_at) == ("phase", clock.now() + 48 * H)
    clock.advance(hours=5)
    C.rearm(store, "g", situation(service), clock)  # nothing changed: the deadline stands
    assert C.load(store, "g").deadline_at == gc.deadline_at
    assert service.say("g", "soviet", "end")[0].ok  # soviet-combat ends: a new situation
    C.rearm(store, "g", situation(service), clock)
    assert C.load(store, "g").deadline_at == clock.now() + 48 * H


# -- reminders
def test_reminders_at_24h_and_1h_each_once(game):
    store, service, clock = game
    assert due(store, service, clock) == []
    clock.advance(hours=23, minutes=59)
    assert due(store, service, clock) == []
    clock.advance(minutes=1)  # 24 h left
    outs = due(store, service, clock)
    assert len(outs) == 2  # the Telegram group and the Discord channel
    tg, dc = sorted(outs, key=lambda o: o.platform != "telegram")
    assert (tg.platform, tg.chat_id, tg.mentions) == ("telegram", TG_CHAT, ["101"])
    assert (dc.platform, dc.chat_id, dc.mentions) == ("discord", DC_CHAT, [])
    assert "Reminder: Soviet has 24 h left" in tg.text and "UTC (in 24 h)" in tg.text
    assert "(alice)" in dc.text  # named where she cannot be pinged
    assert due(store, service, clock) == []
    clock.advance(hours=22)
    assert due(store, service, clock) == []
    clock.advance(hours=1)  # 1 h left
    outs = due(store, service, clock)
    assert len(outs) == 2 and "has 1 h left" in outs[0].text
    clock.advance(minutes=30)
    assert due(store, service, clock) == []
    assert len(delivery.rows(store, game="g")) == 4


def test_late_start_sends_only_the_most_urgent_reminder(game):
    store, service, clock = game
    clock.advance(hours=47, minutes=30)  # both reminders are due: only "30 min left" goes
    outs = due(store, service, clock)
    assert len(outs) == 2 and "has 30 min left" in outs[0].text
    assert due(store, service, clock) == []


# -- the default on a passed deadline
def test_the_default_is_applied_at_the_deadline_and_the_chat_told(game):
    store, service, clock = game
    deadline = C.load(store, "g").deadline_at
    clock.set(deadline)
    outs = due(store, service, clock)
    assert len(outs) == 2
    text = outs[0].text
    assert "The deadline for Soviet (alice) passed" in text and "Done on Soviet's behalf:" in text
    assert "Deadline default for Soviet: end." in text  # the events of the default
    assert "German to move" not in text  # soviet-movement follows soviet-combat
    assert "Soviet (alice) to move: turn 1, soviet-movement." in text  # the one post of a phase
    assert "Deadline: " in text and "(in 48 h)" in text
    rows = service.store.log("g")
    applied = [r for r in rows if r.key == f"deadline:g:{deadline.isoformat()}"]
    assert len(applied) == 1 and applied[0].actor == "system" and applied[0].text == "default"
    assert any(e["kind"] == "DefaultApplied" for e in applied[0].events)
    assert service.state("g").phase == "soviet-movement"
    gc = C.load(store, "g")
    assert gc.deadline_at == clock.now() + 48 * H and gc.kind == "phase"
    # idempotent: the same instant again does nothing
    head = service.store.count_rows("g")
    assert due(store, service, clock) == []
    assert service.store.count_rows("g") == head


def test_running_twice_at_the_same_time_does_nothing_twice(game):
    store, service, clock = game
    clock.advance(hours=24)
    first = due(store, service, clock)
    assert first and due(store, service, clock) == []
    clock.advance(hours=24)
    first = due(store, service, clock)
    rows = service.store.count_rows("g")
    assert first and due(store, service, clock) == []
    assert service.store.count_rows("g") == rows
    assert len(delivery.rows(store, game="g")) == 4


def test_a_default_commits_with_its_rearm_and_post_so_a_restart_repeats_nothing(game):
    """There is no window between a default and its re-arm any more: the default, the new
    deadline and the post are one transaction (a crash before its commit leaves none of them)."""
    store, service, clock = game
    gc = C.load(store, "g")
    clock.set(gc.deadline_at)
    key = f"deadline:g:{gc.deadline_at.isoformat()}"
    assert service.say("g", "system", "default", key=key)[0].ok  # applied, then "crashed"
    rows = service.store.count_rows("g")
    posted = [r for r in delivery.rows(store, game="g") if (r.dedupe_key or "").startswith(key)]
    assert len(posted) == 2 and "Deadline default for Soviet: end." in posted[0].outgoing.text
    assert C.load(store, "g").deadline_at == clock.now() + 48 * H  # re-armed in that commit
    assert due(store, service, clock) == []  # the restart finds nothing due
    assert service.store.count_rows("g") == rows  # the keyed default is not applied again


def test_a_player_order_just_before_the_default_wins(game):
    """The race: the phase ends by the player's order, its re-arm not written yet, when the
    deadline's default runs. The default must not hit the next phase."""
    store, service, clock = game
    clock.set(C.load(store, "g").deadline_at)
    assert service.say("g", "soviet", "end")[0].ok  # no rearm yet
    phase = service.state("g").phase
    rows = service.store.count_rows("g")
    assert due(store, service, clock) == []
    assert service.store.count_rows("g") == rows and service.state("g").phase == phase
    assert C.load(store, "g").deadline_at == clock.now() + 48 * H  # re-armed for the new phase


# -- decisions
def test_decision_deadlines_are_shorter(game):
    store, service, clock = game
    assert service.say("g", "moderator", "dice 5")[0].ok
    clock.advance(hours=2)
    assert service.say("g", "soviet", "attack A1 with 47rc")[0].ok  # 1 hit for German
    state = service.state("g")
    assert state.pending and state.active_side == "german"
    C.rearm(store, "g", service.system("g").situation(state), clock)
    gc = C.load(store, "g")
    assert (gc.kind, gc.deadline_at) == ("decision", clock.now() + 12 * H)
    assert 24.0 in gc.sent  # no "24 h left" on a 12 h deadline
    clock.advance(hours=11)
    outs = due(store, service, clock)
    assert "German has 1 h left to decide: apply 1 hit in A1" in outs[0].text
    assert outs[1].mentions == ["202"]  # the Discord player is pinged in the Discord channel
    clock.advance(hours=1)
    outs = due(store, service, clock)
    assert "Done on German's behalf:" in outs[0].text
    assert "Deadline default for German: losses" in outs[0].text
    assert not service.state("g").pending
    gc = C.load(store, "g")
    assert gc.kind == "phase" and gc.deadline_at == clock.now() + 48 * H


def test_deadline_lengths_and_reminders_are_set_per_game(game):
    store, service, clock = game
    assert "Deadline for combat decisions: 6 h." in C.deadline_command(
        store, "g", "decisions 6h", clock
    )
    text = C.deadline_command(store, "g", "24h", clock)
    assert "each phase: 24 h" in text and "current deadline stays" in text
    assert "Reminders before each deadline: 2 h." in C.deadline_command(
        store, "g", "reminders 2", clock
    )
    described = C.deadline_command(store, "g", "", clock)
    assert "24 h per phase, 6 h per combat decision; reminders 2 h" in described
    assert "the phase deadline is" in described
    assert service.say("g", "soviet", "end")[0].ok
    C.rearm(store, "g", situation(service), clock)
    assert C.load(store, "g").deadline_at == clock.now() + 24 * H
    with pytest.raises(C.DeadlineError):
        C.deadline_command(store, "g", "tomorrow", clock)
    with pytest.raises(C.DeadlineError, match="whole hours"):  # the columns hold hours
        C.deadline_command(store, "g", "90m", clock)


# -- outages
def test_an_outage_extends_the_deadline_instead_of_executing_it(game):
    store, service, clock = game
    deadline = C.load(store, "g").deadline_at
    clock.set(deadline - 90 * timedelta(minutes=1))
    due(store, service, clock)  # the last heartbeat before the outage
    clock.advance(hours=3)  # down for 3 h: the deadline passed 1.5 h ago
    rows = service.store.count_rows("g")
    outs = due(store, service, clock, up=False)
    assert service.store.count_rows("g") == rows  # nothing executed
    text = outs[0].text
    assert "The service was down for 3 h" in text and "nothing was done" in text
    assert "passed while it was down" in text
    moved = deadline + 3 * H
    assert C.load(store, "g").deadline_at == moved
    assert f"{moved:%Y-%m-%d %H:%M} UTC (in 1 h 30 min)" in text
    assert due(store, service, clock, up=False) == []  # announced once, moved once
    assert C.load(store, "g").deadline_at == moved
    clock.set(moved)
    outs = due(store, service, clock)
    assert "Done on Soviet's behalf" in outs[0].text


def test_a_short_gap_is_no_outage(game):
    store, service, clock = game
    due(store, service, clock)
    clock.advance(minutes=1, seconds=59)
    assert due(store, service, clock, up=False) == []
    assert C.load(store, "g").deadline_at == clock.now() - timedelta(minutes=1, seconds=59) + 48 * H


# -- extend, pause, resume
def test_extend_moves_the_current_deadline_and_reopens_reminders(game):
    store, service, clock = game
    clock.advance(hours=47)
    assert "has 1 h left" in due(store, service, clock)[0].text
    text = C.extend(store, "g", "1d", clock)
    assert "Deadline extended by 24 h: now" in text and "(in 25 h)" in text
    assert C.load(store, "g").deadline_at == clock.now() + 25 * H
    clock.advance(hours=24)
    assert "has 1 h left" in due(store, service, clock)[0].text  # the 1 h reminder again
    clock.advance(hours=1)
    assert "Done on Soviet's behalf" in due(store, service, clock)[0].text


def test_extend_without_a_deadline_is_refused(game):
    store, _, clock = game
    C.clear(store, "g")
    with pytest.raises(C.DeadlineError, match="no deadline"):
        C.extend(store, "g", "2h", clock)


def test_pause_stops_the_clock_and_resume_restores_the_time_left(game):
    store, service, clock = game
    clock.advance(hours=10)
    assert service.say("g", "moderator", "pause lunch break")[0].ok
    C.rearm(store, "g", situation(service), clock)  # the chat service re-arms after a change
    gc = C.load(store, "g")
    assert gc.clock_paused and gc.deadline_at is None and gc.remaining_s == 38 * 3600
    clock.advance(hours=100)
    assert due(store, service, clock) == []  # no reminder, no default while stopped
    assert service.say("g", "moderator", "resume back")[0].ok
    C.rearm(store, "g", situation(service), clock)
    gc = C.load(store, "g")
    assert not gc.clock_paused and gc.deadline_at == clock.now() + 38 * H
    clock.advance(hours=14)
    assert "has 24 h left" in due(store, service, clock)[0].text


def test_a_pause_not_yet_seen_by_the_clock_stops_it_at_the_next_tick(game):
    store, service, clock = game
    start = C.load(store, "g").deadline_at - 48 * H
    paused_on_clock = clock.now()  # the pause stops the clock in its own transaction, now
    assert service.say("g", "moderator", "pause waiting for a ruling")[0].ok  # no rearm call
    paused_at = datetime.fromisoformat(service.store.log("g", 1)[0].created_at)  # wall clock
    clock.set(paused_at + 50 * H)  # past the deadline when the pause is seen: nothing applied
    rows = service.store.count_rows("g")
    assert due(store, service, clock) == []
    assert service.store.count_rows("g") == rows
    gc = C.load(store, "g")
    left = start + 48 * H - paused_on_clock  # the time left when the moderator paused
    assert timedelta(hours=47) < left <= 48 * H
    assert gc.clock_paused and abs(gc.remaining_s - left.total_seconds()) <= 1
    assert C.pause_clock(store, "g", clock) == "The clock is already stopped."


def test_explicit_pause_and_resume_functions(game):
    store, _, clock = game
    clock.advance(hours=47, minutes=30)
    assert C.pause_clock(store, "g", clock) == "The clock is stopped with 30 min left."
    assert C.extend(store, "g", "2h", clock).endswith("2 h 30 min left when the clock runs again.")
    clock.advance(hours=5)
    assert "(in 2 h 30 min)" in C.resume_clock(store, "g", clock)
    assert C.next_due(store) == clock.now() + timedelta(minutes=90)  # the 1 h reminder


def test_the_end_of_the_game_clears_the_clock(game):
    store, _, clock = game

    over = Situation(None, "", "game over", (), result={"text": "Soviet victory"})
    C.rearm(store, "g", over, clock)
    gc = C.load(store, "g")
    assert gc.deadline_at is None and not gc.clock_paused
    assert C.next_due(store) is None


# -- the after-phase post of a default (written by submit, with the default)
def test_a_default_posts_the_summary_with_what_was_done(game):
    store, service, clock = game
    clocks.save(store, "g", started_at=clock.now())  # started in a chat: submit re-arms it
    clock.set(C.load(store, "g").deadline_at)
    outage.heartbeat(store, clock)
    outs = D.adjudicate_due(store, clock.now(), core=service.core)
    assert len(outs) == 2
    tg = next(o for o in outs if o.platform == "telegram")
    lines = tg.text.split("\n")
    assert lines[0].startswith("The deadline for Soviet (alice) passed")
    assert lines[1] == "- Deadline default for Soviet: end."
    assert "**g: turn 1, soviet-movement**" in tg.text
    assert "Deadline: " in tg.text and "(in 48 h)" in tg.text  # the new deadline
    assert tg.mentions == ["101"]  # the player to move
    assert D.adjudicate_due(store, clock.now(), core=service.core) == []


def test_the_default_and_its_post_are_written_together_once(game):
    """The post after a default is written in the default's own transaction (a crash loses
    both or neither), keyed by the deadline: a second pass adds nothing."""
    store, service, clock = game
    deadline = C.load(store, "g").deadline_at
    clock.set(deadline)
    outs = due(store, service, clock)
    key = f"deadline:g:{deadline.isoformat()}"
    written = [r for r in delivery.rows(store, game="g") if r.dedupe_key.startswith(key)]
    assert len(written) == len(outs) == 2
    assert due(store, service, clock) == []
    assert len(delivery.rows(store, game="g")) == 2

"""A game's clock as data: the deadline policy, knowing no game system.

A game's situation (adjudicator.core.system.Situation) decides its deadline: a new `key` arms a
fresh one (a decision deadline while `deciding`, a phase deadline otherwise; the game's lengths,
48 h and 12 h by default), the same key keeps it, `over` clears it. The moderators' pause (the
game row's `paused`) stops the clock keeping the time left; resume restarts it with that time.
Reminders (24 h and 1 h before by default) already past, or not shorter than the whole time
left, count as sent. The clock's columns and memo are read and written by storage/clocks.py.

- `rearm_in(tx, situation, now)`: inside a game's transaction (submit calls it after every
  accepted change); `rearm(store, name, situation, clock_or_now)` in a transaction of its own.
- the moderators' commands: `deadline_command` (`deadline`, `deadline 48h`, `deadline decisions
  12h`, `deadline reminders 24h 1h`), `extend`, `pause_clock` / `resume_clock`, `describe`.
- `load`, `clocks`, `next_due`, and the pure `plan` (what a re-arm changes).

Every write happens on the locked game row, so a re-arm, a command and the scheduler never
overwrite each other.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from adjudicator.core.i18n import cat, t
from adjudicator.core.system import Situation
from app.durations import (
    MAX_DURATION,
    DeadlineError,
    format_deadline,
    format_duration,
    hours,
    hours_of,
    now_of,
    parse_duration,
)
from app.game_clock import (
    CLEARED,
    DEFAULT_DECISION_HOURS,
    DEFAULT_PHASE_HOURS,
    DEFAULT_REMINDERS,
    KINDS,
    GameClock,
    When,
    clocks,
    load,
    locked,
    save,
    view,
)
from storage import GameTx, Store
from storage import clocks as sql

log = logging.getLogger(__name__)


# -- the policy (pure)
def sorted_hours(values: Iterable[float]) -> list[float]:
    return sorted({float(h) for h in values}, reverse=True)


def sent_for(
    gc: GameClock, deadline: datetime, now: datetime, sent: Iterable[float]
) -> list[float]:
    """The reminders that count as sent for a deadline moved or started at `now`: those already
    sent whose time is still past, and those not shorter than the whole time left (no "24 h
    left" on a 12 h deadline)."""
    left = hours_of(deadline - now)
    keep = {h for h in sent if deadline - hours(h) <= now}
    keep |= {h for h in gc.reminder_hours if h >= left}
    return sorted_hours(keep)


def stopped(gc: GameClock, now: datetime) -> dict[str, Any]:
    """The changes that stop the clock, keeping the time left."""
    if gc.deadline_at is None:
        return {"clock_paused": True, "remaining_s": None}
    left = max(timedelta(), gc.deadline_at - now)
    return {"clock_paused": True, "deadline_at": None, "remaining_s": int(left.total_seconds())}


def restarted(gc: GameClock, now: datetime) -> dict[str, Any]:
    """The changes that restart a stopped clock with the time that was left."""
    if gc.remaining_s is None or gc.kind is None:
        return {"clock_paused": False, "remaining_s": None}
    at = now + timedelta(seconds=gc.remaining_s)
    sent = sent_for(gc, at, now, gc.sent)
    return {"clock_paused": False, "remaining_s": None, "deadline_at": at, "sent": sent}


def plan(
    gc: GameClock, situation: Situation, now: datetime
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """What brings the clock in line with the game: (changed fields, the new memo or None to
    keep it); ({}, None) when nothing changes. See the module doc."""
    if situation.over:
        if gc.deadline_at is not None or gc.clock_paused or gc.armed_for:
            return dict(CLEARED), {"for": None}
        return {}, None
    changes: dict[str, Any] = {}
    if gc.paused and not gc.clock_paused:
        changes = stopped(gc, now)
    elif not gc.paused and gc.clock_paused:
        changes = restarted(gc, now)
    after = replace(gc, **changes)
    if after.armed_for == situation.key and (after.deadline_at is not None or after.clock_paused):
        if "deadline_at" in changes:  # a stopped clock restarted: its deadline runs from now
            return changes, {"for": situation.key, "armed": now.isoformat()}
        return changes, None  # the same situation: the deadline stands
    kind = "decision" if situation.deciding else "phase"
    length = gc.length(kind)
    changes |= {
        "kind": kind,
        "sent": sorted_hours(h for h in gc.reminder_hours if h >= hours_of(length)),
    }
    if after.clock_paused:
        changes |= {"deadline_at": None, "remaining_s": int(length.total_seconds())}
    else:
        changes |= {"deadline_at": now + length}
    return changes, {"for": situation.key, "armed": now.isoformat()}


# -- arming
def rearm_in(tx: GameTx, situation: Situation, now: datetime) -> GameClock:
    """Bring the clock in line with the game inside its transaction (after an accepted change;
    the moderators' pause as the transaction left it)."""
    gc = view(tx.clock())
    gc.paused = tx.paused
    return _apply(tx.conn, gc, situation, now)


def rearm(store: Store, name: str, situation: Situation, when: When) -> GameClock:
    """`rearm_in` in a transaction of its own. Cheap and idempotent."""
    now = now_of(when)
    with locked(store, name) as (conn, gc):
        return _apply(conn, gc, situation, now)


def _apply(conn: Connection, gc: GameClock, situation: Situation, now: datetime) -> GameClock:
    changes, memo = plan(gc, situation, now)
    if changes or memo is not None:
        save(conn, gc, changes, memo=memo, now=now)
        _log_arm(gc, changes)
    return gc


def _log_arm(gc: GameClock, changes: dict[str, Any]) -> None:
    if "deadline_at" not in changes and "remaining_s" not in changes:
        return
    if gc.deadline_at is not None:
        log.info("game=%s deadline=%s kind=%s", gc.name, gc.deadline_at.isoformat(), gc.kind)
    elif gc.clock_paused:
        log.info("game=%s clock=stopped kind=%s left_s=%s", gc.name, gc.kind, gc.remaining_s)
    else:
        log.info("game=%s deadline=cleared", gc.name)


def clear(store: Store, name: str) -> None:
    """No deadline for this game (the clock is neither running nor stopped)."""
    with locked(store, name) as (conn, gc):
        save(conn, gc, dict(CLEARED), memo={"for": None})


def pause_clock(store: Store, name: str, when: When) -> str:
    """Stop the clock, keeping the time left (a moderator's `pause`)."""
    now = now_of(when)
    with locked(store, name) as (conn, gc):
        if gc.clock_paused:
            return t("The clock is already stopped.")
        running = gc.deadline_at is not None
        save(conn, gc, stopped(gc, now))
    if not running:
        return t("The clock is stopped (no deadline was running).")
    assert gc.remaining_s is not None  # `stopped` kept the time left of the running deadline
    log.info("game=%s clock=stopped left_s=%d", name, gc.remaining_s or 0)
    left = format_duration(timedelta(seconds=gc.remaining_s))
    return t("The clock is stopped with {left} left.", left=left)


def resume_clock(store: Store, name: str, when: When) -> str:
    """Restart the clock with the time that was left when it stopped (a moderator's `resume`)."""
    now = now_of(when)
    with locked(store, name) as (conn, gc):
        if not gc.clock_paused:
            return t("The clock is running.")
        save(conn, gc, restarted(gc, now))
    if gc.deadline_at is None:
        return t("The clock runs again (no deadline was running).")
    log.info("game=%s clock=running deadline=%s", name, gc.deadline_at.isoformat())
    at = format_deadline(gc.deadline_at, now)
    return t("The clock runs again: the deadline is {deadline}.", deadline=at)


def next_due(store: Store) -> datetime | None:
    """The next time something is due: a deadline or a reminder not yet sent."""
    times: list[datetime] = []
    for gc in clocks(store):
        at = gc.deadline_at
        if at is not None and gc.running():
            times.append(at)
            times += [at - hours(h) for h in gc.reminder_hours if h not in gc.sent]
    return min(times) if times else None


# -- the moderators' commands
def extend(store: Store, name: str, duration: timedelta | str, when: When) -> str:
    """Move the current deadline later (a moderator's `extend <DURATION>`)."""
    if isinstance(duration, str):
        duration = parse_duration(duration)
    now = now_of(when)
    with locked(store, name) as (conn, gc):
        if gc.clock_paused and gc.remaining_s is not None:
            left = _within_a_year(timedelta(seconds=gc.remaining_s) + duration)
            save(conn, gc, {"remaining_s": int(left.total_seconds())})
            return t(
                "Deadline extended by {by}: {left} left when the clock runs again.",
                by=format_duration(duration),
                left=format_duration(left),
            )
        if gc.deadline_at is None:
            raise DeadlineError(t("no deadline is running in this game: nothing to extend"))
        _within_a_year(gc.deadline_at - now + duration)  # before the sum: no overflow
        at = gc.deadline_at + duration
        save(conn, gc, {"deadline_at": at, "sent": sent_for(gc, at, now, gc.sent)})
    log.info("game=%s deadline=%s extended_s=%d", name, at.isoformat(), duration.total_seconds())
    return t(
        "Deadline extended by {by}: now {deadline}.",
        by=format_duration(duration),
        deadline=format_deadline(at, now),
    )


def _within_a_year(left: timedelta) -> timedelta:
    """The time a moved deadline leaves, if it is at most a year (repeated `extend`s or a
    deadline edited in the database must not carry it past what a date can hold)."""
    if left > MAX_DURATION:
        raise DeadlineError(
            t(
                "the deadline would be more than a year away ({left}): extend it by less",
                left=format_duration(left),
            )
        )
    return left


def set_length(
    store: Store, name: str, duration: timedelta | str, when: When, kind: str = "phase"
) -> str:
    """The length of the deadlines of one kind (`deadline 48h`, `deadline decisions 12h`). It
    applies from the next deadline of that kind; the running one is moved with `extend`."""
    if kind not in KINDS:
        raise ValueError(kind)
    if isinstance(duration, str):
        duration = parse_duration(duration)
    length: float = hours_of(duration)
    if sql.WHOLE_HOURS:
        if length != int(length):
            raise DeadlineError(
                t(
                    "deadline lengths are whole hours: {length} is not (try {hours}h)",
                    length=format_duration(duration),
                    hours=max(1, round(length)),
                )
            )
        length = int(length)
    with locked(store, name) as (conn, gc):
        save(conn, gc, {"decision_hours" if kind == "decision" else "phase_hours": length})
    length_ = format_duration(duration)
    text = (
        t("Deadline for combat decisions: {length}.", length=length_)
        if kind == "decision"
        else t("Deadline for each phase: {length}.", length=length_)
    )
    if gc.deadline_at is not None and gc.kind == kind:
        text = t(
            "{text} It applies from the next one; the current deadline stays "
            "{deadline} (`extend <DURATION>` moves it).",
            text=text,
            deadline=format_deadline(gc.deadline_at, now_of(when)),
        )
    return text


def set_reminders(store: Store, name: str, reminder_hours: list[float]) -> str:
    """The reminders before each deadline, in hours (`deadline reminders 24h 1h`)."""
    if any(h <= 0 for h in reminder_hours) or len(reminder_hours) > 5:
        raise DeadlineError(t("reminders are up to 5 durations before the deadline, e.g. 24h 1h"))
    wanted = sorted_hours(reminder_hours)
    with locked(store, name) as (conn, gc):
        save(conn, gc, {"reminder_hours": wanted})
    shown = cat(*(format_duration(hours(h)) for h in wanted), sep=", ") if wanted else t("none")
    return t("Reminders before each deadline: {shown}.", shown=shown)


def describe(store: Store, name: str, when: When) -> str:
    """The game's deadline settings and the current deadline, in one line."""
    gc = load(store, name)
    if gc.clock_paused:
        left = format_duration(timedelta(seconds=gc.remaining_s or 0))
        current = t("the clock is stopped ({left} left)", left=left)
    elif gc.deadline_at is not None:
        at = format_deadline(gc.deadline_at, now_of(when))
        current = (
            t("the decision deadline is {deadline}", deadline=at)
            if gc.kind == "decision"
            else t("the phase deadline is {deadline}", deadline=at)
        )
    else:
        current = t("no deadline is running")
    reminders = (
        cat(*(format_duration(hours(h)) for h in gc.reminder_hours), sep=", ")
        if gc.reminder_hours
        else t("none")
    )
    return t(
        "Deadlines: {phase} per phase, {decision} per combat decision; reminders {reminders} "
        "before. Now {current}.",
        phase=format_duration(hours(gc.phase_hours)),
        decision=format_duration(hours(gc.decision_hours)),
        reminders=reminders,
        current=current,
    )


def deadline_command(store: Store, name: str, args: str, when: When) -> str:
    """The chat command `deadline [decisions] [<DURATION>]` and `deadline reminders <D> ...`
    (the caller checks that the user is a moderator before it changes anything; with no
    argument it only describes). Raises DeadlineError with the message for the user."""
    words = args.split()
    if not words:
        return describe(store, name, when)
    if words[0] in ("decision", "decisions"):
        if len(words) < 2:
            raise DeadlineError(
                t("write `deadline decisions <DURATION>`, e.g. deadline decisions 12h")
            )
        return set_length(store, name, " ".join(words[1:]), when, kind="decision")
    if words[0] in ("reminder", "reminders"):
        wanted = [hours_of(parse_duration(w if w[-1].isalpha() else w + "h")) for w in words[1:]]
        return set_reminders(store, name, wanted)
    return set_length(store, name, args, when, kind="phase")


__all__ = [
    "CLEARED",
    "DEFAULT_DECISION_HOURS",
    "DEFAULT_PHASE_HOURS",
    "DEFAULT_REMINDERS",
    "KINDS",
    "DeadlineError",
    "GameClock",
    "When",
    "clear",
    "clocks",
    "deadline_command",
    "describe",
    "extend",
    "format_deadline",
    "format_duration",
    "load",
    "locked",
    "next_due",
    "parse_duration",
    "pause_clock",
    "plan",
    "rearm",
    "rearm_in",
    "restarted",
    "resume_clock",
    "save",
    "sent_for",
    "set_length",
    "set_reminders",
    "stopped",
    "view",
]

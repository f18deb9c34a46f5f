"""Outages: the heartbeat, and deadlines moved (never executed) for the time the service was down.

The scheduler writes the heartbeat at every pass, once any outage is caught up. A heartbeat
older than `OUTAGE_AFTER` at a pass means the service was down from the heartbeat until now:
that outage is recorded the first time it is seen (a crash while it is handled never changes
its length), and every deadline still running when the service went down (within `GRACE`
before the heartbeat) moves by its length, once (the game's memo records the outage),
announced in every chat of the game; nothing is done on anyone's behalf. `catch_up` moves them
in game-name order, at most `BATCH` games per transaction, recording how far it reached in the
outage's row: a catch-up cut short (a stop, a crash) continues there at the next pass.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy.engine import Connection

from adjudicator.core.i18n import t
from app import clock, notify
from app.clock import GameClock, When
from app.durations import format_deadline, format_duration, now_of
from app.game_clock import view
from app.messages import Outgoing
from storage import Store
from storage import clocks as sql
from storage.errors import GameNotFound

log = logging.getLogger(__name__)

OUTAGE_AFTER = timedelta(minutes=2)  # a heartbeat older than this at a pass: the service was down
GRACE = timedelta(seconds=30)  # deadlines this far before the last heartbeat count as in the outage

Outage = tuple[datetime, datetime]  # (from, to)


def heartbeat(store: Store, when: When) -> None:
    """Record that the scheduler is alive now."""
    sql.beat(store, now_of(when))


def last_heartbeat(store: Store) -> datetime | None:
    return sql.last_heartbeat(store)


def detect(store: Store, now: datetime, after: timedelta = OUTAGE_AFTER) -> Outage | None:
    """(from, to) of the outage being handled, or None: the heartbeat's gap, fixed the first
    time it is seen."""
    seen = last_heartbeat(store)
    if seen is None or now - seen <= after:
        return None
    recorded = sql.outage(store)
    if recorded is not None and recorded.get("from") == seen.isoformat():
        return seen, datetime.fromisoformat(recorded["to"])
    sql.set_outage(store, {"from": seen.isoformat(), "to": now.isoformat()}, now)
    log.warning(
        "outage=detected last_heartbeat=%s down_s=%d",
        seen.isoformat(),
        (now - seen).total_seconds(),
    )
    return seen, now


def covers(gc: GameClock, outage: Outage, grace: timedelta = GRACE) -> bool:
    """Whether this running deadline is moved for the outage (and was not moved for it yet):
    one running when the service went down, never one armed (or restarted) once it was back, as
    a player's order may do while the catch-up has not reached his game."""
    start, end = outage
    armed = gc.memo.get("armed")
    return (
        gc.deadline_at is not None
        and gc.deadline_at > start - grace
        and gc.memo.get("outage") != start.isoformat()
        and not _armed_since(armed, end)
    )


def _armed_since(armed: object, end: datetime) -> bool:
    """Whether the memo's arming time (absent on clocks armed before it was kept) is at or
    after `end`."""
    try:
        return isinstance(armed, str) and datetime.fromisoformat(armed) >= end
    except (TypeError, ValueError):  # an unreadable memo: moved, as before it was kept
        return False


def text(standing: notify.Standing, outage: Outage, old: datetime, now: datetime) -> str:
    start, end = outage
    length = end - start
    values = {
        "length": format_duration(length),
        "start": f"{start:%Y-%m-%d %H:%M}",
        "movers": standing.movers(),
        "deadline": format_deadline(old + length, now),
    }
    if old <= now:
        return t(
            "The service was down for {length} (from {start} UTC). "
            "The deadline for {movers} passed while it was down; nothing was done on anyone's "
            "behalf: the deadline moves by {length}, to {deadline}.",
            **values,
        )
    return t(
        "The service was down for {length} (from {start} UTC). "
        "The deadline for {movers} was running; nothing was done on anyone's behalf: "
        "the deadline moves by {length}, to {deadline}.",
        **values,
    )


def move(
    store: Store, gc: GameClock, now: datetime, outage: Outage, poster: notify.Poster
) -> GameClock:
    """Move the game's deadline by the outage's length and announce it (in one transaction,
    only while the deadline is still the one seen); the clock as it is afterwards."""
    planned = _plan(store, gc, now, outage)
    if planned is None:
        return gc
    with store.engine.begin() as conn:
        return _move_in(conn, planned, now, outage, poster)


Planned = tuple[GameClock, list[Outgoing]]  # a clock to move, and its notice


def _plan(store: Store, gc: GameClock, now: datetime, outage: Outage) -> Planned | None:
    """The notice of a move, read before the move's transaction (None: no deadline)."""
    if gc.deadline_at is None:
        return None
    standing = notify.standing(store, gc.name)
    said = text(standing, outage, gc.deadline_at, now)
    return gc, notify.outgoings(store, gc.name, said, standing.players())


def _move_in(
    conn: Connection, planned: Planned, now: datetime, outage: Outage, poster: notify.Poster
) -> GameClock:
    """The move on the locked game row, in the caller's transaction."""
    gc, outs = planned
    start, end = outage
    old = gc.deadline_at
    assert old is not None  # _plan planned no move without one
    at = old + (end - start)
    fresh = view(sql.read(conn, gc.name, lock=True))
    if fresh.deadline_at != old:
        return fresh
    poster.emit(conn, gc.name, outs, f"outage:{gc.name}:{start.isoformat()}")
    memo = {"for": fresh.armed_for, "outage": start.isoformat()}
    sent = clock.sent_for(fresh, at, now, fresh.sent)
    clock.save(conn, fresh, {"deadline_at": at, "sent": sent}, memo=memo, now=now)
    log.info(
        "game=%s deadline=%s moved_for_outage_s=%d",
        gc.name,
        at.isoformat(),
        (end - start).total_seconds(),
    )
    return fresh


# -- the catch-up: every covered deadline, a bounded batch per transaction
BATCH = 200  # games moved per transaction
PAGE = 500  # clocks read per query


class Halt(Protocol):
    def is_set(self) -> bool: ...


def catch_up(
    store: Store,
    found: Outage,
    now: datetime,
    poster: notify.Poster,
    *,
    grace: timedelta = GRACE,
    batch: int = BATCH,
    stop: Halt | None = None,
    between: Callable[[int], None] | None = None,
) -> bool:
    """Move every deadline the outage covers, in game-name order, up to `batch` games per
    transaction; True when every game was seen, False when `stop` was set first (checked
    between games while a batch's notices are read, and between batches; a batch whose
    transaction began is finished). Each batch's transaction also records, in the outage's
    row, the last game it reached: a catch-up cut short (a stop, a crash) continues after it at
    the next pass, so no game is moved twice even if its clock was armed again meanwhile, and
    the deadlines not yet moved stay covered (never executed: the heartbeat is written only
    after the catch-up). between(k): called after the k-th batch committed (tests stop there)."""
    start = found[0].isoformat()
    recorded = sql.outage(store) or {}
    after = recorded.get("through") if recorded.get("from") == start else None
    done = 0
    planned: list[Planned] = []
    for page in sql.armed_pages(store, PAGE, after):
        for row in page:
            if stop is not None and stop.is_set():
                return False
            gc = view(row)
            if _moves(gc, found, grace):
                try:
                    one = _plan(store, gc, now, found)
                except Exception:  # as a pass does with a game that fails: told, passed over
                    log.exception("game=%s outage move failed; its deadline is not moved", gc.name)
                    one = None
                if one is not None:
                    planned.append(one)
            if len(planned) >= batch:
                done += 1
                _commit(store, planned, found, row.name, now, poster, done)
                planned = []
                if between is not None:
                    between(done)
                if stop is not None and stop.is_set():
                    return False
            after = row.name
    if planned:
        done += 1
        _commit(store, planned, found, after, now, poster, done)
        if between is not None:
            between(done)
    log.info("outage=caught-up from=%s batches=%d", start, done)
    return True


def _moves(gc: GameClock, found: Outage, grace: timedelta) -> bool:
    """Whether the catch-up moves this clock: running, not paused by a moderator (the pass
    stops that clock instead), and covered by the outage."""
    return gc.running() and not gc.paused and covers(gc, found, grace)


def _commit(
    store: Store,
    planned: list[Planned],
    found: Outage,
    through: str | None,
    now: datetime,
    poster: notify.Poster,
    number: int,
) -> None:
    """One batch: its moves and how far the catch-up reached, in one transaction."""
    with store.engine.begin() as conn:
        for one in planned:
            try:
                _move_in(conn, one, now, found, poster)
            except GameNotFound:  # deleted since its notice was read
                continue
        value = {"from": found[0].isoformat(), "to": found[1].isoformat(), "through": through}
        sql.put_state(conn, sql.OUTAGE_KEY, json.dumps(value), now)
    log.info("outage=batch number=%d moved=%d through=%s", number, len(planned), through)


__all__ = [
    "BATCH",
    "GRACE",
    "OUTAGE_AFTER",
    "Halt",
    "Outage",
    "catch_up",
    "covers",
    "detect",
    "heartbeat",
    "last_heartbeat",
    "move",
    "text",
]

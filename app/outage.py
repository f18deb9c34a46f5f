"""Outages: the heartbeat, and deadlines moved (never executed) for the time the service was down.

The scheduler writes the heartbeat at the end of every pass. A heartbeat older than
`OUTAGE_AFTER` at a pass means the service was down from the heartbeat until now: that outage is
recorded the first time it is seen (a crash while it is handled never changes its length), and
every deadline still running when the service went down (within `GRACE` before the heartbeat)
moves by its length, once (the game's memo records the outage), announced in every chat of the
game; nothing is done on anyone's behalf.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from adjudicator.core.i18n import t
from app import clock, notify
from app.clock import GameClock, When
from app.durations import format_deadline, format_duration, now_of
from storage import Store
from storage import clocks as sql

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
    """Whether this running deadline is moved for the outage (and was not moved for it yet)."""
    start = outage[0]
    return (
        gc.deadline_at is not None
        and gc.deadline_at > start - grace
        and gc.memo.get("outage") != start.isoformat()
    )


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
    start, end = outage
    old = gc.deadline_at
    if old is None:
        return gc
    at = old + (end - start)
    standing = notify.standing(store, gc.name)
    outs = notify.outgoings(store, gc.name, text(standing, outage, old, now), standing.players())
    with clock.locked(store, gc.name) as (conn, fresh):
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


__all__ = [
    "GRACE",
    "OUTAGE_AFTER",
    "Outage",
    "covers",
    "detect",
    "heartbeat",
    "last_heartbeat",
    "move",
    "text",
]

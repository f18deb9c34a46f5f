"""Everything due at a time: the one idempotent function the scheduler calls.

    posted = adjudicate_due(store, now)

In one pass at `now` (the scheduler runs it every 30 s, at the exact next due time, and once at
startup; a second pass at the same time does nothing):
- an outage (the heartbeat older than `OUTAGE_AFTER`) moves the running deadlines by its length,
  announced, never executed, in bounded batches (app/outage.py `catch_up`); then the heartbeat;
- a game a moderator paused stops its clock at the time of the pause;
- reminders (24 h and 1 h before, per game), each once (app/reminders.py);
- a passed deadline gives the default through the one path of every change:
  `submit(core, game, Actor.system(), "default", key=f"deadline:{game}:{deadline ISO}",
  now=now, deadline_at=deadline, expect=<the situation key it was armed for>)`. submit applies
  it, re-arms the clock and writes the after-phase post (with what was done on the player's
  behalf) in the same transaction; "deadline-stale" (the game moved on first)
  re-arms for the current situation, "paused" stops the clock, any other refusal is told to the
  moderators and stops the clock.

The clocks are read a page at a time, never all at once. A `stop` event (the scheduler's, set
when the service stops) is checked between games and between the outage's batches: the pass
returns at once, and the next pass (or start) continues where it stopped.

The notices go to every chat bound to the game (app/notify.py), written with the change that
makes them stale, keyed, so a crash in between repeats nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from adjudicator.core.i18n import t
from app import clock, notify, outage, reminders
from app import post_queue as posts
from app.clock import GameClock, When
from app.context import Actor, Core
from app.durations import hours, now_of
from app.messages import Outgoing
from app.outage import GRACE, OUTAGE_AFTER
from app.replies import Reply
from app.submit import submit
from storage import Store
from storage import clocks as sql

log = logging.getLogger(__name__)

Post = notify.Emit  # post(game, outgoings, key): a hook instead of the outbox (tests)


def deadline_key(game: str, deadline: datetime) -> str:
    """The idempotency key of the default of the deadline due at `deadline`."""
    return f"deadline:{game}:{deadline.isoformat()}"


def adjudicate_due(
    store: Store,
    now: When,
    *,
    core: Core | None = None,
    post: Post | None = None,
    outage_after: timedelta = OUTAGE_AFTER,
    grace: timedelta = GRACE,
    stop: outage.Halt | None = None,
    batch: int | None = None,
    between: Callable[[int], None] | None = None,
) -> list[Outgoing]:
    """Do everything due at `now` (a datetime or a clock) and return what was posted: the
    notices, and the posts the defaults' submits wrote. Writes the heartbeat once the outage
    (if any) is caught up.

    core: the application core the defaults are submitted with (its seeds; default: the
    store's, with the production seeds). post(game, outgoings, key): instead of writing the
    notices to the outbox, hand every batch of the pass to this hook (the defaults' posts too,
    which submit has written already). stop (a threading.Event): checked between games and
    between the outage's batches; once set the pass returns what it posted so far and the next
    pass continues (an outage cut short is not over: no heartbeat is written). batch: the
    outage's moves per transaction (default outage.BATCH); between(k): called after its k-th batch (tests)."""
    at = now_of(now)
    core = core or Core(store)
    poster = notify.Poster(at, post)
    found = outage.detect(store, at, outage_after)
    if found is not None:
        finished = outage.catch_up(
            store,
            found,
            at,
            poster,
            grace=grace,
            batch=batch or outage.BATCH,
            stop=stop,
            between=between,
        )
        if not finished:
            poster.done()
            return poster.posted
    outage.heartbeat(store, at)  # the outage is over: from here a pass cut short is no outage
    for page in sql.armed_pages(store):
        for row in page:
            if stop is not None and stop.is_set():
                poster.done()
                return poster.posted
            gc = clock.view(row)
            try:
                _adjudicate_game(core, gc, at, poster)
            except Exception:
                log.exception(
                    "game=%s deadline processing failed; retried at the next tick", gc.name
                )
    poster.done()
    return poster.posted


def next_due(store: Store, stop: outage.Halt | None = None) -> datetime | None:
    """The next time something is due (a deadline or a reminder not yet sent), as
    app.clock.next_due, reading the clocks a page at a time (None once `stop` is set)."""
    soonest: datetime | None = None
    for page in sql.armed_pages(store):
        if stop is not None and stop.is_set():
            return None
        for row in page:
            gc = clock.view(row)
            at = gc.deadline_at
            if at is None or not gc.running():
                continue
            times = [at, *(at - hours(h) for h in gc.reminder_hours if h not in gc.sent)]
            first = min(times)
            soonest = first if soonest is None or first < soonest else soonest
    return soonest


def _adjudicate_game(
    core: Core,
    gc: GameClock,
    now: datetime,
    poster: notify.Poster,
) -> None:
    store = core.store
    if gc.paused and not gc.clock_paused:  # paused by a moderator, not yet seen by the clock
        clock.pause_clock(store, gc.name, _paused_at(store, gc.name, now))
        return
    if not gc.running():
        return
    if gc.deadline_at is not None and gc.deadline_at <= now:
        _default(core, gc, now, poster)
    else:
        reminders.remind(store, gc, now, poster)


def _paused_at(store: Store, name: str, now: datetime) -> datetime:
    """When a moderator paused the game: the time of the last `pause` row of its log."""
    for row in reversed(store.log(name, 50)):
        if row.kind == "moderation" and row.payload.get("action") == "pause":
            return min(now, datetime.fromisoformat(row.created_at))
    return now


def _default(core: Core, gc: GameClock, now: datetime, poster: notify.Poster) -> None:
    """The default of a passed deadline, through submit (see the module doc)."""
    store, deadline = core.store, gc.deadline_at
    if deadline is None:
        return
    key = deadline_key(gc.name, deadline)
    done = submit(
        core,
        gc.name,
        Actor.system(),
        "default",
        key=key,
        now=now,
        deadline_at=deadline,
        expect=gc.armed_for,
    )
    reply = done.replies[0] if done.replies else None
    if reply is None or not reply.ok:
        _not_applied(store, gc, now, key, reply, poster)
        return
    # submit re-armed the clock in its transaction; this only catches up a default applied
    # before without its re-arm (idempotent otherwise)
    clock.rearm(store, gc.name, notify.standing(store, gc.name).situation, now)
    outs = [r.outgoing for r in posts.rows(store, game=gc.name, key_prefix=key)]
    poster.report(gc.name, outs, key)
    log.info(
        "game=%s deadline=%s default=applied log_index=%s duplicate=%s",
        gc.name,
        deadline.isoformat(),
        reply.log_index,
        reply.duplicate,
    )


def _not_applied(
    store: Store,
    gc: GameClock,
    now: datetime,
    key: str,
    reply: Reply | None,
    poster: notify.Poster,
) -> None:
    code = (reply.error or {}).get("code") if reply is not None else None
    deadline = gc.deadline_at
    if code == "deadline-stale":  # a player acted first: the game moved on
        log.info("game=%s deadline=%s stale: default not applied", gc.name, deadline)
        clock.rearm(store, gc.name, notify.standing(store, gc.name).situation, now)
        return
    if code == "paused":
        clock.pause_clock(store, gc.name, now)
        return
    why = reply.reply if reply is not None else t("no answer")
    standing = notify.standing(store, gc.name)
    text = t(
        "The deadline for {who} passed, but its default could not be applied: "
        "{why}\nThe clock is stopped; a moderator should look at the game.",
        who=standing.movers(),
        why=why,
    )
    outs = notify.outgoings(store, gc.name, text, standing.record.moderators)
    with clock.locked(store, gc.name) as (conn, fresh):
        if fresh.deadline_at != deadline:
            return
        poster.emit(conn, gc.name, outs, f"{key}:refused")
        clock.save(conn, fresh, dict(clock.CLEARED), memo={"for": None}, now=now)
    log.error("game=%s deadline=%s default refused: %s", gc.name, deadline, why)


__all__ = ["GRACE", "OUTAGE_AFTER", "Post", "adjudicate_due", "deadline_key", "next_due"]

"""Reminders before a deadline: each once, the most urgent one due (never a burst of stale
ones), to every chat of the game, pinging the players to move; and, to the players who asked
for them (`remind on`), privately: "your move" once per situation, and each reminder before a
deadline (app/move_reminders.py).

The reminder's post and its mark as sent are written in one transaction, on the locked game row,
and only while the deadline is still the one reminded of.
"""

from __future__ import annotations

import logging
from datetime import datetime

from adjudicator.core.i18n import t, tn
from app import clock, move_reminders, notify
from app.clock import GameClock
from app.durations import format_deadline, format_duration, hours
from storage import Store

log = logging.getLogger(__name__)


def due_hours(gc: GameClock, now: datetime) -> float | None:
    """The most urgent reminder due and not sent (hours before the deadline), or None."""
    if gc.deadline_at is None:
        return None
    deadline = gc.deadline_at
    due = [h for h in gc.reminder_hours if h not in gc.sent and deadline - hours(h) <= now]
    return min(due) if due else None


def text(standing: notify.Standing, deadline: datetime, now: datetime) -> str:
    """ "Reminder: Red has 24 h left to finish the ... phase of turn 1. Deadline ..." """
    situation = standing.situation
    if situation.pending:
        what = t("to decide: {prompt}", prompt=situation.pending[0].prompt)
    elif situation.turn is not None:
        what = t(
            "to finish the {phase} phase of turn {turn}",
            phase=situation.phase_said,
            turn=situation.turn,
        )
    else:
        what = t("to finish {label}", label=situation.label)
    return tn(
        "Reminder: {who} has {left} left {what}. Deadline {deadline}; then the default is "
        "applied on {who}'s behalf.",
        "Reminder: {who} have {left} left {what}. Deadline {deadline}; then the default is "
        "applied on {who}'s behalf.",
        max(1, len(situation.to_move)),
        who=standing.movers(),
        left=format_duration(deadline - now),
        what=what,
        deadline=format_deadline(deadline, now),
    )


def key_of(game: str, deadline: datetime, h: float) -> str:
    return f"reminder:{game}:{deadline.isoformat()}:{h:g}"


def remind(store: Store, gc: GameClock, now: datetime, poster: notify.Poster) -> None:
    """Post the reminder due now, if one is (see the module doc)."""
    try:
        move_reminders.your_move(store, gc, now, poster)
    except Exception:  # a private nicety: never the deadline's reminder for it
        log.exception("game=%s private move reminders failed; retried at the next tick", gc.name)
    h = due_hours(gc, now)
    if h is None or gc.deadline_at is None:
        return
    deadline = gc.deadline_at
    standing = notify.standing(store, gc.name)
    outs = notify.outgoings(store, gc.name, text(standing, deadline, now), standing.players())
    with clock.locked(store, gc.name) as (conn, fresh):
        if fresh.deadline_at != deadline or not fresh.running() or h in fresh.sent:
            return  # changed meanwhile: the next pass looks again
        poster.emit(conn, gc.name, outs, key_of(gc.name, deadline, h))
        for user, dm in move_reminders.near(store, conn, standing, deadline, now):
            poster.emit(conn, gc.name, dm, f"{key_of(gc.name, deadline, h)}:dm:{user}")
        sent = clock.sorted_hours([*fresh.sent, *(x for x in fresh.reminder_hours if x >= h)])
        clock.save(conn, fresh, {"sent": sent}, now=now)
    log.info("game=%s reminder_h=%g deadline=%s", gc.name, h, deadline.isoformat())


__all__ = ["due_hours", "key_of", "remind", "text"]

"""Reminders by private message, for the players who ask for them (`remind on`): "your move in
<game>" when the game starts waiting for his side, and "<time> left" with each of the game's
reminders before a deadline (app/reminders.py).

Both go through the outbox (app/notify.Poster: a private message waits while the platform
refuses it, and keeps the order of the player's private chat), written in one transaction with
what makes them stale: "your move" with the record of the situation told (storage/
move_reminders.py: once per situation and player, also after a restart), a deadline's with the
reminder marked sent. They say only what every chat of the game is told: the game, the side,
the phase and the deadline, never what only a side sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from sqlalchemy.engine import Connection

from adjudicator.core.i18n import t
from app import clock, identities, notify
from app.clock import GameClock
from app.durations import format_deadline, format_duration
from app.messages import Outgoing
from storage import Store, chat_store
from storage import move_reminders as rows


def recipients(
    store: Store, seats: Mapping[str, str | None], sides: Iterable[str], opted: set[str]
) -> list[tuple[str, str]]:
    """(side, its player) for the sides whose player (or an account linked with him) asked for
    reminders, one per player."""
    found: list[tuple[str, str]] = []
    for side in sides:
        user = seats.get(side)
        taken = {u for _, u in found}
        if user and user not in taken and set(identities.accounts(store, user)) & opted:
            found.append((side, user))
    return found


def dm(conn: Connection, game: str, user: str, text: str) -> list[Outgoing]:
    """A private message to the player, on the first of his accounts whose platform has a chat
    of the game (where the notice goes if the private message cannot)."""
    chats = chat_store.bindings(conn, game)
    for account in [user, *identities.partners(conn, user)]:
        platform, _, user_id = account.partition(":")
        here = [c for p, c in chats if p == platform]
        if user_id and here:
            return [Outgoing(platform, here[0], text, user_id=user_id, private=True)]
    return []


def your_move(store: Store, gc: GameClock, now: datetime, poster: notify.Poster) -> None:
    """Tell each opted-in player whose side the game waits for, once per situation."""
    opted = rows.opted_in(store)
    if not opted or gc.deadline_at is None:
        return
    seats = rows.seats(store, gc.name)
    if not any(set(identities.accounts(store, u)) & opted for u in seats.values() if u):
        return  # (the cheap test first: no player of this game asked)
    standing = notify.standing(store, gc.name)
    here = standing.situation
    told = recipients(store, standing.record.seats, here.to_move, opted)
    if not told or here.over:
        return
    with clock.locked(store, gc.name) as (conn, fresh):
        if fresh.armed_for not in (None, here.key) or fresh.deadline_at is None:
            return  # the game moved on meanwhile: the next pass looks again
        for side, user in told:
            if rows.last_told(conn, gc.name, user) == here.key:
                continue
            text = t(
                "**{game}**: your move ({side}), {label}. Deadline {deadline}. "
                "(`remind off` stops these messages.)",
                game=gc.name,
                side=standing.side_name(side),
                label=here.label,
                deadline=format_deadline(fresh.deadline_at, now),
            )
            key = f"move:{gc.name}:{here.key}:{user}"
            poster.emit(conn, gc.name, dm(conn, gc.name, user, text), key)
            rows.mark_told(conn, gc.name, user, here.key, now=now)


def near(
    store: Store, conn: Connection, standing: notify.Standing, deadline: datetime, now: datetime
) -> list[tuple[str, list[Outgoing]]]:
    """With a reminder before a deadline: (player, his private message) for each opted-in
    player the game waits for; written by the caller with the reminder."""
    opted = rows.opted_in(conn)
    if not opted:
        return []
    game, here = standing.record.name, standing.situation
    found = []
    for side, user in recipients(store, standing.record.seats, here.to_move, opted):
        text = t(
            "**{game}**: {left} left for your move ({side}), {label}. Deadline {deadline}.",
            game=game,
            left=format_duration(deadline - now),
            side=standing.side_name(side),
            label=here.label,
            deadline=format_deadline(deadline, now),
        )
        found.append((user, dm(conn, game, user, text)))
    return found


__all__ = ["dm", "near", "recipients", "your_move"]

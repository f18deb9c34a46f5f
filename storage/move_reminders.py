"""Reminders by private message, by player: who asked for them (`remind on`: a row of
`move_reminder`), and per game and player the last situation he was reminded of
(`move_reminder_sent`), written in the transaction that writes the reminder into the outbox, so
that one situation is told once, across restarts (the outbox's own dedupe keys go when its sent
rows are purged: this row stays).

The tables come from migration 0007; they are Core tables on a MetaData of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Column, MetaData, String, Table, and_, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlmodel.sql.sqltypes import UTCDateTime

from storage.chat_bindings import reading
from storage.models import Game, Seat, table
from storage.store import Store

_GAMES, _SEATS = table(Game), table(Seat)

metadata = MetaData()
OPTED = Table(
    "move_reminder",
    metadata,
    Column("user", String, primary_key=True),  # "platform:id"
    Column("since", UTCDateTime(), nullable=False),
)
SENT = Table(
    "move_reminder_sent",
    metadata,
    Column("game", String, primary_key=True),
    Column("user", String, primary_key=True),  # the account the reminder went to
    Column("situation", String, nullable=False),  # the situation key last reminded of
    Column("sent_at", UTCDateTime(), nullable=False),
)


def set_on(store: Store, user: str, on: bool, *, now: datetime) -> bool:
    """Turn a player's reminders on or off; whether that changed anything."""
    with store.engine.begin() as conn:
        if not on:
            return bool(conn.execute(delete(OPTED).where(OPTED.c.user == user)).rowcount)
        if conn.execute(select(OPTED.c.user).where(OPTED.c.user == user)).first():
            return False
        try:
            with conn.begin_nested():
                conn.execute(insert(OPTED).values(user=user, since=now))
        except IntegrityError:  # turned on meanwhile
            return False
        return True


def opted_in(source: Store | Connection, users: Iterable[str] | None = None) -> set[str]:
    """Which of these users asked for reminders (None: every one who did)."""
    q = select(OPTED.c.user)
    wanted = None if users is None else [u for u in users if u]
    if wanted is not None:
        if not wanted:
            return set()
        q = q.where(OPTED.c.user.in_(wanted))
    with reading(source) as conn:
        return set(conn.execute(q).scalars())


def last_told(conn: Connection, game: str, user: str) -> str | None:
    """The situation key the player was last reminded of in the game (None: never)."""
    q = select(SENT.c.situation).where(and_(SENT.c.game == game, SENT.c.user == user))
    found: str | None = conn.execute(q).scalar()
    return found


def mark_told(conn: Connection, game: str, user: str, situation: str, *, now: datetime) -> None:
    """Record, in the caller's transaction, that the player was reminded of `situation`."""
    where = and_(SENT.c.game == game, SENT.c.user == user)
    done = conn.execute(update(SENT).where(where).values(situation=situation, sent_at=now))
    if not done.rowcount:
        conn.execute(insert(SENT).values(game=game, user=user, situation=situation, sent_at=now))


def seats(source: Store | Connection, game: str) -> dict[str, str | None]:
    """side -> the user seated there (None: free), read without loading the game."""
    q = (
        select(_SEATS.c.side, _SEATS.c.user)
        .join(_GAMES, _GAMES.c.id == _SEATS.c.game_id)
        .where(_GAMES.c.name == game)
    )
    with reading(source) as conn:
        return {r.side: r.user for r in conn.execute(q)}


__all__ = ["OPTED", "SENT", "last_told", "mark_told", "opted_in", "seats", "set_on"]

"""Functions on a Store's engine for the chat tables (storage/chat_models.py): link codes, users,
the service state, and (from storage/chat_bindings.py) which chat hosts which game.

Each function is one short transaction of its own (writes take SQLite's write lock at BEGIN, as
every write of the Store does), except those taking a `conn`: they run inside the caller's.
Games are named, not numbered, here. Times are aware UTC and always passed in (`now`), so a test
clock drives them.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage import clocks as _clocks
from storage import raw_posts, raw_sql
from storage.chat_bindings import (
    ChatBound,
    ChatStoreError,
    bind,
    bind_in,
    binding,
    binding_key,
    bindings,
    migrate_chat,
    platform_chats,
    reading,
    unbind,
)
from storage.chat_models import ChatUser, LinkCode, ServiceState, game_clock
from storage.models import Game as _Game
from storage.models import Moderator, Seat, aware, table
from storage.store import Store
from texts.i18n import t

LINK = table(LinkCode)
STATE = table(ServiceState)
USERS = table(ChatUser)
SEATS = table(Seat)
MODERATORS = table(Moderator)
GAMES = table(_Game)

LINK_TTL = timedelta(hours=24)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud, typed by hand
CODE_LENGTH = 8


class BadLinkCode(ChatStoreError):
    pass


# -- link codes
def new_link_code(
    store: Store, game: str, *, now: datetime, key: str | None = None, ttl: timedelta = LINK_TTL
) -> tuple[str, datetime]:
    """A fresh one-time code binding another chat to `game`: (code, expires_at). The same `key`
    (a redelivered `link`) gets the same code back."""
    with store.engine.begin() as conn:
        if key is not None:
            row = conn.execute(
                select(LINK.c.code, LINK.c.expires_at).where(LINK.c.created_key == key)
            ).first()
            if row is not None:
                return row.code, aware(row.expires_at)
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(LINK).values(
                            code=code,
                            game=game,
                            created_at=now,
                            expires_at=now + ttl,
                            created_key=key,
                        )
                    )
            except IntegrityError:  # a code taken (31^8: practically never) or the key raced
                if key is not None:
                    row = conn.execute(
                        select(LINK.c.code, LINK.c.expires_at).where(LINK.c.created_key == key)
                    ).first()
                    if row is not None:
                        return row.code, aware(row.expires_at)
                continue
            return code, now + ttl


def normalise_code(code: str) -> str:
    return code.strip().upper().replace("-", "").replace(" ", "")


def _code_problem(row: Any, code: str, platform: str, chat_id: str, now: datetime) -> str | None:
    if row is None:
        return t(
            "unknown code {code}: no game handed out that link code; ask for a new one with `link`",
            code=repr(code[:12]),
        )
    if row.used_at is not None and (row.used_platform, row.used_chat_id) != (platform, chat_id):
        return t("the link code {code} was used already: ask for a new one", code=code)
    if row.used_at is None and aware(row.expires_at) <= now:
        return t("the link code {code} has expired: ask for a new one with `link`", code=code)
    return None


def link_code_problem(
    store: Store, code: str, platform: str, chat_id: str, *, now: datetime
) -> str | None:
    """Why `code` cannot be redeemed in this chat (unknown, used elsewhere, expired), or None."""
    code = normalise_code(code)
    with store.reader.connect() as conn:
        row = conn.execute(select(LINK).where(LINK.c.code == code)).first()
    return _code_problem(row, code, platform, chat_id, now)


def redeem_link_code(
    store: Store, code: str, platform: str, chat_id: str, *, now: datetime, key: str | None = None
) -> str:
    """Bind the chat to the code's game, using the code up (one transaction); the game's name.

    BadLinkCode: unknown, expired or used (by another chat); ChatBound: this chat hosts a game.
    The same chat redeeming its own code again (a redelivery) gets the game again."""
    code = normalise_code(code)
    with store.engine.begin() as conn:
        row = conn.execute(select(LINK).where(LINK.c.code == code)).first()
        problem = _code_problem(row, code, platform, chat_id, now)
        if problem is not None or row is None:  # (no row has a problem: an unknown code)
            raise BadLinkCode(problem)
        if row.used_at is not None:
            return str(row.game)  # this chat redeemed it: a redelivery
        used = conn.execute(
            update(LINK)
            .where(LINK.c.code == code, LINK.c.used_at.is_(None))
            .values(used_at=now, used_platform=platform, used_chat_id=chat_id)
        ).rowcount
        if used != 1:
            raise BadLinkCode(
                t("the link code {code} was used already: ask for a new one", code=code)
            )
        bind_in(conn, platform, chat_id, row.game, key=key, now=now)
        return str(row.game)


# -- users
def remember_user(store: Store, user: str, name: str, *, now: datetime) -> None:
    """Record the display name of "platform:id" (an upsert; a lost race is harmless)."""
    platform = user.partition(":")[0]
    with store.engine.begin() as conn:
        done = conn.execute(
            update(USERS).where(USERS.c.user == user).values(name=name, updated_at=now)
        ).rowcount
        if not done:
            try:
                with conn.begin_nested():
                    conn.execute(
                        insert(USERS).values(
                            user=user, platform=platform, name=name, updated_at=now
                        )
                    )
            except IntegrityError:
                pass


_NAMES = select(USERS.c.user, USERS.c.name).where(USERS.c.user.in_(bindparam("us", expanding=True)))


def user_names(source: Store | Connection, users: list[str]) -> dict[str, str]:
    if not users:
        return {}
    users = list(
        users
    )  # (raw_posts.USER_NAMES: _NAMES on the driver's connection; every post asks)
    with reading(source) as conn:
        return dict(raw_sql.rows(conn, raw_posts.USER_NAMES.expand(len(users)), users))


def user_display_names(store: Store) -> dict[str, str]:
    """user -> display name, of every user seen (for suggestions)."""
    with store.reader.connect() as conn:
        return {r.user: r.name for r in conn.execute(select(USERS.c.user, USERS.c.name))}


def seated_games(store: Store, user: str) -> list[str]:
    """The names of the games where `user` holds a seat."""
    q = (
        select(GAMES.c.name)
        .join(SEATS, SEATS.c.game_id == GAMES.c.id)
        .where(SEATS.c.user == user)
        .distinct()
    )
    with store.reader.connect() as conn:
        return sorted(conn.execute(q).scalars())


def seated_marks(store: Store, users: list[str]) -> dict[str, tuple[int, Any]]:
    """{game: (its row's version, when it was started)} of the games where one of `users`
    holds a seat, in one statement: what tells whether a game changed since it was last looked
    at (the version moves with every change of the game row; a chat's `start` does not move it)."""
    clock = game_clock.alias("clock")  # the same rows: the columns the ORM's table lacks
    q = (
        select(clock.c.name, GAMES.c.version, clock.c.started_at)
        .join(GAMES, GAMES.c.id == clock.c.id)
        .join(SEATS, SEATS.c.game_id == clock.c.id)
        .where(SEATS.c.user.in_(users))
        .distinct()
    )
    with store.reader.connect() as conn:
        return {name: (version, started) for name, version, started in conn.execute(q)}


def moderated_games(store: Store, user: str) -> list[str]:
    """The names of the games `user` moderates."""
    q = (
        select(GAMES.c.name)
        .join(MODERATORS, MODERATORS.c.game_id == GAMES.c.id)
        .where(MODERATORS.c.user == user)
        .distinct()
    )
    with store.reader.connect() as conn:
        return sorted(conn.execute(q).scalars())


def game_names(store: Store, prefix: str) -> list[str]:
    with store.reader.connect() as conn:
        q = select(GAMES.c.name).where(GAMES.c.name.like(prefix.replace("%", "") + "%"))
        return list(conn.execute(q).scalars())


# -- the game's clock: its SQL lives in storage/clocks.py (these names stay for the callers)
GameClock = _clocks.ClockRow
CLOCK_COLUMNS = _clocks.CLOCK_COLUMNS
advance_image_index = _clocks.advance_image_index


def clock(store: Store, game: str, conn: Connection | None = None) -> GameClock:
    if conn is not None:
        return _clocks.read(conn, game)
    return _clocks.load(store, game)


def clocks(store: Store, *, armed: bool = True) -> list[GameClock]:
    """The clocks of every game (armed=True: only those with a deadline or a paused clock)."""
    return _clocks.armed(store) if armed else _clocks.every(store)


def set_clock(
    store: Store,
    game: str,
    *,
    expect: dict[str, Any] | None = None,
    conn: Connection | None = None,
    **values: Any,
) -> bool:
    """Write clock columns of a game (see storage.clocks.write)."""
    if conn is not None:
        return _clocks.write(conn, game, expect=expect, **values)
    return _clocks.save(store, game, expect=expect, **values)


# -- service state (the heartbeat)
def get_state(source: Store | Connection, key: str) -> tuple[str, datetime] | None:
    with reading(source) as conn:
        q = select(STATE.c.value, STATE.c.updated_at).where(STATE.c.key == key)
        row = conn.execute(q).first()
    return None if row is None else (row.value, aware(row.updated_at))


def set_state(store: Store, key: str, value: str, *, now: datetime) -> None:
    with store.engine.begin() as conn:
        done = conn.execute(
            update(STATE).where(STATE.c.key == key).values(value=value, updated_at=now)
        ).rowcount
        if not done:
            try:
                with conn.begin_nested():
                    conn.execute(insert(STATE).values(key=key, value=value, updated_at=now))
            except IntegrityError:
                conn.execute(
                    update(STATE).where(STATE.c.key == key).values(value=value, updated_at=now)
                )


__all__ = [
    "BadLinkCode",
    "ChatBound",
    "ChatStoreError",
    "GameClock",
    "advance_image_index",
    "bind",
    "binding",
    "binding_key",
    "bindings",
    "clock",
    "clocks",
    "game_names",
    "get_state",
    "link_code_problem",
    "migrate_chat",
    "moderated_games",
    "new_link_code",
    "normalise_code",
    "platform_chats",
    "reading",
    "redeem_link_code",
    "remember_user",
    "seated_games",
    "set_clock",
    "set_state",
    "unbind",
    "user_display_names",
    "user_names",
]

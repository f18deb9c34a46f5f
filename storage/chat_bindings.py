"""Functions on a Store's engine for the chat bindings (which chat hosts which game) and the
helpers the chat tables' modules share (storage/chat_store.py re-exports every name).

Each function is one short transaction of its own (writes take SQLite's write lock at BEGIN, as
every write of the Store does), except those taking a `conn` or a `source` that is one: they run
inside the caller's. Times are aware UTC and always passed in (`now`).
"""

from __future__ import annotations

import contextlib
from datetime import datetime

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage import raw_sql, tx_rows
from storage.chat_models import ChatBinding, OutboxRow
from storage.errors import TextError
from storage.models import table
from storage.store import Store
from texts.i18n import t

BINDING = table(ChatBinding)
OUTBOX = table(OutboxRow)


class ChatStoreError(TextError):
    """A refusal to tell the user (the message says why; str() gives that text itself)."""


class ChatBound(ChatStoreError):
    def __init__(self, platform: str, chat_id: str, game: str):
        super().__init__(t("this chat already hosts the game {game}", game=repr(game)))
        self.platform, self.chat_id, self.game = platform, chat_id, game


def binding(store: Store, platform: str, chat_id: str) -> str | None:
    """The game this chat hosts, or None."""
    with store.reader.connect() as conn:
        return conn.execute(tx_rows.CHAT_GAME, {"platform": platform, "chat_id": chat_id}).scalar()


def binding_key(store: Store, platform: str, chat_id: str) -> tuple[str, str | None] | None:
    """(game, the key of the message that bound the chat), or None."""
    q = select(BINDING.c.game, BINDING.c.created_key).where(
        BINDING.c.platform == platform, BINDING.c.chat_id == chat_id
    )
    with store.reader.connect() as conn:
        row = conn.execute(q).first()
    return None if row is None else (row.game, row.created_key)


def bindings(source: Store | Connection, game: str) -> list[tuple[str, str]]:
    """Every chat hosting the game, as (platform, chat_id), in the order they were bound."""
    with reading(source) as conn:
        return [(p, c) for p, c in raw_sql.rows(conn, raw_sql.GAME_CHATS, (game,))]  # GAME_CHATS


def platform_chats(source: Store | Connection, platform: str) -> list[tuple[str, str]]:
    """Every chat of one platform hosting a game, as (chat_id, game), in the order bound."""
    q = select(BINDING.c.chat_id, BINDING.c.game).where(BINDING.c.platform == platform)
    with reading(source) as conn:
        return [(r.chat_id, r.game) for r in conn.execute(q.order_by(BINDING.c.id))]


def bind(
    store: Store,
    platform: str,
    chat_id: str,
    game: str,
    *,
    key: str | None = None,
    now: datetime,
    replace: str | None = None,
) -> None:
    """Make the chat host `game`. A chat hosting another game raises ChatBound, unless that game
    is `replace` (a finished game a `new` replaces)."""
    with store.engine.begin() as conn:
        bind_in(conn, platform, chat_id, game, key=key, now=now, replace=replace)


def bind_in(
    conn: Connection,
    platform: str,
    chat_id: str,
    game: str,
    *,
    key: str | None,
    now: datetime,
    replace: str | None = None,
) -> None:
    """bind() inside the caller's transaction (redeeming a link code binds with it)."""
    where = and_(BINDING.c.platform == platform, BINDING.c.chat_id == chat_id)
    current = conn.execute(select(BINDING.c.game).where(where)).scalar()
    if current is not None:
        if current != replace:
            raise ChatBound(platform, chat_id, current)
        conn.execute(delete(BINDING).where(where))
    try:
        with conn.begin_nested():
            conn.execute(
                insert(BINDING).values(
                    platform=platform, chat_id=chat_id, game=game, created_at=now, created_key=key
                )
            )
    except IntegrityError as exc:  # bound by someone else meanwhile
        other = conn.execute(select(BINDING.c.game).where(where)).scalar()
        raise ChatBound(platform, chat_id, other or "?") from exc


def unbind(store: Store, platform: str, chat_id: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            delete(BINDING).where(BINDING.c.platform == platform, BINDING.c.chat_id == chat_id)
        )


def migrate_chat(store: Store, platform: str, old: str, new: str) -> bool:
    """A chat got a new id (a Telegram group upgraded to a supergroup): its binding and its
    pending outbox rows follow it. True if a binding moved."""
    with store.engine.begin() as conn:
        where_new = and_(BINDING.c.platform == platform, BINDING.c.chat_id == new)
        where_old = and_(BINDING.c.platform == platform, BINDING.c.chat_id == old)
        moved = False
        if conn.execute(select(BINDING.c.id).where(where_new)).first() is None:
            moved = conn.execute(update(BINDING).where(where_old).values(chat_id=new)).rowcount > 0
        else:  # the new id is bound already (told twice): the old one goes
            conn.execute(delete(BINDING).where(where_old))
        pending = and_(OUTBOX.c.platform == platform, OUTBOX.c.status == "pending")
        conn.execute(
            update(OUTBOX).where(pending, OUTBOX.c.chat_id == old).values(chat_id=new, lane=new)
        )
        conn.execute(
            update(OUTBOX)
            .where(pending, OUTBOX.c.fallback_chat_id == old)
            .values(fallback_chat_id=new)
        )
    return moved


def reading(source: Store | Connection) -> contextlib.AbstractContextManager[Connection]:
    """A connection to read with: the caller's own (inside its transaction), or a reader's."""
    if isinstance(source, Connection):
        return contextlib.nullcontext(source)
    return source.reader.connect()


__all__ = [
    "ChatBound",
    "ChatStoreError",
    "bind",
    "bind_in",
    "binding",
    "binding_key",
    "bindings",
    "migrate_chat",
    "platform_chats",
    "reading",
    "unbind",
]

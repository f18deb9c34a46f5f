"""The queue of posts: posts (app.messages.Outgoing) written as outbox rows, and read back (the
application's side of the outbox; bots/delivery.py sends them).

    write_in(tx.conn, game, outs, key=key, now=now)   # inside a game's transaction
    write(store, game, outs, key=key, now=now)        # in a transaction of its own

The SQL is storage/outbox.py; the sender is bots/delivery.py. A lane is what keeps the order of
rows: one chat, or one user's private chat ("dm:<user>"). With a `key` (the idempotency key of
what caused the posts) every row gets a deterministic dedupe key (see `dedupe_keys`), so writing
the same posts again adds nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from app.languages import said_all
from app.messages import Outgoing
from storage import Store
from storage import outbox as rows_sql

Hold = Mapping[tuple[str, str], timedelta]  # (platform, lane) -> the wait before a first try


def lane_of(out: Outgoing) -> str:
    """What orders the rows: the chat posted to, or "dm:<user>" for a private message."""
    if out.private and out.user_id:
        return f"dm:{out.user_id}"
    if out.chat_id is None:
        raise ValueError("an Outgoing needs chat_id, or private=True with user_id")
    return out.chat_id


def dedupe_keys(key: str | None, outgoings: Iterable[Outgoing]) -> list[str | None]:
    """Deterministic keys: f"{key}|{platform}|{lane}|{n}" (n counts the rows of one lane), so a
    redelivered message gives the same keys even if the game got another chat meanwhile."""
    if key is None:
        return [None for _ in outgoings]
    seen: dict[tuple[str, str], int] = {}
    keys: list[str | None] = []
    for out in outgoings:
        lane = (out.platform, lane_of(out))
        n = seen.get(lane, 0)
        seen[lane] = n + 1
        keys.append(f"{key}|{out.platform}|{lane[1]}|{n}")
    return keys


def rows_of(
    outgoings: Iterable[Outgoing],
    *,
    key: str | None,
    now: datetime,
    hold: Hold | None = None,
    render: dict[str, Any] | None = None,
    fallback_chat_id: str | None = None,
    as_document: bool = False,
) -> list[dict[str, Any]]:
    """The outbox rows of these posts. render: the map spec of the rows that carry the map
    (every Outgoing without an image and without a spec of its own)."""
    outs = list(outgoings)
    rows = []
    for out, dedupe_key in zip(outs, dedupe_keys(key, outs), strict=True):
        lane = lane_of(out)
        spec = out.render if out.render is not None else (render if out.image is None else None)
        rows.append(
            {
                "platform": out.platform,
                "chat_id": out.chat_id,
                "user_id": out.user_id,
                "lane": lane,
                "text": out.text or "",
                "image": out.image,
                "image_name": out.image_name,
                "private": out.private,
                "mentions": list(out.mentions),
                "reply_to": out.reply_to,
                "fallback_chat_id": fallback_chat_id,
                "as_document": as_document or out.document,
                "render": spec,
                "asks": out.asks,
                "next_attempt_at": now + (hold or {}).get((out.platform, lane), timedelta()),
                "dedupe_key": dedupe_key,
            }
        )
    return rows


def write_in(
    conn: Connection,
    game: str | None,
    outgoings: Iterable[Outgoing],
    *,
    key: str | None,
    now: datetime,
    image_index: int | None = None,
    hold: Hold | None = None,
    render: dict[str, Any] | None = None,
    fallback_chat_id: str | None = None,
    as_document: bool = False,
) -> list[int]:
    """Write the posts as pending rows inside the caller's transaction; the ids written. The
    senders of this process learn of them from `storage.outbox.notify()`, which the caller calls
    once its transaction has committed. Each post is said in the language of where it goes, now
    (app.languages)."""
    rows = rows_of(
        said_all(conn, list(outgoings)),
        key=key,
        now=now,
        hold=hold,
        render=render,
        fallback_chat_id=fallback_chat_id,
        as_document=as_document,
    )
    return rows_sql.insert_rows(conn, game, rows, now, image_index)


def write(
    store: Store,
    game: str | None,
    outgoings: Iterable[Outgoing],
    *,
    key: str | None = None,
    now: datetime,
    image_index: int | None = None,
    hold: Hold | None = None,
    render: dict[str, Any] | None = None,
    fallback_chat_id: str | None = None,
    as_document: bool = False,
) -> list[int]:
    """`write_in` in a transaction of its own; the senders of this process are woken."""
    with store.engine.begin() as conn:
        ids = write_in(
            conn,
            game,
            outgoings,
            key=key,
            now=now,
            image_index=image_index,
            hold=hold,
            render=render,
            fallback_chat_id=fallback_chat_id,
            as_document=as_document,
        )
    if ids:
        rows_sql.notify()
    return ids


# -- reading (tests, operators, the scheduler's report of what it posted)
@dataclass
class Row:
    id: int
    game: str | None
    lane: str
    status: str
    attempts: int
    waits: int
    parts_sent: int
    next_attempt_at: datetime
    sent_at: datetime | None
    last_error: str | None
    dedupe_key: str | None
    outgoing: Outgoing
    fallback_chat_id: str | None = None
    as_document: bool = False


def outgoing_of(row: dict[str, Any]) -> Outgoing:
    return Outgoing(
        platform=row["platform"],
        chat_id=row["chat_id"],
        text=row["text"],
        user_id=row["user_id"],
        image=row["image"],
        image_name=row["image_name"],
        private=row["private"],
        mentions=list(row["mentions"]),
        reply_to=row["reply_to"],
        render=row["render"],
        document=bool(row["as_document"]),
        asks=row.get("asks"),
    )


def row_of(row: dict[str, Any]) -> Row:
    return Row(
        row["id"],
        row["game"],
        row["lane"],
        row["status"],
        row["attempts"],
        row["waits"],
        row["parts_sent"],
        row["next_attempt_at"],
        row["sent_at"],
        row["last_error"],
        row["dedupe_key"],
        outgoing_of(row),
        row["fallback_chat_id"],
        row["as_document"],
    )


def rows(
    store: Store,
    *,
    game: str | None = None,
    status: str | None = None,
    key_prefix: str | None = None,
) -> list[Row]:
    """The rows in id order (of a game, of a status, whose dedupe keys start with key_prefix)."""
    found = rows_sql.select_rows(store, game=game, status=status, key_prefix=key_prefix)
    return [row_of(r) for r in found]


__all__ = [
    "Hold",
    "Row",
    "dedupe_keys",
    "lane_of",
    "outgoing_of",
    "row_of",
    "rows",
    "rows_of",
    "write",
    "write_in",
]

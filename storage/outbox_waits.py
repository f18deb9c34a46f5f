"""The SQL of the outbox's waits on a chat, and of the host's `pbem outbox`.

- a chat that refuses the bot for a permission, or that the bot was removed from (service_state
  "chat-refused:<platform>:<chat>", JSON {"row": the first refused row, "tries", "since",
  "kicked"}): `chat_refusal`, `note_chat_refusal` (kept from the first refusal on, `tries`
  counted, `kicked` the latest), `clear_chat_refusal`;
- `wake_lane`: a lane's pending rows due now (the bot is back in the chat), `fail_lane`: a lane's
  unclaimed pending rows given up;
- `requeue`: failed rows (or waiting ones) pending and due again, their counts reset (the
  host's re-send).

The columns of the outbox express every wait (next_attempt_at, status, last_error): no schema of
its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, delete, select, update

from storage.outbox import FAILED, OUTBOX, PENDING, STATE, _json, count_failure, notify
from storage.store import Store

CHAT_REFUSED = "chat-refused"


def chat_refused_key(platform: str, chat: str) -> str:
    return f"{CHAT_REFUSED}:{platform}:{chat}"


def chat_refusal(store: Store, platform: str, chat: str) -> dict[str, Any] | None:
    """The refusal state of a chat ({"row", "tries", "since", "kicked"}), or None."""
    with store.reader.connect() as conn:
        key = chat_refused_key(platform, chat)
        value = conn.execute(select(STATE.c.value).where(STATE.c.key == key)).scalar()
    state = None if value is None else _json(value, None)
    return state if isinstance(state, dict) else None


def note_chat_refusal(
    store: Store, platform: str, chat: str, *, row_id: int, now: datetime, kicked: bool
) -> dict[str, Any]:
    """Record one more refused send to the chat; the state (a new one, with `row_id` as its
    first refused row, if none was recorded)."""
    first = {"row": row_id, "tries": 0, "since": now.isoformat()}
    return count_failure(store, chat_refused_key(platform, chat), first, now, kicked=kicked)


def clear_chat_refusal(store: Store, platform: str, chat: str) -> bool:
    """The chat takes the bot's posts again: forget its refusal (True if one was recorded)."""
    with store.engine.begin() as conn:
        stmt = delete(STATE).where(STATE.c.key == chat_refused_key(platform, chat))
        return bool(conn.execute(stmt).rowcount)


def _lane(platform: str, lane: str) -> ColumnElement[bool]:
    return (OUTBOX.c.platform == platform) & (OUTBOX.c.lane == lane) & (OUTBOX.c.status == PENDING)


def wake_lane(store: Store, platform: str, lane: str, now: datetime) -> int:
    """Make the lane's pending rows due now; how many (the senders are told)."""
    with store.engine.begin() as conn:
        stmt = update(OUTBOX).where(_lane(platform, lane)).values(next_attempt_at=now)
        count = conn.execute(stmt).rowcount
    if count:
        notify()
    return count


def fail_lane(store: Store, platform: str, lane: str, error: str) -> int:
    """Give up the lane's pending rows no sender holds; how many."""
    with store.engine.begin() as conn:
        stmt = (
            update(OUTBOX)
            .where(_lane(platform, lane), OUTBOX.c.claimed_by.is_(None))
            .values(status=FAILED, last_error=error[:2000])
        )
        return conn.execute(stmt).rowcount


def requeue(store: Store, ids: Iterable[int] | None, now: datetime) -> list[int]:
    """The failed or pending rows `ids` (None: every one) pending and due now, attempts and
    waits reset; the ids requeued (sent rows are never sent again)."""
    where: ColumnElement[bool] = OUTBOX.c.status.in_((FAILED, PENDING))
    if ids is not None:
        where = where & OUTBOX.c.id.in_(list(ids))
    with store.engine.begin() as conn:
        found = list(conn.execute(select(OUTBOX.c.id).where(where).order_by(OUTBOX.c.id)).scalars())
        if found:
            conn.execute(
                update(OUTBOX)
                .where(OUTBOX.c.id.in_(found))
                .values(status=PENDING, attempts=0, waits=0, next_attempt_at=now)
            )
    if found:
        notify()
    return found


__all__ = [
    "CHAT_REFUSED",
    "chat_refusal",
    "chat_refused_key",
    "clear_chat_refusal",
    "fail_lane",
    "note_chat_refusal",
    "requeue",
    "wake_lane",
]

"""Outbox rows that wait for their user, made due at once when he is seen again.

A private message the platform refused because of the user's settings waits in the outbox with a
long backoff (bots/dm_wait.py). When the user writes again, or (Telegram) starts or unblocks the
bot, `retry_waiting` makes his waiting rows due now, and the sender tries them at its next step.
The SQL of the outbox itself is storage/outbox.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import select, update

from storage.outbox import OUTBOX, PENDING
from storage.store import Store


def retry_waiting(
    store: Store, lanes: Iterable[tuple[str, str]], now: datetime, error_prefix: str
) -> list[int]:
    """The pending rows of these (platform, lane)s that wait after an error whose text starts
    with `error_prefix`, made due `now` unless a sender holds them; their ids. It reads first:
    nothing is written when nothing waits (the common case: a user whose messages all went)."""
    wanted = set(lanes)
    if not wanted:
        return []
    cols = (OUTBOX.c.id, OUTBOX.c.platform, OUTBOX.c.lane, OUTBOX.c.next_attempt_at)
    free = (OUTBOX.c.status == PENDING, OUTBOX.c.claimed_by.is_(None))
    q = select(*cols).where(
        *free,
        OUTBOX.c.lane.in_(sorted({lane for _, lane in wanted})),
        OUTBOX.c.last_error.startswith(error_prefix, autoescape=True),
    )
    with store.reader.connect() as conn:
        found = conn.execute(q).all()
    ids = [r.id for r in found if (r.platform, r.lane) in wanted and _later(r.next_attempt_at, now)]
    if ids:
        with store.engine.begin() as conn:
            stmt = update(OUTBOX).where(OUTBOX.c.id.in_(ids), *free).values(next_attempt_at=now)
            conn.execute(stmt)
    return ids


def _later(when: datetime, now: datetime) -> bool:
    return (when if when.utcoffset() is not None else when.replace(tzinfo=UTC)) > now


__all__ = ["retry_waiting"]

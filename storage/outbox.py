"""The SQL of the persisted outbox (the `outbox` table, storage/chat_models.py `OutboxRow`).

Rows go in as plain dicts of the table's columns and come out as dicts (or `Head`s); `mentions`
is a list and `render` a dict (both stored as JSON text), datetimes are aware UTC. Nothing here
knows a platform, a message class or a game system: the application core turns its posts into
rows (app/post_queue.py), the sender (bots/delivery.py) decides what to send when.

- writing: `insert_rows(conn, ...)` inside the caller's transaction (a game's change writes its
  posts with its log rows), `write_rows(store, ...)` in a transaction of its own; rows whose
  `dedupe_key` exists already are skipped (idempotent writes).
- the sender's SQL: `lane_heads`, `claim`, `finish` (sent, failed or a retry planned), `renew`,
  `release`, `store_image` (a map drawn when its row is sent, kept for a retry).
- reading: `select_rows`, `known_keys`; `purge_sent`.
- a user whose private messages the platform refuses (service_state "dm-failed:<platform>:<user>",
  JSON {"row": the first failing row, "tries", "since", "how"}): `dm_failure`,
  `note_dm_failure` (kept from the first failure on, `tries` counted), `clear_dm_failure`.
- `listen(fn)` / `notify()`: the callbacks of this process told that rows were committed (the
  senders' wake-up). `write_rows` notifies; after `insert_rows` the caller notifies once its
  transaction has committed.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Row, and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection

from storage import raw_posts, raw_sql
from storage.chat_models import OutboxRow, ServiceState
from storage.clocks import advance_image_index
from storage.models import aware, table
from storage.store import Store

log = logging.getLogger(__name__)

OUTBOX = table(OutboxRow)
STATE = table(ServiceState)
DM_FAILED = "dm-failed"
PENDING, SENT, FAILED = "pending", "sent", "failed"
_JSON = {
    "mentions": "[]",
    "render": None,
    "asks": None,
}  # columns holding JSON text (and their empty value)
_DEFAULTS: dict[str, Any] = {
    "game": None,
    "chat_id": None,
    "user_id": None,
    "text": "",
    "image": None,
    "image_name": "map.png",
    "private": False,
    "mentions": [],
    "reply_to": None,
    "fallback_chat_id": None,
    "as_document": False,
    "render": None,
    "asks": None,
    "dedupe_key": None,
}


class Head(NamedTuple):
    """The first pending row of a lane, as the sender sees it."""

    id: int
    platform: str
    lane: str
    next_attempt_at: datetime
    claimed_by: str | None
    claimed_until: datetime | None


# -- writing (on the DB-API connection of the caller's transaction: storage/raw_sql.py, whose
# OUTBOX_KEYS and insert_outbox are _EXISTING and _INSERT; tests/test_raw_sql.py compares them)
_EXISTING = select(OUTBOX.c.dedupe_key).where(
    OUTBOX.c.dedupe_key.in_(bindparam("keys", expanding=True))
)
_INSERT = insert(OUTBOX)


def insert_rows(
    conn: Connection,
    game: str | None,
    rows: list[dict[str, Any]],
    now: datetime,
    image_index: int | None = None,
) -> list[int]:
    """Write pending rows in order inside the caller's transaction; the ids written (rows whose
    dedupe_key exists already are skipped). A row needs `platform` and `lane`; `next_attempt_at`
    defaults to `now`. image_index: the log row the posted map shows (the game's
    `last_image_index` moves to it, forward only)."""
    wanted = [r["dedupe_key"] for r in rows if r.get("dedupe_key") is not None]
    existing: set[str] = set()
    if wanted:
        stmt = raw_posts.OUTBOX_KEYS.expand(len(wanted))
        existing = {key for (key,) in raw_sql.rows(conn, stmt, wanted)}
    ids: list[int] = []
    dialect = conn.dialect
    for row in rows:
        if row.get("dedupe_key") is not None and row["dedupe_key"] in existing:
            continue
        stmt, params = raw_posts.insert_outbox(dialect, _values(game, row, now))
        ids.append(raw_posts.inserted_id(conn, stmt, params))
    if image_index is not None and game is not None:
        advance_image_index(conn, game, image_index)
    return ids


def write_rows(
    store: Store,
    game: str | None,
    rows: list[dict[str, Any]],
    now: datetime,
    image_index: int | None = None,
) -> list[int]:
    """`insert_rows` in a transaction of its own; the listeners are told once it committed."""
    with store.engine.begin() as conn:
        ids = insert_rows(conn, game, rows, now, image_index)
    if ids:
        notify()
    return ids


def _values(game: str | None, row: dict[str, Any], now: datetime) -> dict[str, Any]:
    values = {**_DEFAULTS, "game": game, **row}
    for column, empty in _JSON.items():
        value = values[column]
        values[column] = empty if value is None else json.dumps(value)
    values["text"] = values["text"] or ""
    if values.get("next_attempt_at") is None:
        values["next_attempt_at"] = now
    return values | {
        "created_at": now,
        "status": PENDING,
        "attempts": 0,
        "waits": 0,
        "parts_sent": 0,
    }


# -- reading
def known_keys(store: Store, keys: Iterable[str]) -> set[str]:
    """Which of these dedupe keys are written already."""
    keys = list(keys)
    if not keys:
        return set()
    with store.reader.connect() as conn:
        q = select(OUTBOX.c.dedupe_key).where(OUTBOX.c.dedupe_key.in_(keys))
        return set(conn.execute(q).scalars())


def select_rows(
    store: Store,
    *,
    game: str | None = None,
    status: str | None = None,
    key_prefix: str | None = None,
) -> list[dict[str, Any]]:
    """Rows in id order (of a game, a status, with dedupe keys starting with key_prefix)."""
    q = select(OUTBOX)
    if game is not None:
        q = q.where(OUTBOX.c.game == game)
    if status is not None:
        q = q.where(OUTBOX.c.status == status)
    if key_prefix is not None:
        q = q.where(OUTBOX.c.dedupe_key.startswith(key_prefix, autoescape=True))
    with store.reader.connect() as conn:
        return [_decoded(r) for r in conn.execute(q.order_by(OUTBOX.c.id))]


def _decoded(r: Row[*tuple[Any, ...]]) -> dict[str, Any]:
    row = dict(r._mapping)
    row["mentions"] = _json(row.get("mentions"), [])
    row["render"] = _json(row.get("render"), None)
    row["asks"] = _json(row.get("asks"), None)
    for column in ("next_attempt_at", "sent_at", "created_at", "claimed_until"):
        row[column] = aware(row.get(column))
    return row


def _json(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        log.warning("an outbox row holds text that is not JSON: %.60r", text)
        return default


def purge_sent(store: Store, *, before: datetime) -> int:
    """Delete the rows sent before `before` (their images take room); the count deleted."""
    with store.engine.begin() as conn:
        stmt = delete(OUTBOX).where(OUTBOX.c.status == SENT, OUTBOX.c.sent_at < before)
        return conn.execute(stmt).rowcount


# -- the sender's SQL
def lane_heads(store: Store, platforms: Iterable[str]) -> list[Head]:
    """The first pending row of each (platform, lane) of these platforms, in id order."""
    platforms = list(platforms)
    if not platforms:
        return []
    mine = and_(OUTBOX.c.status == PENDING, OUTBOX.c.platform.in_(platforms))
    first = select(func.min(OUTBOX.c.id)).where(mine).group_by(OUTBOX.c.platform, OUTBOX.c.lane)
    cols = [
        OUTBOX.c.id,
        OUTBOX.c.platform,
        OUTBOX.c.lane,
        OUTBOX.c.next_attempt_at,
        OUTBOX.c.claimed_by,
        OUTBOX.c.claimed_until,
    ]
    with store.reader.connect() as conn:
        found = conn.execute(select(*cols).where(OUTBOX.c.id.in_(first))).all()
    return sorted((_head(h) for h in found), key=lambda h: h.id)


def _head(h: Row[*tuple[Any, ...]]) -> Head:
    next_at: datetime = h.next_attempt_at  # (not null)
    return Head(h.id, h.platform, h.lane, aware(next_at), h.claimed_by, aware(h.claimed_until))


def claim(
    store: Store, row_id: int, owner: str, now: datetime, lease: timedelta
) -> dict[str, Any] | None:
    """Claim a pending row for `owner` until now + lease (unless another owner's lease runs);
    the row, or None if it was not claimed."""
    free = or_(
        OUTBOX.c.claimed_by.is_(None),
        OUTBOX.c.claimed_by == owner,
        OUTBOX.c.claimed_until.is_(None),
        OUTBOX.c.claimed_until < now,
    )
    with store.engine.begin() as conn:
        got = conn.execute(
            update(OUTBOX)
            .where(OUTBOX.c.id == row_id, OUTBOX.c.status == PENDING, free)
            .values(claimed_by=owner, claimed_until=now + lease)
        ).rowcount
        if got != 1:
            return None
        return _decoded(conn.execute(select(OUTBOX).where(OUTBOX.c.id == row_id)).one())


def finish(store: Store, row_id: int, owner: str, **values: Any) -> bool:
    """Record an attempt's outcome on a row `owner` holds and drop the claim: status=SENT with
    sent_at, status=FAILED with last_error, or a retry (attempts / waits, next_attempt_at).
    False if the claim was lost meanwhile."""
    values |= {"claimed_by": None, "claimed_until": None}
    with store.engine.begin() as conn:
        done = conn.execute(
            update(OUTBOX)
            .where(OUTBOX.c.id == row_id, OUTBOX.c.claimed_by == owner)
            .values(**values)
        ).rowcount
    return bool(done)


def renew(store: Store, ids: list[int], owner: str, until: datetime) -> None:
    """Extend the leases of the rows `owner` is sending."""
    if not ids:
        return
    with store.engine.begin() as conn:
        conn.execute(
            update(OUTBOX)
            .where(OUTBOX.c.id.in_(ids), OUTBOX.c.claimed_by == owner)
            .values(claimed_until=until)
        )


def release(store: Store, ids: list[int], owner: str) -> None:
    """Give up `owner`'s claims on these rows (they stay pending)."""
    if not ids:
        return
    with store.engine.begin() as conn:
        conn.execute(
            update(OUTBOX)
            .where(OUTBOX.c.id.in_(ids), OUTBOX.c.claimed_by == owner)
            .values(claimed_by=None, claimed_until=None)
        )


def store_image(store: Store, row_id: int, owner: str, image: bytes) -> bool:
    """Keep the map drawn for a row `owner` holds, so that a retry sends it without drawing."""
    with store.engine.begin() as conn:
        done = conn.execute(
            update(OUTBOX)
            .where(OUTBOX.c.id == row_id, OUTBOX.c.claimed_by == owner)
            .values(image=image)
        ).rowcount
    return bool(done)


# -- users whose private messages cannot be delivered
def dm_failed_key(platform: str, user: str) -> str:
    return f"{DM_FAILED}:{platform}:{user}"


def dm_failure(store: Store, platform: str, user: str) -> dict[str, Any] | None:
    """The failing state of a user's private messages ({"row", "tries", "since", "how"}), or
    None when they are not known to fail."""
    key = dm_failed_key(platform, user)
    with store.reader.connect() as conn:
        value = conn.execute(select(STATE.c.value).where(STATE.c.key == key)).scalar()
    state = None if value is None else _json(value, None)
    return state if isinstance(state, dict) else None


def note_dm_failure(
    store: Store, platform: str, user: str, *, row_id: int, now: datetime, how: str = ""
) -> dict[str, Any]:
    """Record one more refused private message to the user; the state (a new one, with `row_id`
    as its first failing row, if none was recorded)."""
    first = {"row": row_id, "tries": 0, "since": now.isoformat(), "how": how}
    return count_failure(store, dm_failed_key(platform, user), first, now)


def count_failure(
    store: Store, key: str, first: dict[str, Any], now: datetime, **latest: Any
) -> dict[str, Any]:
    """One more failure under `key` in the service's state: its count `tries` raised (from
    `first` when none was recorded), `latest` written over it; the state."""
    with store.engine.begin() as conn:
        value = conn.execute(select(STATE.c.value).where(STATE.c.key == key)).scalar()
        state = _json(value, None) if value is not None else None
        if not isinstance(state, dict):
            state = first
        state["tries"] = int(state.get("tries", 0)) + 1
        state.update(latest)
        text = json.dumps(state)
        if value is not None:
            conn.execute(update(STATE).where(STATE.c.key == key).values(value=text, updated_at=now))
        else:
            conn.execute(insert(STATE).values(key=key, value=text, updated_at=now))
    return state


def clear_dm_failure(store: Store, platform: str, user: str) -> bool:
    """A private message to the user was delivered: forget the failing state (True if any)."""
    with store.engine.begin() as conn:
        stmt = delete(STATE).where(STATE.c.key == dm_failed_key(platform, user))
        return bool(conn.execute(stmt).rowcount)


# -- telling this process that rows were written
_listeners: list[Callable[[], None]] = []


def listen(fn: Callable[[], None]) -> None:
    """Call fn (from any thread) whenever rows were committed in this process."""
    if fn not in _listeners:
        _listeners.append(fn)


def notify() -> None:
    """Rows were committed: tell the listeners (a failing one is logged, never raised)."""
    for fn in tuple(_listeners):
        try:
            fn()
        except Exception:  # a listener must not fail the write
            log.exception("an outbox listener failed")


__all__ = [
    "FAILED",
    "OUTBOX",
    "PENDING",
    "SENT",
    "Head",
    "claim",
    "clear_dm_failure",
    "dm_failed_key",
    "dm_failure",
    "finish",
    "insert_rows",
    "known_keys",
    "lane_heads",
    "listen",
    "note_dm_failure",
    "notify",
    "purge_sent",
    "release",
    "renew",
    "select_rows",
    "store_image",
    "write_rows",
]

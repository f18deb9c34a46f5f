"""The log rows the trust checks read (storage/trust.py), and the statements that read them.

Read through Core into `Entry` objects (read only, no ORM instance), kept per transaction in the
session's info by index and by hash. `prefetch` reads every row the checks before a write need
in one statement; the others read what a later check asks for.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import BindParameter, and_, bindparam, or_, select
from sqlmodel import Session

from storage import raw_sql
from storage.errors import Tampered
from storage.models import GameColumns, LogEntry, table
from storage.tx_rows import TX

TAIL = 8  # the rows read with the head in one statement (most checks find their row there)

LOG = table(LogEntry)
_COLUMNS = tuple(c.name for c in LOG.c)


class Entry:
    """A stored log row as the checks read it: read only, through Core (no ORM instance)."""

    __slots__ = _COLUMNS
    id: int
    game_id: int
    index: int
    kind: str
    actor: str
    user: str | None
    text: str
    payload: str
    key: str | None
    created_at: str
    prev_hash: str
    hash: str
    epoch: int | None
    secret: str | None

    def __init__(self, values: Iterable[Any]) -> None:
        for name, value in zip(_COLUMNS, values, strict=True):
            setattr(self, name, value)


def entries(s: Session, q: Any, params: dict[str, Any] | None = None) -> list[Entry]:
    """The log rows a Core statement selects (rows this transaction queued are written first)."""
    tx = s.info.get(TX)
    if tx is not None:
        tx.flush()
    elif s.new:
        s.flush()
    return [Entry(r) for r in s.connection().execute(q, params or {})]


def raw_entries(s: Session, stmt: raw_sql.Statement, params: Sequence[Any]) -> list[Entry]:
    """`entries` of a statement of storage/raw_sql.py, run on the driver's connection."""
    tx = s.info.get(TX)
    if tx is not None:
        tx.flush()
    elif s.new:
        s.flush()
    return [Entry(r) for r in raw_sql.rows(s.connection(), stmt, params)]


_G: BindParameter[int] = bindparam("g")
_AT = select(LOG).where(LOG.c.game_id == _G, LOG.c.index == bindparam("index"))
_WITH_HASHES = select(LOG).where(
    LOG.c.game_id == _G, LOG.c.hash.in_(bindparam("hashes", expanding=True))
)
_AT_INDICES = select(LOG).where(
    LOG.c.game_id == _G, LOG.c.index.in_(bindparam("indices", expanding=True))
)
SALTS = (
    select(LOG)
    .where(LOG.c.game_id == _G, LOG.c.kind == "salt", LOG.c.epoch == bindparam("epoch"))
    .order_by(LOG.c.index)
)
EPOCH = (
    select(LOG)
    .where(LOG.c.game_id == _G, LOG.c.kind == "epoch", LOG.c.epoch == bindparam("epoch"))
    .order_by(LOG.c.index)
    .limit(1)
)
WHOLE = select(LOG).where(LOG.c.game_id == _G).order_by(LOG.c.index)


def cache(s: Session, g: GameColumns) -> dict[Any, Any]:
    """This transaction's rows read for the checks, by index and by hash."""
    known: dict[Any, Any] = s.info.setdefault(("pbem_trust", g.id), {})
    return known


def keep(s: Session, g: GameColumns, found: Iterable[LogEntry | Entry]) -> None:
    known = cache(s, g)
    for e in found:
        known[e.index] = known[e.hash] = e


def tail(s: Session, g: GameColumns) -> dict[int, Entry]:
    """The rows this transaction's checks read, by index (the head and the rows before it)."""
    return {k: e for k, e in cache(s, g).items() if isinstance(k, int)}


def entry_at(s: Session, g: GameColumns, index: int) -> Entry | None:
    known = cache(s, g)
    if index not in known:
        found = entries(s, _AT, {"g": g.id, "index": index})
        if not found:
            return None
        keep(s, g, found)
    hit: Entry = known[index]
    return hit


def fetch(s: Session, g: GameColumns, hashes: Iterable[str]) -> None:
    """The rows with these hashes and the rows after them, into the cache: two statements."""
    known = cache(s, g)
    fetched = known.get("pbem_fetched", ())
    wanted = [h for h in hashes if h and h not in known and h not in fetched]
    if not wanted:
        return
    found = entries(s, _WITH_HASHES, {"g": g.id, "hashes": wanted})
    keep(s, g, found)
    after = [e.index + 1 for e in found if e.index + 1 not in known]
    if after:
        keep(s, g, entries(s, _AT_INDICES, {"g": g.id, "indices": after}))


def _prefetch_query(by_hash: bool, epoch: bool) -> Any:
    t = LOG
    mine = t.c.game_id == bindparam("g")
    near = [t.c.index >= bindparam("from")]
    if by_hash:
        hashes: BindParameter[Any] = bindparam("hashes", expanding=True)
        near.append(t.c.hash.in_(hashes))
        after = select(t.c.index + 1).where(mine, t.c.hash.in_(hashes))
        near.append(t.c.index.in_(after.scalar_subquery()))
    if epoch:
        near.append(and_(t.c.kind == "salt", t.c.epoch == bindparam("epoch")))
    near.append(and_(t.c.kind == "epoch", t.c.epoch.in_(bindparam("epochs", expanding=True))))
    near.append(t.c.kind == "moderation")  # the seats', roles' and identities' rows: few
    return select(t).where(mine, or_(*near)).order_by(t.c.index)


_PREFETCH = {(h, e): _prefetch_query(h, e) for h in (False, True) for e in (False, True)}


def prefetch(
    s: Session, g: GameColumns, hashes: Iterable[str] = (), epochs: Iterable[int] = ()
) -> None:
    """Every row the checks before a write read, in ONE statement, into this transaction's
    cache (it is emptied first): the head and the rows before it, the rows with these hashes
    (the seats' and moderators' source rows, the dice bookkeeping's) and the rows after them
    (their links), the `epoch` rows of the open epoch and of these epochs (the seeds' checks),
    the open epoch's salts, and every `moderation` row (a change's linked identities)."""
    wanted = sorted({h for h in [*hashes, g.epoch_row_hash or ""] if h})
    opened = sorted({k for k in [*epochs, g.epoch] if k})
    params: list[Any] = [g.id, g.head_index - TAIL]
    if wanted:
        params += [*wanted, g.id, *wanted]
    if g.epoch:
        params.append(g.epoch)
    params += opened
    known = cache(s, g)
    known.clear()  # (raw_sql.PREFETCH: _PREFETCH on the driver's connection)
    stmt = raw_sql.PREFETCH[bool(wanted), bool(g.epoch)].expand(len(wanted), len(opened))
    found = raw_entries(s, stmt, params)
    keep(s, g, found)
    for k in opened:
        rows = [e for e in found if e.kind == "epoch" and e.epoch == k]
        known[("epoch", k)] = rows[0] if rows else None
    if g.epoch:
        known[("salts", g.epoch)] = [e for e in found if e.kind == "salt" and e.epoch == g.epoch]
    known[MODERATION] = [e for e in found if e.kind == "moderation"]  # all of them, in order
    known["pbem_fetched"] = set(wanted)


MODERATION = ("kind", "moderation")  # the cache's key of every moderation row (prefetch)


STATE_KINDS = ("setup", "order", "undo", "rewind", "moderation")  # rows that may record a state


def state_entry(s: Session, g: GameColumns) -> Entry | None:
    """The last row that records a state hash: from the rows the head check read with the head
    (an order row is almost always there), else newest first a page at a time (never the whole
    log). A row whose payload is no JSON raises Tampered."""
    known = tail(s, g)
    start = g.head_index
    while start >= 0 and start in known:
        if _records_state(g, known[start]):
            return known[start]
        start -= 1
    page, offset = 16, 0
    while True:
        found = entries(s, _STATE_ROWS, {"g": g.id, "to": start, "n": page, "skip": offset})
        for e in found:
            if _records_state(g, e):
                return e
        if len(found) < page:
            return None
        offset += page
        page = min(page * 4, 1024)


_STATE_ROWS = (
    select(LOG)
    .where(LOG.c.game_id == _G, LOG.c.index <= bindparam("to"), LOG.c.kind.in_(STATE_KINDS))
    .order_by(LOG.c.index.desc())
    .limit(bindparam("n"))
    .offset(bindparam("skip"))
)


def _records_state(g: GameColumns, e: Entry) -> bool:
    if e.kind not in STATE_KINDS:
        return False
    row = entry_row(e)
    if "_error" in row:
        raise Tampered(g.name, {"index": e.index, "problem": row["_error"]})
    return "state_sha256" in row["payload"]


def entry_row(e: LogEntry | Entry) -> dict[str, Any]:
    """A stored row as chained (its payload parsed; `_error` when it is no JSON)."""
    row: dict[str, Any] = {
        "index": e.index,
        "kind": e.kind,
        "actor": e.actor,
        "user": e.user,
        "text": e.text,
        "key": e.key,
        "created_at": e.created_at,
        "prev_hash": e.prev_hash,
        "hash": e.hash,
        "epoch": e.epoch,
    }
    try:
        row["payload"] = json.loads(e.payload)
    except (TypeError, ValueError):
        row["payload"] = e.payload
        row["_error"] = "its payload is not JSON"
    return row

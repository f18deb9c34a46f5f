"""The records a Store hands out (LogRecord, GameRecord) and their conversion from stored rows.

A LogRecord is one row of a game's hash-chained log; `to_dict` is the row as chained, exported and
audited. A GameRecord is one game as read in one snapshot: its row, seats, moderators and log.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from storage import chain
from storage.engine import dump
from storage.models import Game, LogEntry
from storage.trust_rows import Entry

log = logging.getLogger("storage.store")  # the store's logger, as before the split


@dataclass(frozen=True)
class LogRecord:
    index: int
    kind: str
    actor: str
    user: str | None
    text: str
    payload: dict[str, Any]
    key: str | None
    created_at: str  # ISO 8601 UTC, as hashed
    prev_hash: str
    hash: str
    epoch: int | None = None  # not chained
    secret: list[dict[str, Any]] | None = (
        None  # not chained: hidden values and their salts, until the game ends
    )

    @property
    def rolls(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.payload.get("rolls", [])
        return found

    @property
    def events(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.payload.get("events", [])
        return found

    def to_dict(self) -> dict[str, Any]:
        """The row as chained, exported and audited: the chained fields, prev_hash and hash."""
        row = {f: getattr(self, f) for f in chain.CHAINED_FIELDS}
        return row | {"prev_hash": self.prev_hash, "hash": self.hash}


@dataclass(frozen=True)
class GameRecord:
    name: str
    uid: str
    game: str
    scenario_text: str
    sandbox: bool
    created_at: datetime
    version: int
    snapshot: dict[str, Any]
    head_index: int
    head_hash: str
    epoch: int  # the open dice epoch, 0 when none is open
    epoch_turn: int | None
    epoch_commitment: str | None
    epoch_next_n: int
    paused: bool
    paused_why: str | None
    seats: dict[str, str | None] = field(default_factory=dict)
    moderators: tuple[str, ...] = ()
    log: list[LogRecord] = field(default_factory=list)

    @property
    def snapshot_index(self) -> int:
        return self.head_index

    @property
    def salts_open(self) -> bool:
        return self.epoch > 0 and self.epoch_next_n == 1


# -- rows
def loads_column(text_: str | None) -> Any:
    """JSON from a stored column; text that is not JSON (a tampered row) is kept as the string,
    so the audit reports that row instead of the reader crashing."""
    if text_ is None:
        return None
    try:
        return json.loads(text_)
    except ValueError:
        log.warning("a log row holds text that is not JSON: %.60r", text_)
        return text_


def record(r: LogEntry | Entry) -> LogRecord:
    """The LogRecord of a stored log row."""
    return LogRecord(
        r.index,
        r.kind,
        r.actor,
        r.user,
        r.text,
        loads_column(r.payload),
        r.key,
        r.created_at,
        r.prev_hash,
        r.hash,
        r.epoch,
        loads_column(r.secret),
    )


def record_from(
    row: dict[str, Any], prev: str, digest: str, epoch: int | None, secret: object
) -> LogRecord:
    """The LogRecord of a row just written (its chained fields, as hashed)."""
    kept = None if secret is None else json.loads(dump(secret))
    fields = {f: row[f] for f in chain.CHAINED_FIELDS}
    return LogRecord(**fields, prev_hash=prev, hash=digest, epoch=epoch, secret=kept)


def records(s: Session, game_id: int, n: int | None = None) -> list[LogRecord]:
    """A game's log, oldest first; with n, only the last n rows."""
    q = select(LogEntry).where(LogEntry.game_id == game_id)
    if n is not None:
        q = q.order_by(col(LogEntry.index).desc()).limit(max(n, 0))
        rows = list(reversed(s.exec(q).all()))
    else:
        rows = list(s.exec(q.order_by(col(LogEntry.index))).all())
    return [record(r) for r in rows]


def game_record(
    g: Game, seats: dict[str, str | None], mods: tuple[str, ...], entries: list[LogRecord]
) -> GameRecord:
    """The GameRecord of a game row, with its seats, moderators and (read) log rows."""
    return GameRecord(
        name=g.name,
        uid=g.uid,
        game=g.game,
        scenario_text=g.scenario_text,
        sandbox=g.sandbox,
        created_at=g.created_at,
        version=g.version,
        snapshot=json.loads(g.snapshot),
        head_index=g.head_index,
        head_hash=g.head_hash,
        epoch=g.epoch,
        epoch_turn=g.epoch_turn,
        epoch_commitment=g.epoch_commitment,
        epoch_next_n=g.epoch_next_n,
        paused=g.paused,
        paused_why=g.paused_why,
        seats=seats,
        moderators=mods,
        log=entries,
    )

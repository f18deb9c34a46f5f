"""The writes of a change: its log rows and the game row's changed columns in one UPDATE
guarded by its version (Store.transact's GameTx).

The ORM's unit of work cost about half a millisecond per flush on the order path, for two
statements; a Core execute still about four times the CPU of the same SQL on the driver. So the
game row is read (GameRow: its columns as attributes) and written back on the transaction's
DB-API connection (storage/raw_sql.py, its values converted exactly as Core converts them; the
Core statements here are the reference its tests compare with). Its attributes are compared
with the values it was read with, and only the changed ones are written. An UPDATE that finds
the row's version moved (another writer) raises StaleDataError, as the ORM's version counter
did, and the store runs the change again on a fresh read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BindParameter, bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm.exc import StaleDataError

from storage import raw_sql
from storage.models import Game, GameColumns, LogEntry, table

LOG = table(LogEntry)
GAME = table(Game)
_GAME_COLUMNS = tuple(c.name for c in GAME.c if c.name not in ("id", "version"))
_INSERT = insert(LOG)
_UPDATES: dict[tuple[str, ...], Any] = {}  # the changed columns -> their UPDATE, built once


def _update(columns: tuple[str, ...]) -> Any:
    """The version-guarded UPDATE of these columns (bind parameters v_<column>, b_id,
    b_version), built once per set of columns."""
    stmt = _UPDATES.get(columns)
    if stmt is None:
        values: dict[str, BindParameter[Any]] = {c: bindparam(f"v_{c}") for c in columns}
        stmt = (
            update(GAME)
            .where(GAME.c.id == bindparam("b_id"), GAME.c.version == bindparam("b_version"))
            .values(**values, version=bindparam("v_version"))
        )
        _UPDATES[columns] = stmt
    return stmt


class GameRow:
    """The game row of a change, read in Core (no ORM object, no identity map): the columns of
    storage.models.Game as attributes, which the change edits and CoreWrites writes back."""

    id: int | None
    name: str
    uid: str
    game: str
    scenario_text: str
    sandbox: bool
    created_at: datetime
    version: int
    snapshot: str
    head_index: int
    head_hash: str
    epoch: int
    epoch_turn: int | None
    epoch_commitment: str | None
    epoch_next_n: int
    salt_digest: str | None
    paused: bool
    paused_why: str | None
    epoch_row_hash: str | None
    frame_row: int | None
    frame_before: int | None

    def __init__(self, values: Any) -> None:
        self.__dict__.update(values)


_READ = {
    lock: (select(GAME).where(GAME.c.name == bindparam("b_name")))
    if not lock
    else select(GAME).where(GAME.c.name == bindparam("b_name")).with_for_update()
    for lock in (False, True)
}  # built once: every change reads its game


def read_game(conn: Connection, name: str, *, lock: bool) -> GameRow | None:
    """The game row (locked for the transaction where the database locks rows), or None: on
    the driver's connection (storage/raw_sql.py), its columns converted as Core converts them
    (_READ is the same statement in Core)."""
    row = raw_sql.first(conn, raw_sql.READ_GAME[lock], (name,))
    return None if row is None else GameRow(zip(raw_sql.GAME_COLUMNS, row, strict=True))


class CoreWrites:
    """What a change queued and has not yet written: log rows, and the game row's changes."""

    def __init__(self, g: GameColumns) -> None:
        self.g = g
        self.rows: list[dict[str, Any]] = []
        self._stored = self._values()

    def _values(self) -> dict[str, Any]:
        return {c: getattr(self.g, c) for c in _GAME_COLUMNS}

    def queue(self, values: dict[str, Any]) -> None:
        self.rows.append(values)

    def changed(self) -> dict[str, Any]:
        return {c: v for c, v in self._values().items() if v != self._stored[c]}

    def flush(self, conn: Connection) -> None:
        """Write the queued rows, then the game row's changed columns (version guarded), on
        the driver's connection (storage/raw_sql.py; _INSERT and _update are the same
        statements in Core)."""
        if self.rows:
            rows, self.rows = self.rows, []
            raw_sql.run_many(conn, raw_sql.INSERT_LOG, [raw_sql.log_values(r) for r in rows])
        changed = self.changed()
        if not changed:
            return
        g, version = self.g, self.g.version
        stmt, values = raw_sql.update_game(conn.dialect, changed)
        if raw_sql.run(conn, stmt, (*values, version + 1, g.id, version)).rowcount != 1:
            raise StaleDataError(f"game {g.name!r} changed since it was read (version {version})")
        g.version = version + 1
        self._stored.update(changed)


__all__ = ["CoreWrites", "GameRow", "read_game"]

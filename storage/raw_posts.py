"""The statements of a change's posts and clock on the DB-API connection (storage/raw_sql.py
says how, and runs them): the clock's writes and the map's index, the service state's upsert,
the outbox rows and their dedupe keys, the chat users' names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection, Dialect

from storage.chat_models import OutboxRow, ServiceState, game_clock
from storage.models import table
from storage.raw_sql import Processor, Statement, binder, run

ADVANCE_IMAGE = Statement(  # storage/clocks._ADVANCE: parameters index, game, index
    "UPDATE game SET last_image_index = ? WHERE name = ?"
    " AND (last_image_index IS NULL OR last_image_index < ?)"
)

_CLOCK_WRITES: dict[tuple[Any, ...], tuple[Statement, tuple[Processor, ...]]] = {}


def write_clock(
    dialect: Dialect, game: str, values: dict[str, Any], expect: dict[str, Any]
) -> tuple[Statement, list[Any]]:
    """storage/clocks.write's UPDATE of clock columns (values: as stored, JSON dumped), only
    where the row holds `expect` (a None: IS NULL), and its parameters converted as Core
    converts them."""
    nulls = tuple(k for k, v in expect.items() if v is None)
    compared = tuple(k for k, v in expect.items() if v is not None)
    key = (dialect.name, tuple(values), nulls, compared)
    found = _CLOCK_WRITES.get(key)
    if found is None:
        where = ["name = ?", *(f"{k} IS NULL" for k in nulls), *(f"{k} = ?" for k in compared)]
        stmt = Statement(
            "UPDATE game SET "
            + ", ".join(f"{k} = ?" for k in values)
            + " WHERE "
            + " AND ".join(where)
        )
        types = [game_clock.c[k].type for k in values] + [game_clock.c.name.type]
        types += [game_clock.c[k].type for k in compared]
        found = stmt, tuple(binder(dialect, t) for t in types)
        _CLOCK_WRITES[key] = found
    stmt, binds = found
    params = [*values.values(), game, *(expect[k] for k in compared)]
    return stmt, [v if b is None or v is None else b(v) for b, v in zip(binds, params, strict=True)]


STATE = table(ServiceState)
PUT_STATE = Statement(  # storage/clocks.put_state: the upsert of a service_state row
    'INSERT INTO service_state ("key", value, updated_at) VALUES (?, ?, ?)'
    ' ON CONFLICT ("key") DO UPDATE SET value = ?, updated_at = ?'
)


OUTBOX = table(OutboxRow)
OUTBOX_KEYS = Statement(  # storage/outbox._EXISTING: {0} the dedupe keys
    "SELECT dedupe_key FROM outbox WHERE dedupe_key IN ({0})"
)

_OUTBOX_INSERTS: dict[tuple[str, tuple[str, ...]], tuple[Statement, tuple[Processor, ...]]] = {}


def insert_outbox(dialect: Dialect, values: dict[str, Any]) -> tuple[Statement, list[Any]]:
    """storage/outbox._INSERT: the INSERT of an outbox row of these values (those of the
    table's columns, as Core takes them; RETURNING its id on PostgreSQL, SQLite's is the
    cursor's lastrowid: `inserted_id`), and its parameters converted as Core converts them."""
    columns = tuple(c for c in values if c in OUTBOX.c)
    found = _OUTBOX_INSERTS.get((dialect.name, columns))
    if found is None:
        sql = (
            "INSERT INTO outbox ("
            + ", ".join(f'"{c}"' for c in columns)
            + ") VALUES ("
            + ", ".join("?" * len(columns))
            + ")"
        )
        stmt = Statement(sql, postgresql=sql.replace("?", "%s") + " RETURNING id")
        found = stmt, tuple(binder(dialect, OUTBOX.c[c].type) for c in columns)
        _OUTBOX_INSERTS[(dialect.name, columns)] = found
    stmt, binds = found
    params = [values[c] for c in columns]
    return stmt, [v if b is None or v is None else b(v) for b, v in zip(binds, params, strict=True)]


def inserted_id(conn: Connection, stmt: Statement, params: Sequence[Any]) -> int:
    """Run an INSERT of one row (RETURNING its id on PostgreSQL): the id written."""
    cur = run(conn, stmt, params)
    found: int = cur.lastrowid if conn.dialect.name == "sqlite" else cur.fetchone()[0]
    return found


USER_NAMES = Statement(  # storage/chat_store._NAMES: {0} the users
    'SELECT "user", name FROM chat_user WHERE "user" IN ({0})'
)


__all__ = [
    "ADVANCE_IMAGE",
    "OUTBOX_KEYS",
    "PUT_STATE",
    "USER_NAMES",
    "insert_outbox",
    "inserted_id",
    "write_clock",
]

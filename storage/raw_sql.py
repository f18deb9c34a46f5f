"""The order path's hot statements on the DB-API connection of the caller's transaction.

Every order message runs a dozen statements (the game row, the roles and seeds, the head's
rows, the idempotency key, the clock, the log row, the guarded UPDATE, the chat's binding and
languages, the outbox rows its posts write and the user names they show; SQLite's BEGIN).
Executed through SQLAlchemy Core each costs about four times the CPU of the same
SQL on the driver's connection (the compiled cache lookup, the execution context, the result
object), so these run here: the SQL written once (SQLite's `?` parameters; PostgreSQL's are
the same text with `%s`, or its own text where the two differ, FOR UPDATE where Core locked),
on `conn.connection.driver_connection` of the SQLAlchemy Connection whose transaction they
belong to (the transaction SQLAlchemy began: BEGIN IMMEDIATE on SQLite).

Exactly what Core gave back: each result column is converted by its Core type's own result
processor for the dialect (SQLite's 0/1 to bool, its text to datetime), and each parameter by
the bind processor of the column it is compared with or written to. A driver error is raised
as SQLAlchemy's DBAPIError (IntegrityError, OperationalError...), as a Core execute raises it,
so storage.engine.retryable and Store.transact's retries see the same exceptions. The engine's
`before_cursor_execute` listeners hear every statement (tests count statements with them).
tests/test_raw_sql.py (and test_raw_sql_outbox.py, test_raw_sql_begin.py) check each statement
against its Core counterpart on both databases.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.types import TypeEngine

from storage.chat_models import game_clock
from storage.models import Game, table

Processor = Callable[[Any], Any] | None


class Statement:
    """One statement: its SQL per dialect, and the Core types of its result columns.

    `sql` uses `?` parameters and may hold `{0}`, `{1}`... for expanding lists (`expand`);
    `postgresql` is PostgreSQL's own text when it differs from `sql` beyond `?` -> `%s`."""

    __slots__ = ("_expanded", "_procs", "_texts", "sql", "types")

    def __init__(
        self,
        sql: str,
        *,
        postgresql: str | None = None,
        types: Sequence[TypeEngine[Any] | None] = (),
    ) -> None:
        self.sql = sql
        pg = postgresql if postgresql is not None else sql.replace("?", "%s")
        self._texts = {"sqlite": sql, "postgresql": pg}
        self.types = tuple(types)
        self._procs: dict[str, tuple[Processor, ...] | None] = {}
        self._expanded: dict[tuple[int, ...], Statement] = {}

    def text(self, dialect: str) -> str:
        return self._texts[dialect]

    def processors(self, dialect: Dialect) -> tuple[Processor, ...] | None:
        """The result processors of the columns for this dialect (None: no column has one)."""
        try:
            return self._procs[dialect.name]
        except KeyError:
            pass
        procs = tuple(
            None if t is None else t.dialect_impl(dialect).result_processor(dialect, None)
            for t in self.types
        )
        found = procs if any(p is not None for p in procs) else None
        self._procs[dialect.name] = found
        return found

    def expand(self, *counts: int) -> Statement:
        """This statement with its `{i}` lists holding counts[i] parameters each."""
        hit = self._expanded.get(counts)
        if hit is None:
            marks = [marks_of(n) for n in counts]
            hit = Statement(
                self.sql.format(*marks),
                postgresql=self._texts["postgresql"].format(*[m.replace("?", "%s") for m in marks]),
                types=self.types,
            )
            self._expanded[counts] = hit
        return hit


def marks_of(n: int) -> str:
    """The parameters of an IN list of n values (none: NULL, which no value equals)."""
    return ", ".join("?" * n) if n else "NULL"


def run(conn: Connection, stmt: Statement, params: Sequence[Any] = ()) -> Any:
    """Execute on the driver's connection of `conn` (inside its transaction): the cursor."""
    dialect = conn.dialect
    sql = stmt.text(dialect.name)
    if conn._has_events or conn.engine._has_events:
        for fn in conn.dispatch.before_cursor_execute:
            sql, params = fn(conn, None, sql, params, None, False)
    driver = conn.connection.driver_connection
    try:
        return driver.execute(sql, params)  # type: ignore[union-attr]
    except dialect.loaded_dbapi.Error as exc:
        raise _error(dialect, sql, params, exc) from exc


def run_many(conn: Connection, stmt: Statement, rows: Sequence[Sequence[Any]]) -> None:
    """Execute once per row of parameters (an INSERT of several rows)."""
    if len(rows) == 1:
        run(conn, stmt, rows[0])
        return
    dialect = conn.dialect
    sql = stmt.text(dialect.name)
    if conn._has_events or conn.engine._has_events:
        for fn in conn.dispatch.before_cursor_execute:
            sql, rows = fn(conn, None, sql, rows, None, True)
    driver = conn.connection.driver_connection
    try:
        if dialect.name == "sqlite":
            driver.executemany(sql, rows)  # type: ignore[union-attr]
        else:
            with driver.cursor() as cur:  # type: ignore[union-attr]
                cur.executemany(sql, rows)
    except dialect.loaded_dbapi.Error as exc:
        raise _error(dialect, sql, rows, exc) from exc


def _error(dialect: Dialect, sql: str, params: Any, exc: Exception) -> DBAPIError:
    """The driver's error as SQLAlchemy raises it from a Core execute (IntegrityError...)."""
    err = DBAPIError.instance(sql, params, exc, dialect.loaded_dbapi.Error, dialect=dialect)
    return err  # type: ignore[return-value]


def rows(conn: Connection, stmt: Statement, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Every row, each column converted as Core converts it."""
    found = run(conn, stmt, params).fetchall()
    procs = stmt.processors(conn.dialect)
    if procs is None or not found:
        return list(found)
    return [
        tuple(v if p is None or v is None else p(v) for p, v in zip(procs, r, strict=True))
        for r in found
    ]


def first(conn: Connection, stmt: Statement, params: Sequence[Any] = ()) -> tuple[Any, ...] | None:
    """The first row (converted as Core converts it), or None."""
    row = run(conn, stmt, params).fetchone()
    if row is None:
        return None
    procs = stmt.processors(conn.dialect)
    if procs is None:
        return tuple(row)
    return tuple(v if p is None or v is None else p(v) for p, v in zip(procs, row, strict=True))


def scalar(conn: Connection, stmt: Statement, params: Sequence[Any] = ()) -> Any:
    """The first column of the first row, or None."""
    row = first(conn, stmt, params)
    return None if row is None else row[0]


def binder(dialect: Dialect, type_: TypeEngine[Any]) -> Processor:
    """The bind processor Core applies to a value of this type on this dialect (or None)."""
    found: Processor = type_.dialect_impl(dialect).bind_processor(dialect)
    return found


# -- the statements (each checked against its Core counterpart: tests/test_raw_sql.py)
SQLITE_BEGIN = {  # storage/engine._sqlite_begin: a writer's (the write lock at BEGIN), a reader's
    read: Statement("BEGIN" if read else "BEGIN IMMEDIATE") for read in (False, True)
}

GAME = table(Game)
GAME_COLUMNS = tuple(c.name for c in GAME.c)
_GAME_SELECT = "SELECT " + ", ".join(GAME_COLUMNS) + " FROM game WHERE name = ?"
READ_GAME = {  # storage/tx_writes.read_game: the game row (locked on PostgreSQL)
    lock: Statement(
        _GAME_SELECT,
        postgresql=_GAME_SELECT.replace("?", "%s") + (" FOR UPDATE" if lock else ""),
        types=[c.type for c in GAME.c],
    )
    for lock in (False, True)
}

_ROLES = (
    "SELECT 'seat' AS what, seat.id AS n, seat.side AS a, seat.\"user\" AS b, seat.row_hash AS c"
    " FROM seat WHERE seat.game_id = ?"
    " UNION ALL SELECT 'moderator', moderator.id, NULL, moderator.\"user\", moderator.row_hash"
    " FROM moderator WHERE moderator.game_id = ?"
    " UNION ALL SELECT 'secret', dicesecret.epoch, dicesecret.kind, dicesecret.seed, NULL"
    " FROM dicesecret WHERE dicesecret.game_id = ? AND {revealed} ORDER BY what, n"
)
ROLES_AND_SECRETS = Statement(  # storage/tx_rows.ROLES_AND_SECRETS: (what, n, a, b, c)
    _ROLES.format(revealed="dicesecret.revealed = 0"),
    postgresql=_ROLES.format(revealed="NOT dicesecret.revealed").replace("?", "%s"),
)

KEYED = Statement(  # storage/tx_rows.KEYED: the index of the row a key wrote
    'SELECT "index" FROM logentry WHERE game_id = ? AND "key" = ?'
)

LOG_COLUMNS = (
    'id, game_id, "index", kind, actor, "user", text, payload, "key", created_at, prev_hash,'
    " hash, epoch, secret"
)  # storage/trust_rows.Entry's columns, in its order


def _prefetch(by_hash: bool, epoch: bool) -> Statement:
    """storage/trust_rows._PREFETCH: parameters game, from, [hashes, game, hashes], [epoch],
    epochs; lists {0} the hashes, {1} the epochs."""
    near = ['"index" >= ?']
    if by_hash:
        near.append("hash IN ({0})")
        near.append(
            '"index" IN (SELECT "index" + 1 FROM logentry WHERE game_id = ? AND hash IN ({0}))'
        )
    if epoch:
        near.append("kind = 'salt' AND epoch = ?")
    near.append("kind = 'epoch' AND epoch IN ({1})")
    near.append("kind = 'moderation'")
    return Statement(
        f"SELECT {LOG_COLUMNS} FROM logentry WHERE game_id = ? AND ({' OR '.join(near)})"
        ' ORDER BY "index"'
    )


PREFETCH = {(h, e): _prefetch(h, e) for h in (False, True) for e in (False, True)}

INSERTED = (
    "game_id",
    "index",
    "kind",
    "actor",
    "user",
    "text",
    "payload",
    "key",
    "created_at",
    "prev_hash",
    "hash",
    "epoch",
    "secret",
)  # the columns of a log row written (storage/tx_rows.entry_values), all text or integers
INSERT_LOG = Statement(  # storage/tx_writes._INSERT
    "INSERT INTO logentry ("
    + ", ".join(f'"{c}"' for c in INSERTED)
    + ") VALUES ("
    + ", ".join("?" * len(INSERTED))
    + ")"
)


def log_values(row: dict[str, Any]) -> tuple[Any, ...]:
    """The parameters of INSERT_LOG for a row of storage/tx_rows.entry_values."""
    return tuple(row[c] for c in INSERTED)


_UPDATES: dict[tuple[str, tuple[str, ...]], tuple[Statement, tuple[Processor, ...]]] = {}


def update_game(dialect: Dialect, changed: dict[str, Any]) -> tuple[Statement, list[Any]]:
    """storage/tx_writes._update: the version-guarded UPDATE of these columns (parameters:
    their values, then the new version, the id and the version read), and the values given
    converted as Core converts them."""
    columns = tuple(changed)
    found = _UPDATES.get((dialect.name, columns))
    if found is None:
        sets = ", ".join(f'"{c}" = ?' for c in columns)
        stmt = Statement(f"UPDATE game SET {sets}, version = ? WHERE id = ? AND version = ?")
        found = stmt, tuple(binder(dialect, GAME.c[c].type) for c in columns)
        _UPDATES[(dialect.name, columns)] = found
    stmt, binds = found
    values = [
        v if b is None or v is None else b(v) for b, v in zip(binds, changed.values(), strict=True)
    ]
    return stmt, values


_CLOCK_TYPES = [c.type for c in game_clock.c if c.name != "id"]
_CLOCK = (
    "SELECT "
    + ", ".join(f"game.{c.name}" for c in game_clock.c if c.name != "id")
    + ", game.paused, service_state.value FROM game LEFT OUTER JOIN service_state"
    " ON service_state.\"key\" = ('clock:' || game.name) WHERE game.name = ?"
)
CLOCK = {  # storage/clocks._ONE: the clock columns, the pause flag, the memo
    lock: Statement(
        _CLOCK,
        postgresql=_CLOCK.replace("?", "%s") + (" FOR UPDATE OF game" if lock else ""),
        types=[*_CLOCK_TYPES, GAME.c.paused.type, None],
    )
    for lock in (False, True)
}

GAME_CHATS = Statement(  # storage/tx_rows.GAME_CHATS: the chats hosting a game
    "SELECT platform, chat_id FROM chat_binding WHERE game = ? ORDER BY id"
)

BINDING_AND_CHOICES = Statement(  # storage/chat_languages: {0} the scopes
    "SELECT 'binding' AS scope, game AS language, NULL AS locale FROM chat_binding"
    " WHERE platform = ? AND chat_id = ?"
    " UNION ALL SELECT scope, language, locale FROM chat_language WHERE scope IN ({0})"
)

ROWS_FROM = Statement(  # storage/tx_rows.ROWS_FROM: a game's log rows from an index on
    f'SELECT {LOG_COLUMNS} FROM logentry WHERE game_id = ? AND "index" >= ? ORDER BY "index"'
)

CHOICES = Statement(  # storage/chat_languages._CHOICES: {0} the scopes
    "SELECT scope, language, locale FROM chat_language WHERE scope IN ({0})"
)


__all__ = [
    "BINDING_AND_CHOICES",
    "CHOICES",
    "CLOCK",
    "GAME_CHATS",
    "GAME_COLUMNS",
    "INSERT_LOG",
    "KEYED",
    "PREFETCH",
    "READ_GAME",
    "ROLES_AND_SECRETS",
    "ROWS_FROM",
    "SQLITE_BEGIN",
    "Statement",
    "binder",
    "first",
    "log_values",
    "marks_of",
    "rows",
    "run",
    "run_many",
    "scalar",
    "update_game",
]

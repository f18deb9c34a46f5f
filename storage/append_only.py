"""The database itself keeps what is chained append-only: triggers that abort a change pbem never
makes, so that an edit of a game's log takes dropping a guard first, and a dropped guard is seen.

The tables (storage/models.py), and what their guards refuse:
- `logentry`, the chained log: rows are only ever inserted. Any UPDATE and any DELETE (on
  PostgreSQL also a TRUNCATE) is refused; its off-chain columns (`secret`, `epoch`) are written
  with the row and never changed either.
- `dicesecret`, the seeds: a row is written once, with its seed committed in a chained row; only
  `revealed` changes, from false to true. An UPDATE of any other column, an un-reveal, a DELETE
  (and a TRUNCATE) are refused.
- `game`: its head, snapshot, dice bookkeeping and pause change with every order (caches the
  chain checks), so only what binds the game is guarded: an UPDATE of `uid` (in every roll's
  HMAC), `game` (the system) or `scenario_text` is refused. A game row never goes, but the
  foreign keys of its log rows hold it already.
- `identitylink`, the service's chained identity links (storage/identity_chain.py): rows are
  only ever inserted, like the log's. Any UPDATE, DELETE (and TRUNCATE) is refused.
- `seat`, `moderator`: caches of chained rows rewritten on every seat and role change, each row
  carrying the hash of its chained row (checked on every read that grants a power): no guard.
- the chat and service tables (outbox, bindings, service_state, taps): nothing chained, no guard.

- `install(conn)`: create the guards, replacing any of the same name. Every migration run ends
  with it (storage/migrations/env.py: SQLite's batch mode rebuilds a table without its triggers).
- `lift(conn, tables)`: drop the guards of these tables inside the caller's transaction, and
  `restore(conn)`: create again those that are not in place (only those). `pbem repair` lifts
  the log's and the seeds' guards, records it in its chained row and restores them before it
  commits (app/integrity.py), so no other connection ever sees the database unguarded. (On
  PostgreSQL dropping a trigger locks its table: the game table's guard, which a repair does not
  need lifted, is left alone, so a repair that holds its game row never waits on a writer that
  waits on that row.)
- `problems(conn)`: every guard missing, changed or disabled. What is compared is the triggers'
  SQL, not only their names: on SQLite the statement the schema holds, on PostgreSQL the
  trigger's definition, whether it is enabled, and its function's body.
- `failure(found, head)`: a game's failure (storage/trust.py's form) naming the tables.

Whoever may change the schema can still drop a guard: the next check (a service's start, each
process's first write of a game, `pbem audit`) finds it and freezes the games, and the chain
finds any edit made meanwhile (docs/threat-model.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from texts.i18n import Msg, cat, t

REVISION = "0007"  # the migration that made them (storage/migrations/versions)
TABLES = ("logentry", "dicesecret", "game", "identitylink")  # guarded, in the order checked


@dataclass(frozen=True)
class Guard:
    name: str  # the trigger's
    table: str
    sql: str  # SQLite: the CREATE TRIGGER statement; PostgreSQL: its definition as the catalogue
    # says it (pg_get_triggerdef, schema names left out)
    function: str = ""  # PostgreSQL: the trigger's function


def _refuse(table: str, what: str) -> str:
    return f"SELECT RAISE(ABORT, 'pbem: {table} {what}')"


_LOG = "rows are append-only: no UPDATE, no DELETE"
_SEED = "rows are written once (only revealed, from false to true)"
_GAME = "uid, game and scenario_text are fixed"
_LINK = "rows are append-only: no UPDATE, no DELETE"

SQLITE = (
    Guard(
        "pbem_logentry_no_update",
        "logentry",
        f"CREATE TRIGGER pbem_logentry_no_update BEFORE UPDATE ON logentry "
        f"BEGIN {_refuse('logentry', _LOG)}; END",
    ),
    Guard(
        "pbem_logentry_no_delete",
        "logentry",
        f"CREATE TRIGGER pbem_logentry_no_delete BEFORE DELETE ON logentry "
        f"BEGIN {_refuse('logentry', _LOG)}; END",
    ),
    Guard(
        "pbem_dicesecret_no_update",
        "dicesecret",
        "CREATE TRIGGER pbem_dicesecret_no_update BEFORE UPDATE ON dicesecret "
        "WHEN NEW.id IS NOT OLD.id OR NEW.game_id IS NOT OLD.game_id OR NEW.kind IS NOT OLD.kind "
        "OR NEW.epoch IS NOT OLD.epoch OR NEW.seed IS NOT OLD.seed "
        "OR (OLD.revealed AND NOT NEW.revealed) "
        f"BEGIN {_refuse('dicesecret', _SEED)}; END",
    ),
    Guard(
        "pbem_dicesecret_no_delete",
        "dicesecret",
        f"CREATE TRIGGER pbem_dicesecret_no_delete BEFORE DELETE ON dicesecret "
        f"BEGIN {_refuse('dicesecret', _SEED)}; END",
    ),
    Guard(
        "pbem_game_fixed",
        "game",
        "CREATE TRIGGER pbem_game_fixed BEFORE UPDATE ON game "
        "WHEN NEW.uid IS NOT OLD.uid OR NEW.game IS NOT OLD.game "
        "OR NEW.scenario_text IS NOT OLD.scenario_text "
        f"BEGIN {_refuse('game', _GAME)}; END",
    ),
    Guard(
        "pbem_identitylink_no_update",
        "identitylink",
        f"CREATE TRIGGER pbem_identitylink_no_update BEFORE UPDATE ON identitylink "
        f"BEGIN {_refuse('identitylink', _LINK)}; END",
    ),
    Guard(
        "pbem_identitylink_no_delete",
        "identitylink",
        f"CREATE TRIGGER pbem_identitylink_no_delete BEFORE DELETE ON identitylink "
        f"BEGIN {_refuse('identitylink', _LINK)}; END",
    ),
)

# PostgreSQL: one function per table (its body compared as stored), and the triggers calling it.
PG_FUNCTIONS = {
    "pbem_logentry_guard": (
        f"BEGIN RAISE EXCEPTION USING MESSAGE = 'pbem: logentry {_LOG}: ' || TG_OP; END"
    ),
    "pbem_dicesecret_guard": (
        "BEGIN IF TG_OP = 'UPDATE' THEN IF NEW.id = OLD.id AND NEW.game_id = OLD.game_id "
        "AND NEW.kind = OLD.kind AND NEW.epoch = OLD.epoch AND NEW.seed = OLD.seed "
        "AND (NEW.revealed OR NOT OLD.revealed) THEN RETURN NEW; END IF; END IF; "
        f"RAISE EXCEPTION USING MESSAGE = 'pbem: dicesecret {_SEED}: ' || TG_OP; END"
    ),
    "pbem_game_guard": (
        "BEGIN IF NEW.uid = OLD.uid AND NEW.game = OLD.game "
        "AND NEW.scenario_text = OLD.scenario_text THEN RETURN NEW; END IF; "
        f"RAISE EXCEPTION USING MESSAGE = 'pbem: game {_GAME}: ' || TG_OP; END"
    ),
    "pbem_identitylink_guard": (
        f"BEGIN RAISE EXCEPTION USING MESSAGE = 'pbem: identitylink {_LINK}: ' || TG_OP; END"
    ),
}


def _pg(name: str, table: str, event: str, function: str) -> Guard:
    each = "STATEMENT" if event == "TRUNCATE" else "ROW"
    sql = (
        f"CREATE TRIGGER {name} BEFORE {event} ON {table} "
        f"FOR EACH {each} EXECUTE FUNCTION {function}()"
    )
    return Guard(name, table, sql, function)


POSTGRESQL = (
    _pg("pbem_logentry_no_update", "logentry", "UPDATE", "pbem_logentry_guard"),
    _pg("pbem_logentry_no_delete", "logentry", "DELETE", "pbem_logentry_guard"),
    _pg("pbem_logentry_no_truncate", "logentry", "TRUNCATE", "pbem_logentry_guard"),
    _pg("pbem_dicesecret_no_update", "dicesecret", "UPDATE", "pbem_dicesecret_guard"),
    _pg("pbem_dicesecret_no_delete", "dicesecret", "DELETE", "pbem_dicesecret_guard"),
    _pg("pbem_dicesecret_no_truncate", "dicesecret", "TRUNCATE", "pbem_dicesecret_guard"),
    _pg("pbem_game_fixed", "game", "UPDATE", "pbem_game_guard"),
    _pg("pbem_identitylink_no_update", "identitylink", "UPDATE", "pbem_identitylink_guard"),
    _pg("pbem_identitylink_no_delete", "identitylink", "DELETE", "pbem_identitylink_guard"),
    _pg("pbem_identitylink_no_truncate", "identitylink", "TRUNCATE", "pbem_identitylink_guard"),
)


def guards(conn: Connection) -> tuple[Guard, ...]:
    """The guards of this database's dialect."""
    return POSTGRESQL if conn.dialect.name == "postgresql" else SQLITE


def _present(conn: Connection, which: tuple[Guard, ...]) -> list[Guard]:
    """Those of the tables the database has: a migration run before the identity links' table
    (0009) installs the guards of the tables made so far."""
    there = set(inspect(conn).get_table_names())
    return [g for g in which if g.table in there]


def install(conn: Connection) -> None:
    """Create every guard, replacing one of the same name (in the caller's transaction)."""
    lift(conn)
    _create(conn, _present(conn, guards(conn)))


def restore(conn: Connection, tables: tuple[str, ...] = TABLES) -> list[str]:
    """Create again the guards of these tables that are missing, changed or disabled, and only
    those (a guard in place is not touched: on PostgreSQL, no lock is taken on its table); their
    names."""
    down = [p.guard for p in problems(conn) if p.guard.table in tables]
    _drop(conn, down)
    _create(conn, down)
    return [g.name for g in down]


def lift(conn: Connection, tables: tuple[str, ...] = TABLES) -> list[str]:
    """Drop the guards of these tables (in the caller's transaction, which must `restore` them
    before it commits); the names of those that were there."""
    there = set(held(conn))
    lifted = [g for g in _present(conn, guards(conn)) if g.table in tables]
    _drop(conn, lifted)
    return [g.name for g in lifted if g.name in there]


def _drop(conn: Connection, which: list[Guard] | tuple[Guard, ...]) -> None:
    for guard in which:
        on = f" ON {guard.table}" if conn.dialect.name == "postgresql" else ""
        conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS {guard.name}{on}")


def _create(conn: Connection, which: list[Guard] | tuple[Guard, ...]) -> None:
    if not which:
        return
    if conn.dialect.name == "postgresql":  # no lock on any table: a function is replaced
        for function, body in PG_FUNCTIONS.items():
            conn.exec_driver_sql(
                f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger "
                f"LANGUAGE plpgsql AS $pbem${body}$pbem$"
            )
    for guard in which:
        conn.exec_driver_sql(guard.sql)


@dataclass(frozen=True)
class Problem:
    guard: Guard
    how: str  # "missing", "changed" or "disabled"

    def said(self) -> Msg:
        table, trigger = self.guard.table, self.guard.name
        if self.how == "missing":
            return t(
                "table {table} lost its guard: trigger {trigger} was dropped",
                table=table,
                trigger=trigger,
            )
        if self.how == "disabled":
            return t(
                "table {table}'s guard is disabled: trigger {trigger}", table=table, trigger=trigger
            )
        return t(
            "table {table}'s guard was changed: trigger {trigger} is not the one pbem made",
            table=table,
            trigger=trigger,
        )


def _normal(sql: str) -> str:
    return " ".join(sql.split())


def held(conn: Connection) -> dict[str, tuple[str, str, bool]]:
    """name -> (table, its SQL as comparable, enabled) of every trigger pbem may have made."""
    if conn.dialect.name != "postgresql":
        q = "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger'"
        return {n: (tbl, _normal(sql or ""), True) for n, tbl, sql in conn.exec_driver_sql(q)}
    q = (
        "SELECT t.tgname, c.relname, pg_get_triggerdef(t.oid), t.tgenabled, p.proname, "
        "p.prosrc, l.lanname, n.nspname FROM pg_trigger t "
        "JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
        "JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_language l ON l.oid = p.prolang "
        "WHERE NOT t.tgisinternal AND n.nspname = current_schema()"
    )
    found: dict[str, tuple[str, str, bool]] = {}
    for name, table, sql, enabled, function, body, language, schema in conn.exec_driver_sql(q):
        sql = _normal(str(sql).replace(f"{schema}.", ""))
        if PG_FUNCTIONS.get(function) != body or language != "plpgsql":
            sql += " (another function body)"
        found[name] = (table, sql, enabled in ("O", "A"))
    return found


def problems(conn: Connection) -> list[Problem]:
    """Every guard that is not as `install` makes it, in the order of TABLES."""
    stored = held(conn)
    found = []
    for guard in guards(conn):
        there = stored.get(guard.name)
        if there is None:
            found.append(Problem(guard, "missing"))
        elif there[0] != guard.table or there[1] != _normal(guard.sql):
            found.append(Problem(guard, "changed"))
        elif not there[2]:
            found.append(Problem(guard, "disabled"))
    return found


def failure(found: list[Problem], head: int) -> dict[str, Any] | None:
    """A game's failure when a guard is down: at its head row (nothing in the log is known bad;
    the database stopped refusing edits after it), naming every table and what to do."""
    if not found:
        return None
    said = cat(*(p.said() for p in found), sep="; ")
    return {
        "index": head,
        "problem": t(
            "the database no longer keeps the log append-only ({what}); `pbem audit` the game, "
            "then `pbem repair` re-creates the guards (docs/hosting.md)",
            what=said,
        ),
        "guards": [p.guard.name for p in found],
    }


__all__ = [
    "Guard",
    "Problem",
    "failure",
    "guards",
    "held",
    "install",
    "lift",
    "problems",
    "restore",
]

"""The database: URLs, engines (SQLite's connect and BEGIN hooks), the Alembic migrations, which
errors are conflicts to retry, and the canonical JSON and hashes of what is stored.

- SQLite: WAL mode, a busy timeout, and BEGIN IMMEDIATE for every write transaction, so writers
  queue instead of failing; reads (execution option pbem_read) take a deferred BEGIN.
- The schema comes from the Alembic migrations in storage/migrations, run when a Store opens;
  HEAD_REVISION names the newest (tests check it against storage/migrations).
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from sqlalchemy import event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import create_engine

from storage import chain, raw_sql
from storage.errors import LegacyDatabase
from texts.i18n import t

log = logging.getLogger("storage.store")  # the store's logger, as before the split

DEFAULT_DB = "pbem.db"
SQLITE_BUSY_TIMEOUT_MS = 30_000
HEAD_REVISION = "0010"  # the newest migration (tests check it against storage/migrations)
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
PG_MIGRATION_LOCK = 0x7BE3_0003  # pg_advisory_xact_lock key: one migrating process at a time


def database_url(target: str | None) -> str:
    """A SQLite path or a database URL -> a SQLAlchemy URL. None: the default file."""
    target = target or DEFAULT_DB
    if "://" in target:
        return target
    if target == ":memory:":
        return "sqlite://"
    return "sqlite:///" + str(Path(target))


def dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def state_hash(state_dict: dict[str, Any]) -> str:
    """SHA-256 of a state's canonical JSON: what an order row records and a replay checks."""
    return hashlib.sha256(chain.canonical(json.loads(dump(state_dict)))).hexdigest()


def state_hash_is(state_dict: dict[str, Any], digest: object) -> bool:
    """Whether state_hash(state_dict) == digest, at the cost of one encoding where the state's
    object keys are all strings (every system's state_to_json: tests check it), which is what a
    replay checks on every row.

    state_hash first reads its dict back from JSON, which changes nothing but the keys that are
    no strings (1 becomes "1", sorted among strings). A dict whose keys are all strings encodes
    canonically to the same bytes with or without that round trip, so the hash of its direct
    encoding is state_hash itself (for another dict, a match still says `digest` hashes this
    very state, its keys in their own order). When that hash differs from `digest`, or the
    keys cannot be sorted, the exact state_hash decides."""
    try:
        if hashlib.sha256(chain.canonical(state_dict)).hexdigest() == digest:
            return True
    except (TypeError, ValueError):
        pass
    return state_hash(state_dict) == digest


def scenario_hash(scenario_text: str) -> str:
    return hashlib.sha256(scenario_text.encode()).hexdigest()


# -- engines
def _sqlite_connect(dbapi_connection: Any, _record: object) -> None:
    dbapi_connection.isolation_level = None  # the driver emits no BEGIN: the `begin` event does
    cur = dbapi_connection.cursor()
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")  # first: WAL may wait for a lock
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut, not only a crash
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    """Writers take the write lock at BEGIN, so no two read the same state to change it.
    (On the driver's connection, as exec_driver_sql would send it: storage/raw_sql.py.)"""
    read = conn.get_execution_options().get("pbem_read", False)
    raw_sql.run(conn, raw_sql.SQLITE_BEGIN[bool(read)])


def make_engine(url: str) -> Engine:
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


# -- the schema
def _revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def migrate(engine: Engine, reader: Engine | None = None) -> None:
    """Bring the schema to HEAD_REVISION with Alembic (a no-op read when it is there already)."""
    with (reader or engine).connect() as conn:
        if _revision(conn) == HEAD_REVISION:
            return
    # Imported here, not at the top: Alembic costs every process that opens a Store about a
    # fifth of a second of start-up, and it is needed only when the schema is behind.
    from alembic import command
    from alembic.config import Config

    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_MIGRATION_LOCK})
        current = _revision(conn)
        if current is None and inspect(conn).has_table("logentry"):
            raise LegacyDatabase(
                t(
                    "{db} was made by pbem 0.1, before "
                    "the chained log: its games cannot be verified. Keep it for reference and start "
                    "a new database (another --db or PBEM_DB).",
                    db=engine.url.render_as_string(hide_password=True),
                )
            )
        if current != HEAD_REVISION:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            log.info("database migrated from %s to %s", current, HEAD_REVISION)
        conn.commit()


# -- conflicts
def retryable(exc: Exception) -> bool:
    """A conflict with another writer (run again on a fresh read), not a real failure."""
    if isinstance(exc, StaleDataError):
        return True
    if isinstance(exc, IntegrityError):  # another writer took this log index, or this key
        message = str(exc.orig)
        return "uq_logentry_game_" in message or "UNIQUE constraint failed: logentry." in message
    if isinstance(exc, DBAPIError):
        if getattr(exc.orig, "sqlstate", None) in ("40001", "40P01"):  # serialization, deadlock
            return True
        message = str(exc.orig).lower()
        return "database is locked" in message or "database is busy" in message
    return False

"""Store: games and their hash-chained, append-only logs in one SQL database (SQLite or PostgreSQL).

Invariants:
- Log rows are only inserted. Each carries prev_hash and hash (storage/chain.py); the game row
  keeps the head (index and hash) of its log.
- Every change of a game is ONE transaction, run by `Store.transact(name, fn)`: fn reads the game
  (locked) through a GameTx, decides, and queues rows; the rows, the new snapshot and the dice
  bookkeeping commit together or not at all.
- Concurrency: on SQLite every write transaction starts with BEGIN IMMEDIATE (WAL mode, busy
  timeout), so writers queue instead of failing; on PostgreSQL the game row is locked with
  SELECT ... FOR UPDATE. Under both, the game row's version column is the portable guard: an
  UPDATE of a game someone else changed raises StaleDataError. A conflict (stale version, a lost
  unique index race, "database is locked", a serialization failure) rolls back and runs fn again
  on a fresh read, a few times, before Conflict is raised.
- Seeds live in DiceSecret only; a seed enters the log (a `reveal` row) only when its epoch ends.
- The schema comes from the Alembic migrations in storage/migrations, run when a Store opens.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from sqlalchemy import event, func, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, col, create_engine, select

from storage import chain
from storage import dice as committed
from storage.models import DiceSecret, Game, LogEntry, Moderator, Seat, iso_now

log = logging.getLogger(__name__)

DEFAULT_DB = "pbem.db"
SIDES = ("soviet", "german")
SQLITE_BUSY_TIMEOUT_MS = 30_000
ATTEMPTS = 10  # of one transaction, on conflicts
HEAD_REVISION = "0002"  # the newest migration (tests check it against storage/migrations)
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
PG_MIGRATION_LOCK = 0x7BE3_0003  # pg_advisory_xact_lock key: one migrating process at a time
FOLLOWERS = frozenset({"reveal", "reveal-hidden", "epoch"})  # rows a change may bring along

T = TypeVar("T")


class StorageError(Exception):
    """Base of the errors a front end reports to the user."""


class GameExists(StorageError):
    def __init__(self, name: str):
        super().__init__(f"a game named {name!r} already exists")
        self.name = name


class GameNotFound(StorageError, LookupError):
    def __init__(self, name: str):
        super().__init__(f"no game named {name!r}")
        self.name = name


class Conflict(StorageError):
    """The game kept changing under this writer: nothing was written; send it again."""


class LegacyDatabase(StorageError):
    """A database made before migrations existed (pbem 0.1): its games have no chain."""


@dataclass(frozen=True)
class LogRecord:
    index: int
    kind: str
    actor: str
    user: str | None
    text: str
    payload: dict
    key: str | None
    created_at: str  # ISO 8601 UTC, as hashed
    prev_hash: str
    hash: str
    epoch: int | None = None  # not chained
    secret: list | None = None  # not chained: hidden values and their salts, until the game ends

    @property
    def rolls(self) -> list[dict]:
        return self.payload.get("rolls", [])

    @property
    def events(self) -> list[dict]:
        return self.payload.get("events", [])

    def to_dict(self) -> dict:
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
    snapshot: dict
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


def database_url(target: str | None) -> str:
    """A SQLite path or a database URL -> a SQLAlchemy URL. None: the default file."""
    target = target or DEFAULT_DB
    if "://" in target:
        return target
    if target == ":memory:":
        return "sqlite://"
    return "sqlite:///" + str(Path(target))


def dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def state_hash(state_dict: dict) -> str:
    """SHA-256 of a state's canonical JSON: what an order row records and a replay checks."""
    return hashlib.sha256(chain.canonical(json.loads(dump(state_dict)))).hexdigest()


def scenario_hash(scenario_text: str) -> str:
    return hashlib.sha256(scenario_text.encode()).hexdigest()


# -- engines
def _sqlite_connect(dbapi_connection, _record) -> None:
    dbapi_connection.isolation_level = None  # the driver emits no BEGIN: the `begin` event does
    cur = dbapi_connection.cursor()
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")  # first: WAL may wait for a lock
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")  # a commit survives a power cut, not only a crash
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    """Writers take the write lock at BEGIN, so no two read the same state to change it."""
    read = conn.get_execution_options().get("pbem_read", False)
    conn.exec_driver_sql("BEGIN" if read else "BEGIN IMMEDIATE")


def make_engine(url: str) -> Engine:
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def migrate(engine: Engine, reader: Engine | None = None) -> None:
    """Bring the schema to HEAD_REVISION with Alembic (a no-op read when it is there already)."""
    with (reader or engine).connect() as conn:
        if _revision(conn) == HEAD_REVISION:
            return
    from alembic import command
    from alembic.config import Config

    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": PG_MIGRATION_LOCK})
        current = _revision(conn)
        if current is None and inspect(conn).has_table("logentry"):
            raise LegacyDatabase(
                f"{engine.url.render_as_string(hide_password=True)} was made by pbem 0.1, before "
                "the chained log: its games cannot be verified. Keep it for reference and start "
                "a new database (another --db or PBEM_DB)."
            )
        if current != HEAD_REVISION:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            log.info("database migrated from %s to %s", current, HEAD_REVISION)
        conn.commit()


def _retryable(exc: Exception) -> bool:
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


class Store:
    def __init__(self, url: str | None = None, *, migrate_schema: bool = True):
        self.url = database_url(url)
        self.engine = make_engine(self.url)
        # reads see one snapshot: the game row and its log rows agree (SQLite: a deferred BEGIN)
        snapshot = {"isolation_level": "REPEATABLE READ"} if self.dialect == "postgresql" else {}
        self.reader = self.engine.execution_options(pbem_read=True, **snapshot)
        if migrate_schema:
            migrate(self.engine, self.reader)

    def close(self) -> None:
        self.engine.dispose()

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def _session(self, read: bool = False) -> Session:
        return Session(self.reader if read else self.engine, expire_on_commit=False)

    @staticmethod
    def _game(session: Session, name: str, lock: bool = False) -> Game:
        q = select(Game).where(Game.name == name)
        game = session.exec(q.with_for_update() if lock else q).first()
        if game is None:
            raise GameNotFound(name)
        return game

    # -- creating
    def create_game(
        self,
        name: str,
        game: str,
        scenario_text: str,
        sandbox: bool,
        initial_state_dict: dict,
        *,
        events: Iterable[dict] = (),
        creator: str | None = None,
        sides: Iterable[str] = SIDES,
        uid: str | None = None,
        seed: str | None = None,
        hidden_seed: str | None = None,
    ) -> GameRecord:
        """The game, its seats, its first moderator, row 0 (setup) and row 1 (epoch 1's
        commitment), in one transaction. The setup rolls no dice: epoch 1 opens after it."""
        with self._session() as s, s.begin():
            if s.exec(select(Game.id).where(Game.name == name)).first() is not None:
                raise GameExists(name)
            g = Game(
                name=name,
                uid=uid or uuid.uuid4().hex,
                game=game,
                scenario_text=scenario_text,
                sandbox=sandbox,
                snapshot=dump(initial_state_dict),
            )
            s.add(g)
            try:
                s.flush()
            except IntegrityError as exc:  # created by someone else meanwhile
                raise GameExists(name) from exc
            s.add_all(Seat(game_id=g.id, side=side) for side in sides)
            if creator is not None:
                s.add(Moderator(game_id=g.id, user=creator))
            tx = GameTx(s, g)
            setup = {
                "scenario_sha256": scenario_hash(scenario_text),
                "sandbox": sandbox,
                "creator": creator,
                "events": list(events),
                "state_sha256": state_hash(initial_state_dict),
            }
            tx.append("setup", "system", "new game", setup, user=creator)
            tx.open_epoch(int(initial_state_dict.get("turn", 1)), seed, hidden_seed or "new")
            tx.finish()
        log.info("created game %r (%s, sandbox=%s)", name, game, sandbox)
        return self.load(name)

    # -- changing: one transaction, retried on conflicts
    def transact(self, name: str, fn: Callable[[GameTx], T], *, attempts: int = ATTEMPTS) -> T:
        """Run fn on the locked game in one transaction; commit what it queued.

        An exception from fn rolls everything back and propagates. A conflict runs fn again on a
        fresh read (so it re-validates); after `attempts` conflicts, Conflict is raised.
        """
        for attempt in range(1, attempts + 1):
            try:
                with self._session() as s, s.begin():
                    tx = GameTx(s, self._game(s, name, lock=True))
                    result = fn(tx)
                    tx.finish()
                return result
            except (StaleDataError, DBAPIError) as exc:
                if not _retryable(exc):
                    raise
                log.info("game %r: conflict on attempt %d: %s", name, attempt, exc)
                if attempt == attempts:
                    raise Conflict(
                        f"game {name!r} kept changing while this was written ({attempts} tries); "
                        "nothing was applied: send it again"
                    ) from exc
                time.sleep(random.uniform(0, 0.002 * 2**attempt))
        raise AssertionError("unreachable")

    # -- reading
    def load(self, name: str, *, with_log: bool = True) -> GameRecord:
        with self._session(read=True) as s:
            g = self._game(s, name)
            seats = {
                seat.side: seat.user
                for seat in s.exec(select(Seat).where(Seat.game_id == g.id).order_by(col(Seat.id)))
            }
            mods = s.exec(
                select(Moderator.user).where(Moderator.game_id == g.id).order_by(col(Moderator.id))
            ).all()
            entries = _records(s, g.id) if with_log else []
            return _game_record(g, seats, tuple(mods), entries)

    def scenario_text(self, name: str) -> str:
        with self._session(read=True) as s:
            text_ = s.exec(select(Game.scenario_text).where(Game.name == name)).first()
        if text_ is None:
            raise GameNotFound(name)
        return text_

    def log(self, name: str, n: int | None = None) -> list[LogRecord]:
        """The log, oldest first; with n, only the last n rows."""
        with self._session(read=True) as s:
            g = self._game(s, name)
            return _records(s, g.id, n)

    def rows(self, name: str) -> list[dict]:
        """The whole log as chained rows (LogRecord.to_dict): what audit and export read."""
        return [r.to_dict() for r in self.log(name)]

    def list_games(self) -> list[GameRecord]:
        with self._session(read=True) as s:
            games = s.exec(select(Game).order_by(col(Game.id))).all()
            return [_game_record(g, {}, (), []) for g in games]

    def count_rows(self, name: str) -> int:
        with self._session(read=True) as s:
            g = self._game(s, name)
            return s.exec(select(func.count()).where(LogEntry.game_id == g.id)).one()

    def dice_secrets(self, name: str) -> list[dict]:
        """Every seed of a game with whether it is revealed. For tests and the operator only:
        nothing that a player reads may come from here before the seed is revealed."""
        with self._session(read=True) as s:
            g = self._game(s, name)
            q = select(DiceSecret).where(DiceSecret.game_id == g.id).order_by(col(DiceSecret.id))
            return [
                {"kind": d.kind, "epoch": d.epoch, "seed": d.seed, "revealed": d.revealed}
                for d in s.exec(q)
            ]


class GameTx:
    """One game inside one transaction: read it, queue log rows, change its bookkeeping.

    Used only inside Store.transact / create_game. Nothing is visible to others before commit.
    """

    def __init__(self, session: Session, game: Game):
        self.s = session
        self.g = game
        self.written: list[LogRecord] = []
        self._snapshot: dict | None = None

    # -- reading
    @property
    def name(self) -> str:
        return self.g.name

    @property
    def uid(self) -> str:
        return self.g.uid

    @property
    def sandbox(self) -> bool:
        return self.g.sandbox

    @property
    def scenario_text(self) -> str:
        return self.g.scenario_text

    @property
    def head_index(self) -> int:
        return self.g.head_index

    @property
    def head_hash(self) -> str:
        return self.g.head_hash

    @property
    def epoch(self) -> int:
        return self.g.epoch

    @property
    def epoch_turn(self) -> int | None:
        return self.g.epoch_turn

    @property
    def next_n(self) -> int:
        return self.g.epoch_next_n

    @property
    def salt_digest(self) -> str:
        return self.g.salt_digest or committed.EMPTY_SALT_DIGEST

    @property
    def paused(self) -> bool:
        return self.g.paused

    @property
    def snapshot(self) -> dict:
        if self._snapshot is None:
            self._snapshot = json.loads(self.g.snapshot)
        return self._snapshot

    def seats(self) -> dict[str, str | None]:
        q = select(Seat).where(Seat.game_id == self.g.id).order_by(col(Seat.id))
        return {seat.side: seat.user for seat in self.s.exec(q)}

    def moderators(self) -> list[str]:
        q = select(Moderator.user).where(Moderator.game_id == self.g.id)
        return list(self.s.exec(q.order_by(col(Moderator.id))).all())

    def rows(self, start: int = 0) -> list[LogRecord]:
        q = select(LogEntry).where(LogEntry.game_id == self.g.id, LogEntry.index >= start)
        return [_record(r) for r in self.s.exec(q.order_by(col(LogEntry.index)))]

    def find_key(self, key: str) -> list[LogRecord] | None:
        """The rows a keyed change wrote: its own row and the epoch rows it brought along."""
        q = select(LogEntry.index).where(LogEntry.game_id == self.g.id, LogEntry.key == key)
        index = self.s.exec(q).first()
        if index is None:
            return None
        rows = self.rows(index)
        end = 1
        while end < len(rows) and rows[end].kind in FOLLOWERS and rows[end].key is None:
            end += 1
        return rows[:end]

    def salts(self, epoch: int) -> list[str]:
        q = select(LogEntry.payload).where(
            LogEntry.game_id == self.g.id, LogEntry.kind == "salt", LogEntry.epoch == epoch
        )
        return [json.loads(p)["salt"] for p in self.s.exec(q.order_by(col(LogEntry.index)))]

    def seed(self) -> str | None:
        """The open epoch's seed (None when no epoch is open)."""
        return self._secret("epoch", self.g.epoch) if self.g.epoch else None

    def hidden_seed(self) -> str | None:
        """The unrevealed hidden seed, or None."""
        q = select(DiceSecret).where(
            DiceSecret.game_id == self.g.id, DiceSecret.kind == "hidden", ~DiceSecret.revealed
        )
        secret = self.s.exec(q.order_by(col(DiceSecret.epoch).desc())).first()
        return secret.seed if secret else None

    def _secret(self, kind: str, epoch: int) -> str:
        q = select(DiceSecret.seed).where(
            DiceSecret.game_id == self.g.id, DiceSecret.kind == kind, DiceSecret.epoch == epoch
        )
        return self.s.exec(q).one()

    # -- writing
    def append(
        self,
        kind: str,
        actor: str,
        text_: str,
        payload: dict,
        *,
        user: str | None = None,
        key: str | None = None,
        epoch: int | None = None,
        secret: object = None,
    ) -> LogRecord:
        """Queue the next log row, chained to the head."""
        index = self.g.head_index + 1 if self.g.head_hash else 0
        prev = self.g.head_hash or chain.GENESIS
        payload_text = dump(payload)
        row = {
            "index": index,
            "kind": kind,
            "actor": actor,
            "user": user,
            "text": text_,
            "payload": json.loads(payload_text),  # hashed exactly as it will be read back
            "key": key,
            "created_at": iso_now(),
        }
        digest = chain.row_hash(prev, row)
        self.s.add(
            LogEntry(
                game_id=self.g.id,
                index=index,
                kind=kind,
                actor=actor,
                user=user,
                text=text_,
                payload=payload_text,
                key=key,
                created_at=row["created_at"],
                prev_hash=prev,
                hash=digest,
                epoch=epoch,
                secret=None if secret is None else dump(secret),
            )
        )
        record = _record_from(row, prev, digest, epoch, secret)
        self.written.append(record)
        self.g.head_index, self.g.head_hash = index, digest
        return record

    def set_snapshot(self, state_dict: dict) -> None:
        self._snapshot = json.loads(dump(state_dict))
        self.g.snapshot = dump(state_dict)

    def set_next_n(self, next_n: int) -> None:
        self.g.epoch_next_n = next_n

    def set_salt_digest(self, digest: str) -> None:
        self.g.salt_digest = digest

    def set_paused(self, paused: bool, why: str | None) -> None:
        self.g.paused, self.g.paused_why = paused, why if paused else None

    def set_seat(self, side: str, user: str | None) -> None:
        seat = self.s.exec(select(Seat).where(Seat.game_id == self.g.id, Seat.side == side)).one()
        seat.user = user
        self.s.add(seat)

    def add_moderator(self, user: str) -> None:
        self.s.add(Moderator(game_id=self.g.id, user=user))

    def remove_moderator(self, user: str) -> None:
        q = select(Moderator).where(Moderator.game_id == self.g.id, Moderator.user == user)
        self.s.delete(self.s.exec(q).one())

    def open_epoch(self, turn: int, seed: str | None = None, hidden_seed: str | None = None):
        """Commit a fresh seed for the next dice epoch (an `epoch` row) and make it the open one.

        hidden_seed: a hidden seed to commit with it ("new" draws one), for epoch 1 and after a
        rewind of a game whose hidden seed was already revealed.
        """
        last = self.s.exec(
            select(func.max(DiceSecret.epoch)).where(
                DiceSecret.game_id == self.g.id, DiceSecret.kind == "epoch"
            )
        ).one()
        k = (last or 0) + 1
        seed = seed or committed.new_seed()
        self.s.add(DiceSecret(game_id=self.g.id, kind="epoch", epoch=k, seed=seed))
        hidden_commitment = None
        if hidden_seed is not None:
            hidden_seed = committed.new_seed() if hidden_seed == "new" else hidden_seed
            self.s.add(DiceSecret(game_id=self.g.id, kind="hidden", epoch=k, seed=hidden_seed))
            hidden_commitment = committed.commitment(hidden_seed)
        payload = {
            "epoch": k,
            "turn": turn,
            "commitment": committed.commitment(seed),
            "hidden_commitment": hidden_commitment,
        }
        self.s.flush()  # the secret first: `seed()` reads it back in this transaction
        row = self.append("epoch", "system", f"dice epoch {k} for turn {turn}", payload, epoch=k)
        g = self.g
        g.epoch, g.epoch_turn, g.epoch_commitment = k, turn, payload["commitment"]
        g.epoch_next_n, g.salt_digest = 1, committed.EMPTY_SALT_DIGEST
        return row

    def reveal_epoch(self) -> LogRecord | None:
        """End the open epoch: publish its seed in a `reveal` row."""
        k = self.g.epoch
        if not k:
            return None
        secret = self.s.exec(
            select(DiceSecret).where(
                DiceSecret.game_id == self.g.id, DiceSecret.kind == "epoch", DiceSecret.epoch == k
            )
        ).one()
        secret.revealed = True
        self.s.add(secret)
        row = self.append(
            "reveal", "system", f"dice epoch {k} ends", {"epoch": k, "seed": secret.seed}, epoch=k
        )
        g = self.g
        g.epoch, g.epoch_turn, g.epoch_commitment, g.epoch_next_n, g.salt_digest = (
            0,
            None,
            None,
            1,
            None,
        )
        return row

    def reveal_hidden(self) -> LogRecord | None:
        """Game over: publish the hidden seed (and so every hidden value's key)."""
        q = select(DiceSecret).where(
            DiceSecret.game_id == self.g.id, DiceSecret.kind == "hidden", ~DiceSecret.revealed
        )
        secret = self.s.exec(q).first()
        if secret is None:
            return None
        secret.revealed = True
        self.s.add(secret)
        return self.append(
            "reveal-hidden", "system", "hidden seed revealed", {"hidden_seed": secret.seed}
        )

    def finish(self) -> None:
        """Flush the queued rows and the game row (the version guard fires here)."""
        if self.written or self.s.is_modified(self.g):
            self.s.add(self.g)
        self.s.flush()


# -- rows
def _loads(text_: str | None):
    """JSON from a stored column; text that is not JSON (a tampered row) is kept as the string,
    so the audit reports that row instead of the reader crashing."""
    if text_ is None:
        return None
    try:
        return json.loads(text_)
    except ValueError:
        log.warning("a log row holds text that is not JSON: %.60r", text_)
        return text_


def _record(r: LogEntry) -> LogRecord:
    return LogRecord(
        r.index,
        r.kind,
        r.actor,
        r.user,
        r.text,
        _loads(r.payload),
        r.key,
        r.created_at,
        r.prev_hash,
        r.hash,
        r.epoch,
        _loads(r.secret),
    )


def _record_from(row: dict, prev: str, digest: str, epoch: int | None, secret) -> LogRecord:
    secret = None if secret is None else json.loads(dump(secret))
    fields = {f: row[f] for f in chain.CHAINED_FIELDS}
    return LogRecord(**fields, prev_hash=prev, hash=digest, epoch=epoch, secret=secret)


def _records(s: Session, game_id: int, n: int | None = None) -> list[LogRecord]:
    q = select(LogEntry).where(LogEntry.game_id == game_id)
    if n is not None:
        q = q.order_by(col(LogEntry.index).desc()).limit(max(n, 0))
        rows = list(reversed(s.exec(q).all()))
    else:
        rows = list(s.exec(q.order_by(col(LogEntry.index))).all())
    return [_record(r) for r in rows]


def _game_record(g: Game, seats: dict, mods: tuple[str, ...], entries: list) -> GameRecord:
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

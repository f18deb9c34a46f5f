"""Store: games and their hash-chained, append-only logs in one SQL database (SQLite or PostgreSQL).

Invariants:
- Log rows are only inserted, each with its prev_hash and hash (storage/chain.py).
- Every change of a game is ONE transaction, run by `Store.transact(name, fn)`: fn reads the game
  (locked) through a GameTx (storage/game_tx.py), decides, and queues rows; the rows, the new
  snapshot, the game row's head and the dice bookkeeping commit together or not at all, read
  and written on the transaction's DB-API connection (storage/tx_writes.py, raw_sql.py).
- Concurrency: on SQLite every write transaction starts with BEGIN IMMEDIATE (WAL mode, busy
  timeout; storage/engine.py), so writers queue instead of failing; on PostgreSQL the game row is
  locked with SELECT ... FOR UPDATE. Under both, the game row's version column is the portable
  guard: an UPDATE of a game someone else changed raises StaleDataError. A conflict (stale
  version, a lost unique index race, "database is locked", a serialization failure) rolls back
  and runs fn again on a fresh read, a few times, before Conflict is raised.
- Seeds live in DiceSecret only; a seed enters the log (a `reveal` row) only when its epoch ends.
- The schema comes from the Alembic migrations in storage/migrations, run when a Store opens.

This module also re-exports what the others of the package define (the errors, the records,
GameTx, the engine helpers), so `from storage.store import ...` keeps working for all of them.
"""

from __future__ import annotations

import json
import logging
import random
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from sqlalchemy import bindparam, func
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, col, select

from storage import append_only, caches, trust, tx_writes, watch
from storage.engine import (
    DEFAULT_DB,
    HEAD_REVISION,
    MIGRATIONS,
    PG_MIGRATION_LOCK,
    SQLITE_BUSY_TIMEOUT_MS,
    database_url,
    dump,
    make_engine,
    migrate,
    retryable,
    scenario_hash,
    state_hash,
)
from storage.errors import Conflict, GameExists, GameNotFound, LegacyDatabase, StorageError
from storage.game_tx import FOLLOWERS, GameTx
from storage.models import DiceSecret, Game, GameColumns, LogEntry, Moderator, Seat, stored_id
from storage.records import GameRecord, LogRecord, game_record, records
from texts.i18n import t

__all__ = [
    "ATTEMPTS",
    "DEFAULT_DB",
    "FOLLOWERS",
    "HEAD_REVISION",
    "MIGRATIONS",
    "PG_MIGRATION_LOCK",
    "SQLITE_BUSY_TIMEOUT_MS",
    "Conflict",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "GameTx",
    "LegacyDatabase",
    "LogRecord",
    "StorageError",
    "Store",
    "database_url",
    "dump",
    "make_engine",
    "migrate",
    "scenario_hash",
    "state_hash",
]

log = logging.getLogger(__name__)

ATTEMPTS = 10  # of one transaction, on conflicts

T = TypeVar("T")

_GAME_Q = select(Game).where(Game.name == bindparam("name"))
_GAME = {False: _GAME_Q, True: _GAME_Q.with_for_update()}  # built once: every change reads it
_SNAPSHOT = select(Game.snapshot).where(Game.name == bindparam("name"))


class Store:
    def __init__(self, url: str | None = None, *, migrate_schema: bool = True):
        self.url = database_url(url)
        self.engine = make_engine(self.url)
        self._bindings: dict[str, tuple[str, str]] = {}  # game -> (system id, scenario text)
        self._texts: dict[str, str] = {}  # each scenario text once, however many games share it
        self._verified: set[str] = set()  # games whose whole chain this process checked
        self.anchors: dict[str, watch.Anchor] = {}  # game -> the last row verified (watch.py)
        self.frozen: dict[str, dict[str, Any]] = {}  # game -> its first failure (storage/trust.py)
        self.tamper_listeners: list[
            Callable[[str, dict[str, Any]], None]
        ] = []  # told of every freeze found
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
        game = session.exec(_GAME[lock], params={"name": name}).first()
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
        initial_state_dict: dict[str, Any],
        *,
        events: Iterable[dict[str, Any]] = (),
        creator: str | None = None,
        sides: Iterable[str] = (),
        turn: int = 1,
        uid: str | None = None,
        seed: str | None = None,
        hidden_seed: str | None = None,
        state_digest: str | None = None,
        state_hmac: str | None = None,
        hidden: list[str] | None = None,
        secret: list[dict[str, Any]] | None = None,
        rolls: list[dict[str, Any]] | None = None,
        roll_secrets: list[dict[str, Any]] | None = None,
        rules: int = 1,
    ) -> GameRecord:
        """The game, its seats, its first moderator, row 0 (setup) and row 1 (epoch 1's
        commitment), in one transaction.
        state_digest: the state hash row 0 records (default: of the whole initial state; a
        game with hidden information records that of its public view, and state_hmac, the
        commitment to the whole state: app/sealing.py). hidden, secret: the
        commitments of the setup's sealed events and their off-chain entries (app/sealing.py).
        rolls, roll_secrets: the draws the setup made from epoch 1's seeds, recorded in row 1
        (GameTx.open_epoch). rules: the version of the system's rules the game is set up
        under (recorded when above 1: adjudicator.core.system's module doc)."""
        with self._session() as s, s.begin():
            g = _insert_game(s, name, uid, game, scenario_text, sandbox, initial_state_dict)
            tx = GameTx(s, g)
            tx._pending = [Seat(game_id=stored_id(g), side=side) for side in sides]
            if creator is not None:
                tx._pending.append(Moderator(game_id=stored_id(g), user=creator))
            setup = {
                "scenario_sha256": scenario_hash(scenario_text),
                "sandbox": sandbox,
                "creator": creator,
                "events": list(events),
                "state_sha256": state_digest or state_hash(initial_state_dict),
            }
            if state_hmac is not None:
                setup["state_hmac"] = state_hmac
            if hidden:
                setup["hidden"] = hidden
            if rules != 1:
                setup["rules"] = rules
            tx.append("setup", "system", "new game", setup, user=creator, secret=secret)
            tx.open_epoch(turn, seed, hidden_seed or "new", rolls, roll_secrets)
            tx.finish()
        self._verified.add(name)
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
                    conn = s.connection()
                    g = tx_writes.read_game(conn, name, lock=True)
                    if g is None:
                        raise GameNotFound(name)
                    tx = GameTx(s, g, core=True, conn=conn)  # its reads and writes in Core
                    self._guard(s, g, *tx.before_checks())
                    tx.seats(), tx.moderators()  # every power's cache against its chained row
                    result = fn(tx)
                    tx.finish()
                return result
            except trust.Tampered as exc:
                self._freeze(name, exc.failure)
                raise
            except (StaleDataError, DBAPIError) as exc:
                if not retryable(exc):
                    raise
                log.info("game %r: conflict on attempt %d: %s", name, attempt, exc)
                if attempt == attempts:
                    raise Conflict(
                        t(
                            "game {name} kept changing while this was written ({tries} tries); "
                            "nothing was applied: send it again",
                            name=repr(name),
                            tries=attempts,
                        )
                    ) from exc
                time.sleep(random.uniform(0, 0.002 * 2**attempt))
        raise AssertionError("unreachable")

    # -- trust (storage/trust.py)
    def _guard(
        self, s: Session, g: GameColumns, hashes: Iterable[str] = (), epochs: Iterable[int] = ()
    ) -> None:
        """Before a write: the whole chain once per process (and while frozen), then the head
        and the dice bookkeeping (constant time). Tampered names the first bad row."""
        if g.name not in self._verified or g.name in self.frozen:
            failure = caches.full_failure(s, g) or watch.anchor_failure(s, g, self.anchors)
            if failure is not None:
                raise trust.Tampered(g.name, failure)
            self._verified.add(g.name)
            self.frozen.pop(g.name, None)
        failure = trust.check_head(s, g, hashes, epochs)
        if failure is not None:
            raise trust.Tampered(g.name, failure)

    def _freeze(self, name: str, failure: dict[str, Any]) -> None:
        """Every listener hears of every freeze found (app/freezes.py records the freeze in the
        database and tells each chat once per freeze, whichever process finds it again). A
        guard down is the database's, not the game's: every game of the database is frozen."""
        games = [(name, failure)]
        if failure.get("guards"):
            games += [
                (g.name, failure | {"index": g.head_index})
                for g in self.list_games()
                if g.name != name and not self.frozen.get(g.name, {}).get("guards")
            ]
        for game, found in games:
            if game not in self.frozen:
                log.error("game %r frozen: row %s: %s", game, found["index"], found["problem"])
            self.frozen[game] = found
            for listener in list(self.tamper_listeners):
                listener(game, found)

    freeze = _freeze  # (the background check, storage/watch.py)

    def verify(self, name: str) -> dict[str, Any] | None:
        """The whole chain and every cache of a game: its first failure, or None (the audit,
        and `pbem serve` before it serves a game). A failure freezes the game."""
        with self._session(read=True) as s:
            g = self._game(s, name)
            failure = caches.full_failure(s, g) or watch.anchor_failure(s, g, self.anchors)
        if failure is not None:
            self._freeze(name, failure)
        else:
            self._verified.add(name)
            self.frozen.pop(name, None)
        return failure

    def unguarded(self) -> list[append_only.Problem]:
        """The append-only guards the database lacks, or has changed (storage/append_only.py)."""
        with self.reader.connect() as conn:
            return append_only.problems(conn)

    def freeze_unguarded(self) -> list[append_only.Problem]:
        """A service's start: when a guard is down, every game of the database is frozen (and
        told as any freeze is) until a host puts it back (`pbem repair`); what is down."""
        found = self.unguarded()
        first = next(iter(self.list_games()), None)
        failure = append_only.failure(found, first.head_index if first else 0)
        if first is not None and failure is not None:
            self._freeze(first.name, failure)
        return found

    def roles_failure(self, name: str) -> dict[str, Any] | None:
        """The seats and moderators a question is answered by, against their chained rows (a
        failure freezes the game): a forged seat shows no side's private view."""
        with self._session(read=True) as s:
            g = self._game(s, name)
            seats = s.exec(select(Seat).where(Seat.game_id == g.id)).all()
            mods = s.exec(select(Moderator).where(Moderator.game_id == g.id)).all()
            failure = trust.check_roles(s, g, seats, mods)
        if failure is not None:
            self._freeze(name, failure)
        return failure

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
            entries = records(s, stored_id(g)) if with_log else []
            return game_record(g, seats, tuple(mods), entries)

    def snapshot(self, name: str) -> dict[str, Any]:
        """The game's snapshot (its state as JSON): one statement, nothing else read."""
        with self.reader.connect() as conn:
            text = conn.execute(_SNAPSHOT, {"name": name}).scalar()
        if text is None:
            raise GameNotFound(name)
        state: dict[str, Any] = json.loads(text)
        return state

    def scenario_text(self, name: str) -> str:
        return self.system_and_scenario(name)[1]

    def system_and_scenario(self, name: str) -> tuple[str, str]:
        """(game system id, scenario text) of a game: what binds its rules. Both are fixed when
        the game is made (nothing changes or deletes them), so this process reads them once."""
        known = self._bindings.get(name)
        if known is not None:
            return known
        with self._session(read=True) as s:
            found = s.exec(select(Game.game, Game.scenario_text).where(Game.name == name)).first()
        if found is None:
            raise GameNotFound(name)
        text = self._texts.setdefault(found[1], found[1])  # one copy of a scenario shared
        self._bindings[name] = (found[0], text)
        return found[0], text

    def log(self, name: str, n: int | None = None) -> list[LogRecord]:
        """The log, oldest first; with n, only the last n rows."""
        with self._session(read=True) as s:
            g = self._game(s, name)
            return records(s, stored_id(g), n)

    def rows(self, name: str) -> list[dict[str, Any]]:
        """The whole log as chained rows (LogRecord.to_dict): what audit and export read."""
        return [r.to_dict() for r in self.log(name)]

    def list_games(self) -> list[GameRecord]:
        with self._session(read=True) as s:
            games = s.exec(select(Game).order_by(col(Game.id))).all()
            return [game_record(g, {}, (), []) for g in games]

    def count_rows(self, name: str) -> int:
        with self._session(read=True) as s:
            g = self._game(s, name)
            return s.exec(select(func.count()).where(LogEntry.game_id == g.id)).one()

    def dice_secrets(self, name: str) -> list[dict[str, Any]]:
        """Every seed of a game with whether it is revealed. For tests and the operator only:
        nothing that a player reads may come from here before the seed is revealed."""
        with self._session(read=True) as s:
            g = self._game(s, name)
            q = select(DiceSecret).where(DiceSecret.game_id == g.id).order_by(col(DiceSecret.id))
            return [
                {"kind": d.kind, "epoch": d.epoch, "seed": d.seed, "revealed": d.revealed}
                for d in s.exec(q)
            ]


def _insert_game(
    s: Session,
    name: str,
    uid: str | None,
    game: str,
    scenario_text: str,
    sandbox: bool,
    initial_state_dict: dict[str, Any],
) -> Game:
    """Insert the game row (GameExists when the name is taken, even by a racing creator)."""
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
    return g

"""Store: games and their append-only logs in one SQL database (SQLite by default).

Every accepted order is ONE transaction: its log row and the new snapshot commit together, or
neither does. Rows are never updated or deleted.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import event, func
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, col, create_engine, select

from storage.models import Game, LogEntry, Seat, utcnow

log = logging.getLogger(__name__)

DEFAULT_DB = "pbem.db"
SIDES = ("soviet", "german")
SQLITE_BUSY_TIMEOUT_MS = 5000


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
    """The game changed since the caller read it: re-read and re-validate."""


@dataclass(frozen=True)
class LogRecord:
    index: int
    actor: str
    text: str
    rolls: list[dict]
    events: list[dict]
    created_at: datetime


@dataclass(frozen=True)
class GameRecord:
    name: str
    game: str
    scenario_text: str
    sandbox: bool
    created_at: datetime
    version: int
    snapshot: dict
    snapshot_index: int
    seats: dict[str, str | None] = field(default_factory=dict)
    log: list[LogRecord] = field(default_factory=list)


def database_url(target: str | None) -> str:
    """A SQLite path or a database URL -> a SQLAlchemy URL. None: the default file."""
    target = target or DEFAULT_DB
    if "://" in target:
        return target
    if target == ":memory:":
        return "sqlite://"
    return "sqlite:///" + str(Path(target))


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def make_engine(url: str) -> Engine:
    engine = create_engine(url)
    if make_url(url).get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


class Store:
    def __init__(self, url: str | None = None):
        self.url = database_url(url)
        self.engine = make_engine(self.url)
        SQLModel.metadata.create_all(self.engine)  # Alembic migrations come later

    def close(self) -> None:
        self.engine.dispose()

    def _session(self) -> Session:
        return Session(self.engine, expire_on_commit=False)

    @staticmethod
    def _game(session: Session, name: str) -> Game:
        game = session.exec(select(Game).where(Game.name == name)).first()
        if game is None:
            raise GameNotFound(name)
        return game

    def create_game(
        self,
        name: str,
        game: str,
        scenario_text: str,
        sandbox: bool,
        initial_state_dict: dict,
        *,
        rolls: Sequence[dict] = (),
        events: Sequence[dict] = (),
        actor: str = "system",
        text: str = "new game",
        sides: Iterable[str] = SIDES,
    ) -> GameRecord:
        """The game row, its seats and log row 0 (the setup, with its rolls), in one transaction."""
        with self._session() as s:
            if s.exec(select(Game.id).where(Game.name == name)).first() is not None:
                raise GameExists(name)
            row = Game(
                name=name,
                game=game,
                scenario_text=scenario_text,
                sandbox=sandbox,
                snapshot=_dump(initial_state_dict),
                snapshot_index=0,
            )
            s.add(row)
            try:
                s.flush()
            except IntegrityError as exc:  # created by someone else meanwhile
                raise GameExists(name) from exc
            s.add_all(Seat(game_id=row.id, side=side) for side in sides)
            s.add(_entry(row.id, 0, actor, text, rolls, events))
            s.commit()
        log.info("created game %r (%s, sandbox=%s)", name, game, sandbox)
        return self.load(name)

    def load(self, name: str, *, with_log: bool = True) -> GameRecord:
        with self._session() as s:
            g = self._game(s, name)
            seats = {
                seat.side: seat.user
                for seat in s.exec(select(Seat).where(Seat.game_id == g.id).order_by(col(Seat.id)))
            }
            entries = _rows(s, g.id) if with_log else []
            return GameRecord(
                name=g.name,
                game=g.game,
                scenario_text=g.scenario_text,
                sandbox=g.sandbox,
                created_at=g.created_at,
                version=g.version,
                snapshot=json.loads(g.snapshot),
                snapshot_index=g.snapshot_index,
                seats=seats,
                log=entries,
            )

    def append(
        self,
        name: str,
        actor: str,
        text: str,
        rolls: Sequence[dict],
        events: Sequence[dict],
        new_state_dict: dict,
        *,
        after: int | None = None,
    ) -> int:
        """Log one accepted order and store the state after it, in ONE transaction.

        after: the log index the new state was computed from; if the log has moved on since,
        Conflict is raised and nothing is written. Returns the new row's index.
        """
        with self._session() as s:
            g = self._game(s, name)
            if after is not None and after != g.snapshot_index:
                raise Conflict(f"game {name!r} is at row {g.snapshot_index}, not {after}")
            index = g.snapshot_index + 1
            s.add(_entry(g.id, index, actor, text, rolls, events))
            try:
                s.flush()  # the log row first: a failure below must take it back with it
            except IntegrityError as exc:  # another writer took this index
                raise Conflict(f"game {name!r} changed while writing row {index}") from exc
            g.snapshot = _dump(new_state_dict)
            g.snapshot_index = index
            g.version += 1
            s.add(g)
            s.commit()
        log.debug("game %r row %d: %s: %s", name, index, actor, text)
        return index

    def log(self, name: str, n: int | None = None) -> list[LogRecord]:
        """The log, oldest first; with n, only the last n rows."""
        with self._session() as s:
            g = self._game(s, name)
            return _rows(s, g.id, n)

    def list_games(self) -> list[GameRecord]:
        with self._session() as s:
            games = s.exec(select(Game).order_by(col(Game.id))).all()
            return [
                GameRecord(
                    name=g.name,
                    game=g.game,
                    scenario_text=g.scenario_text,
                    sandbox=g.sandbox,
                    created_at=g.created_at,
                    version=g.version,
                    snapshot=json.loads(g.snapshot),
                    snapshot_index=g.snapshot_index,
                )
                for g in games
            ]

    def count_rows(self, name: str) -> int:
        with self._session() as s:
            g = self._game(s, name)
            return s.exec(select(func.count()).where(LogEntry.game_id == g.id)).one()


def _entry(game_id, index, actor, text, rolls, events) -> LogEntry:
    return LogEntry(
        game_id=game_id,
        index=index,
        actor=actor,
        text=text,
        rolls=_dump(list(rolls)),
        events=_dump(list(events)),
        created_at=utcnow(),
    )


def _rows(s: Session, game_id: int, n: int | None = None) -> list[LogRecord]:
    q = select(LogEntry).where(LogEntry.game_id == game_id)
    if n is not None:
        q = q.order_by(col(LogEntry.index).desc()).limit(max(n, 0))
        rows = list(reversed(s.exec(q).all()))
    else:
        rows = list(s.exec(q.order_by(col(LogEntry.index))).all())
    return [
        LogRecord(r.index, r.actor, r.text, json.loads(r.rolls), json.loads(r.events), r.created_at)
        for r in rows
    ]

"""The tables: a game, its seats, and its append-only log.

Invariants: a game's log rows are numbered 0, 1, 2, ... with no gap (unique per game); row 0 is the
setup. `Game.snapshot` is only a cache of the state after row `snapshot_index`: the state is the
fold of the log, and the snapshot can always be rebuilt from it. JSON is stored as text so the
same schema runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(UTC)


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    game: str = "hells-gate"
    scenario_text: str = Field(sa_column=Column(Text, nullable=False))  # a game is self-contained
    sandbox: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    version: int = 1  # bumped by every change of this row
    snapshot: str = Field(sa_column=Column(Text, nullable=False))  # JSON of the state...
    snapshot_index: int = 0  # ...after this log row


class Seat(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    side: str
    user: str | None = None


class LogEntry(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "index", name="uq_logentry_game_index"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    index: int  # 0, 1, 2, ... per game; 0 is the setup
    actor: str
    text: str  # the canonical order text
    rolls: str = Field(sa_column=Column(Text, nullable=False))  # JSON: [{purpose, value, fixed}]
    events: str = Field(sa_column=Column(Text, nullable=False))  # JSON: [{kind, text, ...}]
    created_at: datetime = Field(default_factory=utcnow)

"""The tables: a game, its seats and moderators, its dice secrets, and its append-only log.

Invariants:
- a game's log rows are numbered 0, 1, 2, ... with no gap (unique per game); row 0 is the setup.
  Rows are only ever inserted: never updated, never deleted. Each row stores the hash of the row
  before it and its own hash over its chained fields (storage/chain.py), so any edit, deletion,
  insertion or reordering breaks the chain. `Game.head_hash` is the last row's hash.
- `LogEntry.secret` and `LogEntry.epoch` are not chained: `secret` keeps a hidden value and its
  salt until the game ends (the chained payload holds only their commitment); `epoch` is an index.
- `DiceSecret` holds the seeds. A seed is in no log row until its epoch ends and a `reveal` row
  publishes it; exports carry log rows only.
- `Game.snapshot` is only a cache of the state after row `head_index`: the state is the fold of
  the effective log rows and can always be rebuilt from them. `Game.version` is the row's
  version counter: an UPDATE of a game row that someone else changed first raises StaleDataError
  (SQLAlchemy's counter for the ORM's writes; storage/tx_writes.py guards a change's own).
- Seat and Moderator rows are the current roles, caches of chained rows: each carries the hash
  of the row it comes from (`row_hash`), checked on the read that grants a power; the game row's
  dice bookkeeping names its row in `epoch_row_hash` (storage/trust.py).

JSON is stored as text so the same schema runs on SQLite and PostgreSQL. The schema is created by
the Alembic migrations in storage/migrations (never by `create_all` in production code).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol, overload

from sqlalchemy import Column, Index, Table, Text, UniqueConstraint
from sqlalchemy.orm import declared_attr
from sqlmodel import Field, SQLModel


def table(model: type[SQLModel]) -> Table:
    """The Core table of a table model (SQLModel's type hints do not declare `__table__`)."""
    found = getattr(model, "__table__", None)
    if not isinstance(found, Table):
        raise TypeError(f"{model.__name__} is not a table model")
    return found


class GameColumns(Protocol):
    """The columns of a game row, as a Game (the ORM's) and a change's GameRow (read in Core,
    storage/tx_writes.py) hold them: what the trust checks and a GameTx read and change."""

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


def stored_id(g: GameColumns) -> int:
    """The id of a game row read from the database (only a row not yet flushed has none)."""
    if g.id is None:
        raise ValueError(f"game {g.name!r} is not stored yet")
    return g.id


def utcnow() -> datetime:
    return datetime.now(UTC)


@overload
def aware(value: datetime) -> datetime: ...
@overload
def aware(value: None) -> None: ...
def aware(value: datetime | None) -> datetime | None:
    """A stored time as aware UTC (SQLite gives back naive datetimes; PostgreSQL aware ones)."""
    if value is None or value.utcoffset() is not None:
        return value
    return value.replace(tzinfo=UTC)


def iso_now() -> str:
    """The chained timestamp of a log row: ISO 8601, UTC, microseconds."""
    return utcnow().isoformat(timespec="microseconds")


class Game(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    uid: str = Field(unique=True)  # random uuid4 hex: the game id of every roll's HMAC message
    game: str = "hells-gate"
    scenario_text: str = Field(sa_column=Column(Text, nullable=False))  # a game is self-contained
    sandbox: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    version: int = 1  # the version counter (see __mapper_args__)
    snapshot: str = Field(sa_column=Column(Text, nullable=False))  # JSON of the state...
    head_index: int = 0  # ...after this log row, the last one
    head_hash: str = ""
    epoch: int = 0  # the open dice epoch; 0: none open (the game is over)
    epoch_turn: int | None = None
    epoch_commitment: str | None = None
    epoch_next_n: int = 1  # the n of the next draw (public or hidden); > 1: salts closed
    salt_digest: str | None = None  # of the open epoch's salts, in log order
    paused: bool = False
    paused_why: str | None = None
    epoch_row_hash: str | None = None  # the chained row the dice bookkeeping comes from
    # where the last two phases ended (app/map_now.py): the rows of the orders that ended them;
    # not chained, never trusted alone. A new game's setup is its first; None: not known
    frame_row: int | None = 0
    frame_before: int | None = None

    @declared_attr.directive
    def __mapper_args__(cls) -> dict[str, Any]:  # (cls: the class, its table just made)
        return {"version_id_col": vars(cls)["__table__"].c.version}


class Seat(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "side", name="uq_seat_game_side"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    side: str
    user: str | None = None
    row_hash: str | None = None  # the chained row that gave the side to its user (or row 0)


class Moderator(SQLModel, table=True):
    __table_args__ = (UniqueConstraint("game_id", "user", name="uq_moderator_game_user"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    user: str
    row_hash: str | None = None  # the chained row that made him a moderator


class DiceSecret(SQLModel, table=True):
    """A seed: kind "epoch" (one per dice epoch) or "hidden" (for hidden rolls, per game)."""

    __table_args__ = (
        UniqueConstraint("game_id", "kind", "epoch", name="uq_dicesecret_game_kind_epoch"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    kind: str
    epoch: int  # the epoch it was committed in
    seed: str
    revealed: bool = False


class LogEntry(SQLModel, table=True):
    __table_args__ = (
        UniqueConstraint("game_id", "index", name="uq_logentry_game_index"),
        UniqueConstraint("game_id", "key", name="uq_logentry_game_key"),
        Index("ix_logentry_game_kind_epoch", "game_id", "kind", "epoch"),
        Index("ix_logentry_game_hash", "game_id", "hash"),
    )

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    # -- chained fields (storage/chain.CHAINED_FIELDS)
    index: int  # 0, 1, 2, ... per game; 0 is the setup
    kind: str  # setup, epoch, order, salt, reveal, reveal-hidden, undo, rewind, moderation
    actor: str  # a side of the game, moderator, system
    user: str | None = None  # who said it (None: the local operator of the command line)
    text: str = Field(sa_column=Column(Text, nullable=False))  # canonical command text
    payload: str = Field(sa_column=Column(Text, nullable=False))  # JSON, by kind
    key: str | None = None  # idempotency key: a retried delivery finds its row here
    created_at: str  # ISO 8601 UTC, exactly as hashed
    # -- the chain
    prev_hash: str
    hash: str
    # -- not chained
    epoch: int | None = None  # the dice epoch the row belongs to (index for salts and rolls)
    secret: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class IdentityLink(SQLModel, table=True):
    """A link between two platform accounts, a row of the service's one identity chain
    (storage/identity_chain.py): rows numbered 0, 1, 2, ... with no gap, each storing the hash
    of the row before it and its own hash over its chained fields (IDENTITY_FIELDS there).
    Only ever inserted (storage/append_only.py)."""

    __table_args__ = (UniqueConstraint("index", name="uq_identitylink_index"),)

    id: int | None = Field(default=None, primary_key=True)
    # -- chained fields
    index: int  # 0, 1, 2, ... over the whole service
    action: str  # "link" (the product has no unlink)
    user: str = Field(index=True)  # the account that confirmed the code
    other: str = Field(index=True)  # the account that asked for it (and was sent it)
    how: str  # "code": confirmed by its owner; "moved": made before the chain (migration 0009)
    created_at: str  # ISO 8601 UTC, exactly as hashed
    # -- the chain
    prev_hash: str
    hash: str

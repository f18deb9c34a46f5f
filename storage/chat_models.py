"""The tables of the chat front ends: which chat hosts which game, link codes, the outbox, the
service's own state, known chat users, the languages chosen, and the game's clock (deadline columns on `game`).

Invariants:
- A chat ("platform", "chat_id") hosts at most one game (unique); several chats may host the same
  game (linked with a one-time code). Games are referred to by name (unique, never renamed), so a
  binding may be written before its game exists (`new` reserves the binding, keyed by the message
  that asked for it, then creates the game: a redelivered `new` finds its binding, never makes a
  second game).
- An outbox row is sent at most once after it is marked `sent`; rows of one lane (one chat, or
  one user's private chat) are sent in id order; `dedupe_key` (unique, nullable) makes writing the
  posts of one incoming message idempotent.
- The deadline columns live on the `game` row (the source of truth for the scheduler). The Game
  ORM class (storage/models.py) does not map them: they are read and written through the Core
  table `game_clock` below (a second view of the same table, on its own MetaData so that it does
  not clash with the ORM's). Writing them does not bump `game.version`, and the ORM never writes
  them back: an order and a deadline change never overwrite each other.

JSON is stored as text (SQLite and PostgreSQL alike); datetimes are aware UTC.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    Column,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlmodel import Field, SQLModel
from sqlmodel.sql.sqltypes import UTCDateTime

from storage.models import utcnow

DEFAULT_PHASE_HOURS = 48
DEFAULT_DECISION_HOURS = 12
DEFAULT_REMINDER_HOURS = (24, 1)


class ChatBinding(SQLModel, table=True):
    __tablename__ = "chat_binding"
    __table_args__ = (UniqueConstraint("platform", "chat_id", name="uq_chat_binding_chat"),)

    id: int | None = Field(default=None, primary_key=True)
    platform: str
    chat_id: str
    game: str = Field(index=True)  # the game's name
    created_at: datetime = Field(default_factory=utcnow)
    created_key: str | None = None  # the message that made it (`new` or `link CODE`)


class LinkCode(SQLModel, table=True):
    __tablename__ = "link_code"

    code: str = Field(primary_key=True)
    game: str = Field(index=True)
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime
    created_key: str | None = Field(default=None, unique=True)  # the `link` message
    used_at: datetime | None = None
    used_platform: str | None = None
    used_chat_id: str | None = None


class OutboxRow(SQLModel, table=True):
    __tablename__ = "outbox"

    id: int | None = Field(default=None, primary_key=True)
    game: str | None = Field(default=None, index=True)  # the game's name, if any
    platform: str
    chat_id: str | None = None
    user_id: str | None = None
    lane: str  # what keeps its order: the chat, or "dm:<user>" for a private message
    text: str = Field(default="", sa_column=Column(Text, nullable=False))
    image: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    image_name: str = "map.png"
    private: bool = False
    mentions: str = Field(default="[]", sa_column=Column(Text, nullable=False))  # JSON list
    reply_to: str | None = None
    fallback_chat_id: str | None = None
    as_document: bool = False
    created_at: datetime = Field(default_factory=utcnow)
    status: str = Field(default="pending", index=True)  # pending | sent | failed
    attempts: int = 0  # failed attempts (a RetryAfter wait is not one)
    waits: int = 0  # RetryAfter waits
    next_attempt_at: datetime = Field(default_factory=utcnow)
    sent_at: datetime | None = None
    parts_sent: int = 0  # parts (text chunks, image) already delivered: resume after them
    last_error: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    dedupe_key: str | None = Field(default=None, unique=True)
    claimed_by: str | None = None  # the sender process sending it now ...
    claimed_until: datetime | None = None  # ... until then (a lease; renewed while sending)
    # a map to draw when the row is sent (JSON, e.g. {"after": 12, "upto": 17, "title": ...};
    # migration 0003): drawn once, kept in `image`
    render: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    # the decision a post asks (JSON {"key": situation key, "side": side}; migration 0006): its
    # buttons expire, and it is no longer sent as a question, once the game has moved on
    asks: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class TapToken(SQLModel, table=True):
    """What a button, a select option or a callback stands for (migration 0006): a short random
    token, so that nothing a platform carries can be forged into an order. Usable while the game
    stands at `situation` (the situation key it was offered in); `used_at`: pressed once."""

    __tablename__ = "tap_token"

    token: str = Field(primary_key=True)
    game: str = Field(index=True)
    situation: str
    side: str
    kind: str  # "order" | "step" | "answer" | "page" (bots/taps.py)
    payload: str = Field(default="{}", sa_column=Column(Text, nullable=False))  # JSON
    prompt: str | None = Field(default=None, index=True)  # "<platform>:<chat>:<message>"
    created_at: datetime = Field(default_factory=utcnow)
    used_at: datetime | None = None


class ServiceState(SQLModel, table=True):
    """Small facts about the running service (the heartbeat: key "heartbeat")."""

    __tablename__ = "service_state"

    key: str = Field(primary_key=True)
    value: str = Field(default="", sa_column=Column(Text, nullable=False))
    updated_at: datetime = Field(default_factory=utcnow)


class ChatUser(SQLModel, table=True):
    """The display name last seen for a chat user ("platform:id"): for texts and @name lookups."""

    __tablename__ = "chat_user"

    user: str = Field(primary_key=True)
    platform: str = Field(index=True)
    name: str
    updated_at: datetime = Field(default_factory=utcnow)


class ChatLanguage(SQLModel, table=True):
    """A language choice by scope: "chat:<platform>:<chat_id>" (a chat's, set by `language`) or
    "user:<platform>:<id>" (a user's own, for his private messages). `language` is the code
    chosen (None: none chosen); `locale` is a user's platform locale last seen (None: none)."""

    __tablename__ = "chat_language"

    scope: str = Field(primary_key=True)
    language: str | None = None
    locale: str | None = None
    updated_at: datetime = Field(default_factory=utcnow)


# The game row's clock columns (added by migration 0002), seen through Core.
clock_metadata = MetaData()
game_clock = Table(
    "game",
    clock_metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String, nullable=False),
    Column("started_at", UTCDateTime(), nullable=True),  # `start` in a chat; None: not started
    Column("deadline_at", UTCDateTime(), nullable=True),  # None: no deadline armed
    Column("deadline_kind", String, nullable=True),  # "phase" | "decision"
    Column("phase_hours", Integer, nullable=False, default=DEFAULT_PHASE_HOURS),
    Column("decision_hours", Integer, nullable=False, default=DEFAULT_DECISION_HOURS),
    Column("reminder_hours", Text, nullable=False),  # JSON list of hours before the deadline
    Column("reminders_sent", Text, nullable=False),  # JSON list of the hours already sent
    Column("clock_paused", Boolean, nullable=False, default=False),
    Column("paused_remaining_s", Integer, nullable=True),  # the time left when paused
    Column("last_image_index", Integer, nullable=True),  # the log head of the last posted map
)

__all__ = [
    "DEFAULT_DECISION_HOURS",
    "DEFAULT_PHASE_HOURS",
    "DEFAULT_REMINDER_HOURS",
    "ChatBinding",
    "ChatLanguage",
    "ChatUser",
    "LinkCode",
    "OutboxRow",
    "ServiceState",
    "TapToken",
    "clock_metadata",
    "game_clock",
]

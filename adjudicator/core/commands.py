"""Service commands: fair dice, the audit, taking orders back, and moderation.

The shared grammar parses them like any order, but no game's rules engine ever sees them: the
service (bots/service.py) carries them out on the game's log, seats and roles. They are the same
for every game system. Pure data: no I/O.

Free text (a salt, a reason) keeps its case and is normalised to single spaces, so
parse(format_order(c)) == c holds for every command whose text has no leading, trailing or
doubled spaces.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_TEXT = 200  # a salt or a reason: one line of chat, not an essay


@dataclass(frozen=True)
class Salt:
    """A player's entropy for the open dice epoch (accepted until the epoch's first roll)."""

    text: str


@dataclass(frozen=True)
class Rolls:
    """The last N rolls with purpose, epoch, n, value and whether a moderator fixed them."""

    count: int | None = None


@dataclass(frozen=True)
class Audit:
    """Moderator: check the chain and every revealed roll, with dice statistics."""


@dataclass(frozen=True)
class Undo:
    """A player takes back his own last order (never across a die roll or a reveal)."""


@dataclass(frozen=True)
class Rewind:
    """Moderator: every order after log row `index` stops counting (the rows stay in the log)."""

    index: int
    reason: str


@dataclass(frozen=True)
class Pause:
    reason: str


@dataclass(frozen=True)
class Resume:
    reason: str


@dataclass(frozen=True)
class Seat:
    side: str
    user: str
    reason: str | None = None


@dataclass(frozen=True)
class Unseat:
    side: str
    reason: str


@dataclass(frozen=True)
class Moderator:
    action: str  # "add" | "remove"
    user: str
    reason: str | None = None


SERVICE_QUERIES = (Rolls, Audit)
MODERATION = (Rewind, Pause, Resume, Seat, Unseat, Moderator)
SERVICE_COMMANDS = (Salt, Undo, *MODERATION)
Command = Salt | Rolls | Audit | Undo | Rewind | Pause | Resume | Seat | Unseat | Moderator

"""The commands every game system shares, and the chat's lifecycle commands.

- Service commands (fair dice, the audit, taking orders back, moderation): the shared grammar
  (adjudicator.grammar) parses them like any order, but no game's rules engine ever sees them:
  the application service carries them out on the game's log, seats and roles.
- Shared questions and sandbox orders (`Status`, `Log`, `Help`, `Dice`, `Default`): every
  system's grammar parses them; the system's rules answer or apply them (a system re-exports
  them among its own orders).
- Lifecycle commands (`NewGame`, `Join`, ... `MapCmd`): what a chat says about a game, not in
  it (`adjudicator.grammar.parse_lifecycle`); the chat front end carries them out.

They are the same for every game system. Pure data: no I/O.

Free text (a salt, a reason) keeps its case and is normalised to single spaces, so
parse(format(c)) == c holds for every command whose text has no leading, trailing or
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


# -- shared questions and sandbox orders: every system parses them, its rules answer them
@dataclass(frozen=True)
class Status:
    """Where the game stands: turn, phase, whose move, any decision waiting. full: the dice
    commitment and the head hash whole (`status full`), not their first characters."""

    full: bool = False


@dataclass(frozen=True)
class Log:
    count: int | None = None


@dataclass(frozen=True)
class Help:
    command: str | None = None


@dataclass(frozen=True)
class Dice:
    """Moderator, sandbox games: the next die results, in order."""

    values: tuple[int, ...]


@dataclass(frozen=True)
class Default:
    """What a passed deadline does: the pending decision's documented default, or end the phase."""


# -- the chat's lifecycle: about a game, said in a chat (adjudicator.grammar.parse_lifecycle)
@dataclass(frozen=True)
class NewGame:
    """`new [<SYSTEM>] [sandbox]`: a new game in this chat (system: as written, lower case)."""

    system: str | None = None
    sandbox: bool = False


@dataclass(frozen=True)
class Join:
    """`join [<SIDE>]`: take a side (a side id when the system's side words are known)."""

    side: str | None = None


@dataclass(frozen=True)
class Leave:
    """`leave [<SIDE>]`: give back one's side (or only that one) before the start."""

    side: str | None = None


@dataclass(frozen=True)
class Start:
    """`start`: begin once every side is taken."""


@dataclass(frozen=True)
class Link:
    """`link`: a one-time code; `link <CODE>`: this chat follows the game of the code."""

    code: str | None = None


@dataclass(frozen=True)
class DeadlineCmd:
    """`deadline [<ARGS...>]`: describe the deadlines, or (moderators) change them; args as
    typed, single-spaced ("decisions 12h", "48h", "")."""

    args: str = ""


@dataclass(frozen=True)
class Extend:
    """`extend <DURATION>`: moderators give the current deadline more time ("12h", "1d 12h")."""

    duration: str


@dataclass(frozen=True)
class MapCmd:
    """`map [full]`: the map now (full: the full-resolution file)."""

    full: bool = False


SERVICE_QUERIES = (Rolls, Audit)
MODERATION = (Rewind, Pause, Resume, Seat, Unseat, Moderator)
SERVICE_COMMANDS = (Salt, Undo, *MODERATION)
SHARED_QUERIES = (Status, Log, Help)
SHARED_ORDERS = (Dice, Default)
LIFECYCLE = (NewGame, Join, Leave, Start, Link, DeadlineCmd, Extend, MapCmd)
Command = Salt | Rolls | Audit | Undo | Rewind | Pause | Resume | Seat | Unseat | Moderator
Lifecycle = NewGame | Join | Leave | Start | Link | DeadlineCmd | Extend | MapCmd

"""Events: what happened, in the past tense, for logs, replies and the map, each with the
audience that may see it.

Invariants:
- An event for everyone (the default) serialises exactly as before audiences existed (no
  `audience` key), so the events of stored games keep their bytes.
- A private event (one side, or the moderators) never reaches anyone outside its audience while
  the game runs: the application core stores it in the chained log as a salted commitment only,
  sends its text privately, and reveals it in the export when the game ends.
- An event whose text is a core.i18n Msg also stores it under I18N, so that a chat in another
  language says it in its own; replay compares events without that key (it is presentation).
- Nothing for the moderators carries a hidden value while the game runs (a system's duty: a
  disputed report names what is disputed, not a hidden strength), but for a moderator's own
  secret edit (kind "edit", `is_secret`): the value a moderator set is told to the side it
  concerns and to the moderators, who gave it and may have to confirm it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.i18n import Msg, from_json

I18N = "i18n"  # the key of an event's text as a core.i18n Msg (presentation; not replayed)
ALL = "all"
MODERATORS = "moderators"
SIDE_PREFIX = "side:"


@dataclass(frozen=True)
class Audience:
    """Who may see a thing: everyone, one side's player, or the moderators."""

    kind: str = ALL  # ALL | "side" | MODERATORS
    side: str | None = None

    @classmethod
    def of_side(cls, side: str) -> Audience:
        return cls("side", side)

    @property
    def public(self) -> bool:
        return self.kind == ALL

    def to_json(self) -> str:
        return f"{SIDE_PREFIX}{self.side}" if self.kind == "side" else self.kind

    @classmethod
    def from_json(cls, text: str | None) -> Audience:
        if text is None or text == ALL:
            return EVERYONE
        if text == MODERATORS:
            return MODERATORS_ONLY
        if text.startswith(SIDE_PREFIX):
            return cls.of_side(text[len(SIDE_PREFIX) :])
        raise ValueError(f"not an audience: {text!r}")

    def sees(self, viewer: Viewer) -> bool:
        """Whether `viewer` may see what is for this audience."""
        if self.public or viewer.over:
            return True
        if self.kind == "side":
            return self.side in viewer.sides
        return viewer.moderator


EVERYONE = Audience()
MODERATORS_ONLY = Audience(MODERATORS)


@dataclass(frozen=True)
class Viewer:
    """Who looks: the sides whose seats he holds, whether he moderates the game, and whether the
    game is over (then everything is revealed). While a game runs a moderator sees only what is
    public, plus what his own seat sees, plus what is addressed to the moderators."""

    sides: frozenset[str] = frozenset()
    moderator: bool = False
    over: bool = False

    @classmethod
    def public(cls) -> Viewer:
        return cls()

    @classmethod
    def of(cls, sides: Iterable[str], moderator: bool = False, over: bool = False) -> Viewer:
        return cls(frozenset(sides), moderator, over)

    @property
    def label(self) -> str:
        """ "public", or the side(s) seen for: for titles and file names."""
        return "+".join(sorted(self.sides)) or "public"


@dataclass(frozen=True)
class Event:
    kind: str  # past tense, e.g. "UnitRetreated"
    text: str  # one line a player reads
    data: dict[str, Any] = field(default_factory=dict)
    audience: Audience = EVERYONE

    def to_dict(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"kind": self.kind, "text": str.__str__(self.text), **self.data}
        if not self.audience.public:
            doc["audience"] = self.audience.to_json()
        if isinstance(self.text, Msg):
            doc[I18N] = self.text.to_json()  # how to say it in another language (core.i18n)
        return doc


def event_text(event: dict[str, Any]) -> str:
    """The text of a stored event, as a Msg where the event recorded how to say it in other
    languages (its I18N key), else its English text (events stored before languages existed)."""
    doc = event.get(I18N)
    if isinstance(doc, dict):
        said = from_json(doc)
        if isinstance(said, Msg) and str(said) == event.get("text"):
            return said
    return str(event.get("text", event.get("kind", "")))


def audience_of(event: dict[str, Any]) -> Audience:
    """The audience of a stored event (its dict)."""
    return Audience.from_json(event.get("audience"))


# The event kinds the platform itself understands (every system emits them where they apply):
# the application core posts the map after them, cuts the images of phases at them, and tells
# what a deadline default did.
PHASE_BEGAN = "PhaseBegan"  # data: turn, phase
DECISION_PENDING = "DecisionPending"  # a decision was put to a side in the middle of a phase
GAME_ENDED = "GameEnded"
DEFAULT_APPLIED = "DefaultApplied"  # what a passed deadline's default did, a line each
POST_EVENTS = frozenset({PHASE_BEGAN, GAME_ENDED, DECISION_PENDING})

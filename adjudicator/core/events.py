"""Events: what happened, in the past tense, for logs, replies and the map."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Event:
    kind: str  # past tense, e.g. "UnitRetreated"
    text: str  # one line a player reads
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "text": self.text, **self.data}


# The event kinds the platform itself understands (every system emits them where they apply):
# the application core posts the map after them, cuts the images of phases at them, and tells
# what a deadline default did.
PHASE_BEGAN = "PhaseBegan"  # data: turn, phase
DECISION_PENDING = "DecisionPending"  # a decision was put to a side in the middle of a phase
GAME_ENDED = "GameEnded"
DEFAULT_APPLIED = "DefaultApplied"  # what a passed deadline's default did, a line each
POST_EVENTS = frozenset({PHASE_BEGAN, GAME_ENDED, DECISION_PENDING})

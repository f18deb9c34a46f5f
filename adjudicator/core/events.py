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

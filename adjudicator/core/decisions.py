"""Pending decisions: a question the rules put to one side in the middle of a phase."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Decision:
    kind: str  # "losses", "entry", "rebuild", "breakout"
    side: str  # who must answer
    prompt: str  # what is asked, for a player
    data: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "side": self.side, "prompt": self.prompt, **self.data}

    @classmethod
    def from_dict(cls, d: dict) -> Decision:
        d = dict(d)
        return cls(d.pop("kind"), d.pop("side"), d.pop("prompt"), d)

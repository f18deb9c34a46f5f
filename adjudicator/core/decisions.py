"""Pending decisions: a question the rules put to one side in the middle of a phase."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Decision:
    kind: str  # "losses", "entry", "rebuild", "breakout"
    side: str  # who must answer
    prompt: str  # what is asked, for a player
    data: dict[str, Any] = field(default_factory=dict)  # the system's detail, as JSON

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "side": self.side, "prompt": self.prompt, **self.data}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Decision:
        rest = dict(d)
        return cls(rest.pop("kind"), rest.pop("side"), rest.pop("prompt"), rest)

"""The states this process wrote, kept by their snapshot's text: the next order of the game starts
from the state object itself instead of decoding its snapshot again.

A game's snapshot text is a pure function of its state (app/sealing.py `serialised`), and a
system's state is never changed once made (the contract: `apply` leaves its state alone, and
nothing else of the service changes one). So an entry is found only by the very text the
transaction read from the game row: a snapshot changed by anyone, in any byte, is a different
text, found nowhere here, and decoded afresh. The checks before a write are the same either
way (app/integrity.py `checked_state` checks the snapshot against the log's state row whatever
it came from); only the decoding is saved. The entries are those of the games played last, a
bounded number of them, per system binding (the bound system object itself, not its id).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from adjudicator.core.system import GameSystem

KEPT = 256  # states kept: the games being played in this process

_STATES: OrderedDict[tuple[int, str], tuple[GameSystem, Any]] = OrderedDict()
_LOCK = threading.Lock()  # the serving process runs transactions in worker threads


def remember(system: GameSystem, text: str, state: Any) -> None:
    """`state` is the state `system` serialised to the snapshot `text`."""
    with _LOCK:
        _STATES[(id(system), text)] = (system, state)
        _STATES.move_to_end((id(system), text))
        while len(_STATES) > KEPT:
            _STATES.popitem(last=False)


def recall(system: GameSystem, text: str) -> Any | None:
    """The state whose snapshot is `text` under `system`, if this process made it; else None."""
    with _LOCK:
        found = _STATES.get((id(system), text))
        if found is None or found[0] is not system:
            return None
        _STATES.move_to_end((id(system), text))
        return found[1]


def forget() -> None:
    """Drop every entry (tests)."""
    with _LOCK:
        _STATES.clear()


__all__ = ["KEPT", "forget", "recall", "remember"]

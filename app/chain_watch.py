"""The background check of every game's chain (storage/watch.py) with the checks that need a
game's system: the snapshot against the state the log recorded last (app/integrity.py
`checked_state`, as before every order). `watch(store)` is what a serving process runs."""

from __future__ import annotations

from typing import Any

from app import games, integrity
from storage import GameTx, Store, Tampered
from storage.watch import BUDGET, Watch


def snapshot_failure(store: Store) -> Any:
    """extra(s, g): the game's snapshot against its last state row, read in the walk's
    session (a failure as a write's check names it, or None)."""

    def check(s: Any, g: Any) -> dict[str, Any] | None:
        try:
            integrity.checked_state(GameTx(s, g), games.system_of(store, g.name))
        except Tampered as exc:
            return exc.failure
        return None

    return check


def watch(store: Store, budget: int = BUDGET) -> Watch:
    return Watch(store, budget=budget, extra=snapshot_failure(store))


__all__ = ["snapshot_failure", "watch"]

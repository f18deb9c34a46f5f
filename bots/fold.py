"""The state as the fold of the log: replay the effective orders through the rules engine.

Works on log rows as dicts (storage.LogRecord.to_dict, or the lines of an exported file), so the
same code serves the service (undo, rewind, `pbem replay`) and the offline `pbem audit --verify`,
which has no database. Each effective order is re-applied with the non-fixed die results it
recorded (FixedDice); moderator-fixed results come back through the state, as they did the first
time. An undo row removes the rows it names; a rewind row removes every effective order after its
target (storage.audit.effective_orders).

With check=True every replayed row must give the events and the state hash it recorded; the first
that does not raises ReplayMismatch naming that row.
"""

from __future__ import annotations

import json

from adjudicator import grammar
from adjudicator.core.dice import DiceExhausted, FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate.state import GameState
from storage.audit import effective_orders
from storage.store import state_hash


class ReplayMismatch(Exception):
    """Re-applying the log does not give what it recorded; `index` is the first such row."""

    def __init__(self, index: int | None, message: str):
        super().__init__(message)
        self.index = index


def drawn(rolls: list[dict]) -> list[int]:
    """The results that came from the dice source (fixed ones come from the state itself)."""
    return [r["value"] for r in rolls if not r.get("fixed", False)]


def _jsonish(value):
    return json.loads(json.dumps(value))


def _check(row: dict, out, dice: FixedDice | None) -> None:
    where = f"row {row['index']} ({row['text']!r})"
    if dice is not None and dice.used != len(dice._values):
        raise ReplayMismatch(
            row["index"],
            f"{where}: the rules now roll {dice.used} dice, the log holds {len(dice._values)}",
        )
    payload = row["payload"]
    events = _jsonish([e.to_dict() for e in out.events])
    if events != payload.get("events", []):
        first = next(
            (i for i, (a, b) in enumerate(zip(events, payload.get("events", []))) if a != b),
            min(len(events), len(payload.get("events", []))),
        )
        expected = payload.get("events", [])[first : first + 1]
        found = events[first : first + 1]
        raise ReplayMismatch(
            row["index"],
            f"{where}: events differ on replay at event {first + 1}: logged "
            f"{expected}, now {found}",
        )
    recorded = payload.get("state_sha256")
    if recorded is not None and state_hash(out.state.to_dict()) != recorded:
        raise ReplayMismatch(row["index"], f"{where}: the state after it differs on replay")


def replay(rules, lexicon, rows: list[dict], *, check: bool = False) -> GameState:
    """The state after the effective orders of `rows` (a whole log, row 0 first)."""
    if not rows or rows[0].get("kind") != "setup":
        raise ReplayMismatch(0, "row 0 is not the setup row")
    setup = rows[0]
    out = rules.new_game(sandbox=bool(setup["payload"].get("sandbox")), dice=FixedDice([]))
    if check:
        _check(setup, out, None)
    state = out.state
    for row in effective_orders(rows):
        dice = FixedDice(drawn(row["payload"].get("rolls", [])))
        try:
            order = grammar.parse(row["text"], lexicon)
            out = rules.apply(state, row["actor"], order, dice)
        except (Rejection, DiceExhausted) as exc:
            raise ReplayMismatch(
                row["index"], f"row {row['index']} ({row['text']!r}): {exc}"
            ) from exc
        if check:
            _check(row, out, dice)
        state = out.state
    return state

"""Sandbox fixed dice: a moderator's `dice 3 5` makes the next two dice of the game 3 and 5.

One mechanism for every game system (the kit's `RulesSystem.apply` uses it; a rules engine that
takes orders itself calls the same functions):
- the values wait in the state's `fixed_dice` list (a list of ints). A state type that had no
  such field gains one that its JSON omits when empty and reads as empty when absent, so the
  JSON of existing states does not change (`fixed_to_json`, `fixed_from_json`);
- `fixed_source(state, dice)` is the order's dice: the fixed values first, in order, then the
  game's source; every draw is recorded, a fixed one as `Roll(fixed=True)`;
- `check_fix` refuses the command outside a sandbox game and from anyone but a moderator (the
  texts Hell's Gate has always used), and values that are no result of the game's die;
- `fixed_event` is what the log tells.
A fixed value drawn for a die it does not fit (a 5 for a shuffle's two-faced die) refuses the
order and changes nothing. Pure: no I/O, no clock, no global random.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Event
from adjudicator.core.i18n import t
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR

FIELD = "fixed_dice"  # the state's field (and JSON key) of the values still to come


class FixedFirst(RecordingDice):
    """The game's dice with a moderator's fixed values first; records every draw."""

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        if self.fixed and not 1 <= self.fixed[0] <= faces:
            raise Rejection(
                "fixed-die-does-not-fit",
                t(
                    "the next fixed die result, {value}, is no result of the die of {faces} "
                    "faces this order rolls ({purpose})",
                    value=self.fixed[0],
                    faces=faces,
                    purpose=purpose,
                ),
                None,
            )
        return super()._draw(faces, purpose, hidden)


def fixed_of(state: Any) -> list[int]:
    """The fixed values a state holds (none where its type has no such field)."""
    return list(getattr(state, FIELD, None) or ())


def fixed_source(state: Any, dice: DiceSource | None) -> FixedFirst:
    """The dice of one order on `state`: its fixed values first. A FixedFirst that has drawn
    nothing yet (the kit's, handed on to a rules engine) is the same source: not wrapped twice."""
    if isinstance(dice, FixedFirst) and not dice.rolls:
        return dice
    return FixedFirst(dice, fixed_of(state))


def with_fixed(state: Any, values: Sequence[int]) -> Any:
    """`state` with these fixed values left: the same object if nothing changes, else a copy
    (a frozen dataclass by `dataclasses.replace`, another by its `clone()`)."""
    if fixed_of(state) == list(values):
        return state
    params = getattr(type(state), "__dataclass_params__", None)
    if params is not None and params.frozen:
        return dataclasses.replace(state, **{FIELD: list(values)})
    new = state.clone()
    setattr(new, FIELD, list(values))
    return new


def check_fix(
    state: Any, actor: str, values: Sequence[int], faces: int = 6, rule: str | None = None
) -> None:
    """Refuse `dice <values>` unless a moderator gives it in a sandbox game, with results of
    the game's die (1 to `faces`; `rule` the rule that says so)."""
    if actor not in (MODERATOR_ACTOR, SYSTEM_ACTOR):
        raise Rejection("moderator-only", t("only a moderator may give this command"), None)
    if not getattr(state, "sandbox", False):
        raise Rejection(
            "sandbox-only",
            t(
                "moderator commands that change the game are allowed only in sandbox games (no "
                "rule of the game covers them)"
            ),
            None,
        )
    if not hasattr(state, FIELD):
        raise Rejection("no-fixed-dice", t("this system takes no fixed dice"), None)
    if not values or not all(1 <= v <= faces for v in values):
        text = (
            t("die results are 1 to 6")
            if faces == 6
            else t("die results are 1 to {sides} (the die of this game)", sides=faces)
        )
        raise Rejection("bad-dice", text, rule)


def fixed_event(values: Sequence[int]) -> Event:
    """What the log says of `dice <values>`."""
    said = " ".join(map(str, values))
    text = t("Moderator fixes the next die results: {values}.", values=said)
    return Event("DiceFixed", text, {"values": list(values)})


def fixed_to_json(state: Any, data: dict[str, Any]) -> dict[str, Any]:
    """`data` (a state's JSON) with the fixed values, the key omitted when there are none."""
    values = fixed_of(state)
    return {**data, FIELD: values} if values else data


def fixed_from_json(data: dict[str, Any]) -> list[int]:
    """The fixed values of a state's JSON (none when the key is absent)."""
    return [int(v) for v in data.get(FIELD) or ()]


__all__ = [
    "FIELD",
    "FixedFirst",
    "check_fix",
    "fixed_event",
    "fixed_from_json",
    "fixed_of",
    "fixed_source",
    "fixed_to_json",
    "with_fixed",
]

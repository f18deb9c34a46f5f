"""Small scenarios for the Borodino rule tests, and a table to play them with fixed dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.borodino.system import SYSTEM, BorodinoSystem
from adjudicator.core.dice import FixedDice

HEAD = """title = "test"
die_sides = {die}
use_jager_rules = {jager}
[end]
recovery_phases = {phases}
on_collapse = {on_collapse}
[map]
columns = [1, 12]
rows = [1, 12]
low_columns = "odd"
"""


def unit(uid: str, side: str, hex_id: str | None, group: str | None = None, **more: Any) -> str:
    lines = ["[[units]]", f'id = "{uid}"', f'side = "{side}"']
    lines.append(f'group = "{group}"' if group else f'army = "{more.pop("army", side + " army")}"')
    lines.append(f'type = "{more.pop("type", "infantry")}"')
    lines.append(f"cohesion = {more.pop('cohesion', 5)}")
    lines.append(f"cohesion_disordered = {more.pop('cd', 3)}")
    if hex_id is not None:
        lines.append(f'hex = "{hex_id}"')
    for key, value in more.items():
        lines.append(
            f'{key} = "{value}"' if isinstance(value, str) else f"{key} = {str(value).lower()}"
        )
    return "\n".join(lines)


def group(gid: str, side: str, army: str | None = None) -> str:
    return (f'[[groups]]\nid = "{gid}"\nside = "{side}"\nname = "{gid} group"\n'
            f'army = "{army or side + " army"}"')  # fmt: skip


def scenario(*parts: str, die: int = 6, jager: bool = False, phases: int = 5,
             on_collapse: bool = False) -> str:  # fmt: skip
    head = HEAD.format(die=die, jager=str(jager).lower(), phases=phases,
                       on_collapse=str(on_collapse).lower())  # fmt: skip
    return head + "\n\n".join(parts) + "\n"


def line_group(gid: str, side: str, n: int, column: int, **more: Any) -> list[str]:
    """An AG of n infantry units in one column from row 1 down, ids gid1..gidn."""
    return [group(gid, side)] + [
        unit(f"{gid}{i}", side, f"{column:02d}{i:02d}", gid, **more) for i in range(1, n + 1)
    ]


class Table:
    """A game of a scenario text, played order by order with given dice."""

    def __init__(self, text: str, sandbox: bool = False, rules: int | None = None):
        self.system: BorodinoSystem = SYSTEM.load(text, "test")
        self.state = self.system.initial(sandbox, FixedDice([]), rules=rules).state
        self.events: list[Any] = []

    def say(self, side: str, text: str, dice: Sequence[int] = ()) -> list[str]:
        order = self.system.grammar.parse(text)
        fixed = FixedDice(dice)
        out = self.system.apply(self.state, side, order, fixed)
        assert fixed.used == len(dice), f"{text}: {len(dice) - fixed.used} die result(s) unused"
        self.state, self.events = out.state, out.events
        return [e.text for e in out.events]

    def where(self, uid: str) -> str:
        return self.state.units[uid].where

    def spot(self, uid: str) -> Any:
        return self.state.units[uid]

    def legal(self, side: str) -> list[str]:
        return sorted(
            self.system.grammar.format(o) for o in self.system.legal_orders(self.state, side)
        )

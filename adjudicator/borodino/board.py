"""What the rules ask of the position: sides, groups, enemy hexes, losses, the boxes; and the
context an order is applied in (the scenario, a copy of the state, the recording dice, the
events). Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.borodino.data import SIDE_IDS, Scenario, Unit
from adjudicator.borodino.state import State
from adjudicator.core.dice import RecordingDice
from adjudicator.core.events import EVERYONE, Audience, Event

SIDE_NAMES = {"russian": "Russian", "french": "French"}
BOXES = (("withdrawn", "Withdrawn"), ("recovery", "Recovery"), ("recovered", "recovered, to place"))


@dataclass
class Ctx:
    scen: Scenario
    state: State
    dice: RecordingDice
    events: list[Event] = field(default_factory=list)

    def emit(self, kind: str, text: str, audience: Audience = EVERYONE, **data: Any) -> None:
        self.events.append(Event(kind, text, data, audience))

    def emit_data(self, kind: str, text: str, data: dict[str, Any]) -> None:
        self.events.append(Event(kind, text, data))

    def roll(self, purpose: str) -> int:
        """One die of the scenario's size (1.10)."""
        return self.dice.die(self.scen.die_sides, purpose)


def other(side: str) -> str:
    return SIDE_IDS[1] if side == SIDE_IDS[0] else SIDE_IDS[0]


def side_name(side: str) -> str:
    return SIDE_NAMES.get(side, side.title())


def owner(scen: Scenario, group_or_unit: str) -> str:
    if group_or_unit in scen.groups:
        return scen.groups[group_or_unit].side
    return scen.units[group_or_unit].side


def label(scen: Scenario, uid: str) -> str:
    return f"{uid} ({scen.units[uid].name})"


def group_label(scen: Scenario, gid: str) -> str:
    if gid in scen.groups:
        return f"{gid} ({scen.groups[gid].name})"
    return f"{label(scen, gid)}, independent"


def members(scen: Scenario, group_or_unit: str) -> list[Unit]:
    """The units an activation covers: an AG's units, or the independent unit alone (2.8)."""
    if group_or_unit in scen.groups:
        return scen.members(group_or_unit)
    return [scen.units[group_or_unit]]


def enemy_hexes(scen: Scenario, state: State, side: str) -> list[str]:
    return [
        s.hex
        for u, s in state.units.items()
        if s.on_map and s.hex is not None and scen.units[u].side != side
    ]


def adjacent_to_enemy(scen: Scenario, state: State, uid: str) -> bool:
    spot = state.units[uid]
    if spot.hex is None:
        return False
    side = scen.units[uid].side
    return any(scen.map.adjacent(spot.hex, h) for h in enemy_hexes(scen, state, side))


def is_collapsed(scen: Scenario, state: State, uid: str) -> bool:
    group = scen.units[uid].group
    return group is not None and group in state.collapsed


def losses(scen: Scenario, state: State, gid: str) -> tuple[int, int]:
    """6.3, 6.4: (L, N): N the AG's units that have entered play, artillery and Opolchenie not
    counted; L those of them off the map (routed or eliminated; awaiting placement too, 4.5)."""
    counted = [u.id for u in scen.members(gid) if u.counts_for_collapse and u.id in state.entered]
    lost = [u for u in counted if state.units[u].off_map]
    return len(lost), len(counted)


def collapse_at(n: int) -> int:
    """6.3: the smallest L with 3 x L >= 2 x N (N = 5: 4; N = 7: 5)."""
    return -(-2 * n // 3)


def units_in(scen: Scenario, state: State, side: str, where: str) -> list[str]:
    return [u for u, s in state.units.items() if s.where == where and scen.units[u].side == side]


def boxes_text(scen: Scenario, state: State, side: str) -> str:
    parts = [f"{name}: {', '.join(units_in(scen, state, side, w)) or '-'}" for w, name in BOXES]
    return f"{side_name(side)} boxes: " + "; ".join(parts) + "."


def eliminated_text(scen: Scenario, state: State) -> str:
    gone = [u for u in scen.units if state.units[u].where == "eliminated"]
    return f"Permanently Eliminated: {', '.join(gone) or '-'}."


def losses_text(scen: Scenario, state: State) -> str:
    """Each AG's losses against its collapse threshold (6.3)."""
    parts = []
    for gid in scen.groups:
        lost, n = losses(scen, state, gid)
        if gid in state.collapsed:
            mark = "COLLAPSED"
        elif gid in state.out_of_game:
            mark = "out of the game"
        else:
            mark = f"collapses at {collapse_at(n)}" if n else "not yet in play"
        parts.append(f"{gid} {lost} of {n} lost ({mark})")
    return "Losses: " + ("; ".join(parts) or "no Activation Groups") + "."


def tell_boxes(ctx: Ctx) -> None:
    """The state of the boxes and the losses, for the summary after a rally or recovery phase."""
    for side in SIDE_IDS:
        ctx.emit("BoxesNow", boxes_text(ctx.scen, ctx.state, side), side=side)
    ctx.emit("BoxesNow", eliminated_text(ctx.scen, ctx.state))
    ctx.emit("LossesNow", losses_text(ctx.scen, ctx.state))

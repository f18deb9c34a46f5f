"""Where a retreat may go (8.31-8.33, with the turn limits of 12.3 and 12.8), and why a hex is
no legal destination."""

from __future__ import annotations

from adjudicator.core.i18n import Msg, t
from adjudicator.hells_gate import turn_rules
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, other
from adjudicator.hells_gate.zoc import zoc_of


def retreat_hexes(scen: Scenario, state: GameState, origin: str, side: str) -> list[str]:
    """8.32/8.33: legal destinations, judged before any unit of the retreat moves."""
    enemy_zoc = zoc_of(scen, state, other(side))
    from_supply = scen.hexes[origin].supply == side
    legal = []
    for dest in scen.grid.neighbours(origin):  # (a) on the map
        holder = state.side_in(dest)
        friendly = holder == side
        if holder is not None and not friendly:  # (b)
            continue
        if dest in enemy_zoc and not friendly:  # (c)
            continue
        if scen.hexes[dest].supply == other(side) and not friendly:  # (d)
            continue
        if from_supply and scen.hexes[dest].supply != side:  # (e)
            continue
        if turn_rules.retreat_limit(scen, state, side, dest):  # (f)
            continue
        legal.append(dest)
    return legal


def why_illegal(scen: Scenario, state: GameState, origin: str, side: str, dest: str) -> Msg:
    """Why `dest` is no legal retreat from `origin`, in words."""
    rule = illegal_rule(scen, state, origin, side, dest)
    return _ILLEGAL_RETREAT.get(rule) or t("not a legal destination")


_ILLEGAL_RETREAT = {  # 8.31-8.33, 12.3, 12.8: why a hex is no legal retreat
    "8.31": t("a retreat is 1 hex, into an adjacent hex"),
    "8.32(a)": t("it is not on the map"),
    "8.32(b)": t("it holds enemy units"),
    "8.32(c)": t("it is in the attacker's ZOC and holds no friendly unit"),
    "8.32(d)": t("it is an enemy supply hex with no friendly unit"),
    "8.32(e)": t("units retreating from a friendly supply hex must go to another one"),
    "12.3": t(
        "on turn 1 German units retreat only to a hex with German units or a German supply hex "
        "outside Soviet ZOC, not attacked this phase"
    ),
    "12.8": t("German units may not retreat into Tychinovka on turn 2"),
}


def illegal_rule(scen: Scenario, state: GameState, origin: str, side: str, dest: str) -> str:
    """The rule that forbids a retreat from `origin` to `dest`."""
    if dest not in scen.grid:
        return "8.32(a)"
    if not scen.grid.adjacent(origin, dest):
        return "8.31"
    holder = state.side_in(dest)
    if holder not in (None, side):
        return "8.32(b)"
    friendly = holder == side
    if not friendly and dest in zoc_of(scen, state, other(side)):
        return "8.32(c)"
    if not friendly and scen.hexes[dest].supply == other(side):
        return "8.32(d)"
    if scen.hexes[origin].supply == side and scen.hexes[dest].supply != side:
        return "8.32(e)"
    return turn_rules.retreat_limit(scen, state, side, dest) or "8.32"

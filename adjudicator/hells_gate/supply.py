"""Supply (section 6), the turn-2 limit (12.7) and the end-of-game check (13.1-13.3).

6.2: a supply line is a chain of adjacent hexes from the unit's hex to a friendly supply hex;
every hex of it, both ends included, (a) holds no enemy unit and (b) is not in EZOC unless it
holds a friendly unit (6.4: any friendly unit, OOS or retreated). 6.7: length 0 on a supply hex.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from adjudicator.core.i18n import Msg, cat, t
from adjudicator.core.text import plural
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState
from adjudicator.hells_gate.zoc import ezoc


def passable(scen: Scenario, state: GameState, side: str) -> set[str]:
    """Hexes that meet 6.2 (a) and (b) for `side`."""
    occupied = state.occupied()
    enemy_zoc = ezoc(scen, state, side)
    ok = set()
    for h in scen.grid.hexes:
        holder = occupied.get(h)
        if holder is None and h in enemy_zoc:
            continue
        if holder is not None and holder != side:
            continue
        ok.add(h)
    return ok


def line_lengths(scen: Scenario, state: GameState, side: str) -> dict[str, int]:
    """Shortest supply-line length from each hex that can trace one (multi-source BFS)."""
    ok = passable(scen, state, side)
    dist = {h: 0 for h in scen.supply_hexes(side) if h in ok}
    queue = deque(scen.grid.sort(dist))
    while queue:
        h = queue.popleft()
        for n in scen.grid.neighbours(h):
            if n in ok and n not in dist:
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


def length_limit(scen: Scenario, state: GameState, side: str) -> int | None:
    """12.7: in the Soviet supply phase of turn 2, a line is at most 3 hexes long."""
    if side == "soviet" and state.turn == 2 and state.phase == "soviet-supply":
        return int(scen.flags["turn2_supply_limit"])
    return None


def in_supply_hexes(scen: Scenario, state: GameState, side: str, limit: int | None) -> set[str]:
    lengths = line_lengths(scen, state, side)
    return {h for h, n in lengths.items() if limit is None or n <= limit}


@dataclass
class SupplyReport:
    unit: str
    hex: str
    traced: bool
    path: list[str]
    reason: str  # a core.i18n Msg


def trace_path(scen: Scenario, state: GameState, side: str, start: str) -> list[str] | None:
    """One shortest supply line from `start`, as hexes, ending on a supply hex."""
    lengths = line_lengths(scen, state, side)
    if start not in lengths:
        return None
    path = [start]
    while lengths[path[-1]] > 0:
        here = path[-1]
        path.append(
            next(n for n in scen.grid.neighbours(here) if lengths.get(n) == lengths[here] - 1)
        )
    return path


def explain(scen: Scenario, state: GameState, unit_id: str) -> SupplyReport:
    """Why a unit can or cannot trace supply now (for the `supply` command)."""
    u = state.units[unit_id]
    hex_id = u.map_hex
    path = trace_path(scen, state, u.side, hex_id)
    limit = length_limit(scen, state, u.side)
    if path is not None and (limit is None or len(path) - 1 <= limit):
        line = "-".join(path)
        return SupplyReport(
            unit_id,
            hex_id,
            True,
            path,
            t("line {line} ({hexes})", line=line, hexes=plural(len(path) - 1, "hex")),
        )
    if path is not None:
        return SupplyReport(
            unit_id,
            hex_id,
            False,
            path,
            t(
                "shortest line {line} is {n} hexes, over the turn-2 limit of {limit} (12.7)",
                line="-".join(path),
                n=len(path) - 1,
                limit=limit,
            ),
        )
    return SupplyReport(unit_id, hex_id, False, [], _blockers(scen, state, u.side, hex_id))


def _blockers(scen: Scenario, state: GameState, side: str, start: str) -> Msg:
    ok = passable(scen, state, side)
    reach, queue, blocked = {start}, deque([start]), set()
    while queue:
        h = queue.popleft()
        for n in scen.grid.neighbours(h):
            if n in ok and n not in reach:
                reach.add(n)
                queue.append(n)
            elif n not in ok:
                blocked.add(n)
    occupied = state.occupied()
    enemy = scen.grid.sort(h for h in blocked if occupied.get(h) not in (None, side))
    zoc = scen.grid.sort(h for h in blocked if occupied.get(h) is None)
    parts = []
    if zoc:
        parts.append(t("enemy ZOC in {hexes}", hexes=", ".join(zoc)))
    if enemy:
        parts.append(t("enemy units in {hexes}", hexes=", ".join(enemy)))
    cut = cat(*parts, sep="; ") if parts else t("the map edge")
    return t("no supply line (6.2): cut by {cut}", cut=cut)

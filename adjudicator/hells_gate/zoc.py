"""Zones of control (section 5).

5.1-5.3 every unit on the map, whatever its markers, exerts ZOC into its 6 adjacent hexes;
terrain does not matter. 5.5 ZOC has no effect on movement.
"""

from __future__ import annotations

from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, other


def zoc_of(scen: Scenario, state: GameState, side: str) -> set[str]:
    """The hexes in the ZOC of `side`'s units."""
    hexes: set[str] = set()
    for u in state.on_map(side):
        hexes.update(scen.grid.neighbours(u.map_hex))
    return hexes


def ezoc(scen: Scenario, state: GameState, side: str) -> set[str]:
    """5.7: hexes in enemy ZOC for `side`: adjacent to at least one enemy unit."""
    return zoc_of(scen, state, other(side))

"""The built-in opponent's judgement of a Hell's Gate position (core.system.OpponentSupport).

The game is won on victory points counted after the end-of-game supply attrition (13, 14), so
the heuristic is the VP margin the position would give if the game ended now, plus what the
rules will very likely add by the end:
- VP (14.1-14.4): enemy steps eliminated, enemy two-step units reduced, enemy supply hexes
  held (2 each), the German balance of 10;
- attrition (13.1-13.3): a unit that cannot trace a supply line now is counted as partly lost
  (its remaining VP value to the enemy), the more the later the turn, since at the end it dies;
- the supply hexes within reach: a unit next to an enemy supply hex nobody holds is a small
  gain (it may take the hex next movement phase); a friendly supply hex next to enemy units a
  small threat;
- strength on the map: a small tie-breaker that prefers keeping steps.
A finished game is worth far more than any margin (won, drawn, lost). Hell's Gate hides
nothing: `determinise` is the view itself (the kit's default). Pure.
"""

from __future__ import annotations

from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState, other
from adjudicator.hells_gate.supply import in_supply_hexes
from adjudicator.hells_gate.units import strength
from adjudicator.hells_gate.victory import victory_points

FINISHED = 1000.0  # a finished game outweighs any margin
REACH = 0.5  # an enemy supply hex a friendly unit stands next to, nobody in it
STRENGTH = 0.02  # per strength point on the map


def evaluate(scen: Scenario, state: GameState, side: str) -> float:
    """How good `state` is for `side` (the module doc): higher is better."""
    enemy = other(side)
    if state.result is not None:
        won = state.result["winner"]
        margin = float(state.result[side] - state.result[enemy])  # type: ignore[literal-required]
        return margin + (FINISHED if won == side else -FINISHED if won == enemy else 0.0)
    vp = victory_points(scen, state)
    score = float(vp[side]["total"] - vp[enemy]["total"])
    late = min(1.0, 0.3 + 0.1 * state.turn)  # how surely a cut-off unit dies by the end (13)
    score += late * (_cut_off_value(scen, state, enemy) - _cut_off_value(scen, state, side))
    score += REACH * (_reach(scen, state, side) - _reach(scen, state, enemy))
    score += STRENGTH * (_strength(scen, state, side) - _strength(scen, state, enemy))
    return score


def _loss_value(scen: Scenario, unit: UnitState) -> int:
    """The VP the enemy gains when this unit on the map is eliminated (14.1, 14.2)."""
    steps = scen.units[unit.id].steps
    return steps - 1 if unit.reduced and steps == 2 else steps


def _cut_off_value(scen: Scenario, state: GameState, side: str) -> int:
    """The VP value of `side`'s units that cannot trace a supply line now (13)."""
    ok = in_supply_hexes(scen, state, side, None)
    return sum(_loss_value(scen, u) for u in state.on_map(side) if u.map_hex not in ok)


def _reach(scen: Scenario, state: GameState, side: str) -> int:
    """Empty enemy supply hexes next to a unit of `side` (14.3: one move from 2 VP)."""
    occupied = state.occupied()
    mine = {u.map_hex for u in state.on_map(side)}
    return sum(
        1
        for h in scen.supply_hexes(other(side))
        if h not in occupied and any(n in mine for n in scen.grid.neighbours(h))
    )


def _strength(scen: Scenario, state: GameState, side: str) -> int:
    return sum(strength(scen, u) for u in state.on_map(side))


__all__ = ["evaluate"]

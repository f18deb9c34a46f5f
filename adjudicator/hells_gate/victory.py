"""End-of-game supply attrition (section 13) and victory points (section 14)."""

from __future__ import annotations

from adjudicator.core.i18n import t
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.losses import eliminate
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, Result, SideVP, other
from adjudicator.hells_gate.supply import in_supply_hexes

BALANCE_VP = 10  # 14.4


def attrition(ctx: Ctx) -> None:
    """13.1-13.3: a fresh trace, Soviet first, then German; markers ignored."""
    for side in ("soviet", "german"):
        ok = in_supply_hexes(ctx.scen, ctx.state, side, None)
        for u in sorted(ctx.state.on_map(side), key=lambda u: u.id):
            if u.hex not in ok:
                eliminate(ctx, u, t("cannot trace supply at the end of the game (13)"))


def victory_points(scen: Scenario, state: GameState) -> dict[str, SideVP]:
    """14.1-14.5, counted on the state as it stands."""
    vp: dict[str, SideVP] = {}
    for side in ("soviet", "german"):
        enemy = other(side)
        eliminated = sum(
            scen.units[u.id].steps
            for u in state.units.values()
            if u.side == enemy and u.box == "eliminated"
        )
        reduced = sum(
            1
            for u in state.units.values()
            if u.side == enemy
            and u.reduced
            and scen.units[u.id].steps == 2
            and u.box in ("map", "broken_out")
        )
        held = [h for h in scen.supply_hexes(enemy) if state.side_in(h) == side]
        balance = BALANCE_VP if side == "german" else 0
        vp[side] = {
            "total": eliminated + reduced + 2 * len(held) + balance,
            "eliminated_steps": eliminated,
            "reduced_units": reduced,
            "supply_hexes": held,
            "balance": balance,
        }
    return vp


def final_result(scen: Scenario, state: GameState) -> Result:
    """14.7: more VP wins; equal totals are a draw."""
    vp = victory_points(scen, state)
    s, g = vp["soviet"]["total"], vp["german"]["total"]
    winner = "soviet" if s > g else "german" if g > s else "draw"
    return {"winner": winner, "soviet": s, "german": g}

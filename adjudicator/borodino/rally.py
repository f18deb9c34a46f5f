"""Rally (Сбор), rules 2.1-2.8: who may attempt in a Rally phase, and the attempt.

Invariants: only units of the AG (or the independent unit) whose Activation Phase has just
ended attempt (2.1, 2.8); each at most once per Rally phase (2.7); the roll is one die against
the Disordered-side Cohesion (1.4, 2.6); the unit's Order Status plays no part (2.4). Pure."""

from __future__ import annotations

from adjudicator.borodino.board import Ctx, adjacent_to_enemy, is_collapsed, label, members
from adjudicator.borodino.data import Scenario
from adjudicator.borodino.state import State
from adjudicator.core.i18n import Msg, t

ACTS = {"moved": t("moved"), "fired": t("fired"), "faced": t("faced")}  # 2.2, as reported


def why_not(scen: Scenario, state: State, uid: str) -> tuple[str, Msg] | None:
    """(rule, reason) if the unit may not attempt to rally now, else None."""
    unit, spot = scen.units[uid], state.units[uid]
    active = state.active
    if active is None or uid not in {u.id for u in members(scen, active)}:
        return "2.1", t(
            "{unit} is not of {active}, whose Rally phase this is", unit=uid, active=str(active)
        )
    if not spot.on_map:
        return "2.1", t("{unit} is not on the map", unit=uid)
    if not spot.disordered:
        return "2.1", t("{unit} is Formed: only a Disordered unit rallies", unit=uid)
    if is_collapsed(scen, state, uid):
        return "2.5", t(
            "{unit} is of the collapsed group {group}: it stays Disordered (6.8)",
            unit=uid,
            group=unit.group,
        )
    if uid in state.attempted:
        return "2.7", t("{unit} has already tried to rally in this Rally phase", unit=uid)
    did = state.acted.get(uid, [])
    if did:
        acts: Msg = ACTS[did[0]]
        for more in did[1:]:
            acts = t("{a} and {b}", a=acts, b=ACTS[more])
        return "2.2", t("{unit} {acts} during this activation", unit=uid, acts=acts)
    if adjacent_to_enemy(scen, state, uid):
        return "2.3", t("{unit} is adjacent to an enemy unit", unit=uid)
    return None


def eligible(scen: Scenario, state: State) -> list[str]:
    """The units that may still attempt to rally in this Rally phase."""
    if state.active is None:
        return []
    return [u.id for u in members(scen, state.active) if why_not(scen, state, u.id) is None]


def attempt(ctx: Ctx, uid: str) -> None:
    """2.6: roll one die; at most the Disordered-side Cohesion rallies the unit."""
    unit, spot = ctx.scen.units[uid], ctx.state.units[uid]
    ctx.state.attempted.append(uid)
    die = ctx.roll(f"rally {uid}")
    target = unit.cohesion_disordered
    if die <= target:
        spot.disordered = False
        text = t(
            "{unit} rallies: die {die} <= cohesion {target} (2.6).",
            unit=label(ctx.scen, uid),
            die=die,
            target=target,
        )
        ctx.emit("UnitRallied", text, unit=uid, die=die, cohesion=target)
    else:
        text = t(
            "{unit} fails to rally: die {die} > cohesion {target} (2.6).",
            unit=label(ctx.scen, uid),
            die=die,
            target=target,
        )
        ctx.emit("RallyFailed", text, unit=uid, die=die, cohesion=target)

"""The one gate: every order a side may give now (help, the demo, the contract tests and the
deadline use it), the templates of those it does not list one by one, and the deadline
defaults. Pure; imports no engine module (the engine imports this one).

Listed: the reports of one's own units with one-hex moves (`at <UNIT> <HEX>` to any hex of the
map, and a dispute, are templates), the activations, rally attempts, the turn's end and the
placements in every legal hex."""

from __future__ import annotations

from adjudicator.borodino import orders as O
from adjudicator.borodino import rally, recovery
from adjudicator.borodino.board import enemy_hexes, members, owner
from adjudicator.borodino.data import Scenario
from adjudicator.borodino.state import State

AT_TEMPLATE = "at <UNIT> <HEX>"
DISPUTE_TEMPLATE = "dispute <UNIT> <TEXT...>"


def legal_orders(scen: Scenario, state: State, side: str) -> list[object]:
    if state.result is not None:
        return []
    phase = state.phase
    found: list[object] = []
    if phase in ("activations", "activation"):
        found += reports(scen, state, side)
    if phase == "activations":
        found += [O.Activate(g) for g in activatable(scen, state, side)]
        found += [O.Morale(), O.Recovery()] if not state.morale_done else []
    elif phase in ("activation", "rally") and state.active and owner(scen, state.active) == side:
        if phase == "activation":
            found += activated_reports(scen, state)
        else:
            found += [O.Rally(u) for u in rally.eligible(scen, state)]
        found.append(O.End())
    elif phase == "recovery":
        found.append(O.Recovery())
    elif phase == "placement" and state.placing and state.placing[0] == side:
        found += [O.Return(u, h) for u in recovery.placeable(scen, state, side)
                  for h in recovery.legal_hexes(scen, state, u)]  # fmt: skip
    return found


def templates(scen: Scenario, state: State, side: str) -> tuple[str, ...]:
    if state.result is not None:
        return ()
    if state.phase in ("activations", "activation"):
        return (AT_TEMPLATE, DISPUTE_TEMPLATE)
    return (DISPUTE_TEMPLATE,)


def reports(scen: Scenario, state: State, side: str) -> list[object]:
    found: list[object] = []
    taken = set(enemy_hexes(scen, state, side))
    for uid, spot in state.units.items():
        if scen.units[uid].side != side or not spot.on_map or spot.hex is None:
            continue
        found += [O.At(uid, h) for h in scen.map.neighbours(spot.hex) if h not in taken]
        found += [O.Rout(uid), O.Eliminate(uid)]
        if not spot.disordered:
            found.append(O.Disorder(uid))
    return found


def activated_reports(scen: Scenario, state: State) -> list[object]:
    assert state.active is not None
    return [
        O.Activated(u.id, a)
        for u in members(scen, state.active)
        if state.units[u.id].on_map
        for a in O.ACTIONS
        if a not in state.acted.get(u.id, [])
    ]


def activatable(scen: Scenario, state: State, side: str) -> list[str]:
    """The AGs and independent units (2.8) the side may activate now: each once a turn, with a
    unit on the map."""
    ids = [g for g, grp in scen.groups.items() if grp.side == side]
    ids += [u.id for u in scen.units.values() if u.side == side and u.group is None]
    return [
        g for g in ids
        if g not in state.activated and any(state.units[u.id].on_map for u in members(scen, g))
    ]  # fmt: skip


def default_order(scen: Scenario, state: State) -> tuple[str, object]:
    """(side, order) a passed deadline gives, one step at a time:
    between activations: `recovery` (the turn's activations end: Morale and Recovery Phases);
    an Activation Phase: `end`; a Rally phase: `end` (an optional rally: none is made);
    the Recovery Phase: `recovery` (run it); a placement: `return` of the first unit that can be
    placed to the legal hex nearest its AG, ties in hex order."""
    phase = state.phase
    if phase == "placement":
        side = state.placing[0]
        uid = recovery.placeable(scen, state, side)[0]
        hex_id = recovery.nearest_hex(scen, state, uid)
        assert hex_id is not None
        return side, O.Return(uid, hex_id)
    if phase in ("activation", "rally"):
        assert state.active is not None
        return owner(scen, state.active), O.End()
    return state.initiative, O.Recovery()

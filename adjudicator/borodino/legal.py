"""The one gate: every order a side may give now (help, the demo, the contract tests and the
deadline use it), the templates of those it does not list one by one, the check before the
rules, and the deadline defaults. Pure; imports no rules module (turns.py imports this one).

Listed: the reports of one's own units with one-hex moves (`at <UNIT> <HEX>` to any hex of the
map, and a dispute, are templates), the activations, rally attempts, the turn's end and the
placements in every legal hex. The check before the rules refuses what no rule covers (an order
once the referee's part is over, a `default` but the deadline's or a moderator's, an order but a
player's); the rules refuse the rest as they go, each citing its rule."""

from __future__ import annotations

from adjudicator.borodino import orders as O
from adjudicator.borodino import rally, recovery
from adjudicator.borodino.board import enemy_hexes, ids, members, owner, result_text
from adjudicator.borodino.data import SIDE_IDS, Scenario
from adjudicator.borodino.state import State
from adjudicator.borodino.texts import busy
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR

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
        found += [
            O.Return(u, h)
            for u in recovery.placeable(scen, state, side)
            for h in recovery.legal_hexes(scen, state, u)
        ]
    return found


def check(scen: Scenario, state: State, actor: str, order: object) -> None:
    """The check before the rules (the module doc); a moderator's `default` is the kit's to
    refuse outside a sandbox game (system.check)."""
    not_over(scen, state)
    if isinstance(order, O.Default):
        if actor not in (SYSTEM_ACTOR, MODERATOR_ACTOR):
            raise Rejection("moderator-only", t("only a moderator may give this command"), None)
    elif actor not in SIDE_IDS:
        raise Rejection("not-a-player", t("only the Russian and French players give orders"), None)
    if isinstance(order, O.ActivateWhich):
        which(scen, state, actor)


def which(scen: Scenario, state: State, side: str) -> None:
    """A bare `activate`: the usage and the groups (or independent units, 2.8) the side may
    activate now; or why none may (2.1: one activation at a time, each group once a turn)."""
    usage = t("say which group to activate: `activate <AG|UNIT>`")
    if state.phase != "activations":
        said = t("{usage}; none may be activated now: {busy}", usage=usage, busy=busy(state))
    elif can := activatable(scen, state, side):
        said = t("{usage}; you may activate now: {groups}", usage=usage, groups=ids(can))
    else:
        said = t(
            "{usage}; none of yours may be activated now (each once a turn, with a unit on the "
            "map): `morale` and `recovery` end the turn",
            usage=usage,
        )
    raise Rejection("which-group", said, "2.1")


def not_over(scen: Scenario, state: State) -> None:
    """Refuse every order once the referee's part is over."""
    if state.result is not None:
        said = t("the referee's part is over: {result}", result=result_text(scen, state))
        raise Rejection("game-over", said, None)


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
        g
        for g in ids
        if g not in state.activated and any(state.units[u.id].on_map for u in members(scen, g))
    ]


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

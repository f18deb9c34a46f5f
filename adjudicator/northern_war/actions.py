"""The actions of an action phase (rules 5.16-5.36, N4 b, N8, N10): their order and cost, and
reconnaissance, siege declaration, national policy and replacement (movement, the second kind,
is movement.py). Each order is checked (a Rejection says what is wrong, what is legal, which
rule) and then carried out on a copy of the state. Pure; dice come from the injected source."""

from __future__ import annotations

from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Audience, Event
from adjudicator.core.i18n import t, tn
from adjudicator.northern_war import board
from adjudicator.northern_war.board import enemy_in, on_map, other
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.orders import KINDS, Policy, Recon, Replace, Siege
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.texts import Side, block_type, kind, listed


def action_cost(state: NWState, side: str, what: str) -> None:
    """Rules 5.17, 5.18 (order of kinds) and 5.3 (actions left): refuse, or nothing."""
    done = state.last_kind.get(side, -1)
    if KINDS.index(what) < done:
        later = listed(kind(k) for k in KINDS[done:])
        raise Rejection(
            "action-order",
            t(
                "after a {done} action you may not {kind}: actions go "
                "reconnaissance, movement, siege, policy, replacement; still open: "
                "{later}",
                done=kind(KINDS[done]),
                kind=kind(what),
                later=later,
            ),
            "5.18",
        )
    if state.actions.get(side, 0) < 1:
        raise Rejection("no-actions", t("you have no action left this turn: send 'end'"), "5.2")


def spend(state: NWState, side: str, what: str) -> None:
    state.actions[side] -= 1
    state.last_kind[side] = KINDS.index(what)
    state.move_open, state.move_group = None, []


# -- reconnaissance (5.20-5.24)
def check_recon(sc: Scenario, state: NWState, side: str, order: Recon) -> None:
    area = sc.territories[order.area]
    if area.sea:
        raise Rejection("sea-zone", t("only a land territory may be reconnoitred"), "5.24")
    scouts = [n for n in area.borders for b in on_map(sc, state, n, side) if sc.blocks[b].land]
    if not scouts:
        raise Rejection(
            "no-scout",
            t(
                "{area} borders none of your army or regiment blocks (a fleet does not qualify)",
                area=area.named,
            ),
            "5.21",
        )
    if not on_map(sc, state, order.area, other(side)):
        raise Rejection(
            "nothing-there", t("{area} holds no enemy block to reveal", area=area.named), "5.20"
        )
    action_cost(state, side, "recon")


def recon(sc: Scenario, state: NWState, side: str, order: Recon) -> list[Event]:
    spend(state, side, "recon")
    found = on_map(sc, state, order.area, other(side))
    when = board.label(sc, state)
    record = state.seen.setdefault(side, {})
    lines = []
    for b in found:
        record[b] = [state.strength[b], state.count, str.__str__(when), order.area]
        blk = sc.blocks[b]
        lines.append(
            t(
                "{block} ({type}, {rating}, move {move}) strength {strength}",
                block=blk.named,
                type=block_type(blk.type),
                rating=blk.rating,
                move=blk.move,
                strength=state.strength[b],
            )
        )
    name = sc.territories[order.area].named
    text = t(
        "Seen in turn {count} ({when}) in {area}: {found}.",
        count=state.count,
        when=when,
        area=name,
        found=listed(lines, "; "),
    )
    public = (
        tn(
            "{side} reconnoitres {area} ({n} block revealed to it).",
            "{side} reconnoitres {area} ({n} blocks revealed to it).",
            len(found),
            side=Side(side),
            area=name,
        )
        if state.rules >= 2
        else tn(  # rules 1: the wording its stored games logged
            "{side} reconnoitres {area} ({n} block(s) revealed to it).",
            "{side} reconnoitres {area} ({n} block(s) revealed to it).",
            len(found),
            side=Side(side),
            area=name,
        )
    )
    return [
        Event("Reconnoitred", public, {"side": side, "area": order.area, "count": len(found)}),
        Event("BlocksSeen", text, {"area": order.area}, Audience.of_side(side)),
    ]


# -- siege declaration (5.26-5.28, 7.10, N4 b)
def free_siege(state: NWState, area: str) -> list[str] | None:
    for where, blocks in state.free_sieges:
        if where == area:
            return list(blocks)
    return None


def besiegers(sc: Scenario, state: NWState, side: str, area: str) -> list[str]:
    free = free_siege(state, area)
    pool = on_map(sc, state, area, side) if free is None else free
    return [b for b in pool if sc.blocks[b].land and state.at[b] == area]


def check_siege(sc: Scenario, state: NWState, side: str, order: Siege) -> None:
    area = sc.territories[order.area]
    if area.fortress < 1:
        raise Rejection(
            "no-fortress", t("{area} has no fortress to besiege", area=area.named), "N4 b"
        )
    if state.control[order.area] == side:
        raise Rejection(
            "own-fortress", t("{area} is controlled by your side", area=area.named), "N4 b"
        )
    if enemy_in(sc, state, order.area, side):
        raise Rejection(
            "enemy-there", t("enemy blocks are in {area}: a battle first", area=area.named), "N4 b"
        )
    if not besiegers(sc, state, side, order.area):
        raise Rejection(
            "no-besiegers",
            t("none of your army or regiment blocks is in {area}", area=area.named),
            "N4 b",
        )
    if any(s[0] == order.area and s[1] == side for s in state.sieges):
        raise Rejection(
            "declared", t("you have declared the siege of {area}", area=area.named), "N4 d"
        )
    if free_siege(state, order.area) is None:
        action_cost(state, side, "siege")


def siege(sc: Scenario, state: NWState, side: str, order: Siege) -> list[Event]:
    group = besiegers(sc, state, side, order.area)
    free = free_siege(state, order.area) is not None
    if free:
        state.free_sieges = [f for f in state.free_sieges if f[0] != order.area]
    else:
        spend(state, side, "siege")
    state.sieges.append([order.area, side, group])
    how = t(" (free, after movement: 7.10)") if free else ""
    text = t(
        "{side} declares the siege of {area}{how}; it is resolved after battles.",
        side=Side(side),
        area=sc.territories[order.area].named,
        how=how,
    )
    return [Event("SiegeDeclared", text, {"side": side, "area": order.area, "free": free})]


# -- national policy (5.29-5.31, N10)
def check_policy(sc: Scenario, state: NWState, side: str, order: Policy) -> None:
    nation = sc.nations[order.nation]
    if nation.side != side or order.nation in state.armistice:
        raise Rejection(
            "not-your-nation", t("{nation} is not a nation you play", nation=nation.named), "5.29"
        )
    if order.nation in state.policy_used:
        raise Rejection(
            "once-a-year",
            t("{nation} has had its policy action this year", nation=nation.named),
            "5.30",
        )
    action_cost(state, side, "policy")


def policy(sc: Scenario, state: NWState, side: str, order: Policy, dice: DiceSource) -> list[Event]:
    spend(state, side, "policy")
    state.policy_used.append(order.nation)
    die = dice.roll(f"policy {order.nation}")
    text = t(
        "National policy for {nation}: die {die} (no effect in the sample scenario, N10).",
        nation=sc.nations[order.nation].named,
        die=die,
    )
    return [Event("PolicyRolled", text, {"nation": order.nation, "die": die})]


# -- replacement (5.32-5.36, N8)
def check_replace(sc: Scenario, state: NWState, side: str, order: Replace) -> None:
    block = sc.blocks[order.block]
    if sc.side_of(order.block) != side or state.status[order.block] != ON_MAP:
        raise Rejection(
            "not-yours",
            t("{block} is not one of your blocks on the map", block=block.named),
            "5.32",
        )
    if state.strength[order.block] >= block.max_strength:
        raise Rejection(
            "full",
            t(
                "{block} is at its maximum strength {max}",
                block=block.named,
                max=block.max_strength,
            ),
            "5.35",
        )
    if not board.line_of_communication(sc, state, order.block):
        raise Rejection(
            "no-line",
            t(
                "{block} has no line of communication to a home territory of {nation} "
                "(friendly, free of enemy blocks)",
                block=block.named,
                nation=sc.nations[block.nation].named,
            ),
            "5.33",
        )
    action_cost(state, side, "replace")


def replace(sc: Scenario, state: NWState, side: str, order: Replace) -> list[Event]:
    spend(state, side, "replace")
    state.strength[order.block] += 1
    block, where = sc.blocks[order.block], state.at[order.block]
    assert where is not None
    nation, area = sc.nations[block.nation].named, sc.territories[where].named
    mine = t(
        "{block} in {area} gains a step: strength {strength}.",
        block=block.named,
        area=area,
        strength=state.strength[order.block],
    )
    replaced = t("{nation} replaced a step in {area} (N23).", nation=nation, area=area)
    return [
        Event("StepReplaced", replaced, {"area": where}),
        Event("OwnStepReplaced", mine, {"block": order.block}, Audience.of_side(side)),
    ]

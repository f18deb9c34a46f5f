"""The five actions (rules 5.16-5.36, section 7, N4 b, N8, N10) and the winter campaign's move
(section 6): each order is checked (a Rejection says what is wrong, what is legal, which rule)
and then carried out on a copy of the state. Pure; dice come from the injected source."""

from __future__ import annotations

from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Audience, Event
from adjudicator.core.i18n import Msg, cat, t, tn
from adjudicator.northern_war import board
from adjudicator.northern_war.board import enemy_in, on_map, other
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.orders import KINDS, Move, Policy, Recon, Replace, Siege, Winter
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.texts import Side, block_type, kind, listed


def _names(sc: Scenario, blocks: list[str] | tuple[str, ...]) -> Msg:
    return listed(sc.blocks[b].named for b in blocks)


def action_cost(state: NWState, side: str, what: str) -> None:
    """Rules 5.17, 5.18 (order of kinds) and 5.3 (actions left): refuse, or nothing."""
    done = state.last_kind.get(side, -1)
    if KINDS.index(what) < done:
        later = listed(kind(k) for k in KINDS[done:])
        raise Rejection(
            "action-order", t("after a {done} action you may not {kind}: actions go "
                              "reconnaissance, movement, siege, policy, replacement; still open: "
                              "{later}", done=kind(KINDS[done]), kind=kind(what), later=later),
            "5.18",
        )  # fmt: skip
    if state.actions.get(side, 0) < 1:
        raise Rejection("no-actions", t("you have no action left this turn: send 'end'"), "5.2")


def spend(state: NWState, side: str, what: str) -> None:
    state.actions[side] -= 1
    state.last_kind[side] = KINDS.index(what)
    state.move_open, state.move_group = None, []


# -- movement (section 7)
def continues(state: NWState, origin: str) -> bool:
    """Rule 7.2 (Decision, see docs): a move order from the origin of the movement action just
    made, right after it, is part of the same action (the group splits)."""
    return state.move_open == origin


def check_path(sc: Scenario, state: NWState, side: str, blocks: tuple[str, ...],
               path: tuple[str, ...], origin: str) -> None:  # fmt: skip
    here = origin
    for n, area in enumerate(path):
        if not sc.adjacent(here, area):
            near = listed(sc.territories[x].named for x in sc.territories[here].borders)
            raise Rejection(
                "not-adjacent", t("{area} does not border {here}; from there: {near}",
                                  area=sc.territories[area].named,
                                  here=sc.territories[here].named, near=near), "7.1",
            )  # fmt: skip
        if area == origin or area in path[:n]:
            raise Rejection("loop", t("a path enters each area once and never the start"), "7.3")
        if n < len(path) - 1 and enemy_in(sc, state, area, side):
            raise Rejection(
                "must-stop", t("{area} holds enemy blocks: a block entering it stops there (end "
                               "the path there)", area=sc.territories[area].named), "7.5",
            )  # fmt: skip
        here = area
    for b in blocks:
        block = sc.blocks[b]
        if len(path) > block.move:
            raise Rejection(
                "too-far", tn("{block} moves at most {n} areas, not {path}",
                              "{block} moves at most {n} areas, not {path}", block.move,
                              block=block.named, path=len(path)), "2.13",
            )  # fmt: skip
        if any(sc.territories[a].sea != (block.type == "fleet") for a in path):
            raise Rejection("no-transport", t("land blocks move on land, fleets at sea"), "N9")


def origin_of(sc: Scenario, state: NWState, side: str, blocks: tuple[str, ...]) -> str:
    if not blocks or len(set(blocks)) != len(blocks):
        raise Rejection("no-blocks", t("name one or more of your blocks, each once"), "7.1")
    for b in blocks:
        if sc.side_of(b) != side or state.status[b] != ON_MAP:
            raise Rejection(
                "not-yours", t("{block} is not one of your blocks on the map; send 'blocks' for "
                               "your list", block=sc.blocks[b].named), "2.19",
            )  # fmt: skip
    origins = {state.at[b] for b in blocks}
    if len(origins) != 1:
        raise Rejection("one-territory", t("one action moves blocks from one territory"), "7.1")
    where = origins.pop()
    assert where is not None
    return where


def check_move(sc: Scenario, state: NWState, side: str, order: Move) -> None:
    origin = origin_of(sc, state, side, order.blocks)
    for b in order.blocks:
        if b in state.moved:
            raise Rejection("moved", t("{block} has moved this turn", block=sc.blocks[b].named),
                            "7.8")  # fmt: skip
    if not continues(state, origin):
        action_cost(state, side, "move")
    check_path(sc, state, side, order.blocks, order.path, origin)


def do_move(sc: Scenario, state: NWState, side: str, blocks: tuple[str, ...],
            path: tuple[str, ...], winter_march: bool = False) -> list[Event]:  # fmt: skip
    origin, dest = state.at[blocks[0]], path[-1]
    assert origin is not None
    if not on_map(sc, state, dest):
        state.holders.setdefault(dest, side)  # N3 b: the side entering first defends
    for b in blocks:
        state.at[b] = dest
    state.moved.extend(b for b in blocks if b not in state.moved)
    state.move_open = origin
    state.move_group.extend(blocks)
    if not enemy_in(sc, state, dest, side):  # rule 7.10: a free siege declaration
        ends = [b for b in state.move_group if state.at[b] == dest]
        state.free_sieges = [f for f in state.free_sieges if f[0] != dest] + [[dest, ends]]
    areas = listed(sc.territories[a].named for a in path[:-1])
    via = t(" through {areas}", areas=areas) if path[1:] else ""
    name_of = sc.territories
    said = {"nation": sc.nations[sc.blocks[blocks[0]].nation].named,
                "origin": name_of[origin].named, "dest": name_of[dest].named, "via": via}  # fmt: skip
    if winter_march:
        text = tn("{nation}: {n} block(s) march in winter from {origin} to {dest}{via}.",
                  "{nation}: {n} block(s) march in winter from {origin} to {dest}{via}.",
                  len(blocks), **said)  # fmt: skip
    else:
        text = tn("{nation}: {n} block(s) move from {origin} to {dest}{via}.",
                  "{nation}: {n} block(s) move from {origin} to {dest}{via}.", len(blocks),
                  **said)  # fmt: skip
    data = {"side": side, "from": origin, "to": dest, "path": list(path), "count": len(blocks)}
    stop: str = ""
    if enemy_in(sc, state, dest, side):
        stop = t(" They stop: enemy blocks are there (7.5).")
    mine = t("You move {blocks} to {dest}.{stop}", blocks=_names(sc, blocks),
             dest=name_of[dest].named, stop=stop)  # fmt: skip
    return [
        Event("BlocksMoved", cat(text, stop), data),
        Event("OwnBlocksMoved", mine, {"blocks": list(blocks)}, Audience.of_side(side)),
    ]


def move(sc: Scenario, state: NWState, side: str, order: Move) -> list[Event]:
    origin = state.at[order.blocks[0]]
    assert origin is not None
    if not continues(state, origin):
        spend(state, side, "move")
    return do_move(sc, state, side, order.blocks, order.path)


# -- reconnaissance (5.20-5.24)
def check_recon(sc: Scenario, state: NWState, side: str, order: Recon) -> None:
    area = sc.territories[order.area]
    if area.sea:
        raise Rejection("sea-zone", t("only a land territory may be reconnoitred"), "5.24")
    scouts = [n for n in area.borders for b in on_map(sc, state, n, side) if sc.blocks[b].land]
    if not scouts:
        raise Rejection(
            "no-scout", t("{area} borders none of your army or regiment blocks (a fleet does not "
                          "qualify)", area=area.named), "5.21",
        )  # fmt: skip
    if not on_map(sc, state, order.area, other(side)):
        raise Rejection("nothing-there", t("{area} holds no enemy block to reveal",
                                           area=area.named), "5.20")  # fmt: skip
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
        lines.append(t("{block} ({type}, {rating}, move {move}) strength {strength}",
                       block=blk.named, type=block_type(blk.type), rating=blk.rating,
                       move=blk.move, strength=state.strength[b]))  # fmt: skip
    name = sc.territories[order.area].named
    text = t("Seen in turn {count} ({when}) in {area}: {found}.", count=state.count, when=when,
             area=name, found=listed(lines, "; "))  # fmt: skip
    public = tn("{side} reconnoitres {area} ({n} block(s) revealed to it).",
                "{side} reconnoitres {area} ({n} block(s) revealed to it).", len(found),
                side=Side(side), area=name)  # fmt: skip
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
        raise Rejection("no-fortress", t("{area} has no fortress to besiege", area=area.named),
                        "N4 b")  # fmt: skip
    if state.control[order.area] == side:
        raise Rejection("own-fortress", t("{area} is controlled by your side", area=area.named),
                        "N4 b")  # fmt: skip
    if enemy_in(sc, state, order.area, side):
        raise Rejection("enemy-there", t("enemy blocks are in {area}: a battle first",
                                         area=area.named), "N4 b")  # fmt: skip
    if not besiegers(sc, state, side, order.area):
        raise Rejection("no-besiegers", t("none of your army or regiment blocks is in {area}",
                                          area=area.named), "N4 b")  # fmt: skip
    if any(s[0] == order.area and s[1] == side for s in state.sieges):
        raise Rejection("declared", t("you have declared the siege of {area}", area=area.named),
                        "N4 d")  # fmt: skip
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
    text = t("{side} declares the siege of {area}{how}; it is resolved after battles.",
             side=Side(side), area=sc.territories[order.area].named, how=how)  # fmt: skip
    return [Event("SiegeDeclared", text, {"side": side, "area": order.area, "free": free})]


# -- national policy (5.29-5.31, N10)
def check_policy(sc: Scenario, state: NWState, side: str, order: Policy) -> None:
    nation = sc.nations[order.nation]
    if nation.side != side or order.nation in state.armistice:
        raise Rejection("not-your-nation", t("{nation} is not a nation you play",
                                             nation=nation.named), "5.29")  # fmt: skip
    if order.nation in state.policy_used:
        raise Rejection("once-a-year", t("{nation} has had its policy action this year",
                                         nation=nation.named), "5.30")  # fmt: skip
    action_cost(state, side, "policy")


def policy(sc: Scenario, state: NWState, side: str, order: Policy, dice: DiceSource) -> list[Event]:
    spend(state, side, "policy")
    state.policy_used.append(order.nation)
    die = dice.roll(f"policy {order.nation}")
    text = t("National policy for {nation}: die {die} (no effect in the sample scenario, N10).",
             nation=sc.nations[order.nation].named, die=die)  # fmt: skip
    return [Event("PolicyRolled", text, {"nation": order.nation, "die": die})]


# -- replacement (5.32-5.36, N8)
def check_replace(sc: Scenario, state: NWState, side: str, order: Replace) -> None:
    block = sc.blocks[order.block]
    if sc.side_of(order.block) != side or state.status[order.block] != ON_MAP:
        raise Rejection("not-yours", t("{block} is not one of your blocks on the map",
                                       block=block.named), "5.32")  # fmt: skip
    if state.strength[order.block] >= block.max_strength:
        raise Rejection("full", t("{block} is at its maximum strength {max}", block=block.named,
                                  max=block.max_strength), "5.35")  # fmt: skip
    if not board.line_of_communication(sc, state, order.block):
        raise Rejection(
            "no-line", t("{block} has no line of communication to a home territory of {nation} "
                         "(friendly, free of enemy blocks)", block=block.named,
                         nation=sc.nations[block.nation].named), "5.33",
        )  # fmt: skip
    action_cost(state, side, "replace")


def replace(sc: Scenario, state: NWState, side: str, order: Replace) -> list[Event]:
    spend(state, side, "replace")
    state.strength[order.block] += 1
    block, where = sc.blocks[order.block], state.at[order.block]
    assert where is not None
    nation, area = sc.nations[block.nation].named, sc.territories[where].named
    mine = t("{block} in {area} gains a step: strength {strength}.", block=block.named, area=area,
             strength=state.strength[order.block])  # fmt: skip
    replaced = t("{nation} replaced a step in {area} (N23).", nation=nation, area=area)
    return [
        Event("StepReplaced", replaced, {"area": where}),
        Event("OwnStepReplaced", mine, {"block": order.block}, Audience.of_side(side)),
    ]


# -- the Swedish winter campaign's move (6.2-6.10)
def check_winter(sc: Scenario, state: NWState, order: Winter) -> None:
    if "charles" not in order.blocks:
        raise Rejection("without-charles", t("Charles XII must take part in it"), "6.7")
    origin = origin_of(sc, state, "sweden", order.blocks)
    for b in order.blocks:
        if state.strength[b] < 2:
            raise Rejection(
                "too-weak", t("{block} has strength 1: the step loss would eliminate it",
                              block=sc.blocks[b].named), "6.10",
            )  # fmt: skip
    check_path(sc, state, "sweden", order.blocks, order.path, origin)


def winter(sc: Scenario, state: NWState, order: Winter) -> list[Event]:
    for b in order.blocks:
        state.strength[b] -= 1  # rule 6.5: one step, at the start of the action
    state.winter_moved = True
    state.move_open, state.move_group, state.free_sieges = None, [], []
    lost = Event(
        "WinterSteps", tn("Winter campaign: {n} Swedish block(s) each lose a step (6.5).",
                          "Winter campaign: {n} Swedish block(s) each lose a step (6.5).",
                          len(order.blocks)), {"count": len(order.blocks)},
    )  # fmt: skip
    return [lost, *do_move(sc, state, "sweden", order.blocks, order.path, winter_march=True)]

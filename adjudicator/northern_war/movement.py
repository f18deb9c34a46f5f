"""Movement (section 7, rules 2.13, N9) and the Swedish winter campaign's move (6.2-6.10):
blocks of one territory along a path of areas entered. Each order is checked (a Rejection says
what is wrong, what is legal, which rule) and then carried out on a copy of the state. Pure."""

from __future__ import annotations

from adjudicator.core.errors import Rejection
from adjudicator.core.events import Audience, Event
from adjudicator.core.i18n import Msg, cat, t, tn
from adjudicator.northern_war.actions import action_cost, spend
from adjudicator.northern_war.board import enemy_in, on_map
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.orders import Move, Winter
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.texts import listed


def _names(sc: Scenario, blocks: list[str] | tuple[str, ...]) -> Msg:
    return listed(sc.blocks[b].named for b in blocks)


# -- movement (section 7)
def continues(state: NWState, origin: str) -> bool:
    """Rule 7.2 (Decision, see docs): a move order from the origin of the movement action just
    made, right after it, is part of the same action (the group splits)."""
    return state.move_open == origin


def check_path(
    sc: Scenario,
    state: NWState,
    side: str,
    blocks: tuple[str, ...],
    path: tuple[str, ...],
    origin: str,
) -> None:
    here = origin
    for n, area in enumerate(path):
        near = listed(sc.territories[x].named for x in sc.territories[here].borders)
        if area == origin and n == 0:
            raise Rejection(
                "already-there",
                tn(
                    "{blocks} already stands in {area}: a move goes to other areas, each "
                    "bordering the one before; from there: {near}",
                    "{blocks} already stand in {area}: a move goes to other areas, each "
                    "bordering the one before; from there: {near}",
                    len(blocks),
                    blocks=_names(sc, blocks),
                    area=sc.territories[area].named,
                    near=near,
                ),
                "7.1",
            )
        if area == origin or area in path[:n]:
            again = (
                t("the path comes back to {area}, where it starts", area=sc.territories[area].named)
                if area == origin
                else t("the path enters {area} twice", area=sc.territories[area].named)
            )
            raise Rejection(
                "loop",
                t("{again}: a path enters each area once and never the start", again=again),
                "7.3",
            )
        if not sc.adjacent(here, area):
            raise Rejection(
                "not-adjacent",
                t(
                    "{area} does not border {here}; from there: {near}",
                    area=sc.territories[area].named,
                    here=sc.territories[here].named,
                    near=near,
                ),
                "7.1",
            )
        if n < len(path) - 1 and enemy_in(sc, state, area, side):
            raise Rejection(
                "must-stop",
                t(
                    "{area} holds enemy blocks: a block entering it stops there (end "
                    "the path there)",
                    area=sc.territories[area].named,
                ),
                "7.5",
            )
        here = area
    for b in blocks:
        block = sc.blocks[b]
        if len(path) > block.move:
            raise Rejection(
                "too-far",
                tn(
                    "{block} moves at most {n} areas, not {path}",
                    "{block} moves at most {n} areas, not {path}",
                    block.move,
                    block=block.named,
                    path=len(path),
                ),
                "2.13",
            )
        if any(sc.territories[a].sea != (block.type == "fleet") for a in path):
            raise Rejection("no-transport", t("land blocks move on land, fleets at sea"), "N9")


def origin_of(sc: Scenario, state: NWState, side: str, blocks: tuple[str, ...]) -> str:
    if not blocks or len(set(blocks)) != len(blocks):
        raise Rejection("no-blocks", t("name one or more of your blocks, each once"), "7.1")
    for b in blocks:
        if sc.side_of(b) != side or state.status[b] != ON_MAP:
            raise Rejection(
                "not-yours",
                t(
                    "{block} is not one of your blocks on the map; send 'blocks' for your list",
                    block=sc.blocks[b].named,
                ),
                "2.19",
            )
    origins = {state.at[b] for b in blocks}
    if len(origins) != 1:
        apart = listed(
            t(
                "{block} in {area}",
                block=sc.blocks[b].named,
                area=sc.territories[str(state.at[b])].named,
            )
            for b in blocks
        )
        raise Rejection(
            "one-territory",
            t(
                "one action moves blocks from one territory, and these stand apart: {where}",
                where=apart,
            ),
            "7.1",
        )
    where = origins.pop()
    assert where is not None
    return where


def check_move(sc: Scenario, state: NWState, side: str, order: Move) -> None:
    origin = origin_of(sc, state, side, order.blocks)
    for b in order.blocks:
        if b in state.moved:
            raise Rejection(
                "moved", t("{block} has moved this turn", block=sc.blocks[b].named), "7.8"
            )
    if not continues(state, origin):
        action_cost(state, side, "move")
    check_path(sc, state, side, order.blocks, order.path, origin)


def do_move(
    sc: Scenario,
    state: NWState,
    side: str,
    blocks: tuple[str, ...],
    path: tuple[str, ...],
    winter_march: bool = False,
) -> list[Event]:
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
    said = {
        "nation": sc.nations[sc.blocks[blocks[0]].nation].named,
        "origin": name_of[origin].named,
        "dest": name_of[dest].named,
        "via": via,
    }
    if winter_march and state.rules >= 2:
        text = tn(
            "{nation}: {n} block marches in winter from {origin} to {dest}{via}.",
            "{nation}: {n} blocks march in winter from {origin} to {dest}{via}.",
            len(blocks),
            **said,
        )
    elif state.rules >= 2:
        text = tn(
            "{nation}: {n} block moves from {origin} to {dest}{via}.",
            "{nation}: {n} blocks move from {origin} to {dest}{via}.",
            len(blocks),
            **said,
        )
    elif winter_march:  # rules 1: the wording its stored games logged
        text = tn(
            "{nation}: {n} block(s) march in winter from {origin} to {dest}{via}.",
            "{nation}: {n} block(s) march in winter from {origin} to {dest}{via}.",
            len(blocks),
            **said,
        )
    else:
        text = tn(
            "{nation}: {n} block(s) move from {origin} to {dest}{via}.",
            "{nation}: {n} block(s) move from {origin} to {dest}{via}.",
            len(blocks),
            **said,
        )
    data = {"side": side, "from": origin, "to": dest, "path": list(path), "count": len(blocks)}
    stop: str = ""
    if enemy_in(sc, state, dest, side):
        stop = t(" They stop: enemy blocks are there (7.5).")
    mine = t(
        "You move {blocks} to {dest}.{stop}",
        blocks=_names(sc, blocks),
        dest=name_of[dest].named,
        stop=stop,
    )
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


# -- the Swedish winter campaign's move (6.2-6.10)
def splitting(state: NWState) -> bool:
    """Rules 6.8 with 7.2 under rules 2 (docs, "Rules versions"): after the first winter march
    the campaign, one movement action, goes on: blocks that began it in Charles XII's territory
    and are still there may split from his group and march separately."""
    return state.rules >= 2 and state.winter_moved and state.move_open is not None


def split_left(sc: Scenario, state: NWState) -> list[str]:
    """The Swedish blocks that may still split from the winter march (whatever their strength:
    whether the campaign waits for them is public, their strength is not)."""
    if not splitting(state):
        return []
    return [
        b for b in on_map(sc, state, str(state.move_open), "sweden") if b not in state.move_group
    ]


def check_winter(sc: Scenario, state: NWState, order: Winter) -> None:
    if splitting(state):
        return check_winter_split(sc, state, order)
    if "charles" not in order.blocks:
        raise Rejection("without-charles", t("Charles XII must take part in it"), "6.7")
    origin = origin_of(sc, state, "sweden", order.blocks)
    _strong_enough(sc, state, order)
    check_path(sc, state, "sweden", order.blocks, order.path, origin)


def after_march(sc: Scenario, state: NWState) -> Msg:
    """What a Swedish player may do after a winter march under rules 2."""
    return t(
        "after the winter march: a winter march of blocks still in {origin}, where the "
        "campaign began with Charles XII (they split from his group: 6.8, 7.2), a free siege, "
        "or 'end'",
        origin=sc.territories[str(state.move_open)].named,
    )


def check_winter_split(sc: Scenario, state: NWState, order: Winter) -> None:
    origin = str(state.move_open)
    where = origin_of(sc, state, "sweden", order.blocks)
    if where != origin:
        raise Rejection("winter-split", after_march(sc, state), "7.2")
    _strong_enough(sc, state, order)
    check_path(sc, state, "sweden", order.blocks, order.path, origin)


def _strong_enough(sc: Scenario, state: NWState, order: Winter) -> None:
    for b in order.blocks:
        if state.strength[b] < 2:
            raise Rejection(
                "too-weak",
                t(
                    "{block} has strength 1: the step loss would eliminate it",
                    block=sc.blocks[b].named,
                ),
                "6.10",
            )


def winter(sc: Scenario, state: NWState, order: Winter) -> list[Event]:
    split = splitting(state)
    for b in order.blocks:
        state.strength[b] -= 1  # rule 6.5: one step, at the start of the action
    state.winter_moved = True
    if not split:  # a split (rules 2) is the same action: its group and free sieges go on
        state.move_open, state.move_group, state.free_sieges = None, [], []
    lost = Event(
        "WinterSteps",
        tn(
            "Winter campaign: {n} Swedish block loses a step (6.5).",
            "Winter campaign: {n} Swedish blocks each lose a step (6.5).",
            len(order.blocks),
        )
        if state.rules >= 2
        else tn(  # rules 1: the wording its stored games logged
            "Winter campaign: {n} Swedish block(s) each lose a step (6.5).",
            "Winter campaign: {n} Swedish block(s) each lose a step (6.5).",
            len(order.blocks),
        ),
        {"count": len(order.blocks)},
    )
    return [lost, *do_move(sc, state, "sweden", order.blocks, order.path, winter_march=True)]

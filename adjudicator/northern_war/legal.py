"""The one gate: which orders a side may give now (every order listed is accepted), the check
of any order against the rules, the templates of the orders it lists in part (moves along any
path), the decision put to a side and the deadline defaults. Pure."""

from __future__ import annotations

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, t
from adjudicator.northern_war import actions, battle, board, movement
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.board import on_map, paths
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.texts import side as side_name
from adjudicator.northern_war.turns import result_text


def whose(state: NWState) -> str | None:
    if state.result is not None:
        return None
    if state.pending is not None:
        return str(state.pending["side"])
    return state.to_move


MOVE_TEMPLATE = "move <BLOCK>[,<BLOCK>...] <AREA> [<AREA>...]"
WINTER_TEMPLATE = "winter <BLOCK>[,<BLOCK>...] <AREA> [<AREA>...]"


def check(sc: Scenario, state: NWState, side: str, order: object) -> None:
    """Raise a Rejection unless `side` may give `order` now."""
    if state.result is not None:
        raise Rejection(
            "game-over", t("the game is over: {result}", result=result_text(state.result)), "N15"
        )
    if whose(state) != side:
        raise Rejection(
            "not-your-turn", t("it is {side}'s move now", side=side_name(str(whose(state)))), "5.7"
        )
    if state.pending is not None:
        return check_decision(sc, state, order)
    if state.phase == "winter":
        return check_winter(sc, state, order)
    if state.phase == "entry":
        if not isinstance(order, O.End):
            raise Rejection("entry", t("the first entry phase: send 'end' to begin turn 1"), "8.4")
        return
    checks = {
        O.Move: movement.check_move,
        O.Recon: actions.check_recon,
        O.Siege: actions.check_siege,
        O.Policy: actions.check_policy,
        O.Replace: actions.check_replace,
    }
    if isinstance(order, O.End):
        return
    found = checks.get(type(order))
    if found is None:
        raise Rejection(
            "not-now",
            t("in your action phase: recon, move, siege, policy, replace or end"),
            "5.16",
        )
    found(sc, state, side, order)  # type: ignore[operator]


def check_decision(sc: Scenario, state: NWState, order: object) -> None:
    p = state.pending
    assert p is not None
    wanted = {"battle": O.BattleAt, "hit": O.Hit, "retreat": O.Retreat, "return": O.ReturnCharles}
    kind = wanted[p["kind"]]
    choices = ", ".join(p["choices"])  # ids, the same in every language
    if not isinstance(order, kind):
        raise Rejection("decide", t("first decide: {prompt}", prompt=prompt(sc, state)), "N3")
    if isinstance(order, O.Retreat):
        bt = state.battle
        if bt is None or order.block not in bt["retreating"]:
            raise Rejection(
                "not-retreating", t("the retreating block now is {block}", block=p["block"]), "N3 g"
            )
        if order.area not in battle.retreats(sc, state, order.block):
            raise Rejection(
                "bad-retreat",
                t("{block} may retreat to: {choices}", block=order.block, choices=choices),
                "N3 g",
            )
        return
    value = getattr(order, "area", None) or getattr(order, "block", None)
    if value not in p["choices"]:
        raise Rejection("not-a-choice", t("choose one of: {choices}", choices=choices), "N3")


def check_winter(sc: Scenario, state: NWState, order: object) -> None:
    if not state.winter_moved:
        if isinstance(order, O.WinterNone):
            return
        if isinstance(order, O.Winter):
            return movement.check_winter(sc, state, order)
        raise Rejection("winter", t("now: 'winter <BLOCKS> <AREAS>' or 'winter none'"), "6.1")
    if isinstance(order, O.End):
        return
    if isinstance(order, O.Siege) and actions.free_siege(state, order.area) is not None:
        return actions.check_siege(sc, state, "sweden", order)
    if movement.splitting(state):  # rules 2: the group may split (6.8, 7.2)
        if isinstance(order, O.Winter):
            return movement.check_winter(sc, state, order)
        raise Rejection("winter-done", movement.after_march(sc, state), "6.8")
    raise Rejection("winter-done", t("after the winter march: a free siege, or 'end'"), "6.4")


def templates(sc: Scenario, state: NWState, side: str) -> tuple[str, ...]:
    """The orders `legal` lists only in part: a move (7.1) or a winter march (6.2; under rules 2
    also a split from it, 7.2) along any path."""
    if whose(state) != side or state.pending is not None:
        return ()
    if state.phase == "action":
        return (MOVE_TEMPLATE,)
    if state.phase == "winter" and not state.winter_moved:
        return (WINTER_TEMPLATE,)
    if state.phase == "winter" and movement.split_left(sc, state):
        return (WINTER_TEMPLATE,)
    return ()


def prompt(sc: Scenario, state: NWState) -> str:
    """The decision put to a side (N3, 4.9): the choices by id, as they are typed."""
    p = state.pending
    if p is None:
        return ""
    names, who, block = ", ".join(p["choices"]), side_name(p["side"]), str(p.get("block"))
    said: Msg
    if p["kind"] == "battle":
        said = t(
            "{side}: which battle next? battle <AREA>, one of {choices}", side=who, choices=names
        )
    elif p["kind"] == "hit":
        said = t(
            "{side}: which block takes the hit? hit <BLOCK>, one of {choices}",
            side=who,
            choices=names,
        )
    elif p["kind"] == "retreat":
        said = t(
            "{side}: where does {block} retreat? retreat {block} <AREA>, one of {choices}",
            side=who,
            block=block,
            choices=names,
        )
    else:
        said = t(
            "sweden: where does Charles XII return? return charles <AREA>, one of {choices}",
            choices=names,
        )
    return said


def default(state: NWState) -> object:
    """The deadline defaults: the first choice (the map's order, the block list's order);
    `end` in an action phase; `winter none`; `end` after the winter march."""
    p = state.pending
    if p is not None:
        first = p["choices"][0]
        if p["kind"] == "battle":
            return O.BattleAt(first)
        if p["kind"] == "hit":
            return O.Hit(first)
        if p["kind"] == "retreat":
            return O.Retreat(p["block"], first)
        return O.ReturnCharles(first)
    if state.phase == "winter" and not state.winter_moved:
        return O.WinterNone()
    return O.End()


def candidates(sc: Scenario, state: NWState, side: str) -> list[object]:
    p = state.pending
    if p is not None:
        if p["kind"] == "retreat":
            return [O.Retreat(p["block"], a) for a in p["choices"]]
        make = {"battle": O.BattleAt, "hit": O.Hit, "return": O.ReturnCharles}[p["kind"]]
        return [make(c) for c in p["choices"]]
    if state.phase == "entry":
        return [O.End()]
    if state.phase == "winter":
        if state.winter_moved:
            sieges = [O.Siege(a) for a, _ in state.free_sieges]
            return [O.End(), *sieges, *winter_moves(sc, state)]
        return [O.WinterNone(), *winter_moves(sc, state)]
    # the candidates the checks then filter (the checks alone decide what is legal)
    mine = [b for b in sc.blocks if sc.side_of(b) == side and state.status[b] == ON_MAP]
    places = sorted({str(state.at[b]) for b in mine}, key=list(sc.territories).index)
    near = {n for t in places for n in sc.territories[t].borders}
    found: list[object] = [O.End()]
    found += [O.Recon(t) for t in sc.territories if t in near]
    found += [O.Siege(t) for t in places]
    found += [O.Policy(n) for n, nat in sc.nations.items() if nat.side == side]
    found += [O.Replace(b) for b in mine if state.strength[b] < sc.blocks[b].max_strength]
    return found


def moves(sc: Scenario, state: NWState, side: str) -> list[object]:
    """The movement orders listed (each block alone, and each territory's whole unmoved group),
    built to pass check_move (the contract tests check that apply accepts every one)."""
    if state.phase != "action" or state.pending is not None or whose(state) != side:
        return []
    mine = [b for b in sc.blocks if sc.side_of(b) == side and state.status[b] == ON_MAP]
    places = sorted({str(state.at[b]) for b in mine}, key=list(sc.territories).index)
    enemy = {str(state.at[b]) for b in sc.blocks if state.status[b] == ON_MAP} - set(places)
    enemy |= {t for t in places if len(board.sides_in(sc, state, t)) > 1}
    try:
        actions.action_cost(state, side, "move")
        may = True
    except Rejection:
        may = False
    found: list[object] = []
    for where in places:
        if not may and not movement.continues(state, where):
            continue
        free = [b for b in mine if state.at[b] == where and b not in state.moved]
        groups = {(b,) for b in free} | ({tuple(free)} if free else set())
        for group in sorted(groups):
            reach = min(sc.blocks[b].move for b in group)
            fleet = [sc.blocks[b].type == "fleet" for b in group]
            for p in paths(sc, where, reach, enemy):
                if all(sc.territories[a].sea == f for a in p for f in fleet):
                    found.append(O.Move(group, p))
    return found


def winter_moves(sc: Scenario, state: NWState) -> list[object]:
    if state.winter_moved:  # rules 2: the blocks left behind may split from the march (7.2)
        left = [b for b in movement.split_left(sc, state) if state.strength[b] >= 2]
        return [
            O.Winter(g, p)
            for g in sorted({(b,) for b in left} | ({tuple(left)} if left else set()))
            for p in paths(sc, str(state.move_open), min(sc.blocks[b].move for b in g), set())
        ]
    where = state.at["charles"]
    if state.status["charles"] != ON_MAP or where is None:
        return []
    able = [b for b in on_map(sc, state, where, "sweden") if state.strength[b] >= 2]
    if "charles" not in able:  # rule 6.10: at strength 1 he may not take part
        return []
    groups = {("charles",), tuple(able)}
    return [
        O.Winter(g, p)
        for g in sorted(groups)
        for p in paths(sc, where, min(sc.blocks[b].move for b in g), set())
    ]


def legal(sc: Scenario, state: NWState, side: str) -> list[object]:
    if whose(state) != side:
        return []
    out = []
    for order in candidates(sc, state, side):
        try:
            check(sc, state, side, order)
        except Rejection:
            continue
        out.append(order)
    return out + moves(sc, state, side)

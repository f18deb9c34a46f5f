"""Where the blocks are and what is next to what: the questions every rule asks (pure)."""

from __future__ import annotations

from collections.abc import Iterator

from adjudicator.core.i18n import Msg, t
from adjudicator.northern_war.data import SIDE_IDS, Scenario
from adjudicator.northern_war.state import ON_MAP, NWState

SIDES = SIDE_IDS  # the side ids, in the order the texts list them


def other(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def on_map(sc: Scenario, state: NWState, area: str, side: str | None = None) -> list[str]:
    """The blocks in `area` (of `side`), in the scenario's order."""
    return [
        b
        for b in sc.blocks
        if state.status[b] == ON_MAP
        and state.at[b] == area
        and (side is None or sc.side_of(b) == side)
    ]


def sides_in(sc: Scenario, state: NWState, area: str) -> set[str]:
    return {sc.side_of(b) for b in on_map(sc, state, area)}


def enemy_in(sc: Scenario, state: NWState, area: str, side: str) -> bool:
    return other(side) in sides_in(sc, state, area)


def contested(sc: Scenario, state: NWState) -> list[str]:
    """The territories holding blocks of both sides: the battles (N3 a), in the map's order."""
    return [t for t in sc.territories if len(sides_in(sc, state, t)) == 2]


def label(sc: Scenario, state: NWState) -> Msg:
    """ "1701, turn 2": the year and the turn of the year."""
    return t("{year}, turn {turn}", year=sc.first_year + state.year - 1, turn=state.turn)


def paths(sc: Scenario, start: str, length: int, stops: set[str]) -> Iterator[tuple[str, ...]]:
    """Every simple path of 1..length areas entered from `start` (rule 7.3), none going on
    from an area of `stops` (rule 7.6: a superset of the areas holding enemy blocks)."""
    stack: list[tuple[str, ...]] = [(start,)]
    while stack:
        path = stack.pop()
        if len(path) > 1:
            yield path[1:]
        if len(path) <= length and (len(path) == 1 or path[-1] not in stops):
            for nxt in sc.territories[path[-1]].borders:
                if nxt not in path:
                    stack.append((*path, nxt))


def line_of_communication(sc: Scenario, state: NWState, block: str) -> bool:
    """N8 c: a chain of adjacent territories to a home territory of the block's nation, none
    holding an enemy block, all but the block's own controlled by its side."""
    side, nation, start = sc.side_of(block), sc.blocks[block].nation, state.at[block]
    if start is None or enemy_in(sc, state, start, side):
        return False
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        if sc.territories[here].home == nation:
            return True
        for nxt in sc.territories[here].borders:
            ok = state.control[nxt] == side and not enemy_in(sc, state, nxt, side)
            if nxt not in seen and ok:
                seen.add(nxt)
                todo.append(nxt)
    return False

"""A full state behind a side's view (rule 2.19, views.py): each anonymous enemy block
(`?<nation>@<territory>#<n>`) given back a block id and a strength.

The blocks an anonymous one may be are the enemy blocks of its nation that the view does not
show by id (a view shows every block off the map, and every block of a battle in progress, by
id): exactly the enemy's hidden blocks on the map. Two fillings:
- `stand_in`: a fixed one (the hidden blocks of a nation in the scenario's order, at their
  maximum strength), for the questions whose answer does not depend on who the enemy blocks are
  nor on their strength: which orders a side may give (`legal_orders` on a view);
- `sample`: one drawn from a dice source, for the built-in opponent (`determinise`). A block is
  more likely where it was last known to be (the viewer's own reconnaissance record of it, else
  its setup territory, which the scenario makes public), and at the strength it was last known
  to have (else any, 1 to its maximum).
Either way the filled state's view for the side is the view it was made from (the besiegers of
an enemy siege, which the view leaves out, are the enemy's blocks in that territory). Pure.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.core.dice import DiceSource
from adjudicator.northern_war.board import on_map, other
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import NWState
from adjudicator.northern_war.views import anonymous, nation_of

# choose(nation, anonymous ids, hidden block ids) -> {anonymous id: (block id, strength)}
Chooser = Callable[[str, list[str], list[str]], dict[str, tuple[str, int]]]
KNOWN = 3  # a sampled strength is the one last known with odds KNOWN-1 in KNOWN


def has_anonymous(state: NWState) -> bool:
    return any(anonymous(b) for b in state.at)


def unseen(sc: Scenario, view: NWState) -> dict[str, list[str]]:
    """nation -> the blocks of that nation the view does not show by id (a side's view shows
    all of its own: these are the enemy's)."""
    found: dict[str, list[str]] = {}
    for b, blk in sc.blocks.items():
        if b not in view.at:
            found.setdefault(blk.nation, []).append(b)
    return found


def fill(sc: Scenario, view: NWState, side: str, choose: Chooser) -> NWState:
    """A full state: every anonymous block replaced by the block `choose` gives it."""
    pool = unseen(sc, view)
    anon: dict[str, list[str]] = {}
    for b in view.at:
        if anonymous(b):
            anon.setdefault(nation_of(b), []).append(b)
    given: dict[str, tuple[str, int]] = {}
    for nation in sorted(anon):
        given.update(choose(nation, anon[nation], pool.get(nation, [])))
    state = view.clone()
    real = {given[b][0] if b in given else b: b for b in view.at}  # block -> its id in the view
    ids = [b for b in sc.blocks if b in real]  # the scenario's order, as the full state's
    state.at = {b: view.at[real[b]] for b in ids}
    state.status = {b: view.status[real[b]] for b in ids}
    state.strength = {b: given[real[b]][1] if real[b] in given else view.strength[b] for b in ids}
    enemy = other(side)
    state.sieges = [
        [a, s, on_map(sc, state, a, enemy) if s == enemy else g] for a, s, g in state.sieges
    ]
    if state.to_move == enemy:
        state.free_sieges = [[a, on_map(sc, state, a, enemy)] for a, _ in state.free_sieges]
    return state


def stand_in(sc: Scenario, view: NWState, side: str) -> NWState:
    """The fixed filling (the module doc)."""

    def choose(nation: str, anon: list[str], pool: list[str]) -> dict[str, tuple[str, int]]:
        return {a: (b, sc.blocks[b].max_strength) for a, b in zip(sorted(anon), pool)}

    return fill(sc, view, side, choose)


def sample(sc: Scenario, view: NWState, side: str, dice: DiceSource) -> NWState:
    """A filling drawn from `dice` (the module doc)."""
    known = _last_known(sc, view, side)
    distance = _distances(sc)

    def choose(nation: str, anon: list[str], pool: list[str]) -> dict[str, tuple[str, int]]:
        left = list(pool)
        given: dict[str, tuple[str, int]] = {}
        for a in dice.shuffle(sorted(anon), "opponent: block order"):
            area = str(view.at[a])
            weights = [max(1, 12 >> distance[known[b][0]][area]) for b in left]
            roll = dice.die(sum(weights), "opponent: block")
            i = 0
            while roll > weights[i]:
                roll -= weights[i]
                i += 1
            b = left.pop(i)
            given[a] = (b, _strength(sc, known[b][1], b, dice))
        return given

    return fill(sc, view, side, choose)


def _strength(sc: Scenario, last: int, block: str, dice: DiceSource) -> int:
    if dice.die(KNOWN, "opponent: strength known") < KNOWN:
        return last
    return dice.die(sc.blocks[block].max_strength, "opponent: strength")


def _last_known(sc: Scenario, view: NWState, side: str) -> dict[str, tuple[str, int]]:
    """block -> (territory, strength) where the viewer last knew it: his own record of it
    (reconnaissance, battles), else the scenario's setup."""
    found = {b: (blk.at, blk.strength) for b, blk in sc.blocks.items()}
    for b, (strength, _count, _when, area) in view.seen.get(side, {}).items():
        if b in found:
            found[b] = (str(area), int(strength))
    return found


def _distances(sc: Scenario) -> dict[str, dict[str, int]]:
    """The number of borders crossed between every two territories (breadth first)."""
    table: dict[str, dict[str, int]] = {}
    for start in sc.territories:
        dist, todo = {start: 0}, [start]
        for here in todo:
            for nxt in sc.territories[here].borders:
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    todo.append(nxt)
        far = len(sc.territories)
        table[start] = {t: dist.get(t, far) for t in sc.territories}
    return table


__all__ = ["fill", "has_anonymous", "sample", "stand_in", "unseen"]

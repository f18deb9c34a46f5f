"""The built-in opponent's judgement of a block-game position (core.system.OpponentSupport).

The sample scenario is won by controlling more victory territories after the last winter
campaign (N15), or at once by Sweden when no coalition nation is left at war (N11, through the
armistice of a nation whose royal block fell, 4.4). So the heuristic, from `side`'s side:
- CONTROL for each victory territory it controls, minus the enemy's (N15);
- control about to change: a victory territory held by the enemy that only `side`'s blocks
  occupy passes at the end of the battle phase when it has no fortress (N5), or by a siege
  (N4) when it has one: part of CONTROL, the more surely the weaker the fortress; the same
  against `side`;
- a victory territory an enemy block can reach in one move is partly lost (THREAT, by how
  surely it falls: at once without a fortress, else by a siege; less where it is held);
- STEP for each step of its blocks on the map, minus the enemy's: material wins battles (each
  step is a die, N3 d), weighted by the block's hit number (2.12);
- ROYAL for each coalition royal block lost (the armistice is near, N11), for Sweden;
- a finished game far above any of that (won, drawn, lost), and by its margin.
An anonymous enemy block (a view's `?nation@territory#n`) counts at the mean strength of the
blocks it may be; given a full state (one the opponent sampled, hidden.sample) every block
counts at its strength. Pure.
"""

from __future__ import annotations

from adjudicator.northern_war.board import other
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.views import anonymous, nation_of

FINISHED = 1000.0
CONTROL = 3.0  # a victory territory controlled
STEP = 0.5  # a step of a B2 block on the map (hit number 2)
ROYAL = 12.0  # a coalition royal block gone, for Sweden (its nation leaves the war, 4.4)
THREAT = 0.5  # the share of an exposed victory territory counted as lost
REACH = 2  # the territories an enemy block is taken to reach in one move (7.1: most move 2)
SIEGE_ODDS = {1: 0.6, 2: 0.35, 3: 0.15}  # a fortress of this garrison falls to a siege (N4)


def evaluate(sc: Scenario, state: NWState, side: str) -> float:
    """How good `state` is for `side` (the module doc): higher is better."""
    enemy = other(side)
    if state.result is not None:
        won = state.result.get("winner")
        margin = CONTROL * float(state.result.get(side, 0) - state.result.get(enemy, 0))
        return margin + (FINISHED if won == side else -FINISHED if won == enemy else 0.0)
    score = CONTROL * (_control(sc, state, side) - _control(sc, state, enemy))
    score -= CONTROL * THREAT * (_exposed(sc, state, side) - _exposed(sc, state, enemy))
    power = _power(sc, state)
    score += STEP * (power.get(side, 0.0) - power.get(enemy, 0.0))
    royals_lost = sum(
        1
        for b, blk in sc.blocks.items()
        if blk.royal and sc.side_of(b) == "coalition" and state.status.get(b, ON_MAP) != ON_MAP
    )
    score += ROYAL * royals_lost * (1 if side == "sweden" else -1)
    return score


def _control(sc: Scenario, state: NWState, side: str) -> float:
    """The victory territories `side` controls, and those it is about to take or lose."""
    held = _occupants(sc, state)
    total = 0.0
    for v in sc.victory:
        here = held.get(v, set())
        mine = state.control[v] == side
        odds = _odds(sc, v)
        if mine:
            total += 1.0 - (odds if here == {other(side)} else 0.0)
        elif here == {side}:
            total += odds
    return total


def _exposed(sc: Scenario, state: NWState, side: str) -> float:
    """How surely `side`'s victory territories fall to the enemy's next move: each one it
    controls that an enemy block can reach (REACH territories, none of them holding `side`'s
    blocks but the last, 7.5), by its odds: entered freely where `side` has no block there
    (N5; a fortress by a siege, N4), a third as likely where it has."""
    held = _occupants(sc, state)
    enemy = other(side)
    reach: set[str] = set()
    todo = [(t, 0) for t, here in held.items() if enemy in here]
    while todo:
        where, far = todo.pop()
        if far == REACH:
            continue
        for nxt in sc.territories[where].borders:
            if nxt not in reach:
                reach.add(nxt)
                if side not in held.get(nxt, set()):
                    todo.append((nxt, far + 1))
    total = 0.0
    for v in sc.victory:
        if state.control[v] != side or v not in reach or enemy in held.get(v, set()):
            continue
        odds = _odds(sc, v)
        total += odds if side not in held.get(v, set()) else odds / 3
    return total


def _odds(sc: Scenario, area: str) -> float:
    """How surely a territory the enemy enters passes to it: at once without a fortress (N5),
    else by a siege (N4)."""
    fortress = sc.territories[area].fortress
    return 1.0 if fortress == 0 else SIEGE_ODDS.get(fortress, 0.1)


def _occupants(sc: Scenario, state: NWState) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for b, where in state.at.items():
        if where is not None and state.status.get(b) == ON_MAP:
            found.setdefault(where, set()).add(_side_of(sc, b))
    return found


def _side_of(sc: Scenario, block: str) -> str:
    nation = nation_of(block) if anonymous(block) else sc.blocks[block].nation
    return sc.nations[nation].side


def _power(sc: Scenario, state: NWState) -> dict[str, float]:
    """side -> its steps on the map, each weighted by its block's hit number / 2."""
    mean = _mean_hidden(sc, state)
    power: dict[str, float] = {}
    for b, status in state.status.items():
        if status != ON_MAP:
            continue
        if anonymous(b):
            value = mean.get(nation_of(b), 2.0)
        else:
            value = state.strength[b] * sc.blocks[b].number / 2
        side = _side_of(sc, b)
        power[side] = power.get(side, 0.0) + value
    return power


def _mean_hidden(sc: Scenario, state: NWState) -> dict[str, float]:
    """nation -> the mean weighted strength of the blocks an anonymous one of it may be (their
    maximum less one: a block on campaign is seldom whole)."""
    pool: dict[str, list[float]] = {}
    for b, blk in sc.blocks.items():
        if b not in state.at:
            pool.setdefault(blk.nation, []).append((blk.max_strength - 0.5) * blk.number / 2)
    return {n: sum(v) / len(v) for n, v in pool.items()}


__all__ = ["evaluate"]

"""The built-in opponent's judgement of a block-game position (core.system.OpponentSupport).

The sample scenario is won by controlling more victory territories after the last winter
campaign (N15), or at once by Sweden when no coalition nation is left at war (N11, through the
armistice of a nation whose royal block fell, 4.4). So the heuristic, from `side`'s side:
- CONTROL for each victory territory it controls, minus the enemy's (N15);
- control about to change: a victory territory held by the enemy that only `side`'s blocks
  occupy passes at the end of the battle phase when it has no fortress (N5), or by a siege
  (N4) when it has one: part of CONTROL, the more surely the weaker the fortress; the same
  against `side`;
- a battle to come (a territory both sides occupy, N3) is judged by its odds: the attacker
  is left alone there (and takes an open territory, N5) as surely as it wipes the defender
  out; else the defender is (the attacker destroyed, or retreating after the third round,
  N3 f). Each side's blocks there count by the share of its strength expected to be left;
- a victory territory an enemy stack can reach in one move (REACH territories through ground
  free of `side`'s blocks, 7.5, 7.6) is partly lost (THREAT, by how surely it falls: at once
  without a fortress, else by a siege): all of it when nobody holds it, else as surely as the
  strongest such stack would wipe the garrison out. So a garrison counts by its strength
  against what can reach it, not by its presence: the coalition's plan is to hold Courland and
  Lithuania (no fortress: one battle won takes them) with stacks Charles XII cannot beat;
- STEP for each step of its blocks on the map, minus the enemy's: material wins battles (each
  step is a die, N3 d), weighted by the block's hit number (2.12);
- ROYAL for each coalition royal block lost (the armistice is near, N11, 4.4), for Sweden, and
  the chance of losing one: in a battle to come (a royal block falls with its stack, the hits
  going to the strongest block first, N3 e), and, by ROYAL_THREAT, where the strongest Swedish
  stack in reach would wipe its stack out. So the coalition keeps its kings out of Charles
  XII's reach or stacked with armies that can hold him;
- a finished game far above any of that (won, drawn, lost), and by its margin.
A battle is estimated, not played: its expected hits round by round (letter order, the
defender first at a letter, N3 d; each side's fire shrinking with its losses), a side wiped out
about as surely as the hits expected on it reach its steps (a normal approximation of the
dice). Without it a move into an enemy stack was judged as if the battle would never be
fought, and the one-ply pass of the search (normal.py) kept attacks out of the play-outs: the
coalition left Courland and Lithuania to Charles XII.
An anonymous enemy block (a view's `?nation@territory#n`) counts at the mean strength and hit
number of the blocks it may be; given a full state (one the opponent sampled, hidden.sample)
every block counts at its strength. Pure (the battle estimates are kept in a cache: the same
battles recur in a search).
"""

from __future__ import annotations

import functools
import math

from adjudicator.northern_war.board import other
from adjudicator.northern_war.data import LETTERS, Scenario
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.views import anonymous, nation_of

FINISHED = 1000.0
CONTROL = 3.0  # a victory territory controlled
STEP = 0.5  # a step of a B2 block on the map (hit number 2)
ROYAL = 12.0  # a coalition royal block gone, for Sweden (its nation leaves the war, 4.4)
THREAT = 0.5  # the share of an exposed victory territory counted as lost
ROYAL_THREAT = 0.6  # the share of a coalition royal block in reach counted as lost
REACH = 2  # the territories an enemy block is taken to reach in one move (7.1: most move 2)
SIEGE_ODDS = {1: 0.6, 2: 0.35, 3: 0.15}  # a fortress of this garrison falls to a siege (N4)
ROUNDS = 3  # a battle's rounds (N3 d): an attacker that has not won by then retreats (N3 f)
SPREAD = 0.7  # the variance of a battle's hits per hit expected (a die hitting on 2: 4/6)

Fire = tuple[float, float, int]  # a block's strength, hit number and letter (its index, 2.11)
Stack = tuple[Fire, ...]  # one side's blocks in a territory
Fight = tuple[float, float, float, float]  # _fight's answer


def evaluate(sc: Scenario, state: NWState, side: str) -> float:
    """How good `state` is for `side` (the module doc): higher is better."""
    enemy = other(side)
    if state.result is not None:
        won = state.result.get("winner")
        margin = CONTROL * float(state.result.get(side, 0) - state.result.get(enemy, 0))
        return margin + (FINISHED if won == side else -FINISHED if won == enemy else 0.0)
    stacks = _stacks(sc, state)
    battles: dict[str, tuple[str, Fight]] = {}
    for area, here in stacks.items():
        if len(here) > 1:
            defender = state.holders.get(area) or min(here)
            battles[area] = defender, _fight(here[defender], here[other(defender)])
    score = CONTROL * (
        _control(sc, state, side, stacks, battles) - _control(sc, state, enemy, stacks, battles)
    )
    reach = {s: _reach(sc, stacks, s) for s in (side, enemy)}
    score -= (
        CONTROL
        * THREAT
        * (
            _exposed(sc, state, side, stacks, reach[side])
            - _exposed(sc, state, enemy, stacks, reach[enemy])
        )
    )
    score += STEP * (_power(stacks, battles, side) - _power(stacks, battles, enemy))
    royals_lost = 0.0
    for b in _royals(sc):
        where = state.at.get(b)
        if state.status.get(b, ON_MAP) != ON_MAP:
            royals_lost += 1.0
        elif where is None:
            continue  # an anonymous block of a view: which one it is, is not known
        elif where in battles:
            royals_lost += _wiped_out(battles[where], "coalition")
        elif where in reach["coalition"]:
            attack = reach["coalition"][where]
            royals_lost += ROYAL_THREAT * _fight(stacks[where]["coalition"], attack)[0]
    score += ROYAL * royals_lost * (1 if side == "sweden" else -1)
    return score


def _control(
    sc: Scenario,
    state: NWState,
    side: str,
    stacks: dict[str, dict[str, Stack]],
    battles: dict[str, tuple[str, Fight]],
) -> float:
    """The victory territories `side` controls, and those it is about to take or lose (N5,
    N4): where both sides are, by the odds of the battle to come, whose winner is left alone
    there (the attacker when it wipes the defender out, else the defender: the attacker is
    destroyed or retreats after the last round, N3 f)."""
    total = 0.0
    for v in sc.victory:
        mine = state.control[v] == side
        odds = _odds(sc, v)
        if v in battles:
            defender, fight = battles[v]
            taken = fight[0]  # the defender wiped out: the attacker alone
            outcomes = [(taken, other(defender)), (1.0 - taken, defender)]
        else:
            here = stacks.get(v, {})
            outcomes = [(1.0, next(iter(here)) if here else "")]
        for chance, alone in outcomes:
            if mine:
                total += chance * (1.0 - (odds if alone == other(side) else 0.0))
            elif alone == side:
                total += chance * odds
    return total


def _reach(sc: Scenario, stacks: dict[str, dict[str, Stack]], side: str) -> dict[str, Stack]:
    """territory -> the strongest enemy stack that can reach it in one move: REACH
    territories, through ground free of `side`'s blocks (7.5, 7.6; a stack in a battle to come
    stays)."""
    enemy = other(side)
    strongest: dict[str, Stack] = {}
    for start, here in stacks.items():
        if len(here) > 1 or enemy not in here:
            continue
        stack = here[enemy]
        seen, edge = {start}, [start]
        for _ in range(REACH):
            nxt = []
            for where in edge:
                for area in sc.territories[where].borders:
                    if area in seen:
                        continue
                    seen.add(area)
                    if area not in strongest or _might(stack) > _might(strongest[area]):
                        strongest[area] = stack
                    if side not in stacks.get(area, ()):
                        nxt.append(area)
            edge = nxt
    return strongest


def _exposed(
    sc: Scenario,
    state: NWState,
    side: str,
    stacks: dict[str, dict[str, Stack]],
    strongest: dict[str, Stack],
) -> float:
    """How surely `side`'s victory territories fall to the enemy's next move: each one it
    controls that an enemy stack can reach (_reach), by its odds (N5; a fortress by a siege,
    N4): all of them where `side` has no block there, else as surely as the strongest such
    stack would wipe that garrison out in battle (N3, the garrison defending)."""
    enemy = other(side)
    total = 0.0
    for v in sc.victory:
        here = stacks.get(v, {})
        if state.control[v] != side or v not in strongest or enemy in here:
            continue
        wiped = _fight(here[side], strongest[v])[0] if side in here else 1.0
        total += _odds(sc, v) * wiped
    return total


def _power(
    stacks: dict[str, dict[str, Stack]], battles: dict[str, tuple[str, Fight]], side: str
) -> float:
    """`side`'s steps on the map, each weighted by its block's hit number / 2 (2.12); in a
    battle to come by the share of its strength expected to be left there."""
    total = 0.0
    for area, here in stacks.items():
        if side not in here:
            continue
        kept = 1.0
        if area in battles:
            defender, fight = battles[area]
            kept = fight[2] if side == defender else fight[3]
        total += kept * sum(strength * number for strength, number, _ in here[side]) / 2
    return total


def _wiped_out(battle: tuple[str, Fight], side: str) -> float:
    defender, fight = battle
    return fight[0] if side == defender else fight[1]


@functools.lru_cache(maxsize=8192)
def _fight(defence: Stack, attack: Stack) -> Fight:
    """The battle of these stacks (N3), judged by its expected hits: (the chance that the
    defender is wiped out, that the attacker is, the share of its strength each keeps). The
    blocks fire in letter order, the defender first at a letter (N3 d), each die hitting on
    its number or less (2.12), each side's fire shrinking with the steps it has lost; ROUNDS
    rounds. A side is wiped out about as surely as the hits expected on it reach its steps (a
    normal approximation of the dice), and not both. The same battles recur in a search: kept."""
    steps = [sum(f[0] for f in defence), sum(f[0] for f in attack)]
    left = list(steps)
    dealt = [0.0, 0.0]
    order = sorted([(f[2], 0, f) for f in defence] + [(f[2], 1, f) for f in attack])
    for _ in range(ROUNDS):
        for _letter, s, (strength, number, _) in order:
            hits = strength * (left[s] / steps[s]) * number / 6
            dealt[s] += hits
            left[1 - s] = max(0.0, left[1 - s] - hits)
    wiped = [
        _normal((dealt[1 - s] - steps[s] + 0.5) / math.sqrt(SPREAD * dealt[1 - s] + 0.25))
        for s in (0, 1)
    ]
    lost = [wiped[0] * (1 - wiped[1] / 2), wiped[1] * (1 - wiped[0] / 2)]
    kept = [(1.0 - lost[s]) * math.sqrt(left[s] / steps[s]) for s in (0, 1)]
    return lost[0], lost[1], kept[0], kept[1]


def _normal(z: float) -> float:
    """The standard normal distribution's P(X <= z)."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _might(stack: Stack) -> float:
    """The hits a stack expects to score in a round (2.12)."""
    return sum(strength * number for strength, number, _ in stack) / 6


def _odds(sc: Scenario, area: str) -> float:
    """How surely a territory the enemy enters passes to it: at once without a fortress (N5),
    else by a siege (N4)."""
    fortress = sc.territories[area].fortress
    return 1.0 if fortress == 0 else SIEGE_ODDS.get(fortress, 0.1)


def _stacks(sc: Scenario, state: NWState) -> dict[str, dict[str, Stack]]:
    """territory -> side -> the fire of each of its blocks there (sorted: a key of _fight).
    An anonymous block fires as the mean of the blocks it may be."""
    found: dict[str, dict[str, list[Fire]]] = {}
    mean: dict[str, Fire] | None = None
    for b, where in state.at.items():
        if where is None or state.status.get(b) != ON_MAP:
            continue
        if anonymous(b):
            mean = _mean_hidden(sc, state) if mean is None else mean
            nation = nation_of(b)
            fire = mean.get(nation, (2.5, 1.5, 1))
        else:
            blk = sc.blocks[b]
            nation = blk.nation
            fire = (float(state.strength[b]), float(blk.number), LETTERS.index(blk.letter))
        side = sc.nations[nation].side
        found.setdefault(where, {}).setdefault(side, []).append(fire)
    return {a: {s: tuple(sorted(f)) for s, f in here.items()} for a, here in found.items()}


def _royals(sc: Scenario) -> list[str]:
    return [b for b, blk in sc.blocks.items() if blk.royal and sc.side_of(b) == "coalition"]


def _mean_hidden(sc: Scenario, state: NWState) -> dict[str, Fire]:
    """nation -> the mean strength and hit number of the blocks an anonymous one of it may be
    (their maximum less a half: a block on campaign is seldom whole), and their commonest
    letter."""
    pool: dict[str, list[Fire]] = {}
    for b, blk in sc.blocks.items():
        if b not in state.at:
            fire = (blk.max_strength - 0.5, float(blk.number), LETTERS.index(blk.letter))
            pool.setdefault(blk.nation, []).append(fire)
    found: dict[str, Fire] = {}
    for n, fires in pool.items():
        letters = [f[2] for f in fires]
        common = max(sorted(set(letters)), key=letters.count)
        found[n] = (
            sum(f[0] for f in fires) / len(fires),
            sum(f[1] for f in fires) / len(fires),
            common,
        )
    return found


__all__ = ["evaluate"]

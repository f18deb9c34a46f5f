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
REACH = 2  # the territories an enemy block is taken to reach in one move (7.1: most move 2)
SIEGE_ODDS = {1: 0.6, 2: 0.35, 3: 0.15}  # a fortress of this garrison falls to a siege (N4)
ROUNDS = 3  # a battle's rounds (N3 d): an attacker that has not won by then retreats (N3 f)
SPREAD = 0.7  # the variance of a battle's hits per hit expected (a die hits on 2 in 6: 4/6)


class Battle:
    """A battle to come (or in progress) in a territory both sides occupy (N3): who defends,
    how likely each side is to be wiped out, and the share of its steps each keeps."""

    def __init__(self, defender: str, lost: dict[str, float], kept: dict[str, float]):
        self.defender = defender
        self.lost = lost  # side -> the chance that none of its blocks is left there
        self.kept = kept  # side -> the expected share of its strength left on the map

    def alone(self) -> list[tuple[float, str]]:
        """(chance, side left alone there): the attacker when it wipes the defender out, else
        the defender (the attacker destroyed, or retreating after the last round, N3 f)."""
        attacker = other(self.defender)
        return [
            (self.lost[self.defender], attacker),
            (1.0 - self.lost[self.defender], self.defender),
        ]


def evaluate(sc: Scenario, state: NWState, side: str) -> float:
    """How good `state` is for `side` (the module doc): higher is better."""
    enemy = other(side)
    if state.result is not None:
        won = state.result.get("winner")
        margin = CONTROL * float(state.result.get(side, 0) - state.result.get(enemy, 0))
        return margin + (FINISHED if won == side else -FINISHED if won == enemy else 0.0)
    held = _occupants(sc, state)
    mean = _mean_hidden(sc, state)
    battles = {a: _battle(sc, state, a, mean) for a, here in held.items() if len(here) > 1}
    score = CONTROL * (
        _control(sc, state, side, held, battles) - _control(sc, state, enemy, held, battles)
    )
    score -= CONTROL * THREAT * (_exposed(sc, state, side) - _exposed(sc, state, enemy))
    power = _power(sc, state, mean, battles)
    score += STEP * (power.get(side, 0.0) - power.get(enemy, 0.0))
    royals_lost = 0.0
    for b, blk in sc.blocks.items():
        if not blk.royal or sc.side_of(b) != "coalition":
            continue
        if state.status.get(b, ON_MAP) != ON_MAP:
            royals_lost += 1.0
        elif state.at.get(b) in battles:
            royals_lost += battles[str(state.at[b])].lost["coalition"]
    score += ROYAL * royals_lost * (1 if side == "sweden" else -1)
    return score


def _control(
    sc: Scenario,
    state: NWState,
    side: str,
    held: dict[str, set[str]],
    battles: dict[str, Battle],
) -> float:
    """The victory territories `side` controls, and those it is about to take or lose: where
    both sides are, by the odds of the battle to come (its winner is left alone there)."""
    total = 0.0
    for v in sc.victory:
        mine = state.control[v] == side
        odds = _odds(sc, v)
        outcomes = battles[v].alone() if v in battles else [(1.0, "".join(held.get(v, ())))]
        for chance, alone in outcomes:
            if mine:
                total += chance * (1.0 - (odds if alone == other(side) else 0.0))
            elif alone == side:
                total += chance * odds
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


Fire = tuple[float, float, int]  # (strength, hit number, index of the letter in LETTERS)


def _power(
    sc: Scenario, state: NWState, mean: dict[str, Fire], battles: dict[str, Battle]
) -> dict[str, float]:
    """side -> its steps on the map, each weighted by its block's hit number / 2; a block in a
    battle to come by the share of its side's strength expected to be left there."""
    power: dict[str, float] = {}
    for b, status in state.status.items():
        if status != ON_MAP:
            continue
        strength, number, _ = _fire(sc, state, b, mean)
        side = _side_of(sc, b)
        battle = battles.get(str(state.at[b]))
        kept = battle.kept[side] if battle is not None else 1.0
        power[side] = power.get(side, 0.0) + kept * strength * number / 2
    return power


def _fire(sc: Scenario, state: NWState, block: str, mean: dict[str, Fire]) -> Fire:
    if anonymous(block):
        return mean.get(nation_of(block), (2.5, 1.5, 1))
    blk = sc.blocks[block]
    return float(state.strength[block]), float(blk.number), LETTERS.index(blk.letter)


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


def _battle(sc: Scenario, state: NWState, area: str, mean: dict[str, Fire]) -> Battle:
    """The battle both sides' blocks in `area` fight (N3), judged by its expected hits: the
    blocks fire in letter order, the defender first at a letter (N3 d), each die hitting on its
    number or less (2.12), every side's fire shrinking with the steps it has lost; ROUNDS rounds.
    A side is wiped out about as surely as the hits expected on it reach its steps (a normal
    approximation of the dice), and not both."""
    fires: dict[str, list[Fire]] = {}
    for b, where in state.at.items():
        if where == area and state.status.get(b) == ON_MAP:
            fires.setdefault(_side_of(sc, b), []).append(_fire(sc, state, b, mean))
    defender = state.holders.get(area) or min(fires)
    attacker = other(defender)
    steps = {s: sum(f[0] for f in fires.get(s, [])) for s in (defender, attacker)}
    left = dict(steps)
    dealt = {defender: 0.0, attacker: 0.0}
    order = sorted(
        ((f[2], s != defender, f, s) for s in (defender, attacker) for f in fires.get(s, [])),
        key=lambda x: (x[0], x[1]),
    )
    for _ in range(ROUNDS):
        for _letter, _second, (strength, number, _), s in order:
            share = left[s] / steps[s] if steps[s] > 0 else 0.0
            hits = strength * share * number / 6
            dealt[s] += hits
            target = other(s)
            left[target] = max(0.0, left[target] - hits)
    wiped = {}
    for s in (defender, attacker):
        need, got = steps[s], dealt[other(s)]
        wiped[s] = _normal((got - need + 0.5) / math.sqrt(SPREAD * got + 0.25))
    lost = {
        defender: wiped[defender] * (1 - wiped[attacker] / 2),
        attacker: wiped[attacker] * (1 - wiped[defender] / 2),
    }
    kept = {
        s: (1.0 - lost[s]) * (left[s] / steps[s] if steps[s] > 0 else 0.0) ** 0.5
        for s in (defender, attacker)
    }
    return Battle(defender, lost, kept)


def _normal(z: float) -> float:
    """The standard normal distribution's P(X <= z)."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


__all__ = ["evaluate"]

"""The `normal` level: a search within a budget of evaluations (an order applied, or a position
judged, counts one).

1. Every legal order is tried once, as `easy` does (one ply on one sampled world).
2. The best few (WIDTH, and `end` where it is legal) go on: each is played out in round after
   round until the budget is spent. A round draws a fresh world behind the view (the system's
   `determinise`) and fresh dice, the SAME for every candidate of the round (common random
   numbers: the candidates are compared on equal luck), applies the candidate, and plays on
   until the game has gone round to `side`'s next phase (or HORIZON orders): the enemy's first
   REPLIES orders are each the best for it of REPLY_WIDTH of its legal orders drawn at random
   (a quick, greedy enemy: it attacks what is weak, takes what is open), every other order is
   the rules' default (what a passed deadline gives: the rest of a phase ended, a decision
   answered by its default). The position there is judged. So a move is judged by what it
   leads to once the enemy has answered and the dice have spoken: the battles a block game
   fights after its action phase, the enemy's attacks on what was left weak, the mean of a
   combat's dice.
3. The best mean is taken; `end` only when nothing else beats it; ties by the opponent's dice.
When the budget does not cover step 1 and one round, it is `easy`. Pure.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.system import SYSTEM_ACTOR
from adjudicator.opponent.dice import OwnDice
from adjudicator.opponent.easy import value_after
from adjudicator.opponent.plays import REFUSED, Candidate, candidates, pick_best

NORMAL_BUDGET = 1000.0  # evaluations a decision may spend (the shipped setting: docs/opponent.md)
WIDTH = 12  # the candidates that go on to step 2, `end` besides
HORIZON = 40  # default orders a play-out may give
REPLIES = 12  # enemy orders a play-out chooses (then its defaults)
REPLY_WIDTH = 10  # orders drawn for each
PLAY_OUT = 2 + HORIZON + REPLIES * (2 + 2 * REPLY_WIDTH)  # the most a play-out spends


def decide_normal(plays: Any, view: Any, side: str, dice: OwnDice, budget: float) -> object:
    """The search of the module doc within `budget` evaluations."""
    cands = candidates(plays, view, side)
    if len(cands) == 1:
        return cands[0].order
    world = plays.determinise(view, side, dice.fork("world"))
    for c in cands:
        c.add(value_after(plays, world, side, c.order, dice.fork(f"dice|{c.text}")))
    spent = float(len(cands))
    short = _shortlist(cands, dice)
    if spent + len(short) * 2 > budget:
        return pick_best(cands, float(plays.evaluate(world, side)), dice).order
    played = [Candidate(c.order, c.text) for c in short]
    start = plays.situation(view)
    r = 0
    while spent < budget or r == 0:
        world = plays.determinise(view, side, dice.fork(f"world{r}"))
        for c in played:
            value, cost = play_out(plays, world, side, c.order, dice.fork(f"round{r}"), start)
            c.add(value)
            spent += cost
        r += 1
    return pick_best(played, REFUSED, dice).order


def _shortlist(cands: list[Candidate], dice: OwnDice) -> list[Candidate]:
    """The WIDTH best by their one-ply value, and `end`."""
    ranked = sorted((c for c in cands if not c.is_end and c.mean > REFUSED), key=lambda c: -c.mean)
    short = ranked[:WIDTH]
    short += [c for c in cands if c.is_end]
    return short or [dice.choice(cands)]


def play_out(
    plays: Any, world: Any, side: str, order: object, dice: OwnDice, start: Any
) -> tuple[float | None, int]:
    """(the value of `order` played out on `world`, the evaluations spent): the module doc."""
    try:
        state = plays.apply(world, side, order, dice).state
    except Rejection:
        return None, 1
    cost = 1
    left_start = False
    replies = REPLIES
    for _ in range(HORIZON):
        here = plays.situation(state)
        if here.over or not here.to_move:
            break
        moved_on = (here.turn, here.phase) != (start.turn, start.phase)
        left_start = left_start or moved_on or side not in here.to_move
        if left_start and side in here.to_move and moved_on and not here.pending:
            break
        if replies > 0 and side not in here.to_move:
            replies -= 1
            reply, spent = _reply(plays, state, here.to_move[0], dice)
            cost += spent
            if reply is not None:
                state = reply
                continue
        try:
            state = plays.apply(state, SYSTEM_ACTOR, C.Default(), dice).state
        except Rejection:
            break
        cost += 1
    return float(plays.evaluate(state, side)), cost + 1


def _reply(plays: Any, state: Any, enemy: str, dice: OwnDice) -> tuple[Any, int]:
    """The enemy's order in a play-out: the best for it of `end` and REPLY_WIDTH of its legal
    orders drawn at random, each tried once (None: it ends, or has nothing to choose)."""
    legal = list(plays.legal_orders(state, enemy))
    others = [o for o in legal if plays.grammar.format(o) != "end"]
    if not others:
        return None, 1
    tried = [dice.choice(others) for _ in range(min(REPLY_WIDTH, len(others)))]
    best, best_value, cost = None, float(plays.evaluate(state, enemy)), 2  # the list, judged
    for o in tried:
        try:
            out = plays.apply(state, enemy, o, dice).state
        except Rejection:
            continue
        cost += 2
        value = float(plays.evaluate(out, enemy))
        if value > best_value:
            best, best_value = out, value
    return best, cost


__all__ = ["HORIZON", "NORMAL_BUDGET", "PLAY_OUT", "WIDTH", "decide_normal", "play_out"]

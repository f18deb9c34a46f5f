"""Random legal games: on the rules alone with hash dice, and through the service."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.driver import MODERATOR, Driver
from adjudicator.core.system import GameSystem
from app import games
from app.service import GameService
from bots.demo import choose, legal_texts


def new_game(d: Driver, service: GameService, name: str) -> str:
    """A game of the driver's system, made by the contract's moderator."""
    service.new_game(name, system=d.system_id, creator=f"telegram:{MODERATOR}")
    return name


# -- play without the service: the rules alone, with hash dice
def bound_system(d: Driver) -> GameSystem:
    return games.bind(d.system_id, *games.default_scenario(registry.get(d.system_id)))


def direct_play(system: GameSystem, seed: int, bound: int) -> Iterator[tuple[Any, str, Any]]:
    """(state, side to move, dice) before each random legal order, until the game ends."""
    rng, dice = random.Random(seed), HashDice(seed)
    state = system.initial(False, dice).state
    for _ in range(bound):
        here = system.situation(state)
        if here.over:
            return
        side = here.to_move[0]
        yield state, side, dice
        state = system.apply(state, side, rng.choice(system.legal_orders(state, side)), dice).state
    raise AssertionError(f"no result after {bound} random legal orders")


# -- play through the service
def service_play(
    service: GameService,
    name: str,
    rng: random.Random,
    bound: int,
    before: Callable[[int], None] | None = None,
    finish: bool = True,
) -> int:
    """Random legal orders (as the trusted operator) until the game ends, or `bound` orders
    (an error if finish: the game must end by then); before(n) runs before the n-th order."""
    system = service.system(name)
    for count in range(bound):
        state = service.state(name)
        if before is not None and not system.situation(state).over:
            before(count)
            state = service.state(name)
        if system.situation(state).over:
            return count
        side = system.situation(state).to_move[0]
        text = choose(rng, legal_texts(system, state, side))
        (reply, *_) = service.say(name, side, text)
        assert reply.ok, (side, text, reply.reply)
    assert not finish or _over(service, name), f"{name}: no result after {bound} orders"
    return bound


def _over(service: GameService, name: str) -> bool:
    return service.system(name).situation(service.state(name)).over

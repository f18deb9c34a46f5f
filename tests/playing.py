"""Helpers for tests that play games through the service (not a test module)."""

from __future__ import annotations

import random

from adjudicator import grammar
from bots.demo import choose
from bots.service import GameService, Reply


def legal_text(service: GameService, name: str, rng: random.Random) -> tuple[str, str]:
    """(side, text) of a random legal order for the side to move, as the demo chooses it."""
    state = service.state(name)
    side = state.active_side
    legal = sorted(service.rules(name).legal_orders(state, side), key=grammar.format_order)
    return side, grammar.format_order(choose(rng, legal))


def play_random(
    service: GameService,
    name: str,
    orders: int,
    seed: int = 1,
    until_turn: int | None = None,
    on_reply=None,
) -> list[Reply]:
    """Up to `orders` random legal orders (or until turn `until_turn` begins, or the game ends)."""
    rng = random.Random(seed)
    replies: list[Reply] = []
    for _ in range(orders):
        state = service.state(name)
        if state.result is not None or (until_turn is not None and state.turn >= until_turn):
            break
        side, text = legal_text(service, name, rng)
        got = service.say(name, side, text)
        assert got[0].ok, (side, text, got[0].reply)
        replies += got
        if on_reply:
            for reply in got:
                on_reply(reply)
    return replies

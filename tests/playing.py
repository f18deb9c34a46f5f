"""Helpers for tests that play games through the service (not a test module)."""

from __future__ import annotations

import random

from app.service import GameService, Reply
from bots.demo import choose, legal_texts


def legal_text(service: GameService, name: str, rng: random.Random) -> tuple[str, str]:
    """(side, text) of a random legal order for the side to move, as the demo chooses it."""
    state = service.state(name)
    system = service.system(name)
    side = system.situation(state).to_move[0]
    return side, choose(rng, legal_texts(system, state, side))


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
        here = service.system(name).situation(service.state(name))
        if here.over or (until_turn is not None and (here.turn or 0) >= until_turn):
            break
        side, text = legal_text(service, name, rng)
        got = service.say(name, side, text)
        assert got[0].ok, (side, text, got[0].reply)
        replies += got
        if on_reply:
            for reply in got:
                on_reply(reply)
    return replies

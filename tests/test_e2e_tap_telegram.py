"""Playing by taps on Telegram, end to end: the REAL python-telegram-bot against the local fake
of the Bot API (tests/fakes/telegram_api.py), the real chat service, store and outbox
(tests/e2e_support.py). Players never type an order: every order comes from an inline key of a
menu opened from a post's answer key or `/options` (tests/tap_support.py), chosen at random
(seeded) among the keys offered, or from a line written to a ForceReply prompt the bot asked."""

from __future__ import annotations

import asyncio
import random

from app import audit
from tests import e2e_support as E
from tests import tap_support as T
from tests.fakes.telegram_api import FakeTelegramAPI

GROUP = E.TG_GROUP


def run(coro, timeout: float = 300.0) -> None:
    asyncio.run(asyncio.wait_for(coro, timeout))


async def set_up(w: E.World, system: str, seats: dict[str, str], sandbox: str = "") -> str:
    group = E.TelegramChat(w, GROUP)
    for user in {*seats.values(), "carol"}:  # each has a private chat with the bot
        u = E.TG_USERS[user]
        await E.TelegramChat(w, u.id).say(user, "help", via="plain")
    assert "New game" in (await group.say("alice", f"new {system} {sandbox}".strip())).public
    for side, user in seats.items():
        await group.say(user, f"join {side}", via="command")
    await group.say("alice", "start", via="command")
    await w.drained()
    return w.game(*group.key)


def test_a_turn_of_hells_gate_by_taps(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            seats = {"soviet": "alice", "german": "bob"}
            game = await set_up(w, "hells-gate", seats)
            tapper = T.Tapper(w, GROUP, seats, random.Random(1))
            system = w.service.system(game)
            while (system.situation(w.service.state(game)).turn or 0) < 2:
                here = system.situation(w.service.state(game))
                assert not here.over
                await tapper.order(here.to_move[0], T.random_key, game)
                await w.drained()
            print(tapper.given, tapper.presses)

    run(scenario())

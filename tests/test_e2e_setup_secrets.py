"""End to end on Telegram: a setup's private event reaches its side's player, and only him.

The REAL python-telegram-bot against the local fake of the Bot API (tests/e2e_support.py), with
the secret-dice test system (tests/systems/secret_dice.py): its setup deals each side a hidden die
by a private event. Alice and Bob take the sides in the group; each is sent his own side's die
in a private chat by the outbox sender; the group, Carol (a spectator) and the other side never
see it.
"""

from __future__ import annotations

import re

from adjudicator.core import registry
from tests import e2e_support as E
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.systems import secret_dice

SECRET = re.compile(r"Your secret die is (\d)")
USERS = {name: E.TG_USERS[name].id for name in ("alice", "bob", "carol")}


def test_a_setup_secret_arrives_by_private_message_to_the_player_who_takes_the_side(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            group = E.TelegramChat(w, E.TG_GROUP)
            a = await group.say("alice", "new secret-dice")
            assert "New game" in a.public and not SECRET.search(a.text)
            game = w.game(*group.key)
            die = {s: SECRET.findall(w.service.log_text(game, view=s))[0] for s in ("red", "blue")}
            assert "alice now plays red" in (await group.say("alice", "join red")).public
            [dm] = await w.tg_posts(USERS["alice"], "Your secret die is")
            assert SECRET.findall(dm.rendered) == [die["red"]]
            assert "(only you see this)" in dm.rendered
            assert (
                "bob now plays blue" in (await group.say("bob", "join blue", via="command")).public
            )
            [dm] = await w.tg_posts(USERS["bob"], "Your secret die is")
            assert SECRET.findall(dm.rendered) == [die["blue"]]
            await group.say("carol", "log")  # a spectator asks in the group
            await group.say("alice", "start")
            await w.drained()
            told = {c.chat_id: SECRET.findall(c.rendered or "") for c in api.sent()}
            told = {chat: dice for chat, dice in told.items() if dice}
            assert told == {USERS["alice"]: [die["red"]], USERS["bob"]: [die["blue"]]}

    registry.register(secret_dice.SYSTEM)
    try:
        E.run(scenario())
    finally:
        registry.unregister(secret_dice.SYSTEM.id)

"""A moderator's edits end to end on Telegram (issue 26, app/edits.py): the REAL
python-telegram-bot against the local fake of the Bot API (tests/e2e_support.py).

- Hell's Gate, not a sandbox: Alice (the moderator, Soviet) proposes `set weather mud` in the
  group; her own `confirm edit` and Carol's (a spectator) are refused; Bob (German) confirms it:
  the weather is mud and the group is posted the applied edit;
- the secret-edit test system (tests/systems/secret_edit.py): Alice's `set secret red 4` is
  refused in the group with the reason, proposed from her private chat, confirmed by Bob in the
  group; the value reaches Alice's private chat only, never the group, Bob or Carol.
"""

from __future__ import annotations

import re

from adjudicator.core import registry
from tests import e2e_support as E
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.systems import secret_edit

USERS = {name: E.TG_USERS[name].id for name in ("alice", "bob", "carol")}
VALUE = re.compile(r"secret red 4|secret die to 4")


def test_an_edit_proposed_in_a_group_is_confirmed_by_the_other_player(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            group = E.TelegramChat(w, E.TG_GROUP)
            await group.say("alice", "new hells-gate")
            game = w.game(*group.key)
            await group.say("alice", "join soviet")
            await group.say("bob", "join german")
            await group.say("alice", "start")
            a = await group.say("alice", "set weather mud")
            assert "Edit set weather mud proposed by" in E.plain(a.public)
            assert "confirm edit" in a.public
            a = await group.say("alice", "confirm edit", via="command")
            assert "does not confirm it himself" in a.public
            a = await group.say("carol", "confirm edit")
            assert "only the player of german confirms this edit" in a.public  # not alice's seat
            assert w.service.state(game).weather == "snow"
            since = len(api.calls)
            a = await group.say("bob", "confirm edit")
            assert "applied, proposed by" in a.public and "confirmed by" in a.public
            assert w.service.state(game).weather == "mud"
            await w.tg_posts(E.TG_GROUP, "applied, proposed by", since=since)
            ok, text, _ = w.service.audit(game)
            assert ok, text

    E.run(scenario())


def test_a_secret_edit_is_given_privately_and_its_value_reaches_its_side_only(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            group = E.TelegramChat(w, E.TG_GROUP)
            await group.say("alice", "new secret-edit")
            game = w.game(*group.key)
            await group.say("alice", "join red")
            await group.say("bob", "join blue")
            await group.say("alice", "start")
            a = await group.say("alice", "set secret red 4")
            assert a.public == (
                "Refused: this edit sets a hidden value: give it in a private chat with the bot"
            )
            private = E.TelegramChat(w, USERS["alice"])
            a = await private.say("alice", "set secret red 4", via="plain")
            assert "Your edit: set secret red 4" in E.plain(a.text)
            a = await group.say("bob", "confirm edit")
            assert "applied" in a.public and not VALUE.search(a.public)
            assert w.service.state(game).secret["red"] == 4
            await group.say("carol", "log")
            await w.drained()
            told = {c.chat_id for c in api.sent() if VALUE.search(c.rendered or "")}
            assert told == {USERS["alice"]}  # her private chat: her edit, her side's die
            ok, text, _ = w.service.audit(game)
            assert ok, text

    registry.register(secret_edit.SYSTEM)
    try:
        E.run(scenario())
    finally:
        registry.unregister(secret_edit.SYSTEM.id)

"""First contact: a private `/start` (Telegram's Start button) or `help` in a private chat that is
no game's answers in at most three lines in the user's language (his setting, else the
platform's language), naming the games he plays and where orders go; a deep link from a tap key
(`/start <token>`, `/start options`) still opens its choices. The REAL python-telegram-bot and
discord.py against the local fakes of their APIs (tests/e2e_support.py)."""

from __future__ import annotations

import json
import re

from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds
from storage import Store
from tests import e2e_support as E
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.test_chat_service import Chat

LIMIT = 400  # characters a phone shows without scrolling
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


async def _game(w: E.World, chat: E.TelegramChat, seats: dict[str, str]) -> str:
    assert "New game" in (await chat.say(next(iter(seats.values())), "new hells-gate")).public
    for side, user in seats.items():
        await chat.say(user, f"join {side}", via="command")
    await chat.say(next(iter(seats.values())), "start", via="command")
    await w.drained()
    return w.game(*chat.key)


def _check_greeting(text: str, plays: str, not_plays: str, russian: bool) -> None:
    assert len(text.splitlines()) <= 3, text
    assert len(text) <= LIMIT, (len(text), text)
    assert plays in text and not_plays not in text, text
    assert "help new" in text, text  # the long guide to creating a game stays reachable
    if russian:
        assert text.startswith("Этот личный чат"), text
        assert len(CYRILLIC.findall(text)) > len(text) / 3, text
    else:
        assert text.startswith("This private chat"), text
        assert not CYRILLIC.search(text), text


def test_private_start_on_telegram_greets_in_three_lines_in_the_users_language(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            mine = await _game(
                w, E.TelegramChat(w, E.TG_GROUP), {"soviet": "alice", "german": "bob"}
            )
            other = await _game(
                w, E.TelegramChat(w, E.TG_SIDE), {"soviet": "carol", "german": "bob"}
            )
            assert mine != other
            alice = E.TelegramChat(w, E.TG_USERS["alice"].id)
            a = await alice.say("alice", "/start", via="plain", language_code="ru-RU")
            assert a.incoming.private and a.incoming.text == "help"
            _check_greeting(a.text, mine, other, russian=True)
            assert "СССР" in a.text  # his side, in his language

            carol = E.TelegramChat(w, E.TG_USERS["carol"].id)
            a = await carol.say("carol", "/start", via="plain", language_code="en")
            _check_greeting(a.text, other, mine, russian=False)
            assert "Soviet" in a.text
            a = await carol.say("carol", "help", via="plain", language_code="en")
            _check_greeting(a.text, other, mine, russian=False)

            # the long guide: `help new`; a game's own help: `help in <GAME>`
            a = await carol.say("carol", "help new", via="plain", language_code="en")
            assert a.text.startswith("No game is played in this chat yet. To start one:")
            a = await alice.say("alice", f"help in {mine}", via="plain", language_code="ru")
            assert mine in a.text and "Этот личный чат" not in a.text

            # a chosen language wins over the platform's
            await alice.say("alice", "language en", via="plain", language_code="ru")
            a = await alice.say("alice", "/start", via="plain", language_code="ru")
            _check_greeting(a.text, mine, other, russian=False)

            # a player of several games: each named, orders after `use <GAME>`
            bob = E.TelegramChat(w, E.TG_USERS["bob"].id)
            a = await bob.say("bob", "/start", via="plain")
            assert mine in a.text and other in a.text and "use <GAME>" in a.text
            assert len(a.text.splitlines()) <= 3 and len(a.text) <= LIMIT
            await w.drained()

    E.run(scenario())


def test_a_deep_link_opens_its_choices_not_the_greeting(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            await _game(w, E.TelegramChat(w, E.TG_GROUP), {"soviet": "alice", "german": "bob"})
            alice = E.TG_USERS["alice"].id
            since = len(api.calls)
            api.push_message("/start options", chat_id=alice, user_id=alice, user_name="alice")
            await w.until(lambda: _keyed(api.calls[since:], alice), "the menu")
            sent = [
                c for c in api.calls[since:] if c.method == "sendMessage" and c.chat_id == alice
            ]
            assert sent and all("private chat is for" not in (c.rendered or "") for c in sent)
            keys = [k for c in sent for row in _keys(c) for k in row]
            assert keys, [c.rendered for c in sent]  # the menu: its keys

            # a key's token as a deep link carries (`t.me/<bot>?start=<token>`): that press
            token = keys[0]["callback_data"]
            since = len(api.calls)
            api.push_message(f"/start {token}", chat_id=alice, user_id=alice, user_name="alice")
            await w.until(
                lambda: [
                    c for c in api.calls[since:] if c.method in E.SENDS and c.chat_id == alice
                ],
                "the press's answer",
            )
            after = [c for c in api.calls[since:] if c.method in E.SENDS]
            assert all("private chat is for" not in (c.rendered or "") for c in after)

            # a payload that is no key's (an old or hand-made link): the greeting, not `start`
            since = len(api.calls)
            api.push_message("/start hello", chat_id=alice, user_id=alice, user_name="alice")
            greeting = await w.until(
                lambda: [
                    c
                    for c in api.calls[since:]
                    if c.chat_id == alice and "private chat is for" in (c.rendered or "")
                ],
                "the greeting",
            )
            assert len(greeting) == 1
            await w.drained()

    E.run(scenario())


def _keys(call) -> list[list[dict]]:
    markup = call.params.get("reply_markup")
    if isinstance(markup, str):
        markup = json.loads(markup)
    return (markup or {}).get("inline_keyboard", [])


def _keyed(calls, chat_id: int) -> list:
    return [c for c in calls if c.method == "sendMessage" and c.chat_id == chat_id and _keys(c)]


def test_a_discord_dm_help_greets_in_three_lines(tmp_path):
    async def scenario():
        async with E.both_platforms(tmp_path / "games.db", E.now_clock()) as (_api, fake, w):
            channel = E.DiscordChat(w, fake.channel_id)
            await channel.say("alice", "new hells-gate")
            await channel.say("alice", "join soviet")
            await channel.say("bob", "join german")
            await channel.say("alice", "start")
            await w.drained()
            game = w.game(*channel.key)
            other = await _game(
                w, E.TelegramChat(w, E.TG_GROUP), {"soviet": "carol", "german": "bob"}
            )
            a = await channel.say("alice", "help", via="dm")
            assert a.incoming.private
            _check_greeting(a.text, game, other, russian=False)
            await channel.say("alice", "language ru", via="dm")
            a = await channel.say("alice", "help", via="dm")
            _check_greeting(a.text, game, other, russian=True)
            await w.drained()

    E.run(scenario())


def test_a_greeting_with_more_games_than_it_names_says_that_games_lists_them_all():
    store = Store(":memory:")
    try:
        chats = ChatService(GameService(store, seeds=DemoSeeds(7)), clock=FakeClock())
        for n in range(5):
            group = Chat(chats, "telegram", f"-100{n}")
            group.say(1, "new hells-gate")
            group.say(1, "join soviet")
        private = Chat(chats, "telegram", "1", private=True)
        said = private.text(1, "help")
        assert "2 more (`games` lists them all)" in said, said
        assert len(said.splitlines()) <= 3, said
        private.say(1, "язык ru")
        said = private.text(1, "help")
        assert "ещё 2 (все перечисляет команда `игры`)" in said, said
    finally:
        store.close()

"""`audit export` and `audit page` in chat, end to end on both platforms (tests/e2e_support.py:
the real python-telegram-bot and discord.py against their local fakes): a player gets the files as
document attachments, the open dice epoch in them and said so; a game with hidden information
gives no file before its end (its order rows hold what a side said in private) and everything,
hidden draws included, after it; a spectator only once a moderator said `audit spectators on`
(the default is off).

The games are the hidden duel (tests/systems/duel.py) and the public dice race
(tests/systems/race.py): alice moderates and plays the first side, bob the second, carol only
watches. The moves are set up straight through the chat service; the audit commands go through
the platforms.
"""

from __future__ import annotations

import asyncio
import base64
import re

import pytest

from adjudicator.core import registry
from bots import cli
from storage.audit import parse_export
from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.systems import duel, race

DUEL_TURNS = 3  # tests/systems/duel.toml
TURN = [("alice", "draw"), ("alice", "roll"), ("alice", "play")] + [
    ("bob", "draw"),
    ("bob", "roll"),
    ("bob", "play"),
]


RACE_TURN = [("alice", "roll"), ("bob", "roll")]  # two turns cannot reach the goal of 12


@pytest.fixture(autouse=True)
def test_systems():
    for kind in (duel.SYSTEM, race.SYSTEM):
        registry.register(kind)
    yield
    for kind in (duel.SYSTEM, race.SYSTEM):
        registry.unregister(kind.id)


def run(coro, timeout: float = 600.0) -> None:  # only a hang reaches it, however loaded
    asyncio.run(asyncio.wait_for(coro, timeout))


async def duel_game(world: E.World, chat: E.Chat, turns: int) -> str:
    """A hidden duel with `turns` turns played: alice (moderator) north, bob south, carol seen."""
    return await game_of(world, chat, "hidden-duel", ("north", "south"), TURN * turns)


async def game_of(world: E.World, chat: E.Chat, system: str, sides, moves) -> str:
    for user, text in [
        ("alice", f"new {system}"),
        ("alice", f"join {sides[0]}"),
        ("bob", f"join {sides[1]}"),
        ("alice", "start"),
        ("carol", "status"),
        *moves,
    ]:
        outs = await E.direct(world, chat, user, text)
        assert outs and not outs[0].text.startswith("Refused"), (text, outs[0].text)
    return world.game(*chat.key)


async def finish(world: E.World, chat: E.Chat, turns_played: int) -> None:
    for user, text in TURN * (DUEL_TURNS - turns_played):
        outs = await E.direct(world, chat, user, text)
        assert outs and not outs[0].text.startswith("Refused"), (text, outs[0].text)


def audit_files(fake: FakeDiscord, since: int) -> list[tuple[str, bytes]]:
    """The audit files Discord got since `since` (a map post may arrive meanwhile)."""
    return [f for s in fake.sent[since:] for f in s.files if "-audit." in f[0]]


def verified(tmp_path, data: bytes, capsys) -> str:
    (tmp_path / "got.jsonl").write_bytes(data)
    capsys.readouterr()
    assert cli.main(["audit", "--verify", str(tmp_path / "got.jsonl")]) == 0
    return capsys.readouterr().out


def embedded(page: bytes) -> bytes:
    found = re.search(rb'id="export">\n(.*?)\n</script>', page, re.DOTALL)
    assert found and b"<script>" in page and b"default-src 'none'" in page
    return base64.b64decode(b"".join(found.group(1).split()))


def test_a_telegram_player_gets_the_export_and_the_page_as_files(tmp_path, capsys):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api) as w,
        ):
            group = E.TelegramChat(w, E.TG_GROUP)
            game = await duel_game(w, group, turns=1)
            since = len(api.calls)
            a = await group.say("bob", "audit export")  # running, with hidden information
            assert a.public.startswith("Refused") and "once the game has ended" in a.public
            assert not [c for c in api.calls[since:] if c.method == "sendDocument"]
            await finish(w, group, turns_played=1)
            since = len(api.calls)
            a = await group.say("bob", "audit export")
            assert "Nothing left out" in a.public and "Hidden information: included" in a.public
            data = a.outs[0].image  # delivered: the harness waits for it on the platform
            assert data is not None and data in a.images
            (call,) = [c for c in api.calls[since:] if c.method == "sendDocument"]
            assert call.filenames["document"] == f"{game}-audit.jsonl" and call.document == data
            header, rows = parse_export(data)
            assert header["rows"] == len(rows)
            out = verified(tmp_path, data, capsys)
            assert "hidden seed revealed" in out and '"secret"' in data.decode()

            since = len(api.calls)
            a = await group.say("alice", "audit page")
            page = a.outs[0].image
            assert (
                page in a.images and embedded(page) == data and b"storage/audit/page.js" not in page
            )
            documents = [c.filenames.get("document") for c in api.calls[since:]]
            assert f"{game}-audit.html" in documents  # (a side's map DM may come in between)

            since = len(api.calls)
            a = await group.say("carol", "audit export")  # a spectator: not by default
            assert a.public.startswith("Refused") and "audit spectators on" in a.public
            assert a.outs[0].image is None and not [c for c in api.calls[since:] if c.document]
            a = await group.say("bob", "audit spectators on")
            assert a.public.startswith("Refused") and "not a moderator" in a.public
            assert "files in" in (await group.say("alice", "audit spectators on")).public
            a = await group.say("carol", "audit page")
            assert a.outs[0].image in a.images and embedded(a.outs[0].image) == data

    run(scenario())


def test_a_discord_player_gets_the_files_and_a_spectator_only_when_allowed(tmp_path, capsys):
    async def scenario():
        async with (
            FakeDiscord() as fake,
            E.World(str(tmp_path / "g.db"), E.now_clock(), discord=fake) as w,
        ):
            channel = E.DiscordChat(w, fake.channel_id)
            game = await game_of(w, channel, "dice-race", ("red", "blue"), RACE_TURN * 2)
            since = len(fake.sent)
            a = await channel.say("bob", "audit export")  # a public game: at any time
            assert re.search(r"Dice epoch \d+ (\(turn \d+\) )?is still open", a.public), a.public
            ((name, data),) = audit_files(fake, since)
            assert name == f"{game}-audit.jsonl" and a.outs[0].image == data
            assert "OK: the chain holds" in verified(tmp_path, data, capsys)
            since = len(fake.sent)
            a = await channel.say("alice", "audit page", via="slash")
            ((name, page),) = audit_files(fake, since)
            assert name == f"{game}-audit.html" and embedded(page) == data

            since = len(fake.sent)
            a = await channel.say("carol", "audit page")
            assert a.public.startswith("Refused") and a.outs[0].image is None
            assert not audit_files(fake, since)
            await channel.say("alice", "audit spectators on")
            a = await channel.say("carol", "audit export")
            assert a.outs[0].image == data and data in a.images
            assert "off" in (await channel.say("alice", "audit spectators off")).public
            assert (await channel.say("carol", "audit export")).public.startswith("Refused")

    run(scenario())

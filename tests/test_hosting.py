"""The host guide (docs/hosting.md), followed: its settings, `pbem invite`, `pbem serve` with each
token (the real discord.py and python-telegram-bot on the local fakes standing in for the
platforms), and its two first-game transcripts played line by line; the permission checks at
startup and on `new`; a failed start told in one line."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from pathlib import Path
from typing import Self
from urllib.parse import parse_qs, urlparse

import pytest

from bots import serve as S
from bots.cli import main
from bots.config import Config
from bots.platforms.discord_checks import NEEDED
from bots.platforms.telegram_checks import MENU
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

with __import__("warnings").catch_warnings():
    __import__("warnings").filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "hosting.md").read_text()
TIMEOUT = 600  # ceilings only a missing answer reaches, never a slow machine
WAIT = 240.0
GROUP = -1001001  # the Telegram group of the game
TG_USERS = {"alice": (7001, "Alice"), "bob": (7002, "Bob")}


# ---------------------------------------------------------------- reading the guide


def block(marker: str) -> str:
    """The first fenced block after `<!-- marker -->` in the guide."""
    at = GUIDE.index(f"<!-- {marker} -->")
    m = re.compile(r"```[a-z]*\n(.*?)```", re.DOTALL).search(GUIDE, at)
    assert m is not None, marker
    return m.group(1)


def transcript(marker: str) -> list[tuple[str, str, list[str]]]:
    """(user, what he types, fragments of the answer) for each line of a first-game block."""
    lines: list[tuple[str, str, list[str]]] = []
    for line in block(marker).splitlines():
        if line.startswith("> "):
            lines[-1][2].append(line[2:])
        elif line.strip():
            user, _, typed = line.partition(": ")
            lines.append((user, typed, []))
    assert lines and all(expect for _, _, expect in lines), marker
    return lines


def start_settings(marker: str, values: dict[str, str]) -> dict[str, str]:
    """The guide's `export VAR=...` lines before `pbem serve`, the values put in by the test
    (its tokens are the fakes'). Every variable the guide sets is given a value here."""
    env: dict[str, str] = {}
    lines = [ln.split("#")[0].strip() for ln in block(marker).splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("mkdir -p ")]  # its folder: here
    assert lines[-1] == "pbem serve", lines  # tmp_path, which exists
    for line in lines[:-1]:
        m = re.fullmatch(r"export (\w+)=.*", line)
        assert m, line
        env[m.group(1)] = values[m.group(1)]
    return env


def permission_names() -> list[str]:
    table = GUIDE[GUIDE.index("<!-- discord-permissions -->") :].split("\n\n")[0]
    return re.findall(r"(?m)^\s*\| ([A-Z][\w ]+?) \|", table)  # the header is lower case


# ---------------------------------------------------------------- the service


async def until(found, what: str, timeout: float = WAIT):
    end = time.monotonic() + timeout
    while not (value := found()):
        assert time.monotonic() < end, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)
    return value


class Serving:
    """`pbem serve` in this loop with the given settings, as bots/cli.py runs it."""

    def __init__(self, env: dict[str, str]):
        self.config = Config.load(env)
        self.stop = asyncio.Event()
        self.parts: dict = {}

    async def __aenter__(self) -> Self:
        ready = asyncio.Event()

        def on_ready(parts: dict) -> None:
            self.parts.update(parts)
            ready.set()

        self.task = asyncio.create_task(S.serve(self.config, stop=self.stop, ready=on_ready))
        waiting = asyncio.ensure_future(ready.wait())
        await asyncio.wait({self.task, waiting}, timeout=WAIT, return_when="FIRST_COMPLETED")
        waiting.cancel()
        assert ready.is_set(), "serve did not start"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.stop.set()
        assert await asyncio.wait_for(self.task, WAIT) == 0


async def say_discord(dc: FakeDiscord, user: str, typed: str) -> None:
    author = dc.user(user)
    if typed.startswith("@pbem "):
        await dc.send_message(typed.removeprefix("@pbem "), author=author, mention_bot=True)
    elif typed.startswith("/order text: "):
        await dc.send_command("order", {"text": typed.removeprefix("/order text: ")}, user=author)
    else:
        await dc.send_command(typed.removeprefix("/"), user=author)


def say_telegram(tg: FakeTelegramAPI, user: str, typed: str) -> None:
    uid, first = TG_USERS[user]
    tg.push_message(typed, chat_id=GROUP, user_id=uid, user_name=user, first_name=first)


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT))


# ---------------------------------------------------------------- the tests


def test_the_guides_permissions_are_those_of_pbem_invite(capsys, monkeypatch):
    monkeypatch.delenv("DISCORD_CLIENT_ID", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gx.y")  # id 123456789012345678
    assert main(["invite"]) == 0
    url = capsys.readouterr().out.strip()
    query = parse_qs(urlparse(url).query)
    assert query["client_id"] == ["123456789012345678"]
    assert query["scope"] == ["bot applications.commands"]
    perms = discord.Permissions(int(query["permissions"][0]))
    # exactly the permissions of the guide's table ("Send Messages in Threads" is the flag
    # send_messages_in_threads), and those of the adapter's list
    in_guide = {name.lower().replace(" ", "_"): True for name in permission_names()}
    assert perms.value == discord.Permissions(**in_guide).value
    assert set(in_guide) == set(NEEDED)
    assert f"permissions={perms.value}" in GUIDE and "`bot`" in GUIDE
    assert "`applications.commands`" in GUIDE
    monkeypatch.delenv("DISCORD_TOKEN")
    assert main(["invite"]) == 2
    assert "--client-id" in capsys.readouterr().err
    assert main(["invite", "--client-id", "42"]) == 0
    assert "client_id=42&" in capsys.readouterr().out


def test_following_the_guide_a_discord_server_plays_the_opening(tmp_path, capsys, monkeypatch):
    async def scenario():
        async with FakeDiscord() as dc:
            for user in ("alice", "bob"):
                dc.user(user)
            monkeypatch.setenv("DISCORD_TOKEN", dc.token)
            assert main(["invite"]) == 0  # the URL of the server's invitation, for this bot
            url = capsys.readouterr().out.strip()
            assert parse_qs(urlparse(url).query)["client_id"] == [dc.application_id]
            env = start_settings(
                "start: discord", {"PBEM_DB": str(tmp_path / "pbem.db"), "DISCORD_TOKEN": dc.token}
            )
            async with Serving(env) as serving:
                await dc.wait_identified(timeout=WAIT)
                await until(lambda: dc.commands, "the slash commands to be synced")
                assert {c["name"] for c in dc.commands} >= {"order", "map", "status", "help"}
                for user, typed, expect in transcript("first-game: discord"):
                    since = len(dc.sent)
                    await say_discord(dc, user, typed)
                    for fragment in expect:
                        await until(
                            lambda f=fragment, n=since: any(f in s.content for s in dc.sent[n:]),
                            f"{fragment!r} after {typed!r}",
                        )
                bot = serving.parts["senders"]["discord"].args[0]
                assert bot.startup_notes == []  # every permission is there
            return dc

    dc = run(scenario())
    assert not any("Sorry, something went wrong" in s.content for s in dc.sent)


def test_following_the_guide_a_telegram_group_plays_the_opening(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg:
            values = {"PBEM_DB": str(tmp_path / "pbem.db"), "TELEGRAM_TOKEN": tg.token}
            env = start_settings("start: telegram", values)
            env["TELEGRAM_BASE_URL"] = tg.root_url  # the stand-in for Telegram's servers
            async with Serving(env):
                assert [c["command"] for c in tg.commands] == [name for name, _ in MENU]
                for user, typed, expect in transcript("first-game: telegram"):
                    since = len(tg.calls)
                    say_telegram(tg, user, typed)
                    for fragment in expect:
                        await until(
                            lambda f=fragment, n=since: any(
                                c.ok and f in (c.rendered or "") for c in tg.calls[n:]
                            ),
                            f"{fragment!r} after {typed!r}",
                        )
            return tg

    tg = run(scenario())
    sent = [c.rendered or "" for c in tg.calls if c.method.startswith("send")]
    assert not any("something went wrong" in text for text in sent)
    assert any(c.chat_id == TG_USERS["alice"][0] for c in tg.sent())  # the preview, privately


def test_the_discord_bot_says_which_permissions_it_lacks_on_new_and_at_startup(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    note = "The bot lacks Read Message History, Attach Files in #game"

    async def scenario():
        async with FakeDiscord() as dc:
            alice = dc.user("alice")
            await dc.deny_bot("attach_files", "read_message_history")
            env = {"PBEM_DB": str(tmp_path / "pbem.db"), "DISCORD_TOKEN": dc.token}
            async with Serving(env):
                await dc.wait_identified(timeout=WAIT)
                await dc.send_message("new hells-gate", author=alice, mention_bot=True)
                await until(lambda: [s for s in dc.sent if note in s.content], "the note")
                # the answer itself went out, as a plain message (a reply would be refused)
                await until(lambda: [s for s in dc.sent if "New game" in s.content], "the answer")
                assert all(s.reference is None for s in dc.sent)
            since = len(dc.sent)
            # a restart, in a server whose roles give no Attach Files: the server is checked,
            # and the channel, which hosts a game now
            dc.everyone &= ~discord.Permissions(attach_files=True).value
            async with Serving(env) as again:
                await until(lambda: [s for s in dc.sent[since:] if note in s.content], "the check")
                bot = again.parts["senders"]["discord"].args[0]
                # the check posts its note before it returns the notes it made: wait for both
                await until(lambda: bot.startup_notes, "the check's notes")
                server, channel = bot.startup_notes
                assert "lacks Attach Files in the server 'Wargamers'" in server
                assert note in channel

    run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum(note in w for w in warnings) >= 2  # on `new`, and at the next start


def test_a_discord_bot_that_may_not_post_answers_slash_commands_and_logs_the_rest(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    lacks = "The bot lacks Send Messages"

    async def scenario():
        async with FakeDiscord() as dc:
            alice = dc.user("alice")
            env = {"PBEM_DB": str(tmp_path / "pbem.db"), "DISCORD_TOKEN": dc.token}
            async with Serving(env):
                await dc.wait_identified(timeout=WAIT)
                await dc.deny_bot("send_messages")  # taken away while the bot runs
                await dc.send_message("status", author=alice, mention_bot=True)
                await until(
                    lambda: any("could not answer" in r.getMessage() for r in caplog.records),
                    "the log to say why the answer to the mention was not posted",
                )
                await dc.send_command("order", {"text": "new hells-gate"}, user=alice)
                sent = await until(lambda: [s for s in dc.sent if lacks in s.content], "the note")
                assert sent[0].kind in ("interaction", "followup", "edit_original")
                assert any("New game" in s.content for s in dc.sent)
            return dc

    dc = run(scenario())
    assert not [s for s in dc.sent if s.kind == "channel"]  # nothing could be posted
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("could not answer" in w and "Send Messages" in w for w in warnings), warnings


class _Guild:
    name = "Wargamers"
    me = object()  # the bot's member


class _Forum:
    """A channel that takes no messages (a forum, a category): it has no `send`."""

    guild = _Guild()

    def __init__(self, channel_id: int, name: str):
        self.id, self.name = channel_id, name

    def permissions_for(self, me: object) -> discord.Permissions:
        return discord.Permissions(view_channel=True, send_messages=True)  # no history, files


class _Text(_Forum, discord.abc.Messageable):
    def __init__(self, channel_id: int, name: str):
        super().__init__(channel_id, name)
        self.said: list[str] = []

    async def send(self, content: str, **_: object) -> None:
        self.said.append(content)


def test_a_game_channel_that_takes_no_messages_is_noted_and_the_check_goes_on():
    """A game's channel id naming a forum or a category: its note is logged, nothing is posted
    in it, and the next game's channel is still checked (its `send` once ended the check)."""
    from bots.platforms.discord_checks import check_at_startup

    forum, text = _Forum(1, "forum"), _Text(2, "game")

    class Bot:
        guilds = ()

        def get_channel(self, channel_id: int) -> _Forum:
            return {1: forum, 2: text}[channel_id]

    notes = run(check_at_startup(Bot(), [("1", "g1"), ("2", "g2")]))
    assert [n.split(":")[0] for n in notes] == [
        "The bot lacks Read Message History, Attach Files in #forum",
        "The bot lacks Read Message History, Attach Files in #game",
    ]
    assert text.said == notes[1:]


def test_the_telegram_bot_says_which_rights_it_lacks_on_new_and_at_startup(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    photos = "The bot may not Send Photos in this group"

    async def scenario():
        async with FakeTelegramAPI() as tg:
            tg.set_group_permissions(GROUP, can_send_photos=False)
            env = {
                "PBEM_DB": str(tmp_path / "pbem.db"),
                "TELEGRAM_TOKEN": tg.token,
                "TELEGRAM_BASE_URL": tg.root_url,
            }
            async with Serving(env):
                say_telegram(tg, "alice", "/new hells-gate")
                await tg.wait_for_call("sendMessage", GROUP, count=2, timeout=WAIT)
                texts = [c.rendered or "" for c in tg.sent("sendMessage", GROUP)]
                assert "New game" in texts[0] and photos in texts[1], texts
            # the bot restricted further: it may not even send messages there
            tg.set_bot_member(GROUP, "restricted", can_send_messages=False)
            since = len(tg.calls)
            async with Serving(env) as again:
                bot = again.parts["senders"]["telegram"].__self__
                await until(lambda: bot.startup_notes, "the check's notes")
                assert bot.startup_notes and "Send Messages" in bot.startup_notes[0]
            assert not [c for c in tg.calls[since:] if c.method == "sendMessage"]

    run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(photos in w for w in warnings)
    assert any("may not Send Messages" in w for w in warnings)  # only the log can say it


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_a_failed_start_prints_one_line_saying_what_to_check(tmp_path, platform):
    logs = io.StringIO()

    async def scenario():
        async with FakeTelegramAPI() as tg, FakeDiscord() as dc:
            dc.reject_token = True
            env = {"PBEM_DB": str(tmp_path / "pbem.db")}
            if platform == "telegram":
                env |= {"TELEGRAM_TOKEN": "1:wrong", "TELEGRAM_BASE_URL": tg.root_url}
            else:
                env |= {"DISCORD_TOKEN": dc.token}
            config = Config.load(env)
            S.setup_logging(config, terminal=False, stream=logs)
            return await S.serve(config)

    try:
        assert run(scenario()) == 1
    finally:
        logging.getLogger().handlers.clear()
    errors = [ln for ln in logs.getvalue().splitlines() if "level=ERROR" in ln]
    assert len(errors) == 1, logs.getvalue()
    assert "Traceback" not in logs.getvalue() and len(errors[0]) < 400
    check = "check TELEGRAM_TOKEN" if platform == "telegram" else "check DISCORD_TOKEN"
    assert f"the {platform.title()} bot did not start" in errors[0] and check in errors[0]


def test_backup_copies_the_database_while_it_is_open(tmp_path, capsys):
    db = str(tmp_path / "pbem.db")
    assert main(["new", "g", "--db", db]) == 0
    assert main(["say", "g", "--as", "soviet", "end", "--db", db]) == 0
    from storage import Store

    store = Store(db)  # the service holds the database open meanwhile
    try:
        copy = tmp_path / "copy.db"
        capsys.readouterr()
        assert main(["backup", str(copy), "--db", db]) == 0
        assert f"Backed up {db} to {copy}" in capsys.readouterr().out
        assert Store(str(copy)).load("g", with_log=False).head_index == (
            store.load("g", with_log=False).head_index
        )
        assert main(["backup", str(copy), "--db", db]) == 2  # never over an existing file
        assert "exists already" in capsys.readouterr().err
    finally:
        store.close()
    assert main(["backup", str(tmp_path / "x.db"), "--db", "postgresql+psycopg://u@h/db"]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "y.db"), "--db", str(tmp_path / "none.db")]) == 2
    assert "no database at" in capsys.readouterr().err


def test_the_systemd_unit_runs_pbem_serve_with_known_settings():
    """(tests/test_host_path.py checks the units' modes, files and confinement.)"""
    unit = (ROOT / "deploy" / "pbem.service").read_text()
    assert re.search(r"(?m)^ExecStart=\S+/pbem serve --config /etc/pbem/pbem.toml$", unit)
    assert re.search(r"(?m)^EnvironmentFile=/etc/pbem/pbem.env$", unit)
    assert re.search(r"(?m)^Restart=on-failure$", unit)
    backup = (ROOT / "deploy" / "pbem-backup.service").read_text()
    assert "pbem backup" in backup
    assert "deploy/pbem.service" in GUIDE and "pbem backup" in GUIDE

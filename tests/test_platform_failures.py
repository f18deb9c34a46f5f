"""Platforms that fail loudly and recover (issue 13, items 8 and 9): `pbem serve` with the REAL
python-telegram-bot and discord.py against the local fakes (tests/fakes/).

Every wait is for an event (a call the fake received, a state the supervisor reached); no test
sleeps to synchronise or asserts a duration. A flood wait is a call the fake holds until the test
releases it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bots import delivery, health
from bots import serve as S
from bots.config import Config, ConfigError
from bots.platforms import discord as dc
from bots.platforms.telegram import TelegramBot, TelegramConfig, WebhookWithoutSecret
from tests.e2e_support import until
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

TIMEOUT = 300
GROUP_A, GROUP_B = -1002001, -1002002


class Logs(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self, level: int = logging.ERROR, name: str = "pbem.serve") -> list[str]:
        return [
            r.getMessage() for r in self.records if r.levelno >= level and r.name.startswith(name)
        ]


class Serve:
    """`pbem serve` running in this loop: its ready parts, its task, its logs."""

    def __init__(self, task: asyncio.Task[int], stop: asyncio.Event, parts: dict, logs: Logs):
        self.task, self.stop, self.parts, self.logs = task, stop, parts, logs

    @property
    def fronts(self) -> dict[str, Any]:
        return self.parts["fronts"]

    async def health(self) -> tuple[int, dict]:
        args = argparse.Namespace(
            port=str(self.parts["health_port"]), url=None, json=True, config=None
        )
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = await asyncio.to_thread(health.cmd_health, args)
        return code, json.loads(out.getvalue())


@contextlib.asynccontextmanager
async def serving(tmp_path, env: dict[str, str]) -> AsyncIterator[Serve]:
    config = Config.load(
        {
            "PBEM_DB": str(tmp_path / "games.db"),
            "PBEM_RESTART_SECONDS": "0.01",
            "PBEM_RESTART_MAX_SECONDS": "0.05",
            "PBEM_HEALTH_PORT": "0",
            **env,
        }
    )
    logs = Logs()
    root = logging.getLogger()
    root.addHandler(logs)
    old_level = root.level
    root.setLevel(logging.INFO)
    stop, ready, parts = asyncio.Event(), asyncio.Event(), {}

    def on_ready(what: dict) -> None:
        parts.update(what)
        ready.set()

    task = asyncio.create_task(S.serve(config, stop=stop, ready=on_ready))
    try:
        _done, _ = await asyncio.wait(
            {task, asyncio.ensure_future(ready.wait())}, return_when="FIRST_COMPLETED"
        )
        yield Serve(task, stop, parts, logs)
    finally:
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 20)
        root.removeHandler(logs)
        root.setLevel(old_level)


def run(coro) -> Any:
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT))


def telegram_env(tg: FakeTelegramAPI, **more: str) -> dict[str, str]:
    return {"TELEGRAM_TOKEN": tg.token, "TELEGRAM_BASE_URL": tg.root_url, **more}


def discord_env(fake: FakeDiscord, **more: str) -> dict[str, str]:
    return {"DISCORD_TOKEN": fake.token, **more}


# ------------------------------------------------------------------------------- startup


def test_a_bot_that_cannot_start_is_one_line_and_the_other_serves(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg, FakeDiscord() as fake:
            fake.reject_token = True
            async with serving(tmp_path, telegram_env(tg) | discord_env(fake)) as s:
                assert set(s.fronts) == {"telegram"}
                [line] = s.logs.lines()
                assert line.startswith("the Discord bot did not start: Discord refused the token")
                assert "check DISCORD_TOKEN" in line
                tg.push_message("/order help", chat_id=GROUP_A, user_id=7)
                [call] = await tg.wait_for_call("sendMessage", chat_id=GROUP_A, timeout=300)
                assert "No game is played in this chat yet" in call.params["text"]
                code, body = await s.health()
                assert code == 0 and set(body["bots"]) == {"telegram"}
                idle = {"workers": 1, "thinking": 0, "played": 0, "failed": 0}
                assert body["opponent"] == idle  # PBEM_OPPONENT_WORKERS's default
                assert "opponent: 1 worker process(es), 0 game(s) thinking" in health.render(body)
                s.stop.set()
                assert await s.task == 0

    run(scenario())


def test_serve_exits_1_when_no_front_end_is_left(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg, FakeDiscord() as fake:
            fake.reject_token = True
            tg.revoke_token()
            async with serving(tmp_path, telegram_env(tg) | discord_env(fake)) as s:
                assert await s.task == 1
                lines = s.logs.lines()
                assert any(ln.startswith("the Telegram bot did not start") for ln in lines)
                assert any(ln.startswith("the Discord bot did not start") for ln in lines)
                assert any(ln.startswith("serve failed: no front end is left") for ln in lines)

    run(scenario())


def test_a_webhook_without_a_secret_is_refused_at_startup(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg:
            env = telegram_env(tg, TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg")
            async with serving(tmp_path, env) as s:
                assert await s.task == 1
                [line] = s.logs.lines()  # the one bot: its line is serve's
                assert line.startswith(
                    "serve failed: the Telegram bot did not start: TELEGRAM_WEBHOOK_URL"
                )
                assert "set TELEGRAM_WEBHOOK_SECRET" in line
            assert tg.webhook is None and not tg.calls  # refused before any call
            bot = TelegramBot(
                None,  # type: ignore[arg-type]
                TelegramConfig(tg.token, tg.root_url, webhook_url="https://bot.example.org/tg"),
            )
            with pytest.raises(WebhookWithoutSecret):
                await bot.start()

    run(scenario())


# ------------------------------------------------------------------------------- after startup


@pytest.mark.parametrize("code", [4004, 4011, 4014])
def test_a_fatal_gateway_close_restarts_the_discord_bot(tmp_path, code):
    async def scenario():
        async with FakeDiscord() as fake:
            alice = fake.user("alice")
            async with serving(tmp_path, discord_env(fake)) as s:
                front = s.fronts["discord"]
                await fake.wait_identified(timeout=300)
                assert len(fake.identifies) == 1
                await fake.close_gateway(code)
                await until(lambda: front.restarts == 1 and front.connected(), "the bot to restart")
                assert len(fake.identifies) == 2
                [error] = s.logs.lines()
                assert error.startswith("the Discord bot stopped: Discord")
                assert error.endswith("; restarting it")
                assert str(code) in error or "intent" in error.lower()
                assert any("restarted" in ln for ln in s.logs.lines(logging.WARNING))
                await fake.send_message("help", author=alice, mention_bot=True)
                [sent] = await fake.wait_for_sent(timeout=300)
                assert "No game is played" in sent.content
                status, body = await s.health()
                assert status == 0 and body["bots"]["discord"]["restarts"] == 1

    run(scenario())


def test_a_fatal_gateway_close_stops_serve_when_configured(tmp_path):
    async def scenario():
        async with (
            FakeDiscord() as fake,
            serving(tmp_path, discord_env(fake, PBEM_ON_BOT_FAILURE="stop")) as s,
        ):
            await fake.wait_identified(timeout=300)
            await fake.close_gateway(4004)
            assert await s.task == 1  # serve ends by itself, with an error
            lines = s.logs.lines()
            assert lines[0].startswith("the Discord bot stopped: Discord closed the gateway")
            assert "4004: authentication failed; check DISCORD_TOKEN" in lines[0]
            assert lines[-1].startswith("serve failed: the Discord bot stopped")
            assert len(fake.identifies) == 1  # not restarted

    run(scenario())


def test_a_revoked_telegram_token_restarts_polling_once_valid_again(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg, serving(tmp_path, telegram_env(tg)) as s:
            front = s.fronts["telegram"]
            tg.revoke_token()
            await until(lambda: front.state == "restarting", "the bot to be seen dead")
            code, body = await s.health()
            assert code == 1 and not body["ok"]
            assert body["bots"]["telegram"]["state"] == "restarting"
            assert "refused the token" in body["bots"]["telegram"]["last_error"]
            tg.restore_token()
            await until(lambda: front.state == "connected", "the bot to restart")
            tg.push_message("/order help", chat_id=GROUP_A, user_id=7)
            await tg.wait_for_call("sendMessage", chat_id=GROUP_A, timeout=300)
            code, body = await s.health()
            assert code == 0 and body["bots"]["telegram"]["restarts"] >= 1
            first = s.logs.lines()[0]
            assert first.startswith("the Telegram bot stopped: Telegram refused the token")

    run(scenario())


def test_a_revoked_telegram_token_stops_serve_when_configured(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as tg,
            serving(tmp_path, telegram_env(tg, PBEM_ON_BOT_FAILURE="stop")) as s,
        ):
            tg.revoke_token()
            assert await s.task == 1
            assert s.logs.lines()[-1].startswith(
                "serve failed: the Telegram bot stopped: Telegram refused the token"
            )

    run(scenario())


# ------------------------------------------------------------------------------- chats and sends


def _reply_to(call) -> int:
    reply = call.params.get("reply_parameters")
    if isinstance(reply, str):
        reply = json.loads(reply)
    return int(reply["message_id"])


def test_a_flood_wait_in_one_chat_never_delays_another_and_keeps_its_order(tmp_path):
    """Chat A's answer is held by the fake (then answered 429); chat B's answer arrives
    meanwhile; A's two messages are answered afterwards, in their order."""

    async def scenario():
        async with FakeTelegramAPI() as tg, serving(tmp_path, telegram_env(tg)):
            hold = tg.hold_next(GROUP_A)
            first = tg.push_message("/order help", chat_id=GROUP_A, user_id=7)
            await hold.held.wait()
            second = tg.push_message("/order games", chat_id=GROUP_A, user_id=7)
            tg.push_message("/order help", chat_id=GROUP_B, user_id=8, user_name="bob")
            [b] = await tg.wait_for_call("sendMessage", chat_id=GROUP_B, timeout=300)
            assert "No game is played" in b.params["text"]
            assert not tg.sent("sendMessage", chat_id=GROUP_A)  # A still waits
            hold.release.set()
            calls = await tg.wait_for_call("sendMessage", chat_id=GROUP_A, count=2, timeout=300)
            ids = [_reply_to(c) for c in calls]
            assert ids == [first["message"]["message_id"], second["message"]["message_id"]]
            assert next(c.status for c in tg.calls if c.chat_id == GROUP_A) == 429

    run(scenario())


@pytest.mark.parametrize("failure", ["5xx", "429 past its retries"])
def test_a_lost_telegram_reply_is_retried_through_the_outbox(tmp_path, failure):
    async def scenario():
        async with FakeTelegramAPI() as tg, serving(tmp_path, telegram_env(tg)) as s:
            if failure == "5xx":
                tg.fail_next(GROUP_A, code=500)
            else:
                for _ in range(4):  # the adapter waits 3 out, then gives up to the outbox
                    tg.rate_limit_next(GROUP_A, retry_after=1)  # (PTB reads 0 as none)
            tg.push_message("/order new hells-gate", chat_id=GROUP_A, user_id=7)
            calls = await tg.wait_for_call("sendMessage", chat_id=GROUP_A, timeout=300)
            assert any("New game" in c.params["text"] for c in calls)
            refused = [c for c in tg.calls if c.chat_id == GROUP_A and not c.ok]
            assert refused and refused[0].status == (500 if failure == "5xx" else 429)
            store = s.parts["store"]
            await until(
                lambda: any(
                    r.dedupe_key and r.dedupe_key.startswith("reply:tg:")
                    for r in delivery.rows(store, status=delivery.SENT)
                ),
                "the reply's outbox row to be sent",
            )
            sent = tg.sent("sendMessage", chat_id=GROUP_A)
            assert sum("New game" in c.params["text"] for c in sent) == 1  # once

    run(scenario())


def test_a_lost_discord_reply_is_retried_through_the_outbox(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake:
            alice = fake.user("alice")
            async with serving(tmp_path, discord_env(fake)) as s:
                await fake.wait_identified(timeout=300)
                fake.rate_limit_next(via=False)  # a 429 discord.py does not retry
                await fake.send_message("new hells-gate", author=alice, mention_bot=True)
                [sent] = await fake.wait_for_sent(timeout=300)
                assert "New game" in sent.content
                assert any(c.status == 429 for c in fake.calls)
                store = s.parts["store"]
                await until(
                    lambda: any(
                        r.dedupe_key and r.dedupe_key.startswith("reply:dc:")
                        for r in delivery.rows(store, status=delivery.SENT)
                    ),
                    "the reply's outbox row to be sent",
                )

    run(scenario())


# ------------------------------------------------------------------------------- settings


def test_discord_api_base_and_gateway_settings_point_the_bot_at_another_server(tmp_path):
    import discord.gateway
    import discord.http

    saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)

    async def scenario():
        async with FakeDiscord(patch=False) as fake:
            env = discord_env(
                fake, DISCORD_API_BASE=fake.base_url, DISCORD_GATEWAY_URL=fake.gateway_url
            )
            async with serving(tmp_path, env) as s:
                assert set(s.fronts) == {"discord"}
                await fake.wait_identified(timeout=300)
                assert fake.identifies

    try:
        run(scenario())
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
    proxied = dc.build_bot(None, proxy="http://127.0.0.1:3128")  # type: ignore[arg-type]
    assert proxied.http.proxy == "http://127.0.0.1:3128"


def test_discord_shard_settings_split_the_shards_across_processes(tmp_path):
    async def scenario():
        async with FakeDiscord(shards=4) as fake:
            env = discord_env(fake, DISCORD_SHARD_COUNT="4", DISCORD_SHARD_IDS="2")
            async with serving(tmp_path, env) as s:
                assert set(s.fronts) == {"discord"}
                await until(lambda: fake.identifies, "the shard to identify")
                # this process runs shard 2 of 4 only; others run 0, 1 and 3
                assert [tuple(d["shard"]) for d in fake.identifies] == [(2, 4)]

    run(scenario())
    assert dc.parse_shard_ids("0-2,5") == [0, 1, 2, 5]
    with pytest.raises(ConfigError, match="needs DISCORD_SHARD_COUNT"):
        Config.load({"DISCORD_SHARD_IDS": "0"})
    with pytest.raises(ConfigError, match="from 0 to 1"):
        Config.load({"DISCORD_SHARD_COUNT": "2", "DISCORD_SHARD_IDS": "2"})
    with pytest.raises(ConfigError, match="restart or stop"):
        Config.load({"PBEM_ON_BOT_FAILURE": "ignore"})


def test_posts_for_a_bot_that_is_restarting_wait_in_the_outbox_without_failing():
    """While a bot is down its sender answers RetryLater with a wait (not an attempt): the
    outbox keeps the row for the bot's return (bots/retry.py counts waits apart)."""
    from bots.platforms.common import RetryLater
    from bots.supervise import BOT_DOWN_WAIT, Supervised

    async def never() -> Any:
        raise AssertionError("not started")

    front = Supervised("telegram", never, "the Telegram bot", first_delay=0.01)
    front.state = "restarting"
    with pytest.raises(RetryLater) as caught:
        asyncio.run(front.send(object()))
    assert caught.value.retry_after == BOT_DOWN_WAIT
    assert "the Telegram bot is not running (restarting)" in str(caught.value)
    assert front.status() == {
        "connected": False,
        "state": "restarting",
        "restarts": 0,
        "last_error": None,
    }

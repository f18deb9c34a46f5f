"""Platform faults that were silent (issue 24): `pbem serve` with the REAL python-telegram-bot and
discord.py against the local fakes (tests/fakes/).

- Telegram 409 Conflict (another process polls the token): refused at start (exit 1, one line);
  while running, an ERROR line and `/healthz` 503, polling on until it ends.
- A reply handed to the outbox after a 429 waits the platform's retry_after (the row's next-try
  time says so; no clock is watched).
- A Discord network drop: `/healthz` says "reconnecting" until discord.py has resumed.
- A private message waiting for a player whose DMs were closed is sent when he is seen again,
  its retry timer pushed a day away so that only the wake-up can deliver it.

Every wait is for an event (a call the fake received, a log line, a state), with ceilings of
minutes that only a missing delivery reaches.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from app.messages import Outgoing
from bots import delivery
from bots.dm_wait import WAITING_ERROR
from storage.outbox import OUTBOX, select_rows
from tests.e2e_support import until
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.test_platform_failures import discord_env, serving, telegram_env

CEILING = 240.0  # seconds: only a delivery that never comes reaches it
GROUP = -1002424
PLAYER = 4242
LONG_WAIT = 3600  # a 429's retry_after, in seconds: longer than any test could run


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, CEILING))


async def wait_for(event: asyncio.Event, what: str) -> None:
    try:
        await asyncio.wait_for(event.wait(), CEILING)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


# ------------------------------------------------------------------------------- Telegram 409


def test_a_telegram_409_at_start_is_a_refused_start_in_one_line(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg:
            tg.start_conflict()  # another process polls this token
            async with serving(tmp_path, telegram_env(tg)) as s:
                assert await asyncio.wait_for(s.task, CEILING) == 1
                [line] = s.logs.lines(name="")  # one ERROR line, from any logger
                assert line.startswith(
                    "serve failed: the Telegram bot did not start: Telegram answered a conflict"
                )
                assert "check that no other process polls this token" in line
                assert not any(c.ok for c in tg.calls if c.method == "getUpdates")

    run(scenario())


def test_a_telegram_409_at_start_leaves_the_other_bot_serving(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg, FakeDiscord() as fake:
            tg.start_conflict()
            async with serving(tmp_path, telegram_env(tg) | discord_env(fake)) as s:
                await until(lambda: s.logs.lines(), "the refused start's line", CEILING)
                [line] = s.logs.lines()
                assert line.startswith("the Telegram bot did not start: Telegram answered a")
                assert set(s.fronts) == {"discord"} and not s.task.done()
                code, body = await s.health()
                assert code == 0 and set(body["bots"]) == {"discord"}

    run(scenario())


def test_a_telegram_409_while_running_is_loud_and_polling_goes_on(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg, serving(tmp_path, telegram_env(tg)) as s:
            tg.push_message("/order help", chat_id=GROUP, user_id=7)
            await tg.wait_for_call("sendMessage", chat_id=GROUP, timeout=CEILING)
            tg.start_conflict()  # a second process starts polling the token
            await until(lambda: s.logs.lines(name="bots"), "the conflict's ERROR line", CEILING)
            [error] = s.logs.lines(name="bots")
            assert "409 Conflict" in error and "only one `pbem serve`" in error
            code, body = await s.health()
            assert code == 1 and not body["ok"]
            telegram = body["bots"]["telegram"]
            assert telegram["state"] == "conflict" and not telegram["connected"]
            assert "no other process polls this token" in telegram["last_error"]
            assert s.fronts["telegram"].current is not None  # not stopped: it polls on
            tg.end_conflict()  # the other process stopped
            tg.push_message("/order help", chat_id=GROUP, user_id=7)
            await tg.wait_for_call("sendMessage", chat_id=GROUP, count=2, timeout=CEILING)
            code, body = await s.health()
            assert code == 0 and body["bots"]["telegram"]["state"] == "connected"
            assert body["bots"]["telegram"]["restarts"] == 0 and not s.task.done()

    run(scenario())


# ------------------------------------------------------------------------------- 429


def _reply_rows(store: Any, prefix: str) -> list[dict]:
    return select_rows(store, key_prefix=prefix)


def _waits_its_retry_after(row: dict) -> None:
    assert row["next_attempt_at"] - row["created_at"] == timedelta(seconds=LONG_WAIT)
    assert row["attempts"] == 0  # a wait the platform asked for, not a failure


def test_a_telegram_reply_after_a_429_waits_the_retry_after_in_the_outbox(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg, serving(tmp_path, telegram_env(tg)) as s:
            tg.rate_limit_next(GROUP, retry_after=LONG_WAIT)  # past the adapter's patience
            tg.push_message("/order help", chat_id=GROUP, user_id=7)
            store = s.parts["store"]
            [row] = await until(lambda: _reply_rows(store, "reply:tg:"), "the row", CEILING)
            _waits_its_retry_after(row)
            assert not tg.sent("sendMessage", chat_id=GROUP)  # not re-sent into the wait

    run(scenario())


def test_a_discord_reply_after_a_429_waits_the_retry_after_in_the_outbox(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake:
            alice = fake.user("alice")
            async with serving(tmp_path, discord_env(fake)) as s:
                await fake.wait_identified(timeout=CEILING)
                fake.rate_limit_next(retry_after=LONG_WAIT, via=False)  # not waited out
                await fake.send_message("help", author=alice, mention_bot=True)
                store = s.parts["store"]
                [row] = await until(lambda: _reply_rows(store, "reply:dc:"), "the row", CEILING)
                _waits_its_retry_after(row)
                assert any(c.status == 429 for c in fake.calls) and not fake.sent

    run(scenario())


# ------------------------------------------------------------------------------- Discord drop


def test_health_says_reconnecting_while_the_discord_gateway_is_down(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake, serving(tmp_path, discord_env(fake)) as s:
            front = s.fronts["discord"]
            await fake.wait_identified(timeout=CEILING)
            await until(front.connected, "the bot to be connected", CEILING)
            await fake.drop_gateway()
            await wait_for(fake.gateway_waiting, "discord.py to reconnect")
            code, body = await s.health()
            assert code == 1 and not body["ok"]
            discord = body["bots"]["discord"]
            assert discord["state"] == "reconnecting" and not discord["connected"]
            assert "gateway connection dropped" in discord["last_error"]
            fake.restore_gateway()
            await until(front.connected, "the gateway to be resumed", CEILING)
            code, body = await s.health()
            assert code == 0 and body["bots"]["discord"]["state"] == "connected"
            assert body["bots"]["discord"]["restarts"] == 0  # resumed, not restarted

    run(scenario())


# ------------------------------------------------------------------------------- DMs that wait


def _refused(store: Any, row_id: int) -> bool:
    [row] = [r for r in select_rows(store) if r["id"] == row_id]
    return row["status"] == "pending" and (row["last_error"] or "").startswith(WAITING_ERROR)


def _postpone(store: Any, row_id: int) -> None:
    """The row's next retry a day away: only the wake-up can send it within the test."""
    later = datetime.now(UTC) + timedelta(days=1)
    with store.engine.begin() as conn:
        conn.execute(update(OUTBOX).where(OUTBOX.c.id == row_id).values(next_attempt_at=later))


@pytest.mark.parametrize("seen", ["his next message", "his unblocking the bot"])
def test_a_waiting_telegram_dm_is_sent_when_its_player_is_seen_again(tmp_path, seen):
    async def scenario():
        async with FakeTelegramAPI() as tg, serving(tmp_path, telegram_env(tg)) as s:
            store = s.parts["store"]
            tg.block_private(PLAYER)
            card = Outgoing(
                "telegram", str(GROUP), "Your card: the 3 of cups", user_id=str(PLAYER),
                private=True,
            )  # fmt: skip
            [row_id] = await asyncio.to_thread(
                delivery.enqueue, store, None, [card], key="card", fallback_chat_id=str(GROUP)
            )
            await until(lambda: _refused(store, row_id), "the DM to be refused", CEILING)
            await asyncio.to_thread(_postpone, store, row_id)
            tg.unblock_private(PLAYER)
            if seen == "his next message":
                tg.push_message("/order help", chat_id=GROUP, user_id=PLAYER, user_name="carol")
            else:
                tg.push_private_member(PLAYER, "member")
            [dm] = await tg.wait_for_call("sendMessage", chat_id=PLAYER, timeout=CEILING)
            assert "3 of cups" in dm.params["text"]
            await until(
                lambda: [r for r in select_rows(store, status="sent") if r["id"] == row_id],
                "the row to be marked sent",
                CEILING,
            )

    run(scenario())


def test_a_waiting_discord_dm_is_sent_on_its_players_next_message(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake:
            carol = fake.user("carol")
            fake.dm_blocked.add(carol["id"])
            async with serving(tmp_path, discord_env(fake)) as s:
                store = s.parts["store"]
                await fake.wait_identified(timeout=CEILING)
                card = Outgoing(
                    "discord", fake.channel_id, "Your card: the 3 of cups",
                    user_id=carol["id"], private=True,
                )  # fmt: skip
                [row_id] = await asyncio.to_thread(delivery.enqueue, store, None, [card], key="c")
                await until(lambda: _refused(store, row_id), "the DM to be refused", CEILING)
                await asyncio.to_thread(_postpone, store, row_id)
                fake.dm_blocked.discard(carol["id"])  # he allows direct messages again
                await fake.send_message("just chatting", author=carol)
                [dm] = await fake.wait_for_sent(
                    lambda m: m.kind == "dm" and "3 of cups" in m.content, timeout=CEILING
                )
                assert dm.recipient_id == carol["id"]

    run(scenario())


def test_the_outbox_waits_the_retry_after_of_a_discord_429_it_did_not_wait_out():
    """discord.py raises a 429 it will not retry (no Via header: a Cloudflare ban, it assumes)
    as a bare HTTPException: the wait is read from the response's headers, as Discord sends them."""
    from types import SimpleNamespace

    import discord

    from app.post_queue import Row
    from bots import retry

    headers = {"Retry-After": "37", "X-RateLimit-Reset-After": "36.5"}
    response = SimpleNamespace(status=429, reason="Too Many Requests", headers=headers)
    error = discord.HTTPException(response, {"message": "You are being rate limited."})
    now = datetime(2030, 1, 1, tzinfo=UTC)
    out = Outgoing("discord", "1", "a post")
    row = Row(1, None, "1", "pending", 0, 0, 0, now, None, None, None, out)
    limits = retry.Limits(max_attempts=12, max_waits=100, base_backoff=1.0, max_backoff=300.0)
    values = retry.after_failure(row, error, now, limits)
    assert values["next_attempt_at"] == now + timedelta(seconds=37)
    assert values["waits"] == 1 and "attempts" not in values
    del headers["Retry-After"]
    assert retry.retry_after(error) == 36.5

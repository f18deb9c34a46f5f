"""The chat bots of `pbem serve`, each a `Supervised` (bots/supervise.py): how each starts, how
its death shows, why it is not connected while it runs, and where a direct reply goes when it
cannot be sent (the durable outbox; after a 429 the row waits the platform's retry_after).

- Telegram: a 409 Conflict before the first update poll succeeded is a refused start (another
  process polls the token); after it, the bot polls on and says "conflict" to `/healthz`
  (bots/platforms/telegram_poll.py has the policy and why).
- Discord: a gateway connection that dropped says "reconnecting" until discord.py has it back
  (bots/platforms/discord_watch.py).
- Both tell the outbox of every user they see (bots/dm_wait.py `seen`): a private message that
  waits for his DMs is tried at once.

The platform adapters are imported only when their token is set: the terminal front end (and a
process with one bot) never loads the other platform's library.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import update

from app import post_queue as posts
from app.messages import Outgoing
from app.post_queue import lane_of
from bots import chat_wait, delivery, dm_wait, retry
from bots.config import Config
from bots.startup import StartFailed, StartRefused, explain
from bots.supervise import Started, Supervised, task_death
from storage import Store, chat_store
from storage import outbox as sql
from storage.outbox import OUTBOX

log = logging.getLogger("pbem.serve")

DISCORD_CONNECT_WAIT = 30.0  # seconds a start waits for the gateway before running on anyway


def enqueue_reply(
    store: Store,
    outgoing: Outgoing,
    *,
    key: str,
    parts_sent: int = 0,
    fallback_chat_id: str | None = None,
    as_document: bool = False,
    retry_after: float | None = None,
) -> list[int]:
    """A direct reply the adapter could not send (network, 5xx, 403, a 429 past its retries),
    written as a pending row that resumes after the `parts_sent` parts already delivered; `key`
    makes it idempotent (a redelivered message's reply is written once). `retry_after`: the
    seconds the platform's 429 asked to wait; the row's first try waits them (the next-try time
    is now + retry_after), so that the outbox does not lengthen the platform's flood wait."""
    wait = timedelta(seconds=retry_after) if retry_after else None
    hold = {(outgoing.platform, lane_of(outgoing)): wait} if wait else None
    with store.engine.begin() as conn:
        ids = posts.write_in(
            conn,
            None,
            [outgoing],
            key=key,
            now=datetime.now(UTC),
            fallback_chat_id=fallback_chat_id,
            as_document=as_document,
            hold=hold,
        )
        if ids and parts_sent:
            conn.execute(update(OUTBOX).where(OUTBOX.c.id.in_(ids)).values(parts_sent=parts_sent))
    if ids:
        sql.notify()
    return ids


def _supervised(config: Config, platform: str, what: str, start: Any) -> Supervised:
    return Supervised(
        platform,
        start,
        what,
        policy=config.get("PBEM_ON_BOT_FAILURE") or "restart",
        first_delay=config.number("PBEM_RESTART_SECONDS"),
        max_delay=config.number("PBEM_RESTART_MAX_SECONDS"),
    )


def telegram_front(config: Config, chat: Any, store: Any) -> Supervised:
    from bots.platforms.telegram import TelegramBot, TelegramConfig
    from bots.platforms.telegram_seen import watch_users

    async def forward(out: Outgoing) -> None:  # an answer for another platform: the outbox
        await asyncio.to_thread(delivery.enqueue, store, None, [out])

    async def fallback(
        out: Outgoing, key: str, parts: int, chat_id: str | None, full: bool, error: Exception
    ) -> None:
        await asyncio.to_thread(
            enqueue_reply,
            store,
            out,
            key=key,
            parts_sent=parts,
            fallback_chat_id=chat_id,
            as_document=full,
            retry_after=retry.retry_after(error),
        )

    async def start() -> Started:
        bot = TelegramBot(
            chat,
            TelegramConfig.from_env(config.env()),
            forward=forward,
            chats=functools.partial(chat_store.platform_chats, store, "telegram"),
            fallback=fallback,
            bot_back=functools.partial(chat_wait.bot_back, store, "telegram"),
        )
        watch_users(bot.app, dm_wait.seen)
        await bot.start()
        mode = "webhook" if config.get("TELEGRAM_WEBHOOK_URL") else "polling"
        log.info("telegram started mode=%s bot=@%s", mode, bot.app.bot.username)
        return Started(
            send=bot.send,
            died=lambda: telegram_death(bot),
            stop=bot.stop,
            connected=bot.connected,
            fault=lambda: telegram_fault(bot),
        )

    return _supervised(config, "telegram", "the Telegram bot", start)


async def telegram_death(bot: Any) -> BaseException | None:
    """How the Telegram bot's death shows: its polling task ends (a revoked token), or its start
    is refused after it returned (a 409 before the first poll succeeded: StartRefused)."""
    polling = bot.polling()
    refused = asyncio.ensure_future(bot.poll.refused.wait())
    try:
        await asyncio.wait(
            {refused, *([polling] if polling else [])}, return_when="FIRST_COMPLETED"
        )
    finally:
        refused.cancel()
    if bot.poll.refusal is not None:
        return StartRefused(bot.poll.refusal)
    return await task_death(polling)


def telegram_fault(bot: Any) -> tuple[str, str] | None:
    """("conflict", the line) while another process polls the token (a 409 while running)."""
    conflict = bot.poll.conflict
    if conflict is None:
        return None
    return ("conflict", explain(StartFailed("another process polls the Telegram token", conflict)))


def discord_front(config: Config, chat: Any, store: Any) -> Supervised:
    from bots.platforms import discord as dc
    from bots.platforms.discord_watch import GatewayWatch
    from bots.platforms.discord_watch import watch_users as dc_users

    async def fallback(out: Outgoing, key: str, error: Exception) -> None:
        wait = retry.retry_after(error)
        await asyncio.to_thread(enqueue_reply, store, out, key=key, retry_after=wait)

    async def start() -> Started:
        dc.point_at(config.get("DISCORD_API_BASE"), config.get("DISCORD_GATEWAY_URL"))
        guild = config.get("DISCORD_SYNC_GUILD")
        count = config.get("DISCORD_SHARD_COUNT")
        bot = dc.build_bot(
            chat,
            sharded=config.flag("DISCORD_SHARDED"),
            prefix=config.get("DISCORD_PREFIX") or "!",
            message_content=config.flag("DISCORD_MESSAGE_CONTENT"),
            sync_guild=int(guild) if guild else None,
            chats=functools.partial(chat_store.platform_chats, store, "discord"),
            shard_count=int(count) if count else None,
            shard_ids=dc.parse_shard_ids(config.get("DISCORD_SHARD_IDS")),
            proxy=config.get("DISCORD_PROXY"),
        )
        bot.fallback = fallback
        gateway = GatewayWatch(bot)
        dc_users(bot, dm_wait.seen)
        runner = await dc.start(bot, config.discord_token or "")
        # A refusal at connection (an intent not enabled, a gateway that will not have the bot)
        # ends the connect task at once: wait a little for it, so that it fails the start.
        ready = asyncio.ensure_future(bot.wait_until_ready())
        await asyncio.wait(
            {ready, runner}, timeout=DISCORD_CONNECT_WAIT, return_when="FIRST_COMPLETED"
        )
        ready.cancel()
        if runner.done():
            error = None if runner.cancelled() else runner.exception()
            await dc.stop(bot)
            raise error or RuntimeError("the gateway connection ended at once")
        shards = getattr(bot, "shard_ids", None)
        log.info(
            "discord started sharded=%s shards=%s",
            config.flag("DISCORD_SHARDED") or bool(count),
            ",".join(map(str, shards)) if shards else "all",
        )
        return Started(
            send=functools.partial(dc.send_outgoing, bot),
            died=lambda: task_death(runner),
            stop=functools.partial(dc.stop, bot),
            connected=gateway.connected,
            fault=gateway.fault,
        )

    return _supervised(config, "discord", "the Discord bot", start)


__all__ = ["DISCORD_CONNECT_WAIT", "discord_front", "enqueue_reply", "telegram_front"]

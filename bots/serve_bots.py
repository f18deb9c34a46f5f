"""The chat bots of `pbem serve`, each a `Supervised` (bots/supervise.py): how each starts, how
its death shows, and where a direct reply goes when it cannot be sent (the durable outbox).

The platform adapters are imported only when their token is set: the terminal front end (and a
process with one bot) never loads the other platform's library.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import update

from app import outbox as posts
from app.messages import Outgoing
from bots import chat_wait, outbox
from bots.config import Config
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
) -> list[int]:
    """A direct reply the adapter could not send (network, 5xx, 403, a 429 past its retries),
    written as a pending row that resumes after the `parts_sent` parts already delivered; `key`
    makes it idempotent (a redelivered message's reply is written once)."""
    with store.engine.begin() as conn:
        ids = posts.write_in(
            conn,
            None,
            [outgoing],
            key=key,
            now=datetime.now(UTC),
            fallback_chat_id=fallback_chat_id,
            as_document=as_document,
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

    async def forward(out: Outgoing) -> None:  # an answer for another platform: the outbox
        await asyncio.to_thread(outbox.enqueue, store, None, [out])

    async def fallback(
        out: Outgoing, key: str, parts: int, chat_id: str | None, full: bool
    ) -> None:
        await asyncio.to_thread(
            enqueue_reply,
            store,
            out,
            key=key,
            parts_sent=parts,
            fallback_chat_id=chat_id,
            as_document=full,
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
        await bot.start()
        mode = "webhook" if config.get("TELEGRAM_WEBHOOK_URL") else "polling"
        log.info("telegram started mode=%s bot=@%s", mode, bot.app.bot.username)
        return Started(
            send=bot.send,
            died=lambda: task_death(bot.polling()),
            stop=bot.stop,
            connected=bot.connected,
        )

    return _supervised(config, "telegram", "the Telegram bot", start)


def discord_front(config: Config, chat: Any, store: Any) -> Supervised:
    from bots.platforms import discord as dc

    async def fallback(out: Outgoing, key: str) -> None:
        await asyncio.to_thread(enqueue_reply, store, out, key=key)

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
            connected=lambda: bot.is_ready() and not bot.is_closed(),
        )

    return _supervised(config, "discord", "the Discord bot", start)


__all__ = ["DISCORD_CONNECT_WAIT", "discord_front", "enqueue_reply", "telegram_front"]

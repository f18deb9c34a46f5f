"""The Discord adapter's handlers: the commands' publication (tree.sync), and each update turned
into an `Incoming`, handed to the service in a worker thread, its answers sent back. The hybrid
commands themselves are bots/platforms/discord_cog.py."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import warnings
from collections.abc import Callable
from typing import Any

from adjudicator.core.i18n import say, t
from app.i18n import language
from app.messages import Incoming, Outgoing
from bots.platforms.common import NoPermission, hosts_a_game
from bots.platforms.discord_checks import can_post, channel_note
from bots.platforms.discord_client import PbemClient
from bots.platforms.discord_send import PLATFORM, _answer_interaction, _deliver

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands
    from discord.ext import commands

log = logging.getLogger("bots.platforms.discord")  # the adapter's one logger

FAILED = "Sorry, something went wrong on my side; the order was not processed. Please try again."


async def register_commands(
    bot: commands.Bot | commands.AutoShardedBot, *, guild: int | None = None
) -> list[app_commands.AppCommand]:
    """Publish the slash commands to Discord (tree.sync); called by the bot at startup. Global
    commands by default; with `guild`, to that guild only (they appear at once there)."""
    if guild is not None:
        target = discord.Object(id=guild)
        bot.tree.copy_global_to(guild=target)
        synced = await bot.tree.sync(guild=target)
    else:
        synced = await bot.tree.sync()
    log.info("discord: %d slash commands synced", len(synced))
    return synced


def _chat_id(channel: Any, user: discord.abc.User) -> str:
    if isinstance(channel, discord.DMChannel) or getattr(channel, "guild", None) is None:
        return f"dm:{user.id}"
    return str(channel.id)  # a thread's own id for a thread


def interaction_incoming(interaction: discord.Interaction, text: str) -> Incoming:
    """An interaction (a slash command, a press, an autocomplete) as the service's Incoming."""
    return Incoming(
        platform=PLATFORM,
        chat_id=_chat_id(interaction.channel, interaction.user),
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        text=text.strip(),
        message_id=f"dc:{interaction.id}",
        private=interaction.guild_id is None,
        ephemeral_ok=True,
        locale=_locale(interaction.locale),  # the user's own client language
    )


async def _handle_context(bot: PbemClient, ctx: commands.Context[Any], text: str) -> None:
    interaction = ctx.interaction
    if interaction is None:  # `!order ...`
        await _handle_message(bot, ctx.message, text)
        return
    incoming = interaction_incoming(interaction, text)
    work = asyncio.ensure_future(_ask_and_check(bot, incoming, interaction.channel, True))
    await answer_when_done(bot, interaction, incoming, work)


async def answer_when_done(
    bot: PbemClient,
    interaction: discord.Interaction,
    incoming: Incoming,
    work: asyncio.Future[list[Outgoing]],
    *,
    ephemeral: bool = False,
) -> None:
    """Answer a slash command with the service's answer (`work`), deferred ("thinking", public
    unless `ephemeral`) when it takes longer than the bot's `defer_after`."""
    deferred = False
    if bot.defer_after > 0:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(work), bot.defer_after)
    try:
        if not work.done():
            await interaction.response.defer(thinking=True, ephemeral=ephemeral)
            deferred = not ephemeral  # an ephemeral defer is filled by the first followup
    except discord.HTTPException as exc:  # the interaction expired: answer out of band
        log.warning("discord: could not defer %s (%s)", incoming.message_id, exc)
    outs = await work
    try:
        await _answer_interaction(bot, interaction, incoming, outs, deferred=deferred)
    except Exception as exc:  # noqa: BLE001 - the in-band answer failed: the outbox posts it
        for n, out in enumerate(outs):
            await reply_later(bot, out, f"reply:{incoming.message_id}:{n}", exc)


def _locale(value: discord.Locale | str | None) -> str | None:
    """A Discord locale ("ru", "en-US") as a plain code."""
    if value is None:
        return None
    return str(getattr(value, "value", value)) or None


async def _handle_message(bot: PbemClient, message: discord.Message, text: str) -> None:
    incoming = Incoming(
        platform=PLATFORM,
        chat_id=_chat_id(message.channel, message.author),
        user_id=str(message.author.id),
        user_name=message.author.display_name,
        text=text.strip(),
        message_id=f"dc:{message.id}",
        private=message.guild is None,
        locale=_locale(message.guild.preferred_locale) if message.guild is not None else None,
    )
    outs = await _ask_and_check(bot, incoming, message.channel, False)
    for n, out in enumerate(outs):
        try:
            await _deliver(bot, out, here=message.channel, here_id=incoming.chat_id)
        except Exception as exc:  # noqa: BLE001 - network, 5xx, 403, a 429 past its retries
            if isinstance(exc, discord.Forbidden | NoPermission):  # may not post here: say why
                why = channel_note(message.channel) or "no permission"
                log.warning("discord: could not answer in %s (%s): %s", incoming.chat_id, exc, why)
            await reply_later(bot, out, f"reply:{incoming.message_id}:{n}", exc)


async def reply_later(bot: PbemClient, out: Outgoing, key: str, exc: Exception) -> None:
    """A direct reply that failed: to the durable outbox (`bot.fallback`, given the error: after
    a 429 the row waits its retry_after), which retries it, so that the answer to an applied
    order is never lost."""
    if bot.fallback is None:
        log.error("could not deliver %s: %s", key, exc)
        return
    log.warning("discord: %s not delivered (%s); handed to the outbox", key, exc)
    try:
        await bot.fallback(out, key, exc)
    except Exception:
        log.exception("could not hand %s to the outbox", key)


async def _ask_and_check(
    bot: PbemClient, incoming: Incoming, channel: Any, interaction: bool
) -> list[Outgoing]:
    """The service's answer; after a message that makes a channel host a game, the bot's own
    check of its permissions there: what is missing is logged, and said in the channel when a
    note can reach it (a slash command's answer always can)."""
    outs = await _ask(bot, incoming)
    if incoming.private or not hosts_a_game(incoming.text) or channel is None:
        return outs
    note = channel_note(channel)
    if note is None:
        return outs
    log.warning("discord: channel %s: %s", incoming.chat_id, note)
    if interaction or can_post(channel):
        outs.append(Outgoing(platform=PLATFORM, chat_id=incoming.chat_id, text=note))
    return outs


async def _ask(
    bot: PbemClient,
    incoming: Incoming,
    work: Callable[[Incoming], list[Outgoing]] | None = None,
) -> list[Outgoing]:
    """The service's answer (`work`: another of its calls than `handle`, e.g. a press); the
    messages of one chat are handled one after the other, in the order they came (discord.py
    runs each event in a task of its own)."""
    lock = bot.chat_locks.setdefault(incoming.chat_id, asyncio.Lock())
    try:
        async with lock:
            return list(await asyncio.to_thread(work or bot.service.handle, incoming))
    except Exception:
        log.exception("the service failed on %s", incoming.message_id)
        return [
            Outgoing(
                platform=PLATFORM,
                chat_id=None,
                user_id=incoming.user_id,
                private=True,
                text=say(
                    t(
                        "Sorry, something went wrong on my side; the order was not processed. "
                        "Please try again."
                    ),
                    language(incoming.locale),
                ),
            )
        ]

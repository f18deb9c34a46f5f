"""The Discord adapter: a thin layer on discord.py's `commands.Bot` around the chat service.

It works WITHOUT the privileged *message content* intent (refused to many bots above 100 servers):

- hybrid commands, so one function serves `/order text:<text>` and `!order <text>`, and the short
  forms `/map`, `/status`, `/options`, `/help [command]`, `/new`, `/join`, `/start`, `/link`,
  `/language`, `/deadline` (and `!map` ...), with Russian names and descriptions for a client
  that speaks Russian (bots/platforms/discord_names.py);
- playing by taps (bots/platforms/discord_taps.py): `/order text:` completes from the speaker's
  legal orders, `/options` answers with buttons, a post that asks a side carries its "Answer"
  key, and every press of a button of the bot's is handled in `on_interaction`;
- messages that mention the bot (`@pbem attack C6 with 20tk`) and direct messages: Discord delivers
  their text without the intent. Without it, `!order` typed in a guild channel arrives with empty
  text (only in DMs, or as `@pbem order ...`, does it work); a bot that has the intent enabled in the
  developer portal can switch `message_content=True` and `!order` then works everywhere.

Every update becomes an `Incoming(platform="discord", ...)` handed to `service.handle` in a worker
thread; the `Outgoing` list it returns is sent back:

- a post (`chat_id` set) goes to that channel (thread, or `dm:<user id>`), its text split on line
  boundaries under Discord's 2,000 characters, the users in `mentions` pinged as `<@id>` (and only
  them: @everyone and roles are never pinged), a PNG attached as a NEW `discord.File` for every send
  (a File is single use: a second send of the same object uploads 0 bytes);
- a private message (`private=True`, `user_id` set) is an *ephemeral* reply when the update was a
  slash command of that very user, otherwise a DM; a DM Discord refuses (the user does not accept
  DMs from the server's members) is replaced by a line in the channel asking the user to allow them,
  without the content.

Slash commands must be answered within 3 s: the service runs at once and, if it has not answered
after `defer_after` seconds, the interaction is deferred ("pbem is thinking...") and the answer
follows. (A followup replacing a *deferred* response keeps the defer's visibility, so after a public
defer the first public message fills that slot and the private ones follow as ephemeral followups.)

Rate limits (HTTP 429) are waited out and retried by discord.py itself.

Sharding: Discord requires it above 2,500 servers (one gateway connection may serve at most 2,500);
`build_bot(..., sharded=True)` makes an `AutoShardedBot`, which asks Discord for the recommended
shard count and runs all shards in this process; `shard_count` (and `shard_ids`) split the shards
across processes (DISCORD_SHARD_COUNT, DISCORD_SHARD_IDS). `point_at` points discord.py at another
API root and gateway (DISCORD_API_BASE, DISCORD_GATEWAY_URL; `proxy`: DISCORD_PROXY).

A direct reply that cannot be sent (network, 5xx, 403, a 429 past discord.py's retries) is handed
to `bot.fallback` (the durable outbox in `pbem serve`); one chat's messages are handled in order.

Running beside other bots in one event loop:

    bot = build_bot(service)                   # or sharded=True, message_content=True, ...
    await start(bot, token)                    # logs in (syncs the slash commands), connects in a task
    ...
    await stop(bot)                            # closes the gateway and the HTTP session

`send_outgoing(bot, outgoing)` sends one `Outgoing` with no update behind it (reminders, deadlines,
the outbox).

The parts: this module (the bot, `build_bot`, `start`, `stop`), `bots.platforms.discord_commands`
(the commands, their registration, the update handlers) and `bots.platforms.discord_send` (the
sending); every name callers use is importable from here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import warnings
from collections.abc import Callable
from typing import Any

from bots.platforms import discord_taps
from bots.platforms.discord_checks import check_at_startup, invite_url
from bots.platforms.discord_client import ChatService, PbemClient
from bots.platforms.discord_cog import PbemCommands
from bots.platforms.discord_commands import (
    FAILED,
    _handle_message,
    register_commands,
)
from bots.platforms.discord_names import Russian
from bots.platforms.discord_send import (
    DM_REFUSED,
    DONE,
    PLATFORM,
    PRIVATE_SLOT_NOTE,
    send_outgoing,
)

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord.ext import commands

log = logging.getLogger(__name__)


def _not_the_intent_warning(record: logging.LogRecord) -> bool:
    """discord.py warns at every start that the message content intent is missing; the adapter
    works without it by design (see the module doc), so a host need not be worried by it."""
    return "message content intent is missing" not in record.getMessage()


logging.getLogger("discord.ext.commands.bot").addFilter(_not_the_intent_warning)
discord.VoiceClient.warn_nacl = False  # the bot joins no voice channel: no voice libraries
discord.VoiceClient.warn_dave = False

DEFAULT_DEFER_AFTER = 2.0  # seconds; Discord drops an interaction not answered within 3 s

__all__ = [
    "DEFAULT_DEFER_AFTER",
    "DM_REFUSED",
    "DONE",
    "FAILED",
    "PLATFORM",
    "PRIVATE_SLOT_NOTE",
    "ChatService",
    "PbemBot",
    "PbemCommands",
    "ShardedPbemBot",
    "build_bot",
    "invite_url",
    "parse_shard_ids",
    "point_at",
    "register_commands",
    "send_outgoing",
    "start",
    "stop",
]


class _PbemBotMixin(PbemClient):
    """What the plain and the sharded bot share (mixed in before commands.Bot): the adapter's
    state (PbemClient) and discord.py's event hooks, each handed to the adapter's handlers."""

    def __init__(
        self,
        service: ChatService,
        *,
        defer_after: float = DEFAULT_DEFER_AFTER,
        sync_commands: bool = True,
        sync_guild: int | None = None,
        chats: Callable[[], list[tuple[str, str]]] | None = None,
        **options: Any,
    ):
        super().__init__(**options)
        # a direct reply that could not be sent goes here (the durable outbox in `pbem serve`):
        # (outgoing, key, the error). None: logged and dropped.
        self.fallback = None
        self.chat_locks = {}
        self._pbem_init(
            service, defer_after=defer_after, sync_commands=sync_commands, sync_guild=sync_guild
        )
        self.chats = chats
        self.startup_notes: list[str] | None = None  # what the check at startup found

    def _pbem_init(
        self,
        service: ChatService,
        *,
        defer_after: float,
        sync_commands: bool,
        sync_guild: int | None,
    ) -> None:
        self.service = service
        self.defer_after = defer_after
        self.sync_commands = sync_commands
        self.sync_guild = sync_guild
        self.runner: asyncio.Task[None] | None = None

    def _commands_bot(self) -> commands.Bot | commands.AutoShardedBot:
        """This bot as discord.py's commands bot (the class the mixin is mixed into)."""
        assert isinstance(self, commands.Bot | commands.AutoShardedBot), "mixed into either"
        return self

    async def setup_hook(self) -> None:
        bot = self._commands_bot()
        await bot.add_cog(PbemCommands(self))
        await bot.tree.set_translator(Russian())
        if self.sync_commands:
            await register_commands(bot, guild=self.sync_guild)

    async def on_ready(self) -> None:
        """Once connected (the first time): check the permissions in each server and in each
        channel hosting a game; what is missing is logged, and said where the bot may post."""
        if self.startup_notes is not None:
            return  # a reconnection
        self.startup_notes = []
        try:  # a check that fails must not stop the bot
            chats = await asyncio.to_thread(self.chats) if self.chats is not None else []
            self.startup_notes = await check_at_startup(self, chats)
        except Exception:
            log.warning("discord: the check of the bot's permissions failed", exc_info=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A press of one of the bot's buttons, or a modal of its submitted (playing by taps);
        registered with the bot itself, so the buttons of any message, sent before a restart
        or after, are answered."""
        await discord_taps.on_interaction(self, interaction)

    async def on_message(self, message: discord.Message) -> None:
        bot = self._commands_bot()
        if message.author.bot:
            return
        ctx = await bot.get_context(message)
        if ctx.command is not None:  # `!order ...`, `@pbem order ...`, `!map`: the hybrid commands
            await bot.invoke(ctx)
            return
        me = self.user
        if me is None:
            return
        private = message.guild is None
        if not private and me not in message.mentions:
            return  # neither a DM nor addressed to the bot
        text = re.sub(rf"<@!?{me.id}>", "", message.content).strip()
        if text:
            await _handle_message(self, message, text)

    async def on_command_error(self, ctx: commands.Context[Any], error: Exception) -> None:
        if isinstance(error, commands.UserInputError) and ctx.command is not None:
            await ctx.send(
                f"Usage: `{ctx.clean_prefix}{ctx.command.name} {ctx.command.signature}`",
                ephemeral=True,
            )
            return
        log.error("discord command %s failed", ctx.command, exc_info=error)


class PbemBot(_PbemBotMixin, commands.Bot):
    """The plain bot."""


class ShardedPbemBot(_PbemBotMixin, commands.AutoShardedBot):
    """The sharded bot (required above 2,500 servers)."""


def point_at(api_base: str | None = None, gateway_url: str | None = None) -> None:
    """Point discord.py at another REST API root and gateway (a proxy, a test server):
    DISCORD_API_BASE ("http://host:port", "/api/v10" added unless a version is given) and
    DISCORD_GATEWAY_URL ("wss://host/"). These are the library's process-wide defaults."""
    import yarl

    if api_base:
        root = api_base.rstrip("/")
        discord.http.Route.BASE = root if re.search(r"/api/v\d+$", root) else f"{root}/api/v10"
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def parse_shard_ids(text: str | None) -> list[int] | None:
    """DISCORD_SHARD_IDS: "0,1,2" or "0-3" (or both, "0-3,8"); None when empty."""
    if not text or not text.strip():
        return None
    ids: list[int] = []
    for piece in text.split(","):
        first, dash, last = piece.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ValueError(f"DISCORD_SHARD_IDS: {piece.strip()!r} is no shard id or range")
        ids += range(int(first), int(last) + 1) if dash else [int(first)]
    return sorted(set(ids))


def build_bot(
    service: ChatService,
    *,
    sharded: bool = False,
    prefix: str = "!",
    message_content: bool = False,
    sync_commands: bool = True,
    sync_guild: int | None = None,
    defer_after: float = DEFAULT_DEFER_AFTER,
    chats: Callable[[], list[tuple[str, str]]] | None = None,
    shard_count: int | None = None,
    shard_ids: list[int] | None = None,
    proxy: str | None = None,
    **options: Any,
) -> PbemBot | ShardedPbemBot:
    """A bot serving `service`. `sharded=True`: an AutoShardedBot (required above 2,500 servers).
    `message_content=True` asks for the privileged intent (enable it in the developer portal too),
    so that `!order` also works in guild channels. `sync_guild`: sync the slash commands to that
    guild only (instant, for testing) instead of globally. `chats`: the (channel id, game) pairs
    hosting a game, whose permissions the bot checks once connected. `shard_count` / `shard_ids`
    (a sharded bot): run only these shards of that many, so that several processes share the
    shards. `proxy`: the HTTP(S) proxy of every REST and gateway connection. Other `options` go to
    discord.py (e.g. `guild_ready_timeout`)."""
    intents = discord.Intents.default()  # guilds, messages, DMs; no members/presences/content
    intents.message_content = message_content
    options.setdefault("allowed_mentions", discord.AllowedMentions.none())
    if shard_ids is not None and shard_count is None:
        raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (the total of all processes)")
    if shard_ids is not None and shard_count is not None and max(shard_ids) >= shard_count:
        raise ValueError(f"DISCORD_SHARD_IDS: shard ids run from 0 to {shard_count - 1}")
    if shard_count is not None:
        sharded = True
        options["shard_count"] = shard_count
        if shard_ids is not None:
            options["shard_ids"] = shard_ids
    if proxy:
        options["proxy"] = proxy
    cls = ShardedPbemBot if sharded else PbemBot
    return cls(
        service,
        defer_after=defer_after,
        sync_commands=sync_commands,
        sync_guild=sync_guild,
        chats=chats,
        command_prefix=commands.when_mentioned_or(prefix),
        intents=intents,
        help_command=None,
        **options,
    )


async def start(
    bot: PbemBot | ShardedPbemBot, token: str, *, ready_timeout: float | None = None
) -> asyncio.Task[None]:
    """Log in (this runs setup_hook: the commands are registered and synced) and connect to the
    gateway in a task of the running loop; return that task. With `ready_timeout`, also wait until
    the bot is ready (all guilds received), raising TimeoutError, or the connection's error."""
    try:
        await bot.login(token)
    except BaseException:
        await bot.close()
        raise
    bot.runner = runner = asyncio.create_task(bot.connect(), name="discord-bot")
    runner.add_done_callback(_report_end)
    if ready_timeout is not None:
        ready = asyncio.ensure_future(bot.wait_until_ready())
        await asyncio.wait(
            {ready, runner}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if not ready.done():
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            failed = runner.done() and not runner.cancelled() and runner.exception()
            await stop(bot)
            if failed:
                raise failed
            raise TimeoutError(f"the Discord bot was not ready within {ready_timeout} s")
    return runner


async def stop(bot: PbemBot | ShardedPbemBot, *, timeout: float = 10.0) -> None:
    """Close the gateway connection(s) and the HTTP session; wait for the connect task to end."""
    await bot.close()
    runner, bot.runner = bot.runner, None
    if runner is None:
        return
    done, _ = await asyncio.wait({runner}, timeout=timeout)  # its error, if any, is logged
    if not done:
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner


def _report_end(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        # `pbem serve` reports it in one line and restarts the bot (bots/supervise.py)
        log.warning("the Discord bot's gateway connection ended: %r", error)
        log.debug("the Discord bot stopped: the traceback", exc_info=error)

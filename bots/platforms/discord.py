"""The Discord adapter: a thin layer on discord.py's `commands.Bot` around the chat service.

It works WITHOUT the privileged *message content* intent (refused to many bots above 100 servers):

- hybrid commands, so one function serves `/order text:<text>` and `!order <text>`, and the short
  forms `/map`, `/status`, `/options`, `/help [command]` (and `!map` ...);
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
shard count and runs all shards in this process.

Running beside other bots in one event loop:

    bot = build_bot(service)                   # or sharded=True, message_content=True, ...
    await start(bot, token)                    # logs in (syncs the slash commands), connects in a task
    ...
    await stop(bot)                            # closes the gateway and the HTTP session

`send_outgoing(bot, outgoing)` sends one `Outgoing` with no update behind it (reminders, deadlines,
the outbox).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bots.messages import Incoming, Outgoing
from bots.platforms.common import DISCORD_LIMIT, split_message

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands
    from discord.ext import commands

log = logging.getLogger(__name__)

PLATFORM = "discord"
DEFAULT_DEFER_AFTER = 2.0  # seconds; Discord drops an interaction not answered within 3 s
PRIVATE_SLOT_NOTE = "Answered privately."  # fills a public "thinking" slot
DONE = "Done."  # a slash command whose answers all went elsewhere
DM_REFUSED = (
    "<@{user}>, I could not send you a private message: please allow direct messages from this "
    "server's members (Privacy Settings), then ask again."
)
FAILED = "Sorry, something went wrong on my side; the order was not processed. Please try again."


class ChatService(Protocol):
    def handle(self, incoming: Incoming) -> list[Outgoing]: ...


# --- the bot -------------------------------------------------------------------------------------


class _PbemBotMixin:
    """What the plain and the sharded bot share (mixed in before commands.Bot)."""

    def __init__(
        self,
        service: ChatService,
        *,
        defer_after: float = DEFAULT_DEFER_AFTER,
        sync_commands: bool = True,
        sync_guild: int | None = None,
        **options: Any,
    ):
        super().__init__(**options)
        self._pbem_init(
            service, defer_after=defer_after, sync_commands=sync_commands, sync_guild=sync_guild
        )

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

    async def setup_hook(self) -> None:
        await self.add_cog(PbemCommands(self))  # type: ignore[attr-defined,arg-type]
        if self.sync_commands:
            await register_commands(self, guild=self.sync_guild)  # type: ignore[arg-type]

    async def on_message(self, message: discord.Message) -> None:
        bot: PbemBot = self  # type: ignore[assignment]
        if message.author.bot:
            return
        ctx = await bot.get_context(message)
        if ctx.command is not None:  # `!order ...`, `@pbem order ...`, `!map`: the hybrid commands
            await bot.invoke(ctx)
            return
        me = bot.user
        if me is None:
            return
        private = message.guild is None
        if not private and me not in message.mentions:
            return  # neither a DM nor addressed to the bot
        text = re.sub(rf"<@!?{me.id}>", "", message.content).strip()
        if text:
            await _handle_message(bot, message, text)

    async def on_command_error(self, ctx: commands.Context, error: Exception) -> None:
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


def build_bot(
    service: ChatService,
    *,
    sharded: bool = False,
    prefix: str = "!",
    message_content: bool = False,
    sync_commands: bool = True,
    sync_guild: int | None = None,
    defer_after: float = DEFAULT_DEFER_AFTER,
    **options: Any,
) -> PbemBot | ShardedPbemBot:
    """A bot serving `service`. `sharded=True`: an AutoShardedBot (required above 2,500 servers).
    `message_content=True` asks for the privileged intent (enable it in the developer portal too),
    so that `!order` also works in guild channels. `sync_guild`: sync the slash commands to that
    guild only (instant, for testing) instead of globally. Other `options` go to discord.py
    (e.g. `shard_count`, `guild_ready_timeout`)."""
    intents = discord.Intents.default()  # guilds, messages, DMs; no members/presences/content
    intents.message_content = message_content
    options.setdefault("allowed_mentions", discord.AllowedMentions.none())
    cls = ShardedPbemBot if sharded else PbemBot
    return cls(
        service,
        defer_after=defer_after,
        sync_commands=sync_commands,
        sync_guild=sync_guild,
        command_prefix=commands.when_mentioned_or(prefix),
        intents=intents,
        help_command=None,
        **options,
    )


async def register_commands(
    bot: commands.Bot | commands.AutoShardedBot, *, guild: int | None = None
) -> list:
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
        log.error("the Discord bot stopped", exc_info=error)


# --- the commands --------------------------------------------------------------------------------


class PbemCommands(commands.Cog):
    """Hybrid commands: each is both `/name` and `!name` (and `@pbem name`)."""

    def __init__(self, bot: PbemBot | ShardedPbemBot):
        self.bot = bot

    @commands.hybrid_command(name="order", description="Give an order or ask the game something")
    @app_commands.describe(text="As you would type it, e.g. attack C6 with 20tk")
    async def order(self, ctx: commands.Context, *, text: str) -> None:
        await _handle_context(self.bot, ctx, text)

    @commands.hybrid_command(name="map", description="Show the map")
    async def map(self, ctx: commands.Context) -> None:
        await _handle_context(self.bot, ctx, "map")

    @commands.hybrid_command(name="status", description="Turn, phase, weather, pending decision")
    async def status(self, ctx: commands.Context) -> None:
        await _handle_context(self.bot, ctx, "status")

    @commands.hybrid_command(name="options", description="The orders you may give now")
    async def options(self, ctx: commands.Context) -> None:
        await _handle_context(self.bot, ctx, "options")

    @commands.hybrid_command(name="help", description="The commands, or the help of one")
    @app_commands.describe(command="A command to explain, e.g. attack")
    async def help(self, ctx: commands.Context, *, command: str = "") -> None:
        await _handle_context(self.bot, ctx, f"help {command}".strip())


# --- handlers: update -> Incoming -> service -> Outgoing -----------------------------------------


def _chat_id(channel: Any, user: discord.abc.User) -> str:
    if isinstance(channel, discord.DMChannel) or getattr(channel, "guild", None) is None:
        return f"dm:{user.id}"
    return str(channel.id)  # a thread's own id for a thread


async def _handle_context(bot: PbemBot | ShardedPbemBot, ctx: commands.Context, text: str) -> None:
    interaction = ctx.interaction
    if interaction is None:  # `!order ...`
        await _handle_message(bot, ctx.message, text)
        return
    incoming = Incoming(
        platform=PLATFORM,
        chat_id=_chat_id(interaction.channel, interaction.user),
        user_id=str(interaction.user.id),
        user_name=interaction.user.display_name,
        text=text.strip(),
        message_id=f"dc:{interaction.id}",
        private=interaction.guild_id is None,
        ephemeral_ok=True,
    )
    work = asyncio.ensure_future(_ask(bot, incoming))
    deferred = False
    if bot.defer_after > 0:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(work), bot.defer_after)
    if not work.done():
        await interaction.response.defer(thinking=True)  # public "thinking..."
        deferred = True
    await _answer_interaction(bot, interaction, incoming, await work, deferred=deferred)


async def _handle_message(
    bot: PbemBot | ShardedPbemBot, message: discord.Message, text: str
) -> None:
    incoming = Incoming(
        platform=PLATFORM,
        chat_id=_chat_id(message.channel, message.author),
        user_id=str(message.author.id),
        user_name=message.author.display_name,
        text=text.strip(),
        message_id=f"dc:{message.id}",
        private=message.guild is None,
    )
    for out in await _ask(bot, incoming):
        await _deliver(bot, out, here=message.channel, here_id=incoming.chat_id)


async def _ask(bot: PbemBot | ShardedPbemBot, incoming: Incoming) -> list[Outgoing]:
    try:
        return list(await asyncio.to_thread(bot.service.handle, incoming))
    except Exception:
        log.exception("the service failed on %s", incoming.message_id)
        return [
            Outgoing(
                platform=PLATFORM, chat_id=None, user_id=incoming.user_id, private=True, text=FAILED
            )
        ]


# --- sending -------------------------------------------------------------------------------------


@dataclass
class _Part:
    """One Discord message: up to 2,000 characters and at most the one image."""

    content: str
    image: bytes | None
    image_name: str
    mentions: discord.AllowedMentions

    def file(self) -> discord.File | None:  # a NEW File each call: a File is single use
        if self.image is None:
            return None
        return discord.File(io.BytesIO(self.image), filename=self.image_name)

    def kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"allowed_mentions": self.mentions}
        if self.content:
            kw["content"] = self.content
        if (f := self.file()) is not None:
            kw["file"] = f
        return kw


def _parts(out: Outgoing) -> list[_Part]:
    text = out.text or ""
    missing = [u for u in out.mentions if f"<@{u}>" not in text and f"<@!{u}>" not in text]
    if missing:
        text = " ".join(f"<@{u}>" for u in missing) + (f" {text}" if text else "")
    allowed = discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=int(u)) for u in out.mentions],
    )
    chunks = split_message(text, DISCORD_LIMIT) or ([""] if out.image else [])
    return [
        _Part(chunk, out.image if i == len(chunks) - 1 else None, out.image_name, allowed)
        for i, chunk in enumerate(chunks)
    ]


def _for_discord(outs: Iterable[Outgoing]) -> list[Outgoing]:
    mine = []
    for out in outs:
        if out.platform != PLATFORM:
            log.warning("discord adapter skips an outgoing for %s", out.platform)
        else:
            mine.append(out)
    return mine


async def send_outgoing(bot: discord.Client, out: Outgoing) -> None:
    """Send one Outgoing with no update behind it (a reminder, a deadline, the outbox): a post to
    its channel, or a DM (falling back to a line in `chat_id`, if set, when DMs are refused)."""
    await _deliver(bot, out, here=None, here_id=None)


async def _deliver(bot: discord.Client, out: Outgoing, *, here: Any, here_id: str | None) -> None:
    """A post or a DM; `here` is the channel of the update being answered (or None)."""
    if out.platform != PLATFORM:
        log.warning("discord adapter skips an outgoing for %s", out.platform)
        return
    if out.private:
        if out.user_id is None:
            log.error("a private outgoing without user_id was dropped")
            return
        try:
            dm = await bot.create_dm(discord.Object(id=int(out.user_id)))
            await _post(dm, _parts(out))
        except discord.Forbidden:
            log.info("discord: DM to %s refused", out.user_id)
            fallback = (
                here
                if here is not None
                else (await _channel(bot, out.chat_id) if out.chat_id else None)
            )
            if fallback is not None:
                await fallback.send(
                    DM_REFUSED.format(user=out.user_id),
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False, roles=False, users=[discord.Object(id=int(out.user_id))]
                    ),
                )
        return
    if out.chat_id is None:
        log.error("a public outgoing without chat_id was dropped")
        return
    target = (
        here if here is not None and out.chat_id == here_id else await _channel(bot, out.chat_id)
    )
    await _post(target, _parts(out), reply_to=out.reply_to, chat_id=out.chat_id)


async def _channel(bot: discord.Client, chat_id: str) -> Any:
    if chat_id.startswith("dm:"):
        return await bot.create_dm(discord.Object(id=int(chat_id[3:])))
    return bot.get_channel(int(chat_id)) or bot.get_partial_messageable(int(chat_id))


async def _post(
    target: Any, parts: Sequence[_Part], *, reply_to: str | None = None, chat_id: str | None = None
) -> None:
    reference = None
    if reply_to and reply_to.startswith("dc:") and chat_id and not chat_id.startswith("dm:"):
        reference = discord.MessageReference(
            message_id=int(reply_to[3:]), channel_id=int(chat_id), fail_if_not_exists=False
        )
    for i, part in enumerate(parts):
        kw = part.kwargs()
        if i == 0 and reference is not None:
            kw["reference"] = reference
        await target.send(**kw)


async def _answer_interaction(
    bot: discord.Client,
    interaction: discord.Interaction,
    incoming: Incoming,
    outs: list[Outgoing],
    *,
    deferred: bool,
) -> None:
    """Answer a slash command: posts to its channel and private messages to its user go through
    the interaction (the private ones ephemeral); anything else is delivered normally."""
    user_id = str(interaction.user.id)
    here: list[tuple[bool, _Part]] = []  # (ephemeral, part)
    elsewhere: list[Outgoing] = []
    for out in _for_discord(outs):
        if out.private and out.user_id == user_id:
            here += [(True, p) for p in _parts(out)]
        elif not out.private and out.chat_id == incoming.chat_id:
            here += [(False, p) for p in _parts(out)]
        else:
            elsewhere.append(out)

    if deferred:  # the public "thinking" slot must be filled first, by a public message
        public = next((i for i, (eph, _) in enumerate(here) if not eph), None)
        if public is None:
            await interaction.edit_original_response(content=PRIVATE_SLOT_NOTE if here else DONE)
        else:
            _, part = here.pop(public)
            kw = part.kwargs()
            file = kw.pop("file", None)
            await interaction.edit_original_response(
                content=kw.get("content"),
                attachments=[file] if file else [],
                allowed_mentions=part.mentions,
            )
    elif not here:
        here.append((True, _Part(DONE, None, "", discord.AllowedMentions.none())))

    for ephemeral, part in here:
        if not interaction.response.is_done():
            await interaction.response.send_message(ephemeral=ephemeral, **part.kwargs())
        else:
            await interaction.followup.send(ephemeral=ephemeral, **part.kwargs())
    for out in elsewhere:
        await _deliver(bot, out, here=interaction.channel, here_id=incoming.chat_id)

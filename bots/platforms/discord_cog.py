"""The Discord adapter's hybrid commands: `/order text:` (with completion) and `!order`, `/map`,
`/status`, `/options` (a menu of buttons), `/help`, and the chat's own commands (`/new`, `/join`,
`/start`, `/link`, `/language`, `/deadline`), each the text "<command> <text>" given to the order
path (bots/platforms/discord_commands.py) or to the tap core (bots/platforms/discord_taps.py)."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from bots.platforms import discord_taps
from bots.platforms.discord_commands import _handle_context
from bots.platforms.discord_names import (
    DEADLINE,
    DEADLINE_TEXT,
    HELP,
    HELP_COMMAND,
    JOIN,
    JOIN_TEXT,
    LANGUAGE,
    LANGUAGE_TEXT,
    LINK,
    LINK_TEXT,
    MAP,
    NEW,
    NEW_TEXT,
    OPTIONS,
    OPTIONS_UNIT,
    ORDER,
    ORDER_TEXT,
    START,
    STATUS,
)

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands
    from discord.ext import commands

if TYPE_CHECKING:
    from bots.platforms.discord import PbemBot, ShardedPbemBot


class PbemCommands(commands.Cog):
    """Hybrid commands: each is both `/name` and `!name` (and `@pbem name`)."""

    def __init__(self, bot: PbemBot | ShardedPbemBot):
        self.bot = bot

    @commands.hybrid_command(name="order", description=ORDER)
    @app_commands.describe(text=ORDER_TEXT)
    async def order(self, ctx: commands.Context, *, text: str) -> None:
        await _handle_context(self.bot, ctx, text)

    @order.autocomplete("text")
    async def order_text(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await discord_taps.complete(self.bot, interaction, current)

    @commands.hybrid_command(name="map", description=MAP)
    async def map(self, ctx: commands.Context) -> None:
        await _handle_context(self.bot, ctx, "map")

    @commands.hybrid_command(name="status", description=STATUS)
    async def status(self, ctx: commands.Context) -> None:
        await _handle_context(self.bot, ctx, "status")

    @commands.hybrid_command(name="options", description=OPTIONS)
    @app_commands.describe(unit=OPTIONS_UNIT)
    async def options(self, ctx: commands.Context, *, unit: str = "") -> None:
        await discord_taps.options(self.bot, ctx, unit)

    @commands.hybrid_command(name="help", description=HELP)
    @app_commands.describe(command=HELP_COMMAND)
    async def help(self, ctx: commands.Context, *, command: str = "") -> None:
        await _handle_context(self.bot, ctx, f"help {command}".strip())

    # the chat's own commands, each the text "<command> <text>" given to the order path
    @commands.hybrid_command(name="new", description=NEW)
    @app_commands.describe(text=NEW_TEXT)
    async def new(self, ctx: commands.Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"new {text}".strip())

    @commands.hybrid_command(name="join", description=JOIN)
    @app_commands.describe(text=JOIN_TEXT)
    async def join(self, ctx: commands.Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"join {text}".strip())

    @commands.hybrid_command(name="start", description=START)
    async def start(self, ctx: commands.Context) -> None:
        await _handle_context(self.bot, ctx, "start")

    @commands.hybrid_command(name="link", description=LINK)
    @app_commands.describe(text=LINK_TEXT)
    async def link(self, ctx: commands.Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"link {text}".strip())

    @commands.hybrid_command(name="language", description=LANGUAGE)
    @app_commands.describe(text=LANGUAGE_TEXT)
    async def language(self, ctx: commands.Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"language {text}".strip())

    @commands.hybrid_command(name="deadline", description=DEADLINE)
    @app_commands.describe(text=DEADLINE_TEXT)
    async def deadline(self, ctx: commands.Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"deadline {text}".strip())


__all__ = ["PbemCommands"]

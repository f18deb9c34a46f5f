"""The Discord adapter's hybrid commands: `/order text:` (with completion) and `!order`, `/map`,
`/status`, `/options` (a menu of buttons), `/help`, and the chat's own commands (`/new`, `/join`,
`/start`, `/link`, `/language`, `/deadline`) and the player's (`/games`, `/remind`), each the text "<command> <text>" given to the order
path (bots/platforms/discord_commands.py) or to the tap core (bots/platforms/discord_taps.py)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Coroutine
from typing import Any

from bots.platforms import discord_taps
from bots.platforms.discord_client import PbemClient
from bots.platforms.discord_commands import _handle_context
from bots.platforms.discord_names import (
    DEADLINE,
    DEADLINE_TEXT,
    GAMES,
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
    REMIND,
    REMIND_TEXT,
    START,
    STATUS,
)

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands
    from discord.ext import commands


Context = commands.Context[Any]  # a hybrid command's context (its bot: the PbemClient)
Callback = Callable[..., Coroutine[Any, Any, None]]


def _hybrid(
    name: str, description: str
) -> Callable[[Callback], commands.HybridCommand[Any, ..., None]]:
    """`commands.hybrid_command`, its type spelled out: mypy cannot infer the library's generic
    decorator (a union of two callables over a ParamSpec) from the methods it decorates."""
    made: Callable[[Callback], commands.HybridCommand[Any, ..., None]]
    made = commands.hybrid_command(name=name, description=description)
    return made


class PbemCommands(commands.Cog):
    """Hybrid commands: each is both `/name` and `!name` (and `@pbem name`)."""

    def __init__(self, bot: PbemClient):
        self.bot = bot

    @_hybrid("order", ORDER)
    @app_commands.describe(text=ORDER_TEXT)
    async def order(self, ctx: Context, *, text: str) -> None:
        await _handle_context(self.bot, ctx, text)

    @order.autocomplete("text")
    async def order_text(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await discord_taps.complete(self.bot, interaction, current)

    @_hybrid("map", MAP)
    async def map(self, ctx: Context) -> None:
        await _handle_context(self.bot, ctx, "map")

    @_hybrid("status", STATUS)
    async def status(self, ctx: Context) -> None:
        await _handle_context(self.bot, ctx, "status")

    @_hybrid("options", OPTIONS)
    @app_commands.describe(unit=OPTIONS_UNIT)
    async def options(self, ctx: Context, *, unit: str = "") -> None:
        await discord_taps.options(self.bot, ctx, unit)

    @_hybrid("help", HELP)
    @app_commands.describe(command=HELP_COMMAND)
    async def help(self, ctx: Context, *, command: str = "") -> None:
        await _handle_context(self.bot, ctx, f"help {command}".strip())

    # the chat's own commands, each the text "<command> <text>" given to the order path
    @_hybrid("new", NEW)
    @app_commands.describe(text=NEW_TEXT)
    async def new(self, ctx: Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"new {text}".strip())

    @_hybrid("join", JOIN)
    @app_commands.describe(text=JOIN_TEXT)
    async def join(self, ctx: Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"join {text}".strip())

    @_hybrid("start", START)
    async def start(self, ctx: Context) -> None:
        await _handle_context(self.bot, ctx, "start")

    @_hybrid("link", LINK)
    @app_commands.describe(text=LINK_TEXT)
    async def link(self, ctx: Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"link {text}".strip())

    @_hybrid("language", LANGUAGE)
    @app_commands.describe(text=LANGUAGE_TEXT)
    async def language(self, ctx: Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"language {text}".strip())

    @_hybrid("deadline", DEADLINE)
    @app_commands.describe(text=DEADLINE_TEXT)
    async def deadline(self, ctx: Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"deadline {text}".strip())

    # the player's own: his games, his private reminders (bots/chat_my_games.py)
    @_hybrid("games", GAMES)
    async def games(self, ctx: Context) -> None:
        await _handle_context(self.bot, ctx, "games")

    @_hybrid("remind", REMIND)
    @app_commands.describe(text=REMIND_TEXT)
    async def remind(self, ctx: Context, *, text: str = "") -> None:
        await _handle_context(self.bot, ctx, f"remind {text}".strip())


__all__ = ["PbemCommands"]

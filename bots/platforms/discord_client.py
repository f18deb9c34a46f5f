"""The Discord bot as the adapter's handlers see it: discord.py's client with the adapter's own
state (the chat service it serves, when it defers, one lock per chat, where an undelivered reply
goes). The bot itself (bots/platforms/discord.py: `PbemBot`, `ShardedPbemBot`) is a
`PbemClient`; the handlers (discord_commands, discord_cog, discord_taps) take it as one, so none
of them imports the bot's module, which imports them all."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from app.messages import Incoming, Outgoing

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord


class ChatService(Protocol):
    """What the bot serves (bots/chat.py ChatService is one)."""

    def handle(self, incoming: Incoming) -> list[Outgoing]: ...


# a direct reply that could not be sent: (the outgoing, its key, the error)
Fallback = Callable[[Outgoing, str, Exception], Awaitable[Any]]


class PbemClient(discord.Client):
    """The adapter's state on the client (set by the bot's constructor; declared here)."""

    service: ChatService
    defer_after: float  # seconds before a slash command is deferred
    chat_locks: dict[str, asyncio.Lock]  # one chat's updates in order
    fallback: Fallback | None  # the durable outbox in `pbem serve`; None: logged and dropped


__all__ = ["ChatService", "Fallback", "PbemClient"]

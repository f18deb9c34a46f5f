"""What the Discord bot watches beside its commands: whether its gateway is up, and who is seen.

- `GatewayWatch`: during a network drop discord.py reconnects by itself, and `is_ready()` stays
  true all along; so the health of `pbem serve` asks this instead. A connection is down from
  discord.py's `disconnect` event (a plain bot; `shard_disconnect` for each shard of a sharded
  one) until its `connect` (a new session), `resumed` or `ready`, and while its websocket is
  closed (which is so at once when the network drops, before any event is handled).
- `watch_users(bot, seen)`: `seen("discord", user id)` for every message and interaction of a
  user (not a bot): the outbox sends a private message that waits for him at once (he may have
  opened his direct messages; bots/dm_wait.py).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from typing import Any

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

log = logging.getLogger("bots.platforms.discord")

DROPPED = "the Discord gateway connection dropped; discord.py reconnects by itself"


class GatewayWatch:
    """Whether every gateway connection of `bot` (a commands.Bot) is up (see the module doc)."""

    def __init__(self, bot: Any):
        self.bot = bot
        self.down: set[int | None] = set()  # the connections down: shard ids (None: unsharded)
        self.sharded = isinstance(bot, discord.AutoShardedClient)
        if self.sharded:
            bot.add_listener(self._shard_down, "on_shard_disconnect")
            for event in ("on_shard_connect", "on_shard_resumed", "on_shard_ready"):
                bot.add_listener(self._shard_up, event)
        else:
            bot.add_listener(self._down, "on_disconnect")
            for event in ("on_connect", "on_resumed", "on_ready"):
                bot.add_listener(self._up, event)

    async def _down(self) -> None:
        self._went_down(None)

    async def _up(self) -> None:
        self.down.discard(None)

    async def _shard_down(self, shard_id: int) -> None:
        self._went_down(shard_id)

    async def _shard_up(self, shard_id: int) -> None:
        self.down.discard(shard_id)

    def _went_down(self, shard: int | None) -> None:
        if not self.down and not self.bot.is_closed():
            log.warning("discord: %s (shard %s)", DROPPED, "-" if shard is None else shard)
        self.down.add(shard)

    def sockets_open(self) -> bool:
        if self.sharded:
            shards = list(self.bot.shards.values())
            return bool(shards) and not any(shard.is_closed() for shard in shards)
        ws = self.bot.ws
        return ws is not None and bool(ws.open)

    def connected(self) -> bool:
        bot = self.bot
        return bot.is_ready() and not bot.is_closed() and not self.down and self.sockets_open()

    def fault(self) -> tuple[str, str] | None:
        """("reconnecting", why) while a connection of a started bot is down; else None."""
        bot = self.bot
        if bot.is_closed() or not bot.is_ready():
            return None
        if self.down or not self.sockets_open():
            return ("reconnecting", DROPPED)
        return None


def watch_users(bot: Any, seen: Callable[[str, str], None]) -> None:
    """Tell `seen` of every user (not a bot) who writes or uses a command (see the module doc)."""

    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            seen("discord", str(message.author.id))

    async def on_interaction(interaction: discord.Interaction) -> None:
        if not interaction.user.bot:
            seen("discord", str(interaction.user.id))

    bot.add_listener(on_message, "on_message")
    bot.add_listener(on_interaction, "on_interaction")


__all__ = ["DROPPED", "GatewayWatch", "watch_users"]

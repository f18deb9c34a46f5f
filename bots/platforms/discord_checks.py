"""What the Discord bot needs in a server, and a check of it: the invite URL (`pbem invite`), the
permissions the bot lacks in a channel, said in the channel (or the log) at startup and on `new`.

The permissions are exactly those the adapter's calls need (bots/platforms/discord_send.py):

- View Channel: to receive the messages of the channel (a mention, `!order`) at all;
- Send Messages (Send Messages in Threads for a game in a thread): every answer and post;
- Read Message History: an answer is sent as a *reply* to the order (`reference=`), which
  Discord refuses without it (the adapter then sends it as a plain message);
- Attach Files: the map image of every phase post and of `map`.

No embeds are sent (no Embed Links), nobody is pinged but the players named (no Mention
Everyone), and a DM or a slash command's answer needs no server permission. Members need
Use Application Commands (on by default) to use the slash commands.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
import warnings
from typing import Any

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

log = logging.getLogger("bots.platforms.discord")  # the adapter's one logger

SCOPES = ("bot", "applications.commands")
# the Permissions flag -> its name in Discord's settings, and what fails without it
NEEDED: dict[str, tuple[str, str]] = {
    "view_channel": ("View Channel", "the bot does not see the channel's messages"),
    "send_messages": ("Send Messages", "no answer and no post reaches the channel"),
    "send_messages_in_threads": (
        "Send Messages in Threads",
        "no answer and no post reaches a game played in a thread",
    ),
    "read_message_history": (
        "Read Message History",
        "answers go out as plain messages, not as replies to the orders",
    ),
    "attach_files": ("Attach Files", "the map images are not posted"),
}
IN_CHANNELS = ("view_channel", "send_messages", "read_message_history", "attach_files")
IN_THREADS = ("view_channel", "send_messages_in_threads", "read_message_history", "attach_files")


def permissions() -> discord.Permissions:
    """Exactly the permissions the bot needs (see the module doc)."""
    return discord.Permissions(**dict.fromkeys(NEEDED, True))


def invite_url(client_id: int | str) -> str:
    """The URL a server administrator opens to add the bot, with its scopes and permissions."""
    return discord.utils.oauth_url(client_id, permissions=permissions(), scopes=SCOPES)


def client_id_of(token: str) -> str | None:
    """The application (client) id a bot token starts with: its first part is the bot user's
    id in base64, and a bot's user id is its application's id. None if it is not such a token."""
    head = token.strip().split(".")[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return text if re.fullmatch(r"\d{15,22}", text) else None


def missing(channel: Any, me: Any) -> list[str]:
    """The names of the permissions `me` (the bot's member) lacks in `channel`, in the order of
    NEEDED; empty when it has them all."""
    perms = channel.permissions_for(me)
    wanted = IN_THREADS if isinstance(channel, discord.Thread) else IN_CHANNELS
    return [NEEDED[flag][0] for flag in wanted if not getattr(perms, flag)]


def advice(where: str, lacking: list[str]) -> str:
    """The sentence telling a server's administrator what to grant, and what fails meanwhile."""
    by_name = {name: why for name, why in NEEDED.values()}
    effects = "; ".join(by_name[name] for name in lacking)
    return (
        f"The bot lacks {', '.join(lacking)} in {where}: {effects}. Grant them to the bot's "
        "role (Server Settings > Roles) or in the channel's permissions (Edit Channel > "
        "Permissions)."
    )


def channel_note(channel: Any) -> str | None:
    """The advice for a guild channel or thread whose permissions fall short, or None."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None:
        return None
    lacking = missing(channel, guild.me)
    if not lacking:
        return None
    return advice(f"#{getattr(channel, 'name', channel.id)}", lacking)


def can_post(channel: Any) -> bool:
    """Whether a text note may be posted in the channel at all."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None:
        return False
    perms = channel.permissions_for(guild.me)
    send = (
        perms.send_messages_in_threads
        if isinstance(channel, discord.Thread)
        else perms.send_messages
    )
    return bool(perms.view_channel and send)


async def check_at_startup(bot: discord.Client, chats: list[tuple[str, str]]) -> list[str]:
    """Check each server (its permissions for the bot's role) and each channel hosting a game
    (`chats`: (chat id, game)); log what is missing, and say it in a game's channel where the
    bot may post. Returns the notes made (for the tests)."""
    notes = []
    for guild in bot.guilds:
        if guild.me is None:
            continue
        perms = guild.me.guild_permissions
        lacking = [NEEDED[f][0] for f in IN_CHANNELS if not getattr(perms, f)]
        if lacking:
            note = advice(f"the server {guild.name!r} (its role)", lacking)
            log.warning("discord: %s", note)
            notes.append(note)
    for chat_id, game in chats:
        if chat_id.startswith("dm:"):
            continue
        channel = bot.get_channel(int(chat_id))
        if channel is None:
            note = f"the channel {chat_id} of the game {game} is not visible to the bot"
            log.warning("discord: %s (removed from the server, or no View Channel)", note)
            notes.append(note)
            continue
        text = channel_note(channel)
        if text is None:
            continue
        log.warning("discord: game %s: %s", game, text)
        notes.append(text)
        if can_post(channel) and isinstance(channel, discord.abc.Messageable):
            try:
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as exc:
                log.warning("discord: could not post the note in %s: %s", chat_id, exc)
    return notes


__all__ = [
    "IN_CHANNELS",
    "IN_THREADS",
    "NEEDED",
    "SCOPES",
    "advice",
    "can_post",
    "channel_note",
    "check_at_startup",
    "client_id_of",
    "invite_url",
    "missing",
    "permissions",
]

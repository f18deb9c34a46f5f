"""The bot's own membership of a Telegram chat (`my_chat_member` updates): when the bot is
added to a group again (after it was removed, or only muted), the posts that waited for that
group (bots/chat_wait.py) are sent at once: `TelegramBot.bot_back(chat id)` is called.
Polling (and the webhook) ask for these updates (`telegram_poll.UPDATES`)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram import ChatMember, Update

log = logging.getLogger("bots.platforms.telegram")


PRESENT = (ChatMember.MEMBER, ChatMember.ADMINISTRATOR, ChatMember.OWNER, ChatMember.RESTRICTED)


async def on_my_chat_member(bot: Any, update: Update, context: Any) -> None:
    """The bot's membership changed: tell `bot.bot_back` when it may post in a group again."""
    change = update.my_chat_member
    if change is None or change.chat.type == change.chat.PRIVATE:
        return
    member, chat = change.new_chat_member, str(change.chat.id)
    log.info("telegram: the bot is now %s in chat %s", member.status, chat)
    if member.status not in PRESENT or getattr(member, "can_send_messages", True) is False:
        return
    if bot.bot_back is not None:
        try:
            await asyncio.to_thread(bot.bot_back, chat)
        except Exception:
            log.exception("telegram: could not send the posts waiting for chat %s", chat)


__all__ = ["PRESENT", "on_my_chat_member"]

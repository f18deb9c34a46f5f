"""Who the Telegram bot sees: `watch_users(app, seen)` calls `seen("telegram", user id)` for every
update from a user (a message in any chat, or `my_chat_member`: he pressed Start or unblocked the
bot in his private chat), so that a private message waiting for him is sent at once
(bots/dm_wait.py) rather than at the outbox's next retry.

The handler sits in a group of its own (`GROUP`, before the command handlers of group 0): PTB runs
the first matching handler of each group, so it takes nothing from the adapter's own handlers,
`my_chat_member` ones included. A user who blocks the bot (his private chat's member update to
"kicked") is not a user to send to.
"""

from __future__ import annotations

from collections.abc import Callable

from telegram import ChatMember, Update
from telegram.ext import ContextTypes, TypeHandler

from bots.platforms.telegram_config import TelegramApp

GROUP = -1


def watch_users(app: TelegramApp, seen: Callable[[str, str], None]) -> None:
    """Tell `seen` of every user an update comes from (see the module doc)."""

    async def saw(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        user = update.effective_user
        if user is None or user.is_bot:
            return
        member = update.my_chat_member
        if member is not None and member.new_chat_member.status in (
            ChatMember.BANNED,
            ChatMember.LEFT,
        ):
            return  # he blocked the bot (or it left a group)
        seen("telegram", str(user.id))

    app.add_handler(TypeHandler(Update, saw), group=GROUP)


__all__ = ["GROUP", "watch_users"]

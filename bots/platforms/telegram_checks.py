"""What the Telegram bot sets and checks: its command menu (setMyCommands, at startup) and its
rights in a group (getChatMember of the bot, and the group's default permissions), said in the
group (or the log) at startup and on `new`.

In a group the bot needs to send messages (every answer and post) and photos (the map of each
phase; `map full` sends a document). Privacy mode may stay on: every order is a command
(`/order ...`), and a bot in privacy mode receives commands.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import BotCommand, ChatMember
from telegram.error import TelegramError

from adjudicator.core.i18n import say, t
from app.i18n import language
from bots.platforms.telegram_config import TelegramApp

log = logging.getLogger("bots.platforms.telegram")  # the adapter's one logger

MENU = (
    ("order", t("Give an order or ask the game: /order attack C6 with 20tk")),
    ("o", t("The same, short: /o attack C6 with 20tk (Russian words too)")),
    ("options", t("The orders you may give now, as buttons (sent privately)")),
    ("map", t("The map of the game")),
    ("status", t("Turn, phase, whose move, pending decision")),
    ("help", t("The commands, or /help <command>")),
    ("new", t("A new game in this group: /new <game system>")),
    ("join", t("Take a side: /join <side>")),
    ("start", t("Begin the game once every side has a player")),
    ("link", t("Play one game from several chats: /link, then /link <code> there")),
    ("language", t("The language of this chat: /language ru or /language en")),
    ("deadline", t("The deadlines of the game")),
    ("games", t("Your games: whose move it is and the deadline")),
    ("remind", t("Private reminders of your moves: /remind on or /remind off")),
)
MENU_LANGUAGES = ("ru",)  # besides the default (English) menu: one per language code
# ChatPermissions / ChatMemberRestricted flag -> its name in Telegram's settings, and what fails
NEEDED = {
    "can_send_messages": ("Send Messages", "no answer and no post reaches the group"),
    "can_send_photos": ("Send Photos", "the map images are not posted"),
    "can_send_documents": ("Send Files", "`map full` (the full-size map) is not sent"),
}


async def set_menu(app: TelegramApp) -> bool:
    """Set the bot's command menu (what Telegram offers after "/"): in English, and for each
    of MENU_LANGUAGES the same Latin commands described in that language (a Russian client
    shows the Russian one); False if Telegram refused it (logged: the bot works without it)."""
    try:
        for code in (None, *MENU_LANGUAGES):
            said = language(code)
            menu = [BotCommand(name, say(text, said)) for name, text in MENU]
            await app.bot.set_my_commands(menu, language_code=code)
    except TelegramError as exc:
        log.warning("telegram: the command menu was not set: %s", exc)
        return False
    return True


async def missing(app: TelegramApp, chat_id: int | str) -> list[str] | None:
    """The rights the bot lacks in a group (names as Telegram's settings show them), [] when
    it has them all, None when the bot is not in the group at all."""
    bot = app.bot
    member = await bot.get_chat_member(chat_id, bot.id)
    if member.status in (ChatMember.LEFT, ChatMember.BANNED):
        return None
    if member.status in (ChatMember.OWNER, ChatMember.ADMINISTRATOR):
        return []
    source: Any = member
    if member.status == ChatMember.MEMBER:  # a plain member has the group's default rights
        chat = await bot.get_chat(chat_id)
        source = chat.permissions
        if source is None:
            return []
    return [name for flag, (name, _) in NEEDED.items() if getattr(source, flag, True) is False]


def advice(lacking: list[str] | None) -> str:
    if lacking is None:
        return "The bot is not a member of this group: add it again (group > Add members)."
    effects = "; ".join(why for name, why in NEEDED.values() if name in lacking)
    return (
        f"The bot may not {', '.join(lacking)} in this group: {effects}. Allow them to the "
        "members (group > Edit > Permissions), or make the bot an administrator."
    )


async def note_for(app: TelegramApp, chat_id: int | str) -> tuple[str, bool] | None:
    """(the advice, whether the bot may still post it there) for a group where the bot's rights
    fall short; None if it has them all (or they could not be read: logged)."""
    try:
        lacking = await missing(app, chat_id)
    except TelegramError as exc:
        log.warning("telegram: could not read the bot's rights in %s: %s", chat_id, exc)
        return None
    if lacking == []:
        return None
    may_post = lacking is not None and NEEDED["can_send_messages"][0] not in lacking
    return advice(lacking), may_post


async def check_at_startup(app: TelegramApp, chats: list[tuple[str, str]]) -> list[str]:
    """Check each group hosting a game (`chats`: (chat id, game)); log what is missing and say
    it in the group where the bot may still send messages. Returns the notes (for the tests)."""
    notes = []
    if not getattr(app.bot, "can_read_all_group_messages", False):
        log.info("telegram: privacy mode is on: the bot sees the commands (/order ...) only")
    for chat_id, game in chats:
        if not chat_id.startswith("-") or not chat_id[1:].isdigit():
            continue  # a private chat: nothing to grant
        found = await note_for(app, int(chat_id))
        if found is None:
            continue
        note, may_post = found
        log.warning("telegram: game %s, group %s: %s", game, chat_id, note)
        notes.append(note)
        if not may_post:
            continue
        try:
            await app.bot.send_message(int(chat_id), note)
        except TelegramError as exc:
            log.warning("telegram: could not post the note in %s: %s", chat_id, exc)
    return notes


__all__ = [
    "MENU",
    "MENU_LANGUAGES",
    "NEEDED",
    "advice",
    "check_at_startup",
    "missing",
    "note_for",
    "set_menu",
]

"""Playing by taps on Telegram: the tap core's keyboards (bots/taps.py) drawn as inline keyboards,
its presses taken from callback queries, and the ways into a player's choices.

- An Outgoing with a `Keyboard` is sent with an `InlineKeyboardMarkup` (each key a callback button
  whose data is its token, rows short enough for a phone); a keyboard asking for a line of free
  text is followed by a ForceReply prompt, remembered in the database (`remember_prompt`) so that
  the reply to it finds its builder after a restart.
- A callback query is always answered (Telegram shows a spinner until it is): a refusal as an
  alert, changing nothing. An accepted press's private answers (the presser's menus) go to his
  private chat, public ones to the group. Where he never started a private chat with the bot,
  the alert says so and opens it (`t.me/<bot>?start=<token>`), and later posts asking him carry
  that deep link instead of a callback key; `/start <token>` in the private chat is the press.
- `/options` gives the speaker's menu in his private chat (a group is told it went there).
- A Cyrillic `/слово`, which Telegram delivers only in private chats and to groups where the bot
  sees every message (it is not a command to Telegram), is taken as the order `слово`.

Handlers run in group -1, before the adapter's own, and stop an update they have taken.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import Any

from telegram import (
    CallbackQuery,
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import (
    ApplicationHandlerStop,
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from adjudicator.core.i18n import say, t
from app.i18n import language
from app.messages import Incoming, Key, Keyboard, Outgoing
from bots.platforms.common import DeliveryError, DmClosed
from bots.platforms.telegram_send import PLATFORM
from bots.platforms.telegram_text import to_markdown_v2
from storage import taps as tokens

log = logging.getLogger("bots.platforms.telegram")  # the adapter's one logger

ROW_KEYS = 3  # keys of one row at most
ROW_CHARS = 30  # characters of one row's labels at most (a phone's width)
ALERT = 200  # characters of a callback query's answer (Telegram's limit)
GROUP = -1  # the handlers' group: before the adapter's own
TOKEN = re.compile(r"[A-Za-z0-9_-]{16}")  # a tap token (storage/taps.py), as a deep link holds it
CYRILLIC = re.compile(r"^/[А-Яа-яЁё]")
OPTIONS = "options"  # the deep link's payload that opens the menu (`/start options`)


def rows(keys: Sequence[Key]) -> list[list[Key]]:
    """The keys in rows for a phone: at most ROW_KEYS a row, their labels at most ROW_CHARS
    together (a longer label has its row alone)."""
    out: list[list[Key]] = []
    for key in keys:
        row = out[-1] if out else None
        width = sum(len(k.label) for k in row or ()) + len(key.label)
        if row is None or len(row) >= ROW_KEYS or width > ROW_CHARS:
            out.append([key])
        else:
            row.append(key)
    return out


def markup(keyboard: Keyboard, link: str | None = None) -> InlineKeyboardMarkup | None:
    """The keyboard's keys as an inline keyboard; with `link`, its keys open that deep link
    (a post asking a player who has no private chat with the bot yet)."""
    if not keyboard.keys:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(k.label, url=link)
                if link
                else InlineKeyboardButton(k.label, callback_data=k.token)
                for k in row
            ]
            for row in rows(keyboard.keys)
        ]
    )


def refusal(outs: list[Outgoing]) -> str | None:
    """The text of a press's refusal (one private answer saying "Refused: ..."), else None."""
    if len(outs) != 1 or outs[0].keyboard is not None or not outs[0].private:
        return None
    text = outs[0].text
    heads = {say(t("Refused: {why}", why=""), language(c)) for c in ("en", "ru")}
    return text if any(text.startswith(h) for h in heads) else None


def _fit(text: str, limit: int = ALERT) -> str:
    text = text.replace("`", "").replace("**", "")
    return text if len(text) <= limit else text[: limit - 1] + "…"


class TelegramTaps:
    """The tap half of a `TelegramBot` (`bot.keyboards`)."""

    def __init__(self, bot: Any):
        self.bot = bot
        self.closed: set[str] = set()  # users whose private chat refused the bot

    @property
    def taps(self) -> Any:
        return getattr(self.bot.service, "taps", None)

    def handlers(self) -> list[BaseHandler[Any, Any, Any]]:
        message = filters.UpdateType.MESSAGE
        private = filters.ChatType.PRIVATE
        return [
            CallbackQueryHandler(self.on_callback),
            CommandHandler("start", self.on_start, private & message),
            CommandHandler(OPTIONS, self.on_options, message),
            MessageHandler(private & filters.REPLY & filters.TEXT & message, self.on_reply),
            MessageHandler(filters.Regex(CYRILLIC) & filters.TEXT & message, self.on_cyrillic),
        ]

    def deep_link(self, payload: str) -> str | None:
        name = self.bot.app.bot.username
        return f"https://t.me/{name}?start={payload}" if name else None

    # ---------------------------------------------------------------- the way out
    def reply_markup(self, out: Outgoing) -> InlineKeyboardMarkup | None:
        """The inline keyboard of an Outgoing (None: it has none)."""
        if out.keyboard is None:
            return None
        link = None
        asked = not out.private and len(out.keyboard.keys) == 1
        if asked and any(m in self.closed for m in out.mentions):
            link = self.deep_link(out.keyboard.keys[0].token)
        return markup(out.keyboard, link)

    async def after_sent(self, out: Outgoing, chat: str) -> list[Message]:
        """After a keyboard asking for a line of free text: the ForceReply prompt, remembered."""
        keyboard, taps = out.keyboard, self.taps
        if keyboard is None or not keyboard.free or taps is None:
            return []
        prompt = keyboard.free_prompt or "…"
        sent = await self.bot.app.bot.send_message(
            int(chat.removeprefix("dm:")),
            to_markdown_v2(prompt),
            parse_mode=ParseMode.MARKDOWN_V2,
            reply_markup=ForceReply(selective=True, input_field_placeholder=_fit(prompt, 64)),
        )
        where = f"{PLATFORM}:{sent.chat.id}:{sent.message_id}"
        await asyncio.to_thread(tokens.remember_prompt, taps.store, keyboard.free, where)
        return [sent]

    # ---------------------------------------------------------------- presses
    async def on_callback(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        user = query.from_user
        chat = query.message.chat if query.message is not None else None
        private = chat is None or chat.type == chat.PRIVATE
        incoming = Incoming(
            PLATFORM,
            str(chat.id if chat is not None else user.id),
            str(user.id),
            user.username or user.first_name,
            "",
            message_id=f"tg:cb:{query.id}",
            private=private,
            locale=user.language_code,
        )
        await self._press(incoming, query.data or "", None, query)

    async def _press(
        self,
        incoming: Incoming,
        token: str,
        values: list[str] | None,
        query: CallbackQuery | None = None,
    ) -> None:
        """Press `token` as the incoming's speaker; answer the query (if any) and deliver."""
        lang = language(incoming.locale)
        taps = self.taps
        if taps is None:
            outs: list[Outgoing] = []
        else:
            try:
                outs = await asyncio.to_thread(taps.press, incoming, token, values)
            except Exception:
                log.exception("the press %s failed", incoming.message_id)
                if query is not None:
                    failed = t("Sorry, something went wrong on my side; please try again.")
                    await _answer(query, say(failed, lang), alert=True)
                return
        why = refusal(outs)
        if why is not None and query is not None:
            await _answer(query, _fit(why), alert=True)
            if len(why) <= ALERT:
                return
        closed = await self._deliver(incoming, outs)
        if query is None:
            return
        if closed:
            self.closed.add(incoming.user_id)
            said = t(
                "Open your private chat with me (press Start there): your choices are sent "
                "there, never to the group."
            )
            await _answer(query, say(said, lang), alert=True, url=self.deep_link(token))
        elif not incoming.private and any(o.private for o in outs):
            said = t("Your choices are in your private chat with me.")
            await _answer(query, say(said, lang))
        else:
            await _answer(query, None)

    async def _deliver(self, incoming: Incoming, outs: list[Outgoing]) -> bool:
        """Send a press's answers; True if a private one found the presser's chat closed."""
        closed = False
        for n, out in enumerate(outs):
            try:
                if out.platform != PLATFORM:
                    await self.bot._forward(out)
                elif out.private and out.user_id:
                    await self.bot.send(out, raise_dm_closed=True)
                    self.closed.discard(out.user_id)
                else:
                    await self.bot.send(out, fallback_chat_id=incoming.chat_id)
            except DmClosed:
                closed = True
            except DeliveryError as exc:
                key = f"reply:{incoming.message_id}:{n}"
                await self.bot._reply_later(out, key, exc, incoming.chat_id, False)
        return closed

    # ---------------------------------------------------------------- messages
    def _incoming(self, update: Update, text: str) -> Incoming | None:
        message, chat, user = update.message, update.effective_chat, update.effective_user
        if message is None or chat is None or user is None:
            return None
        return Incoming(
            PLATFORM,
            str(chat.id),
            str(user.id),
            user.username or user.first_name,
            text,
            message_id=f"tg:{chat.id}:{message.message_id}",
            private=chat.type == chat.PRIVATE,
            locale=user.language_code,
        )

    async def on_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/start <token>` in the private chat (a deep link): that key pressed; `/start
        options`: the menu. A bare `/start` is left to the adapter (its help)."""
        payload = " ".join(context.args or ())
        incoming = self._incoming(update, "")
        if incoming is None or not (payload == OPTIONS or TOKEN.fullmatch(payload)):
            return
        self.closed.discard(incoming.user_id)
        if payload == OPTIONS:
            await self._options(incoming)
        else:
            await self._press(incoming, payload, None)
        raise ApplicationHandlerStop

    async def on_options(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A bare `/options`: the order language's answer (what may act), then the menu, both
        privately. With words (`/options 20tk`) it is the question alone (left to the adapter)."""
        incoming = self._incoming(update, OPTIONS)
        if incoming is None or context.args or self.taps is None:
            return
        await self.bot._dispatch(update, OPTIONS)
        await self._options(incoming)
        raise ApplicationHandlerStop

    async def _options(self, incoming: Incoming) -> None:
        outs = await asyncio.to_thread(self.taps.options, incoming)
        closed = await self._deliver(incoming, outs)
        if incoming.private:
            return
        lang = language(incoming.locale)
        name = "@" + incoming.user_name
        if closed:
            note = t(
                "{name}, open a private chat with me to see your choices: {link}",
                name=name,
                link=self.deep_link(OPTIONS) or "",
            )
        else:
            note = t("{name}, your choices were sent to your private chat with me.", name=name)
        out = Outgoing(PLATFORM, incoming.chat_id, say(note, lang), reply_to=incoming.message_id)
        try:
            await self.bot.send(out)
        except (DeliveryError, TelegramError):
            log.warning("telegram: the note on %s could not be posted", incoming.message_id)

    async def on_reply(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """A reply to a prompt for a line of free text: that line given to its builder."""
        message = update.message
        if message is None or message.reply_to_message is None or self.taps is None:
            return
        asked = message.reply_to_message
        where = f"{PLATFORM}:{asked.chat.id}:{asked.message_id}"
        tap = await asyncio.to_thread(tokens.by_prompt, self.taps.store, where)
        incoming = self._incoming(update, message.text or "")
        if tap is None or incoming is None:
            return
        await self._press(incoming, tap.token, [message.text or ""])
        raise ApplicationHandlerStop

    async def on_cyrillic(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/слово ...`: the order `слово ...` (`/слово@bot` too)."""
        message = update.message
        if message is None or not message.text:
            return
        word, _, rest = message.text[1:].partition(" ")
        head, _, target = word.partition("@")
        name = self.bot.app.bot.username or ""
        if target and target.lower() != name.lower():
            return
        await self.bot._dispatch(update, f"{head} {rest}".strip())
        raise ApplicationHandlerStop


async def _answer(
    query: CallbackQuery, text: str | None, *, alert: bool = False, url: str | None = None
) -> None:
    try:
        await query.answer(text, show_alert=alert or None, url=url)
    except TelegramError as exc:  # a query answered too late: the press stands
        log.warning("telegram: the callback query %s was not answered: %s", query.id, exc)


__all__ = ["ROW_CHARS", "ROW_KEYS", "TelegramTaps", "markup", "refusal", "rows"]

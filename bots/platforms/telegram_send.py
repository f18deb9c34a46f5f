"""Sending for the Telegram adapter: an `Outgoing` as MarkdownV2 parts (mentions first, chunks
under 4096, the image with its caption), each part one API call with 429 waits, migrated groups
followed, a plain-text fallback, and Telegram's errors mapped to `RetryLater` / `Undeliverable`.

An image the chat refuses goes photo -> document -> text: the caption is sent as a message and
the image dropped, and once a day (per chat and process) the chat is told which right to grant;
a post is never lost for its picture. A group that refuses a text for the bot's rights ("not
enough rights") or no longer has the bot (Forbidden: kicked, not a member) raises `NoPermission`
(the outbox keeps its posts waiting, bots/chat_wait.py)."""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import time
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import InlineKeyboardMarkup, InputFile, Message, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from adjudicator.core.i18n import t
from app.messages import Outgoing
from bots.platforms.common import (
    TELEGRAM_LIMIT,
    DeliveryError,
    DmClosed,
    NoPermission,
    NoticeOnce,
    RetryLater,
    Undeliverable,
    split_markdown,
    utf16_len,
)
from bots.platforms.telegram_config import TelegramApp, TelegramConfig
from bots.platforms.telegram_text import mention_v2, to_markdown_v2

log = logging.getLogger("bots.platforms.telegram")  # the adapter's one logger

PLATFORM = "telegram"
CAPTION_LIMIT = 1024
PRIVATE_NOTICE = "{name}, please start a private chat with me to receive private messages"
IMAGE_REFUSED = t(
    "The map could not be posted here: the bot may not send photos or files in this group. The "
    "posts go out as text until it may (group > Edit > Permissions: Send Photos and Send Files, "
    "or make the bot an administrator)."
)


def _chat_id(value: str) -> int | str:
    """A chat id from an Outgoing: "-100123", "123", "dm:123" (a private chat) or "@channel"."""
    value = value.removeprefix("dm:")
    try:
        return int(value)
    except ValueError:
        return value


def _seconds(value: dtm.timedelta | float) -> float:
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


@dataclass
class _Part:
    kind: str  # "text" | "photo" | "document"
    text: str = ""  # MarkdownV2 (text, or the caption of an image)
    plain: str = ""  # the same text unformatted: the fallback if Telegram refuses the markup
    image: bytes | None = None
    filename: str = "map.png"
    markup: InlineKeyboardMarkup | None = None  # the keyboard (telegram_taps.py): on the last part


@dataclass
class _Attempt:
    """The state of one part's delivery across retries."""

    target: str
    part: _Part
    retries: int = 0
    markup: bool = True
    image_dropped: bool = False  # the image was refused: its caption goes as a text


def _never_started(error: BaseException | None) -> bool:
    """A private chat the bot may not write to: never started, blocked, or unknown to Telegram."""
    if isinstance(error, Forbidden):
        return True
    return isinstance(error, BadRequest) and "chat not found" in error.message.lower()


def _reply_parameters(reply_to: str | None, chat: str) -> ReplyParameters | None:
    """Answer the order's message ("tg:<chat>:<message id>") when sending to that chat."""
    if not reply_to or not reply_to.startswith("tg:"):
        return None
    reply_chat, _, message_id = reply_to[3:].rpartition(":")
    if _chat_id(reply_chat) != _chat_id(chat) or not message_id.isdigit():
        return None
    return ReplyParameters(message_id=int(message_id), allow_sending_without_reply=True)


def _is_group(target: str) -> bool:
    chat = _chat_id(target)
    return not isinstance(chat, int) or chat < 0


def _recover(exc: TelegramError, attempt: _Attempt, index: int) -> None:
    """After a refusal (not a 429, not a migration): change the attempt so that another try may
    pass (markup dropped, a photo sent as a document, a refused document as its text), else
    raise the DeliveryError it maps to."""
    target, part = attempt.target, attempt.part
    if isinstance(exc, Forbidden):
        if _is_group(target):  # the bot was kicked, or is no longer a member
            raise NoPermission(
                f"telegram group {target} refused the bot: {exc.message}",
                parts_sent=index,
                kicked=True,
            ) from exc
        raise Undeliverable(
            f"telegram refused chat {target}: {exc.message}", parts_sent=index
        ) from exc
    if isinstance(exc, BadRequest):
        text = exc.message.lower()
        if attempt.markup and part.text and "can't parse entities" in text:
            log.error("telegram refused the markup (%s); sending plain text", exc.message)
            attempt.markup = False
            return
        if part.kind == "photo" and ("photo" in text or "rights" in text):
            attempt.part = _Part(
                "document", part.text, part.plain, part.image, part.filename, part.markup
            )
            return
        if part.kind == "document":  # refused too: the text goes without the image
            log.warning(
                "telegram: chat %s refused the image (%s); sent as text", target, exc.message
            )
            attempt.part = _Part("text", part.text, part.plain)
            attempt.image_dropped = True
            return
        if "not enough rights" in text:
            raise NoPermission(
                f"telegram group {target} refused a message: {exc.message}", parts_sent=index
            ) from exc
        raise Undeliverable(
            f"telegram refused a message to {target}: {exc.message}", parts_sent=index
        ) from exc
    if isinstance(exc, NetworkError):  # includes TimedOut: the part may have arrived
        raise RetryLater(f"telegram network error: {exc.message}", parts_sent=index) from exc
    raise DeliveryError(f"telegram error: {exc.message}", parts_sent=index) from exc


class Keyboards(Protocol):
    """What the way out needs of the keyboards and prompts (telegram_taps.TelegramTaps)."""

    def reply_markup(self, out: Outgoing) -> InlineKeyboardMarkup | None: ...

    async def after_sent(self, out: Outgoing, chat: str) -> list[Message]: ...


class TelegramSender:
    """The way out of `TelegramBot` (mixed into it): `send` and what it needs."""

    app: TelegramApp
    config: TelegramConfig
    service: Any
    keyboards: Keyboards  # bots.platforms.telegram_taps.TelegramTaps
    _names: dict[str, str]  # user id -> display name
    _migrated: dict[str, str]  # old chat -> new chat

    async def send(
        self,
        outgoing: Outgoing,
        *,
        fallback_chat_id: str | None = None,
        as_document: bool = False,
        start_part: int = 0,
        raise_dm_closed: bool = False,
    ) -> list[Message]:
        """Deliver one Outgoing; return the Telegram messages sent.

        Text is sent as MarkdownV2 (see `to_markdown_v2`) in chunks under 4096, mentions first as
        inline mentions; an image with `sendPhoto` (`sendDocument` when `as_document`), with the
        text as its caption when it fits. A private Outgoing (private=True, user_id) goes to the
        user's private chat; if the user never started the bot, the group (`outgoing.chat_id`, else
        `fallback_chat_id`) gets a notice without the content; with `raise_dm_closed` (the outbox,
        which keeps the message waiting and tells the group itself), or with no group, `DmClosed`
        is raised instead. 429s are waited out (up to `retry_limit` times, `max_retry_wait`
        seconds); a migrated group is followed and the service told. Raises `RetryLater` /
        `Undeliverable` (with `parts_sent`; pass it back as `start_part` to resume without sending
        a part twice).
        """
        if outgoing.platform != PLATFORM:
            raise ValueError(f"not a telegram message: {outgoing.platform}")
        if outgoing.private and outgoing.user_id:
            group = None if raise_dm_closed else (outgoing.chat_id or fallback_chat_id)
            return await self._send_private(outgoing, group, as_document, start_part)
        if outgoing.chat_id is None:
            raise ValueError("an Outgoing needs chat_id, or private=True with user_id")
        return await self._send_parts(outgoing, outgoing.chat_id, as_document, start_part)

    async def _send_private(
        self, outgoing: Outgoing, group: str | None, as_document: bool, start_part: int
    ) -> list[Message]:
        """To the user's private chat; if the user never started the bot, a notice in `group`,
        else (no group, or a part sent already) `DmClosed`."""
        assert outgoing.user_id
        try:
            return await self._send_parts(outgoing, outgoing.user_id, as_document, start_part)
        except Undeliverable as exc:
            cause = exc.__cause__
            if not _never_started(cause):
                raise
            if exc.parts_sent or group is None or _chat_id(group) == _chat_id(outgoing.user_id):
                raise DmClosed(
                    f"telegram user {outgoing.user_id} has no private chat with the bot: {exc}",
                    parts_sent=exc.parts_sent,
                ) from cause
        log.info("user %s has not started the bot; notice posted instead", outgoing.user_id)
        name = await self._display_name(outgoing.user_id, group)
        notice = PRIVATE_NOTICE.format(name=mention_v2(outgoing.user_id, "@" + name))
        plain = PRIVATE_NOTICE.format(name="@" + name)
        return await self._send_one(group, _Part("text", notice, plain), 0, None)

    async def _send_parts(
        self, outgoing: Outgoing, chat: str, as_document: bool, start_part: int
    ) -> list[Message]:
        parts = await self._parts(outgoing, chat, as_document)
        reply_to = _reply_parameters(outgoing.reply_to, chat)
        sent: list[Message] = []
        for index, part in enumerate(parts):
            if index < start_part:
                continue
            try:
                sent += await self._send_one(chat, part, index, reply_to)
            except DeliveryError as exc:
                exc.parts_sent = index
                raise
            chat = self._migrated.get(chat, chat)
            reply_to = None  # only the first part answers the order
        return sent + await self.keyboards.after_sent(outgoing, chat)

    async def _parts(self, outgoing: Outgoing, chat: str, as_document: bool) -> list[_Part]:
        head, head_plain = "", ""
        if outgoing.mentions:
            names = [(uid, await self._display_name(uid, chat)) for uid in outgoing.mentions]
            head = " ".join(mention_v2(uid, name) for uid, name in names)
            head_plain = " ".join(name for _, name in names)
        room = TELEGRAM_LIMIT - (utf16_len(head_plain) + 1 if head_plain else 0)
        chunks = split_markdown(outgoing.text, room, length=utf16_len)
        texts = [(to_markdown_v2(c), c) for c in chunks]
        if head:
            first, first_plain = texts[0] if texts else ("", "")
            texts[:1] = [(f"{head}\n{first}".rstrip(), f"{head_plain}\n{first_plain}".rstrip())]
        parts = [_Part("text", md, plain) for md, plain in texts]
        if outgoing.image is not None:
            as_file = as_document or outgoing.document
            image = _Part("document" if as_file else "photo", image=outgoing.image)
            image.filename = outgoing.image_name
            if len(parts) == 1 and utf16_len(parts[0].plain) <= CAPTION_LIMIT:
                image.text, image.plain = parts[0].text, parts[0].plain
                parts = []
            parts.append(image)
        if parts:
            parts[-1].markup = self.keyboards.reply_markup(outgoing)
        return parts

    async def _send_one(
        self, chat: str, part: _Part, index: int, reply_to: ReplyParameters | None
    ) -> list[Message]:
        """One API call, with 429 waits, migration following and a plain-text fallback."""
        attempt = _Attempt(self._migrated.get(chat, chat), part)
        while True:
            try:
                if attempt.image_dropped:
                    return await self._as_text(attempt, reply_to)
                return [await self._call(attempt.target, attempt.part, reply_to, attempt.markup)]
            except RetryAfter as exc:
                await self._wait_out(exc, attempt, index)
            except ChatMigrated as exc:
                new = str(exc.new_chat_id)
                if new == str(attempt.target):
                    raise Undeliverable(f"chat {attempt.target} migrated to itself") from exc
                await self._note_migration(str(attempt.target), new)
                attempt.target = new
            except TelegramError as exc:
                _recover(exc, attempt, index)

    async def _as_text(self, attempt: _Attempt, reply_to: ReplyParameters | None) -> list[Message]:
        """An image's part whose image was refused: its caption as a text (nothing if it had
        none), then the chat's notice if due."""
        sent = []
        if attempt.part.plain.strip():
            sent.append(await self._call(attempt.target, attempt.part, reply_to, attempt.markup))
        notices = self.__dict__.setdefault("_image_notices", NoticeOnce())
        if notices.due(str(attempt.target), time.monotonic()):
            try:  # the post went out: a notice that fails is only logged
                sent.append(
                    await self._call(attempt.target, _Part("text", "", IMAGE_REFUSED), None, False)
                )
            except TelegramError as exc:
                log.warning(
                    "telegram: could not tell %s its images are refused: %s", attempt.target, exc
                )
        return sent

    async def _wait_out(self, exc: RetryAfter, attempt: _Attempt, index: int) -> None:
        """Sleep through a 429, or raise RetryLater when retried enough or asked to wait long."""
        wait = _seconds(getattr(exc, "_retry_after", 1))
        if attempt.retries >= self.config.retry_limit or wait > self.config.max_retry_wait:
            raise RetryLater(
                f"telegram rate limit on chat {attempt.target}: retry after {wait:g}s",
                parts_sent=index,
                retry_after=wait,
            ) from exc
        attempt.retries += 1
        log.info("telegram 429 on chat %s: waiting %gs", attempt.target, wait)
        await asyncio.sleep(wait)

    async def _call(
        self, chat: str, part: _Part, reply_to: ReplyParameters | None, markup: bool
    ) -> Message:
        bot = self.app.bot
        text = part.text if markup else part.plain
        mode = ParseMode.MARKDOWN_V2 if markup and text else None
        chat_id = _chat_id(chat)
        keys = part.markup
        if part.kind == "text":
            return await bot.send_message(
                chat_id, text, parse_mode=mode, reply_parameters=reply_to, reply_markup=keys
            )
        assert part.image is not None
        upload = InputFile(part.image, filename=part.filename)  # a fresh InputFile per attempt
        send = bot.send_photo if part.kind == "photo" else bot.send_document
        return await send(
            chat_id,
            upload,
            caption=text or None,
            parse_mode=mode,
            reply_parameters=reply_to,
            reply_markup=keys,
        )

    async def _display_name(self, user_id: str, chat: str | None) -> str:
        name = self._names.get(user_id)
        if name is None and chat is not None:
            try:
                member = await self.app.bot.get_chat_member(_chat_id(chat), int(user_id))
            except (TelegramError, ValueError):
                pass
            else:
                name = member.user.username or member.user.first_name
                self._names[user_id] = name
        return name or "player"

    async def _note_migration(self, old: str, new: str) -> None:
        """A group became a supergroup with a new id: tell the service (once per pair)."""
        if self._migrated.get(old) == new:
            return
        self._migrated[old] = new
        log.info("telegram chat %s migrated to %s", old, new)
        callback = getattr(self.service, "chat_migrated", None)
        if callback is not None:
            try:
                await asyncio.to_thread(callback, PLATFORM, old, new)
            except Exception:  # the message still goes to the new chat
                log.exception("the service failed to record the migration %s -> %s", old, new)

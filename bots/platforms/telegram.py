"""Telegram adapter: the real python-telegram-bot `Application`, kept thin.

A command in a group or a private chat becomes an `Incoming`; the service's answer (a list of
`Outgoing`) is sent back by `TelegramBot.send`, the one function that talks to Telegram on the way
out (a persisted outbox can call it later and catch `DeliveryError`).

    bot = TelegramBot(service, TelegramConfig.from_env())   # or TelegramConfig(token=...)
    await start(bot.app)        # initialize + start + long polling (or the webhook server)
    ...                         # runs beside discord.py in the same event loop
    await stop(bot.app)

Commands: `/order <text>` and `/o <text>` carry order-language text; `/map`, `/status`, `/options`,
`/help` and any other `/<command> args` become the order text "<command> args" (so
`/attack C6 with 20tk` works). In groups `/cmd@thisbot` is handled and `/cmd@otherbot` ignored.
In a private chat plain text (no slash) is an order too.

Updates arrive by **long polling** by default: nothing to expose, works behind NAT, one process
per bot token (a second poller gets 409 Conflict). **Webhook mode** (`webhook_url` set, env
TELEGRAM_WEBHOOK_URL) is for deployments with a public HTTPS endpoint: Telegram pushes each update
to that URL (no polling traffic, lower latency, the receiving process can sit behind a load
balancer); the adapter registers the URL with `setWebhook` and serves it with a small aiohttp
server on `webhook_listen:webhook_port` (TLS terminated by a reverse proxy in front of it).
`TELEGRAM_BASE_URL` points the bot at a self-hosted Bot API server (larger files, lower latency).
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import os
import re
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

# Opt in to PTB's future `timedelta` time attributes. Without it, merely constructing a
# `RetryAfter` (on a 429) emits a PTBDeprecationWarning, an error under `-W error`.
os.environ.setdefault("PTB_TIMEDELTA", "true")

from telegram import InputFile, Message, ReplyParameters, Update
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.helpers import escape_markdown

from bots.messages import Incoming, Outgoing
from bots.platforms.common import (
    TELEGRAM_LIMIT,
    DeliveryError,
    RetryLater,
    Undeliverable,
    split_markdown,
    utf16_len,
)

log = logging.getLogger(__name__)

PLATFORM = "telegram"
CAPTION_LIMIT = 1024
ORDER_COMMANDS = ("order", "o")
SHORT_COMMANDS = ("map", "status", "options", "help")
PRIVATE_NOTICE = "{name}, please start a private chat with me to receive private messages"
FAILURE_TEXT = "Sorry, something went wrong on my side; please try again."
_COMMAND = re.compile(r"/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?=\s|$)")


class ChatService(Protocol):
    def handle(self, incoming: Incoming) -> list[Outgoing]: ...


@dataclass
class TelegramConfig:
    token: str
    base_url: str | None = None  # Bot API server root, e.g. http://127.0.0.1:8081 (self-hosted)
    base_file_url: str | None = None  # derived from base_url when None
    webhook_url: str | None = None  # public HTTPS URL: webhook mode; None: long polling
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_secret: str | None = None  # checked in X-Telegram-Bot-Api-Secret-Token
    poll_timeout: float = 10.0  # seconds a getUpdates long poll waits on the server
    retry_limit: int = 3  # RetryAfter (429) retries per part before giving up to the caller
    max_retry_wait: float = 60.0  # a 429 asking for longer is handed to the caller at once
    request_timeout: float = 20.0  # read/write timeout of API calls (uploads included)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> TelegramConfig:
        """TELEGRAM_TOKEN (required), TELEGRAM_BASE_URL, TELEGRAM_BASE_FILE_URL,
        TELEGRAM_WEBHOOK_URL, TELEGRAM_WEBHOOK_LISTEN, TELEGRAM_WEBHOOK_PORT,
        TELEGRAM_WEBHOOK_SECRET."""
        env = os.environ if env is None else env
        token = env.get("TELEGRAM_TOKEN")
        if not token:
            raise ValueError("TELEGRAM_TOKEN is not set")
        return cls(
            token=token,
            base_url=env.get("TELEGRAM_BASE_URL") or None,
            base_file_url=env.get("TELEGRAM_BASE_FILE_URL") or None,
            webhook_url=env.get("TELEGRAM_WEBHOOK_URL") or None,
            webhook_listen=env.get("TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1"),
            webhook_port=int(env.get("TELEGRAM_WEBHOOK_PORT", "8443")),
            webhook_secret=env.get("TELEGRAM_WEBHOOK_SECRET") or None,
        )

    def __repr__(self) -> str:  # never show the token (logs)
        return f"TelegramConfig(base_url={self.base_url!r}, webhook_url={self.webhook_url!r})"


def api_urls(base_url: str, base_file_url: str | None = None) -> tuple[str, str]:
    """PTB's base_url / base_file_url for a Bot API server root ("http://host:8081").

    PTB appends the token to these; a URL already ending in /bot (or holding "{token}") is kept.
    """
    root = base_url.rstrip("/")
    if "{token}" in root or root.endswith("/bot"):
        api = root
        file_root = root[: -len("/bot")] if root.endswith("/bot") else None
    else:
        api, file_root = f"{root}/bot", root
    if base_file_url:
        files = base_file_url.rstrip("/")
        if "{token}" not in files and not files.endswith("/file/bot"):
            files = f"{files}/file/bot"
    elif file_root is not None:
        files = f"{file_root}/file/bot"
    else:
        raise ValueError("set base_file_url too when base_url holds {token}")
    return api, files


# ---------------------------------------------------------------- text


def parse_command(text: str, bot_username: str | None) -> tuple[str, str] | None:
    """("command", "rest of the text") for "/command@bot rest", None if it is not a command or
    is addressed to another bot. The rest keeps its line breaks (multi-line orders)."""
    m = _COMMAND.match(text)
    if m is None:
        return None
    target = m.group(2)
    if target and (not bot_username or target.lower() != bot_username.lower()):
        return None
    return m.group(1).lower(), text[m.end() :].strip()


def order_text(command: str, rest: str) -> str:
    """The order-language text of a command: /order and /o carry it, others are its first word."""
    if command in ORDER_COMMANDS:
        return rest
    return f"{command} {rest}".strip()


def wants_full_resolution(text: str) -> bool:
    """`/map full`: the map as a document (a photo is recompressed by Telegram)."""
    return text.lower().split()[:2] == ["map", "full"]


_INLINE = re.compile(r"`([^`\n]+)`|\*\*(?=\S)(.+?)(?<=\S)\*\*")


def to_markdown_v2(text: str) -> str:
    """Plain text with a little Markdown (``` blocks, `code`, **bold**) as Telegram MarkdownV2.

    Everything else is escaped, so user-provided text (names, echoed orders) renders literally
    and can never break the message: no links, no stray entities.
    """
    out: list[str] = []
    in_block = False
    for line in text.split("\n"):
        stripped = line.rstrip()
        if stripped.startswith("```"):
            if in_block:
                out.append("```")
                in_block = False
                continue
            if len(stripped) > 6 and stripped.endswith("```"):  # ```one-line code```
                code = stripped[3:-3]
                out.append(f"`{escape_markdown(code, version=2, entity_type='code')}`")
                continue
            lang = re.sub(r"[^\w+-]", "", stripped[3:])
            out.append(f"```{lang}")
            in_block = True
        elif in_block:
            out.append(escape_markdown(line, version=2, entity_type="pre"))
        else:
            out.append(_inline_markdown_v2(line))
    if in_block:
        out.append("```")
    return "\n".join(out)


def _inline_markdown_v2(line: str) -> str:
    parts: list[str] = []
    pos = 0
    for m in _INLINE.finditer(line):
        parts.append(escape_markdown(line[pos : m.start()], version=2))
        if m.group(1) is not None:
            parts.append(f"`{escape_markdown(m.group(1), version=2, entity_type='code')}`")
        else:
            parts.append(f"*{escape_markdown(m.group(2), version=2)}*")
        pos = m.end()
    parts.append(escape_markdown(line[pos:], version=2))
    return "".join(parts)


def mention_v2(user_id: str | int, name: str) -> str:
    """An inline mention that pings the user even without a username."""
    return f"[{escape_markdown(name, version=2)}](tg://user?id={int(user_id)})"


def _chat_id(value: str) -> int | str:
    """A chat id from an Outgoing: "-100123", "123", "dm:123" (a private chat) or "@channel"."""
    value = value.removeprefix("dm:")
    try:
        return int(value)
    except ValueError:
        return value


def _seconds(value: dtm.timedelta | float) -> float:
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


# ---------------------------------------------------------------- the adapter


@dataclass
class _Part:
    kind: str  # "text" | "photo" | "document"
    text: str = ""  # MarkdownV2 (text, or the caption of an image)
    plain: str = ""  # the same text unformatted: the fallback if Telegram refuses the markup
    image: bytes | None = None
    filename: str = "map.png"


@dataclass(eq=False)
class TelegramBot:
    """The adapter: `app` is the real PTB Application, `send` the way out."""

    service: ChatService
    config: TelegramConfig
    # Outgoing for other platforms (a game linked to a Discord channel): handed to this callback
    # when set (the Discord adapter's send, later the outbox), else logged and dropped.
    forward: Callable[[Outgoing], Awaitable[Any]] | None = None
    app: Application = field(init=False)
    _names: dict[str, str] = field(init=False, default_factory=dict)  # user id -> display name
    _migrated: dict[str, str] = field(init=False, default_factory=dict)  # old chat -> new chat
    _webhook_runner: Any = field(init=False, default=None)

    def __post_init__(self) -> None:
        # httpx logs every request URL at INFO, and the URL holds the token.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        cfg = self.config
        builder = (
            ApplicationBuilder()
            .token(cfg.token)
            .job_queue(None)
            .read_timeout(cfg.request_timeout)
            .write_timeout(cfg.request_timeout)
            .media_write_timeout(cfg.request_timeout)
            .get_updates_read_timeout(cfg.poll_timeout + 10)
        )
        if cfg.base_url:
            api, files = api_urls(cfg.base_url, cfg.base_file_url)
            builder = builder.base_url(api).base_file_url(files)
        if cfg.webhook_url:
            builder = builder.updater(None)
        self.app = builder.build()
        only_messages = filters.UpdateType.MESSAGE  # edits of an order are not new orders
        self.app.add_handler(CommandHandler(ORDER_COMMANDS, self._on_command, only_messages))
        self.app.add_handler(CommandHandler(SHORT_COMMANDS, self._on_command, only_messages))
        self.app.add_handler(MessageHandler(filters.COMMAND & only_messages, self._on_command))
        self.app.add_handler(
            MessageHandler(
                filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND & only_messages,
                self._on_private_text,
            )
        )
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        self.app.add_error_handler(self._on_error)
        _ADAPTERS[self.app] = self

    # ---- lifecycle

    async def start(self) -> None:
        try:
            await self.app.initialize()  # getMe: the bot's username, for /cmd@bot routing
            await self.app.start()
            if self.config.webhook_url:
                await self._start_webhook()
            else:
                assert self.app.updater is not None
                await self.app.updater.start_polling(
                    timeout=dtm.timedelta(seconds=self.config.poll_timeout),
                    allowed_updates=[Update.MESSAGE],
                    drop_pending_updates=False,  # orders sent while we were down still count
                )
        except BaseException:
            await self.stop()
            raise
        log.info("telegram bot @%s started", self.app.bot.username)

    async def stop(self) -> None:
        if self.app.updater is not None and self.app.updater.running:
            await self.app.updater.stop()
        if self._webhook_runner is not None:
            await self._webhook_runner.cleanup()
            self._webhook_runner = None
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    async def _start_webhook(self) -> None:
        from aiohttp import web  # a dependency of discord.py; only webhook mode needs it

        cfg = self.config
        assert cfg.webhook_url
        path = "/" + cfg.webhook_url.split("://", 1)[-1].partition("/")[2]

        async def receive(request: web.Request) -> web.Response:
            if cfg.webhook_secret and (
                request.headers.get("X-Telegram-Bot-Api-Secret-Token") != cfg.webhook_secret
            ):
                return web.Response(status=403)
            try:
                update = Update.de_json(await request.json(), self.app.bot)
            except (ValueError, TypeError, KeyError, AttributeError):  # a malformed body
                return web.Response(status=400)
            await self.app.update_queue.put(update)
            return web.Response()

        webapp = web.Application()
        webapp.router.add_post(path, receive)
        runner = web.AppRunner(webapp, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, cfg.webhook_listen, cfg.webhook_port).start()
        self._webhook_runner = runner
        await self.app.bot.set_webhook(
            cfg.webhook_url, allowed_updates=[Update.MESSAGE], secret_token=cfg.webhook_secret
        )

    # ---- incoming

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.text is None:
            return
        parsed = parse_command(message.text, self.app.bot.username)
        if parsed is None:  # "/cmd@otherbot": not for us
            return
        if parsed == ("start", "") and message.chat.type == message.chat.PRIVATE:
            # Telegram's "Start" button in a new private chat (what the notice asks for),
            # not the game's `start`
            parsed = ("help", "")
        await self._dispatch(update, order_text(*parsed))

    async def _on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.message is not None and update.message.text:
            await self._dispatch(update, update.message.text.strip())

    async def _dispatch(self, update: Update, text: str) -> None:
        message, chat, user = update.message, update.effective_chat, update.effective_user
        if message is None or chat is None or user is None:
            return
        incoming = Incoming(
            platform=PLATFORM,
            chat_id=str(chat.id),
            user_id=str(user.id),
            user_name=user.username or user.first_name,
            text=text,
            message_id=f"tg:{chat.id}:{message.message_id}",
            private=chat.type == chat.PRIVATE,
        )
        self._names[incoming.user_id] = incoming.user_name
        try:
            replies = await asyncio.to_thread(self.service.handle, incoming)
        except Exception:
            log.exception("the service failed on %s", incoming.message_id)
            replies = [
                Outgoing(PLATFORM, incoming.chat_id, FAILURE_TEXT, reply_to=incoming.message_id)
            ]
        full = wants_full_resolution(text)
        for out in replies:
            try:
                if out.platform != PLATFORM:
                    await self._forward(out)
                else:
                    await self.send(out, fallback_chat_id=incoming.chat_id, as_document=full)
            except Exception:
                log.exception("could not deliver a reply to %s", incoming.message_id)

    async def _forward(self, out: Outgoing) -> None:
        if self.forward is None:
            log.warning("no route for an outgoing message to %s; dropped", out.platform)
        else:
            await self.forward(out)

    async def _on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None:
            return
        if message.migrate_to_chat_id:  # posted in the old group
            await self._note_migration(str(message.chat.id), str(message.migrate_to_chat_id))
        elif message.migrate_from_chat_id:  # posted in the new supergroup
            await self._note_migration(str(message.migrate_from_chat_id), str(message.chat.id))

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

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram handler error", exc_info=context.error)

    # ---- outgoing

    async def send(
        self,
        outgoing: Outgoing,
        *,
        fallback_chat_id: str | None = None,
        as_document: bool = False,
        start_part: int = 0,
    ) -> list[Message]:
        """Deliver one Outgoing; return the Telegram messages sent.

        Text is sent as MarkdownV2 (see `to_markdown_v2`) in chunks under 4096, mentions first as
        inline mentions; an image with `sendPhoto` (`sendDocument` when `as_document`), with the
        text as its caption when it fits. A private Outgoing (private=True, user_id) goes to the
        user's private chat; if the user never started the bot, the group (`outgoing.chat_id`, else
        `fallback_chat_id`) gets a notice without the content. 429s are waited out (up to
        `retry_limit` times, `max_retry_wait` seconds); a migrated group is followed and the
        service told. Raises `RetryLater` / `Undeliverable` (with `parts_sent`; pass it back as
        `start_part` to resume without sending a part twice).
        """
        if outgoing.platform != PLATFORM:
            raise ValueError(f"not a telegram message: {outgoing.platform}")
        if outgoing.private and outgoing.user_id:
            group = outgoing.chat_id or fallback_chat_id
            try:
                return await self._send_parts(outgoing, outgoing.user_id, as_document, start_part)
            except Undeliverable as exc:
                if not _never_started(exc.__cause__) or exc.parts_sent:
                    raise
                if group is None or _chat_id(group) == _chat_id(outgoing.user_id):
                    raise
            log.info("user %s has not started the bot; notice posted instead", outgoing.user_id)
            name = await self._display_name(outgoing.user_id, group)
            notice = PRIVATE_NOTICE.format(name=mention_v2(outgoing.user_id, "@" + name))
            plain = PRIVATE_NOTICE.format(name="@" + name)
            return await self._send_one(group, _Part("text", notice, plain), 0, None)
        if outgoing.chat_id is None:
            raise ValueError("an Outgoing needs chat_id, or private=True with user_id")
        return await self._send_parts(outgoing, outgoing.chat_id, as_document, start_part)

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
        return sent

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
            image = _Part("document" if as_document else "photo", image=outgoing.image)
            image.filename = outgoing.image_name
            if len(parts) == 1 and utf16_len(parts[0].plain) <= CAPTION_LIMIT:
                image.text, image.plain = parts[0].text, parts[0].plain
                parts = []
            parts.append(image)
        return parts

    async def _send_one(
        self, chat: str, part: _Part, index: int, reply_to: ReplyParameters | None
    ) -> list[Message]:
        """One API call, with 429 waits, migration following and a plain-text fallback."""
        target = self._migrated.get(chat, chat)
        retries = 0
        markup = True
        while True:
            try:
                return [await self._call(target, part, reply_to, markup)]
            except RetryAfter as exc:
                wait = _seconds(getattr(exc, "_retry_after", 1))
                if retries >= self.config.retry_limit or wait > self.config.max_retry_wait:
                    raise RetryLater(
                        f"telegram rate limit on chat {target}: retry after {wait:g}s",
                        parts_sent=index,
                        retry_after=wait,
                    ) from exc
                retries += 1
                log.info("telegram 429 on chat %s: waiting %gs", target, wait)
                await asyncio.sleep(wait)
            except ChatMigrated as exc:
                new = str(exc.new_chat_id)
                if new == str(target):
                    raise Undeliverable(f"chat {target} migrated to itself") from exc
                await self._note_migration(str(target), new)
                target = new
            except Forbidden as exc:
                raise Undeliverable(
                    f"telegram refused chat {target}: {exc.message}", parts_sent=index
                ) from exc
            except BadRequest as exc:
                text = exc.message.lower()
                if markup and part.text and "can't parse entities" in text:
                    log.error("telegram refused the markup (%s); sending plain text", exc.message)
                    markup = False
                    continue
                if part.kind == "photo" and "photo" in text:  # too large/odd for a photo
                    part = _Part("document", part.text, part.plain, part.image, part.filename)
                    continue
                raise Undeliverable(
                    f"telegram refused a message to {target}: {exc.message}", parts_sent=index
                ) from exc
            except NetworkError as exc:  # includes TimedOut: the part may have arrived
                raise RetryLater(
                    f"telegram network error: {exc.message}", parts_sent=index
                ) from exc
            except TelegramError as exc:
                raise DeliveryError(f"telegram error: {exc.message}", parts_sent=index) from exc

    async def _call(
        self, chat: str, part: _Part, reply_to: ReplyParameters | None, markup: bool
    ) -> Message:
        bot = self.app.bot
        text = part.text if markup else part.plain
        mode = ParseMode.MARKDOWN_V2 if markup and text else None
        chat_id = _chat_id(chat)
        if part.kind == "text":
            return await bot.send_message(chat_id, text, parse_mode=mode, reply_parameters=reply_to)
        assert part.image is not None
        upload = InputFile(part.image, filename=part.filename)  # a fresh InputFile per attempt
        if part.kind == "photo":
            return await bot.send_photo(
                chat_id, upload, caption=text or None, parse_mode=mode, reply_parameters=reply_to
            )
        return await bot.send_document(
            chat_id, upload, caption=text or None, parse_mode=mode, reply_parameters=reply_to
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


_ADAPTERS: weakref.WeakKeyDictionary[Application, TelegramBot] = weakref.WeakKeyDictionary()


def build(
    service: ChatService,
    config: TelegramConfig,
    forward: Callable[[Outgoing], Awaitable[Any]] | None = None,
) -> Application:
    """The PTB Application wired to `service` (see `TelegramBot` for the adapter itself)."""
    return TelegramBot(service, config, forward).app


def adapter(app: Application) -> TelegramBot:
    return _ADAPTERS[app]


async def start(app: Application) -> None:
    """initialize + start + long polling (or webhook): returns once running; no loop ownership."""
    await adapter(app).start()


async def stop(app: Application) -> None:
    await adapter(app).stop()


async def send(app: Application, outgoing: Outgoing, **kwargs: Any) -> list[Message]:
    return await adapter(app).send(outgoing, **kwargs)

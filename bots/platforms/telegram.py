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

Updates of different chats are handled concurrently, those of one chat in order, under Telegram's
limits (bots.platforms.telegram_flow); a direct reply that cannot be sent goes to `fallback` (the
durable outbox in `pbem serve`). A webhook is refused without its secret (`TelegramConfig.check`).

The parts: this module (the bot: lifecycle and incoming updates; `build`, `start`, `stop`,
`send`), `bots.platforms.telegram_send` (the sending and its error mapping),
`bots.platforms.telegram_webhook` (webhook mode), `bots.platforms.telegram_text` (commands and
MarkdownV2) and `bots.platforms.telegram_config`; every name callers use is importable from here.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import os
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

# Opt in to PTB's future `timedelta` time attributes. Without it, merely constructing a
# `RetryAfter` (on a 429) emits a PTBDeprecationWarning, an error under `-W error`.
os.environ.setdefault("PTB_TIMEDELTA", "true")

from telegram import Message, Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from adjudicator.core.i18n import say, t
from app.i18n import language
from app.messages import Incoming, Outgoing
from bots.platforms.common import hosts_a_game
from bots.platforms.telegram_checks import check_at_startup, note_for, set_menu
from bots.platforms.telegram_config import TelegramConfig, WebhookWithoutSecret, api_urls
from bots.platforms.telegram_flow import PerChatProcessor, rate_limiter
from bots.platforms.telegram_send import (
    CAPTION_LIMIT,
    PLATFORM,
    PRIVATE_NOTICE,
    TelegramSender,
)
from bots.platforms.telegram_taps import TelegramTaps
from bots.platforms.telegram_text import (
    ORDER_COMMANDS,
    SHORT_COMMANDS,
    mention_v2,
    order_text,
    parse_command,
    to_markdown_v2,
    wants_full_resolution,
)
from bots.platforms.telegram_webhook import register_webhook, serve_webhook

log = logging.getLogger(__name__)

FAILURE_TEXT = "Sorry, something went wrong on my side; please try again."


def failure_text(locale: str | None) -> str:
    """FAILURE_TEXT in the user's client language (the service, and so his setting, failed)."""
    return say(t("Sorry, something went wrong on my side; please try again."), language(locale))


__all__ = [
    "CAPTION_LIMIT",
    "FAILURE_TEXT",
    "ORDER_COMMANDS",
    "PLATFORM",
    "PRIVATE_NOTICE",
    "SHORT_COMMANDS",
    "ChatService",
    "TelegramBot",
    "TelegramConfig",
    "WebhookWithoutSecret",
    "adapter",
    "api_urls",
    "build",
    "mention_v2",
    "order_text",
    "parse_command",
    "send",
    "start",
    "stop",
    "to_markdown_v2",
    "wants_full_resolution",
]


class ChatService(Protocol):
    def handle(self, incoming: Incoming) -> list[Outgoing]: ...


def text_with_ids(message: Message) -> str:
    """The text with each text mention (a user with no @username, picked from the member list)
    written `telegram:<id>`: how `seat <SIDE> <USER>` names that user."""
    text = message.text or ""
    spans = [e for e in message.entities or () if e.type == "text_mention" and e.user]
    raw = text.encode("utf-16-le", "surrogatepass")  # offsets count UTF-16 code units; a lone
    # surrogate is data too (the chat service replaces it), never an error here
    for e in sorted(spans, key=lambda e: -e.offset):
        uid = f"telegram:{e.user.id}".encode("utf-16-le")  # type: ignore[union-attr]
        raw = raw[: 2 * e.offset] + uid + raw[2 * (e.offset + e.length) :]
    return raw.decode("utf-16-le", "surrogatepass")


@dataclass(eq=False)
class TelegramBot(TelegramSender):
    """The adapter: `app` is the real PTB Application, `send` (TelegramSender) the way out."""

    service: ChatService
    config: TelegramConfig
    # Outgoing for other platforms (a game linked to a Discord channel): handed to this callback
    # when set (the Discord adapter's send, later the outbox), else logged and dropped.
    forward: Callable[[Outgoing], Awaitable[Any]] | None = None
    # the (chat id, game) pairs hosting a game, whose rights the bot checks at startup
    chats: Callable[[], list[tuple[str, str]]] | None = None
    # a direct reply that could not be sent (network, 5xx, 403, a 429 past its retries) is
    # handed to this callback (the durable outbox in `pbem serve`): (outgoing, key, parts_sent,
    # fallback_chat_id, as_document). None: logged and dropped.
    fallback: Callable[[Outgoing, str, int, str | None, bool], Awaitable[Any]] | None = None
    app: Application = field(init=False)
    startup_notes: list[str] = field(init=False, default_factory=list)
    _names: dict[str, str] = field(init=False, default_factory=dict)  # user id -> display name
    _migrated: dict[str, str] = field(init=False, default_factory=dict)  # old chat -> new chat
    _webhook_runner: Any = field(init=False, default=None)
    keyboards: TelegramTaps = field(init=False)  # buttons, presses, prompts (telegram_taps.py)

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
        if cfg.concurrent:  # chats at once, each chat in order (telegram_flow.py)
            builder = builder.concurrent_updates(PerChatProcessor())
        if cfg.rate_limit:
            builder = builder.rate_limiter(rate_limiter())
        self.app = builder.build()
        self.keyboards = TelegramTaps(self)
        self.app.add_handlers(self.keyboards.handlers(), group=-1)  # before those below
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
        self.config.check()  # a webhook without its secret is refused before any call
        try:
            await self.app.initialize()  # getMe: the bot's username, for /cmd@bot routing
            await self.app.start()
            await set_menu(self.app)  # the command menu Telegram offers after "/"
            if self.config.webhook_url:
                await self._start_webhook()
            else:
                assert self.app.updater is not None
                await self.app.updater.start_polling(
                    timeout=dtm.timedelta(seconds=self.config.poll_timeout),
                    allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY],
                    drop_pending_updates=False,  # orders sent while we were down still count
                )
        except BaseException:
            await self.stop()
            raise
        log.info("telegram bot @%s started", self.app.bot.username)
        try:  # a check that fails must not stop the bot
            chats = await asyncio.to_thread(self.chats) if self.chats is not None else []
            self.startup_notes = await check_at_startup(self.app, chats)
        except Exception:
            log.warning("telegram: the check of the bot's rights failed", exc_info=True)

    async def stop(self) -> None:
        """Stop polling (or the webhook), the application, its HTTP clients; each step runs even
        when one before it fails (a dead bot, e.g. after a revoked token, fails some)."""
        try:
            if self.app.updater is not None and self.app.updater.running:
                await self.app.updater.stop()
        except Exception:
            log.warning("telegram: stopping the updater failed", exc_info=True)
        if self._webhook_runner is not None:
            await self._webhook_runner.cleanup()
            self._webhook_runner = None
        try:
            if self.app.running:
                await self.app.stop()
            await self.app.shutdown()
        except Exception:
            log.warning("telegram: stopping the application failed", exc_info=True)
        # after a failed initialize (a refused token) PTB leaves its HTTP clients open
        for request in getattr(self.app.bot, "_request", ()):
            await request.shutdown()

    def polling(self) -> asyncio.Task[Any] | None:
        """The updater's polling task (None in webhook mode). PTB ends it with `InvalidToken`
        when the token is revoked while polling, and leaves the rest of the bot running: the
        supervisor of `pbem serve` watches it (bots/supervise.py)."""
        task = getattr(self.app.updater, "_Updater__polling_task", None)
        return task if isinstance(task, asyncio.Task) else None

    def connected(self) -> bool:
        if not self.app.running:
            return False
        task = self.polling()
        return self.config.webhook_url is not None or (task is not None and not task.done())

    async def _start_webhook(self) -> None:
        self._webhook_runner = await serve_webhook(self.app, self.config)  # stop() cleans it up
        await register_webhook(self.app, self.config)

    # ---- incoming

    async def _on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.text is None:
            return
        parsed = parse_command(text_with_ids(message), self.app.bot.username)
        if parsed is None:  # "/cmd@otherbot": not for us
            return
        if parsed == ("start", "") and message.chat.type == message.chat.PRIVATE:
            # Telegram's "Start" button in a new private chat (what the notice asks for),
            # not the game's `start`
            parsed = ("help", "")
        await self._dispatch(update, order_text(*parsed))

    async def _on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        if update.message is not None and update.message.text:
            await self._dispatch(update, text_with_ids(update.message).strip())

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
            locale=user.language_code,  # the user's client language (IETF tag), if Telegram gives it
        )
        self._names[incoming.user_id] = incoming.user_name
        try:
            replies = await asyncio.to_thread(self.service.handle, incoming)
        except Exception:
            log.exception("the service failed on %s", incoming.message_id)
            replies = [
                Outgoing(
                    PLATFORM,
                    incoming.chat_id,
                    failure_text(incoming.locale),
                    reply_to=incoming.message_id,
                )
            ]
        full = wants_full_resolution(text)
        for n, out in enumerate(replies):
            try:
                if out.platform != PLATFORM:
                    await self._forward(out)
                else:
                    await self.send(out, fallback_chat_id=incoming.chat_id, as_document=full)
            except Exception as exc:  # noqa: BLE001 - every failure: the outbox retries
                key = f"reply:{incoming.message_id}:{n}"
                await self._reply_later(out, key, exc, incoming.chat_id, full)
        if not incoming.private and hosts_a_game(text):
            await self._check_rights(incoming.chat_id)

    async def _reply_later(
        self, out: Outgoing, key: str, exc: Exception, chat_id: str, full: bool
    ) -> None:
        """A direct reply that failed: to the durable outbox, which retries it (from the part
        that failed), so that the answer to an applied order is never lost."""
        if self.fallback is None or out.platform != PLATFORM:
            log.error("could not deliver %s: %s", key, exc)
            return
        parts = getattr(exc, "parts_sent", 0) or 0
        log.warning("telegram: %s not delivered (%s); handed to the outbox", key, exc)
        try:
            await self.fallback(out, key, parts, chat_id, full)
        except Exception:
            log.exception("could not hand %s to the outbox", key)

    async def _check_rights(self, chat_id: str) -> None:
        """After `new` or `link CODE` in a group: what the bot may not do there, logged, and
        said in the group when it may still send messages."""
        found = await note_for(self.app, int(chat_id))
        if found is None:
            return
        note, may_post = found
        log.warning("telegram: group %s: %s", chat_id, note)
        if not may_post:
            return
        try:
            await self.send(Outgoing(PLATFORM, chat_id, note))
        except Exception:
            log.exception("could not tell group %s what the bot may not do", chat_id)

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

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("telegram handler error", exc_info=context.error)


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

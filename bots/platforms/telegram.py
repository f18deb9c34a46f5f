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

Updates arrive by **long polling** by default (nothing to expose; one process per token: a second
poller gets 409 Conflict, bots.platforms.telegram_poll), or by **webhook** (`webhook_url`, env
TELEGRAM_WEBHOOK_URL: Telegram pushes each update to a public HTTPS endpoint served by
bots.platforms.telegram_webhook). `TELEGRAM_BASE_URL` points at a self-hosted Bot API server.

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
import functools
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
    ApplicationBuilder,
    ChatMemberHandler,
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
from bots.platforms.telegram_config import (
    TelegramApp,
    TelegramAppBuilder,
    TelegramConfig,
    WebhookWithoutSecret,
    api_urls,
)
from bots.platforms.telegram_flow import PerChatProcessor, rate_limiter
from bots.platforms.telegram_members import on_my_chat_member
from bots.platforms.telegram_poll import UPDATES, PollWatch
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
    text_with_ids,
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
    # fallback_chat_id, as_document, the error: a 429's wait in it). None: logged and dropped.
    fallback: Callable[..., Awaitable[Any]] | None = None
    bot_back: Callable[[str], Any] | None = None  # added to a group again (telegram_members)
    app: TelegramApp = field(init=False)
    poll: PollWatch = field(init=False, default_factory=PollWatch)  # 409s (telegram_poll.py)
    startup_notes: list[str] = field(init=False, default_factory=list)
    _names: dict[str, str] = field(init=False, default_factory=dict)  # user id -> display name
    _migrated: dict[str, str] = field(init=False, default_factory=dict)  # old chat -> new chat
    _webhook_runner: Any = field(init=False, default=None)
    keyboards: TelegramTaps = field(init=False)  # buttons, presses, prompts (telegram_taps.py)

    def __post_init__(self) -> None:
        # httpx logs every request URL at INFO, and the URL holds the token.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        cfg = self.config
        builder: TelegramAppBuilder = (
            ApplicationBuilder()
            .token(cfg.token)
            .job_queue(None)
            .read_timeout(cfg.request_timeout)
            .write_timeout(cfg.request_timeout)
            .media_write_timeout(cfg.request_timeout)
            .get_updates_request(self.poll.request(cfg.poll_timeout + 10))
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
        member = functools.partial(on_my_chat_member, self)
        self.app.add_handler(ChatMemberHandler(member, ChatMemberHandler.MY_CHAT_MEMBER))
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
                    allowed_updates=UPDATES,
                    drop_pending_updates=False,  # orders sent while we were down still count
                    error_callback=self.poll.on_error,
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
                self.poll.before_stop(self.app.updater)
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
        polls = task is not None and not task.done() and self.poll.conflict is None
        return self.config.webhook_url is not None or polls

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
        if parsed[0] == "start" and message.chat.type == message.chat.PRIVATE:
            # Telegram's "Start" button in a new private chat (what the notice asks for), or a
            # link whose payload is no tap token (those are the taps' own): the greeting of
            # the first contact (bots/chat_private.py), not the game's `start`
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
        try:  # the error: after a 429 the outbox waits its retry_after
            await self.fallback(out, key, parts, chat_id, full, exc)
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


_ADAPTERS: weakref.WeakKeyDictionary[TelegramApp, TelegramBot] = weakref.WeakKeyDictionary()


def build(
    service: ChatService,
    config: TelegramConfig,
    forward: Callable[[Outgoing], Awaitable[Any]] | None = None,
) -> TelegramApp:
    """The PTB Application wired to `service` (see `TelegramBot` for the adapter itself)."""
    return TelegramBot(service, config, forward).app


def adapter(app: TelegramApp) -> TelegramBot:
    return _ADAPTERS[app]


async def start(app: TelegramApp) -> None:
    """initialize + start + long polling (or webhook): returns once running; no loop ownership."""
    await adapter(app).start()


async def stop(app: TelegramApp) -> None:
    await adapter(app).stop()


async def send(app: TelegramApp, outgoing: Outgoing, **kwargs: Any) -> list[Message]:
    return await adapter(app).send(outgoing, **kwargs)

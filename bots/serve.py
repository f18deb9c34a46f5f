"""`pbem serve`: the chat bots, the deadline scheduler and the outbox sender in one event loop.

- DISCORD_TOKEN set: the Discord bot (DISCORD_SHARDED=1: AutoShardedBot, all shards here).
- TELEGRAM_TOKEN set: the Telegram bot (long polling; TELEGRAM_WEBHOOK_URL: webhook mode;
  TELEGRAM_BASE_URL: a self-hosted Bot API server).
- Both: both, in this one process and loop.
- Neither: the local terminal front end (bots/serve_terminal.py) on the default SQLite file (or
  PBEM_DB): it reads chat lines from standard input as one local user in one local chat
  ("terminal", "local"), writes every answer and post to standard output as it comes, and exits
  0 at the end of input, so it can be scripted:

      printf 'new <GAME>\\njoin <SIDE>\\nas bob: join <SIDE>\\nstart\\n' | pbem serve

  One person can play both sides: `as NAME: <text>` says one line as another local user (who
  then may take the other side), `as NAME` switches the speaker for the lines that follow
  (`as you` switches back); in a sandbox game (`new hells-gate sandbox`) one user may also
  `join` both sides. Private answers (options, previews) are shown marked "[private to NAME]".

Always: the scheduler (bots/scheduler.py: deadlines, reminders, outages; one leader per
PostgreSQL database) and the outbox sender (bots/outbox.py: every post of a game, retried).
Logs are structured (key=value lines, or JSON lines with PBEM_LOG_FORMAT=json) on standard error,
and every secret of the configuration (tokens, the webhook secret, a database password) is
replaced by *** wherever it would appear, tracebacks included.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
import signal
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import IO, Any

from app.images import renderer
from app.messages import Outgoing
from app.service import GameService
from bots import outbox
from bots.chat import ChatService
from bots.clock import Clock, SystemClock
from bots.config import Config
from bots.scheduler import Scheduler
from bots.serve_terminal import (
    LOCAL_CHAT,
    TERMINAL,
    Terminal,
    TerminalPosts,
    local_user_id,
    terminal_loop,
)
from bots.startup import StartFailed, explain
from storage import Store, chat_store

__all__ = [
    "LOCAL_CHAT",
    "TERMINAL",
    "JsonFormatter",
    "KeyValueFormatter",
    "Terminal",
    "local_user_id",
    "run",
    "serve",
    "setup_logging",
]

log = logging.getLogger("pbem.serve")

_TELEGRAM_TOKEN = re.compile(r"\b\d{5,}:[A-Za-z0-9_-]{30,}\b")
DB_CHECK = "PBEM_DB (or --db): its directory must exist and be writable, a server must be up"
DISCORD_CONNECT_WAIT = 30.0  # seconds a start waits for the gateway before running on anyway
QUIET_LOGGERS = ("apscheduler", "httpx", "httpcore", "discord.gateway", "discord.client")


# -- logging
class _Redactor:
    def __init__(self, secrets: list[str]):
        self.secrets = sorted(set(secrets), key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return _TELEGRAM_TOKEN.sub("***", text)  # any token in a Bot API URL, configured or not


class KeyValueFormatter(logging.Formatter):
    """ts=... level=INFO logger=bots.scheduler msg="..." (exc="..." on errors), redacted."""

    def __init__(self, redact: Callable[[str], str]):
        super().__init__()
        self.redact = redact

    def fields(self, record: logging.LogRecord) -> dict[str, str]:
        out = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return {k: self.redact(v) for k, v in out.items()}

    def format(self, record: logging.LogRecord) -> str:
        parts = []
        for key, value in self.fields(record).items():
            if key in ("msg", "exc") or not re.fullmatch(r"[\w.:+-]+", value):
                value = json.dumps(value, ensure_ascii=False)
            parts.append(f"{key}={value}")
        return " ".join(parts)


class JsonFormatter(KeyValueFormatter):
    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(self.fields(record), ensure_ascii=False)


def setup_logging(config: Config, *, terminal: bool, stream: IO[str] | None = None) -> None:
    level_name = (config.get("PBEM_LOG_LEVEL") or ("WARNING" if terminal else "INFO")).upper()
    level = logging.getLevelName(level_name)
    if not isinstance(level, int):
        level = logging.INFO
    redact = _Redactor(config.secrets())
    formatter = (JsonFormatter if config.log_format == "json" else KeyValueFormatter)(redact)
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in QUIET_LOGGERS:  # chatty at INFO (and httpx logs URLs, which hold the token)
        logging.getLogger(name).setLevel(max(level, logging.WARNING))


# -- the service
async def serve(
    config: Config,
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    clock: Clock | None = None,
    stop: asyncio.Event | None = None,
    ready: Callable[[dict], None] | None = None,
) -> int:
    """Run until `stop` is set, SIGINT/SIGTERM, or (terminal) the end of input. Exit code."""
    clock = clock or SystemClock()
    stop = stop or asyncio.Event()
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    bots_wanted = bool(config.discord_token or config.telegram_token)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)

    try:
        store = await asyncio.to_thread(Store, config.db)
    except Exception as exc:
        log.error(
            "serve failed: %s",
            explain(StartFailed(f"could not open the database {config.db}", exc, DB_CHECK)),
        )
        log.debug("serve failed: the traceback", exc_info=True)
        _remove_signal_handlers(loop)
        return 1
    log.info("start mode=%s db=%s", "bots" if bots_wanted else "terminal", _db_label(store))
    started = _Run(config, store, clock, stop)
    code = 0
    try:
        await started.main(stdin, stdout, ready)
    except Exception as exc:  # one line on what failed and what to check; the traceback at DEBUG
        log.error("serve failed: %s", explain(exc))
        log.debug("serve failed: the traceback", exc_info=True)
        code = 1
    finally:
        await started.shutdown()
        _remove_signal_handlers(loop)
        log.info("stopped code=%d", code)
    return code


def _remove_signal_handlers(loop: asyncio.AbstractEventLoop) -> None:
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.remove_signal_handler(sig)


class _Run:
    """One run of the service: what it started, stopped again in the reverse order."""

    def __init__(self, config: Config, store, clock: Clock, stop: asyncio.Event):
        self.config, self.store, self.clock, self.stop = config, store, clock, stop
        service = GameService(store)
        self.chat = ChatService(service, clock=clock)
        self.running: list[tuple[str, Callable[[], Any]]] = []  # (what, async stop) in start order
        self.tasks: list[asyncio.Task] = []
        self.scheduler = Scheduler(
            service,
            store,
            clock,
            tick_seconds=config.tick_seconds,
            retry_seconds=config.leader_retry_seconds,
            outage_after=timedelta(seconds=config.outage_seconds),
        )

    async def main(
        self, stdin: IO[str], stdout: IO[str], ready: Callable[[dict], None] | None
    ) -> None:
        """Start the bots (or the terminal), the outbox sender and the scheduler; run them."""
        config, store = self.config, self.store
        senders: dict[str, Callable[..., Any]] = {}
        if config.telegram_token:
            try:
                senders["telegram"] = await _start_telegram(config, self.chat, store, self.running)
            except Exception as exc:
                raise StartFailed("the Telegram bot did not start", exc) from exc
        if config.discord_token:
            try:
                senders["discord"] = await _start_discord(config, self.chat, store, self.running)
            except Exception as exc:
                raise StartFailed("the Discord bot did not start", exc) from exc
        terminal = None
        if not (config.discord_token or config.telegram_token):
            terminal = Terminal(
                self.chat,
                store,
                stdout,
                user=config.get("PBEM_TERMINAL_USER") or "you",
                images=config.get("PBEM_TERMINAL_IMAGES"),
            )
        if senders:
            sender = outbox.run_sender(
                store, senders, self.stop, self.clock, renderer=renderer(store)
            )
            self.tasks.append(asyncio.create_task(sender, name="outbox"))
        await self.scheduler.start()
        self.running.append(("scheduler", self.scheduler.stop))
        if ready is not None:
            ready(
                {"scheduler": self.scheduler, "chat": self.chat, "store": store, "senders": senders}
            )
        if terminal is not None:
            await self._terminal(terminal, stdin)
        else:
            log.info("ready bots=%s", ",".join(sorted(senders)))
            await self.stop.wait()

    async def _terminal(self, terminal: Terminal, stdin: IO[str]) -> None:
        """The terminal front end until the end of input, its posts printed as they come."""
        posts = TerminalPosts(self.store, terminal, self.clock)
        self.scheduler.on_posted = lambda _: posts.wake.set()
        self.tasks.append(asyncio.create_task(posts.run(self.stop), name="terminal-posts"))
        await posts.flush()  # posts left from an earlier run
        await terminal_loop(terminal, posts.flush, stdin, self.stop)
        await posts.flush()
        self.stop.set()

    async def shutdown(self) -> None:
        """Stop what was started, newest first; wait for the tasks; close the store."""
        self.stop.set()
        for what, stopper in reversed(self.running):
            try:
                await stopper()
            except Exception:
                log.exception("stopping %s failed", what)
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)
        await asyncio.to_thread(self.store.close)


def _db_label(store) -> str:
    return store.engine.url.render_as_string(hide_password=True)


# The platform adapters are imported only when their token is set: the terminal front end (and a
# process with one bot) never loads the other platform's library.
async def _start_telegram(config: Config, chat, store, running: list) -> Callable[..., Any]:
    from bots.platforms.telegram import TelegramBot, TelegramConfig

    async def forward(out: Outgoing) -> None:  # an answer for another platform: the outbox
        await asyncio.to_thread(outbox.enqueue, store, None, [out])

    bot = TelegramBot(
        chat,
        TelegramConfig.from_env(config.env()),
        forward=forward,
        chats=functools.partial(chat_store.platform_chats, store, "telegram"),
    )
    await bot.start()
    running.append(("telegram", bot.stop))
    mode = "webhook" if config.get("TELEGRAM_WEBHOOK_URL") else "polling"
    log.info("telegram started mode=%s bot=@%s", mode, bot.app.bot.username)
    return bot.send


async def _start_discord(config: Config, chat, store, running: list) -> Callable[..., Any]:
    from bots.platforms import discord as dc

    guild = config.get("DISCORD_SYNC_GUILD")
    bot = dc.build_bot(
        chat,
        sharded=config.flag("DISCORD_SHARDED"),
        prefix=config.get("DISCORD_PREFIX") or "!",
        message_content=config.flag("DISCORD_MESSAGE_CONTENT"),
        sync_guild=int(guild) if guild else None,
        chats=functools.partial(chat_store.platform_chats, store, "discord"),
    )
    runner = await dc.start(bot, config.discord_token or "")
    running.append(("discord", functools.partial(dc.stop, bot)))
    # A refusal at connection (an intent not enabled, a gateway that will not have the bot)
    # ends the connect task at once: wait a little for it, so that it fails the start.
    ready = asyncio.ensure_future(bot.wait_until_ready())
    await asyncio.wait({ready, runner}, timeout=DISCORD_CONNECT_WAIT, return_when="FIRST_COMPLETED")
    ready.cancel()
    if runner.done() and not runner.cancelled() and runner.exception() is not None:
        raise runner.exception()  # type: ignore[misc]
    log.info("discord started sharded=%s", config.flag("DISCORD_SHARDED"))
    return functools.partial(dc.send_outgoing, bot)


def run(config: Config, **kw) -> int:
    """The blocking entry point of `pbem serve`."""
    setup_logging(config, terminal=not (config.discord_token or config.telegram_token))
    return asyncio.run(serve(config, **kw))

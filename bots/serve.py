"""`pbem serve`: the chat bots, the deadline scheduler and the outbox sender in one event loop.

- DISCORD_TOKEN set: the Discord bot (DISCORD_SHARDED=1: AutoShardedBot, all shards here).
- TELEGRAM_TOKEN set: the Telegram bot (long polling; TELEGRAM_WEBHOOK_URL: webhook mode;
  TELEGRAM_BASE_URL: a self-hosted Bot API server).
- Both: both, in this one process and loop.
- Neither: the local terminal front end on the default SQLite file (or PBEM_DB): it reads chat
  lines from standard input as one local user in one local chat ("terminal", "local"), writes
  every answer and post to standard output as it comes, and exits 0 at the end of input, so it
  can be scripted:

      printf 'new hells-gate\\njoin soviet\\nas bob: join german\\nstart\\n' | pbem serve

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
import hashlib
import json
import logging
import re
import signal
import sys
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, Any

from bots.clock import Clock, SystemClock
from bots.config import Config
from bots.messages import Incoming, Outgoing

log = logging.getLogger("pbem.serve")

TERMINAL = "terminal"
LOCAL_CHAT = "local"
_AS = re.compile(r"^as\s+([A-Za-z][A-Za-z0-9_-]{0,31})\s*(?::\s*(.*))?$", re.IGNORECASE | re.DOTALL)
_TELEGRAM_TOKEN = re.compile(r"\b\d{5,}:[A-Za-z0-9_-]{30,}\b")
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


# -- the terminal front end
def local_user_id(name: str) -> str:
    """A stable numeric id for a local user name (seats outlive the process)."""
    return str(int(hashlib.sha256(name.lower().encode()).hexdigest()[:12], 16))


class Terminal:
    """One local chat on standard input/output, through the chat service like any platform."""

    def __init__(self, chat, store, out: IO[str], *, user: str = "you", images: str | None = None):
        self.chat = chat
        self.store = store
        self.out = out
        self.user = user
        self.images = Path(images) if images else None
        self.session = uuid.uuid4().hex[:12]
        self.count = 0
        self._names: dict[str, str] = {}
        self._print_lock = threading.Lock()

    # -- in
    def incoming(self, line: str) -> Incoming | None:
        """The Incoming of one input line (None: a line only for the terminal itself)."""
        text, user = line.strip(), self.user
        m = _AS.match(text)
        if m:
            if m.group(2) is None:  # `as NAME`: the speaker from now on
                self.user = m.group(1)
                self.write(f"(you now speak as {self.user})")
                return None
            user, text = m.group(1), m.group(2).strip()
        if not text:
            return None
        self.count += 1
        uid = local_user_id(user)
        self._names[uid] = user
        return Incoming(
            platform=TERMINAL,
            chat_id=LOCAL_CHAT,
            user_id=uid,
            user_name=user,
            text=text,
            message_id=f"term:{self.session}:{self.count}",
        )

    # -- out
    def write(self, text: str) -> None:
        with self._print_lock:
            self.out.write(text.rstrip("\n") + "\n")
            self.out.flush()

    def _name(self, uid: str | None) -> str:
        if uid is None:
            return "?"
        if uid not in self._names:
            from storage import chat_store

            found = chat_store.user_names(self.store, [f"{TERMINAL}:{uid}"])
            self._names[uid] = found.get(f"{TERMINAL}:{uid}", uid)
        return self._names[uid]

    def show(self, out: Outgoing) -> None:
        lines = []
        if out.mentions:
            lines.append(" ".join(f"@{self._name(u)}" for u in out.mentions))
        if out.text:
            lines.append(out.text)
        if out.image is not None:
            lines.append(self._image(out))
        text = "\n".join(lines)
        if out.private:
            text = "\n".join(f"[private to {self._name(out.user_id)}] {ln}" for ln in lines)
        self.write(text)

    def _image(self, out: Outgoing) -> str:
        size = f"{len(out.image or b'') // 1024} KiB"
        if self.images is None:
            return f"[map image {out.image_name}, {size}; set PBEM_TERMINAL_IMAGES=DIR to keep it]"
        self.images.mkdir(parents=True, exist_ok=True)
        path = self.images / Path(out.image_name).name
        path.write_bytes(out.image or b"")
        return f"[map image: {path} ({size})]"

    async def send(self, outgoing: Outgoing, **_: Any) -> None:
        """The outbox's sender for the terminal: print the post."""
        self.show(outgoing)


def _read_lines(stream: IO[str], loop: asyncio.AbstractEventLoop, queue: asyncio.Queue) -> None:
    """Feed standard input to the loop from a daemon thread (a blocked read never holds up the
    process's exit); None marks the end of input."""
    try:
        for line in iter(stream.readline, ""):
            loop.call_soon_threadsafe(queue.put_nowait, line)
    except (OSError, ValueError):  # closed under us
        pass
    finally:
        with contextlib.suppress(RuntimeError):  # the loop closed first
            loop.call_soon_threadsafe(queue.put_nowait, None)


async def _terminal_loop(terminal: Terminal, flush, stdin: IO[str], stop: asyncio.Event) -> None:
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    threading.Thread(
        target=_read_lines, args=(stdin, loop, queue), name="pbem-stdin", daemon=True
    ).start()
    interactive = stdin.isatty()
    if interactive:
        terminal.write(
            "pbem: a local game chat. Type `help`; `new hells-gate` starts a game; `as NAME: ...` "
            "speaks as another local player. End with Ctrl-D."
        )
    while not stop.is_set():
        if interactive:
            terminal.out.write(f"{terminal.user}> ")
            terminal.out.flush()
        getter = asyncio.ensure_future(queue.get())
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if not getter.done():
            getter.cancel()
            return
        line = getter.result()
        if line is None:
            return
        incoming = terminal.incoming(line)
        if incoming is None:
            continue
        try:
            outs = await asyncio.to_thread(terminal.chat.handle, incoming)
        except Exception:
            log.exception("the chat service failed on a terminal line")
            terminal.write("Sorry, something went wrong on my side; please try again.")
            continue
        for out in outs:
            terminal.show(out)
        await flush()  # the game's posts (after a phase ...) follow their cause


class _Ahead:
    def __init__(self, clock: Clock, lead: timedelta):
        self.clock, self.lead = clock, lead

    def now(self) -> datetime:
        return self.clock.now() + self.lead


class _TerminalPosts:
    """The outbox rows for the terminal, printed in order: after each answered line, and every
    second for the scheduler's posts (reminders, deadlines)."""

    def __init__(self, store, terminal: Terminal, clock: Clock):
        from bots.outbox import OutboxSender

        # The terminal prints a line's answer itself before the posts it caused, so the short
        # hold the outbox gives such posts (for the adapters' in-place replies) is not waited
        # for: the sender's clock runs an hour ahead.
        ahead = _Ahead(clock, timedelta(hours=1))
        self.sender = OutboxSender(store, {TERMINAL: terminal.send}, ahead, owner="terminal")
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()  # set when the scheduler posted something

    async def flush(self) -> None:
        async with self.lock:
            for _ in range(10_000):  # a lane at a time, one row after the other
                await self.sender.step()
                tasks = [task for _, task in self.sender.inflight.values()]
                if not tasks:
                    return
                await asyncio.gather(*tasks, return_exceptions=True)

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            waiters = [asyncio.ensure_future(e.wait()) for e in (stop, self.wake)]
            await asyncio.wait(waiters, timeout=1.0, return_when=asyncio.FIRST_COMPLETED)
            for waiter in waiters:
                waiter.cancel()
            self.wake.clear()
            try:
                await self.flush()
            except Exception:
                log.exception("printing the terminal's posts failed")


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
    from bots import outbox
    from bots.chat import ChatService
    from bots.scheduler import Scheduler
    from bots.service import GameService
    from storage import Store

    clock = clock or SystemClock()
    stop = stop or asyncio.Event()
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    bots_wanted = bool(config.discord_token or config.telegram_token)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)

    store = await asyncio.to_thread(Store, config.db)
    log.info("start mode=%s db=%s", "bots" if bots_wanted else "terminal", _db_label(store))
    service = GameService(store)
    chat = ChatService(service, clock=clock)
    running: list[tuple[str, Callable[[], Any]]] = []  # (what, async stop) in start order
    tasks: list[asyncio.Task] = []
    code = 0
    scheduler = Scheduler(
        service,
        store,
        clock,
        tick_seconds=config.tick_seconds,
        retry_seconds=config.leader_retry_seconds,
        outage_after=timedelta(seconds=config.outage_seconds),
        announce=chat.announce,
    )
    try:
        senders: dict[str, Callable[..., Any]] = {}
        if config.telegram_token:
            senders["telegram"] = await _start_telegram(config, chat, store, running)
        if config.discord_token:
            senders["discord"] = await _start_discord(config, chat, running)
        terminal = None
        if not bots_wanted:
            terminal = Terminal(
                chat,
                store,
                stdout,
                user=config.get("PBEM_TERMINAL_USER") or "you",
                images=config.get("PBEM_TERMINAL_IMAGES"),
            )
        if senders:
            tasks.append(
                asyncio.create_task(outbox.run_sender(store, senders, stop, clock), name="outbox")
            )
        await scheduler.start()
        running.append(("scheduler", scheduler.stop))
        if ready is not None:
            ready({"scheduler": scheduler, "chat": chat, "store": store, "senders": senders})
        if terminal is not None:
            posts = _TerminalPosts(store, terminal, clock)
            scheduler.on_posted = lambda _: posts.wake.set()
            tasks.append(asyncio.create_task(posts.run(stop), name="terminal-posts"))
            await posts.flush()  # posts left from an earlier run
            await _terminal_loop(terminal, posts.flush, stdin, stop)
            await posts.flush()
            stop.set()
        else:
            log.info("ready bots=%s", ",".join(sorted(senders)))
            await stop.wait()
    except Exception:
        log.exception("serve failed")
        code = 1
    finally:
        stop.set()
        for what, stopper in reversed(running):
            try:
                await stopper()
            except Exception:
                log.exception("stopping %s failed", what)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(task, 10)
        await asyncio.to_thread(store.close)
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)
        log.info("stopped code=%d", code)
    return code


def _db_label(store) -> str:
    return store.engine.url.render_as_string(hide_password=True)


async def _start_telegram(config: Config, chat, store, running: list) -> Callable[..., Any]:
    from bots import outbox
    from bots.platforms.telegram import TelegramBot, TelegramConfig

    async def forward(out: Outgoing) -> None:  # an answer for another platform: the outbox
        await asyncio.to_thread(outbox.enqueue, store, None, [out])

    bot = TelegramBot(chat, TelegramConfig.from_env(config.env()), forward=forward)
    await bot.start()
    running.append(("telegram", bot.stop))
    mode = "webhook" if config.get("TELEGRAM_WEBHOOK_URL") else "polling"
    log.info("telegram started mode=%s bot=@%s", mode, bot.app.bot.username)
    return bot.send


async def _start_discord(config: Config, chat, running: list) -> Callable[..., Any]:
    from bots.platforms import discord as dc

    guild = config.get("DISCORD_SYNC_GUILD")
    bot = dc.build_bot(
        chat,
        sharded=config.flag("DISCORD_SHARDED"),
        prefix=config.get("DISCORD_PREFIX") or "!",
        message_content=config.flag("DISCORD_MESSAGE_CONTENT"),
        sync_guild=int(guild) if guild else None,
    )
    await dc.start(bot, config.discord_token or "")
    running.append(("discord", functools.partial(dc.stop, bot)))
    log.info("discord started sharded=%s", config.flag("DISCORD_SHARDED"))
    return functools.partial(dc.send_outgoing, bot)


def run(config: Config, **kw) -> int:
    """The blocking entry point of `pbem serve`."""
    setup_logging(config, terminal=not (config.discord_token or config.telegram_token))
    return asyncio.run(serve(config, **kw))

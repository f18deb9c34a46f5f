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

Each bot starts on its own (bots/serve_bots.py): one that fails is told in one line and the
others go on; none left is exit 1 (so is a start the platform refuses just after it returned:
Telegram's 409 Conflict when another process polls the token). Each is then watched (bots/supervise.py): a bot that dies
(a fatal gateway close, a revoked token) is restarted with backoff, or stops `serve` with exit 1
(PBEM_ON_BOT_FAILURE). GET /healthz on 127.0.0.1:PBEM_HEALTH_PORT (bots/health.py, `pbem
health`) says which bots are connected, the outbox backlog and the scheduler leader.

Always: the scheduler (bots/scheduler.py: deadlines, reminders, outages; one leader per
PostgreSQL database), the outbox sender (bots/delivery.py: every post of a game, retried) and
the background check of every game's whole chain (bots/serve_watch.py, storage/watch.py).
Logs are structured (key=value lines, or JSON lines with PBEM_LOG_FORMAT=json) on standard error,
and every secret of the configuration (tokens, the webhook secret, a database password) is
replaced by *** wherever it would appear, tracebacks included.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import signal
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import IO, Any

from app.chain_watch import watch
from app.images import renderer
from app.service import GameService
from bots import delivery, opponent_runner, serve_bots
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
from bots.serve_watch import run_watch
from bots.startup import StartFailed, check_guards, explain, unreachable
from bots.supervise import Supervised
from storage import Store

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


class NoFrontEnd(Exception):
    """Every bot configured failed to start: `pbem serve` exits 1."""


# -- the service
async def serve(
    config: Config,
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    clock: Clock | None = None,
    stop: asyncio.Event | None = None,
    ready: Callable[[dict[str, Any]], None] | None = None,
    sleep: Callable[[float], Awaitable[Any]] | None = None,
) -> int:
    """Run until `stop` is set, SIGINT/SIGTERM, or (terminal) the end of input. Exit code.
    `sleep`: the bots' waits between starts (tests drive them without waiting)."""
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
    started.sleep = sleep
    await asyncio.to_thread(check_guards, store)  # a guard down: every game frozen, and told
    code = 0
    try:
        await started.main(stdin, stdout, ready)
    except NoFrontEnd as exc:  # each bot's own line is logged already
        log.error("serve failed: %s", exc)
        code = 1
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

    def __init__(self, config: Config, store: Store, clock: Clock, stop: asyncio.Event):
        self.config, self.store, self.clock, self.stop = config, store, clock, stop
        service = GameService(store, now=clock.now)  # the scheduler's Core: the same clock
        self.chat = ChatService(service, clock=clock)
        self.running: list[tuple[str, Callable[[], Any]]] = []  # (what, async stop) in start order
        self.fronts: dict[str, Supervised] = {}  # the bots that started, by platform
        self.fatal: str | None = None  # why a dead bot stopped serve (PBEM_ON_BOT_FAILURE=stop)
        self.health_port: int | None = None
        self.opponent: opponent_runner.OpponentRunner | None = None  # its moves (leader only)
        self.tasks: list[asyncio.Task[None]] = []
        self.sleep: Callable[[float], Awaitable[Any]] | None = None
        self.scheduler = Scheduler(
            service,
            store,
            clock,
            tick_seconds=config.tick_seconds,
            retry_seconds=config.leader_retry_seconds,
            outage_after=timedelta(seconds=config.outage_seconds),
            catch_up_beside=True,  # the bots answer while a long catch-up runs
        )

    async def main(
        self, stdin: IO[str], stdout: IO[str], ready: Callable[[dict[str, Any]], None] | None
    ) -> None:
        """Start the bots (or the terminal), the outbox sender and the scheduler; run them."""
        config, store = self.config, self.store
        await self._start_bots()
        if self.stop.is_set():  # stopped while waiting for a platform to answer
            return
        # a post's answer key is added as it is sent (bots/taps.py)
        senders = {name: self.chat.taps.sending(front.send) for name, front in self.fronts.items()}
        # what the bots started with (their adapters: tests and operators look at them)
        first = {n: f.current.send for n, f in self.fronts.items() if f.current is not None}
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
            sender = delivery.run_sender(
                store,
                senders,
                self.stop,
                self.clock,
                renderer=renderer(store),
            )
            self.tasks.append(asyncio.create_task(sender, name="outbox"))
        await self.scheduler.start()
        self.running.append(("scheduler", self.scheduler.stop))
        workers = int(config.number("PBEM_OPPONENT_WORKERS", int))
        if workers:  # the opponent's moves: only the scheduler's leader makes them
            self.opponent, stop_ai = await opponent_runner.serve(
                self.chat.core, self.scheduler, workers
            )
            self.running.append(("opponent", stop_ai))
        checks = run_watch(watch(store), self.stop, config.chain_check_seconds)
        self.tasks.append(asyncio.create_task(checks, name="chain-check"))
        if senders:
            await self._start_health()
        if ready is not None:
            ready(
                {
                    "scheduler": self.scheduler,
                    "chat": self.chat,
                    "store": store,
                    "senders": first,
                    "fronts": self.fronts,
                    "health_port": self.health_port,
                }
            )
        if terminal is not None:
            await self._terminal(terminal, stdin)
        else:
            log.info("ready bots=%s", ",".join(sorted(senders)))
            await self.stop.wait()
            if self.fatal is not None:
                raise NoFrontEnd(self.fatal)

    async def _start_bots(self) -> None:
        """Each bot started on its own: one that fails is told in one line (what failed, what
        to check) and the others go on; none left is a failed start. Each is then watched
        (bots/supervise.py: restarted with backoff, or `serve` stopped, as configured)."""
        config = self.config
        wanted = []
        if config.telegram_token:
            wanted.append(serve_bots.telegram_front(config, self.chat, self.store))
        if config.discord_token:
            wanted.append(serve_bots.discord_front(config, self.chat, self.store))
        failed = []
        for front in wanted:
            front.sleep = self.sleep
            try:  # the one bot waits for its platform; with several, the others go on meanwhile
                if not await front.first_start(self.stop, patient=len(wanted) == 1):
                    return
            except StartFailed as exc:
                if len(wanted) == 1:  # the one bot: its failure is serve's, one line
                    raise
                failed.append(explain(exc))
                log.debug("%s: the traceback", exc.what, exc_info=exc.cause)
                if not unreachable(exc.cause):
                    log.error("%s", failed[-1])
                    continue
                log.error("%s; next try in %gs", failed[-1], front.first_delay)
                front.state = "restarting"  # not reached: its watch starts it, with backoff
            self.fronts[front.platform] = front
            self.running.append((front.platform, front.close))
        if wanted and not self.fronts:
            raise NoFrontEnd("no front end is left: " + "; ".join(failed))
        for front in list(self.fronts.values()):  # once all started: a refusal sees the others
            watch = front.watch(self.stop, self._fatal, self._refused)
            self.tasks.append(asyncio.create_task(watch, name=f"watch-{front.platform}"))

    def _fatal(self, line: str) -> None:
        self.fatal = line
        self.stop.set()

    def _refused(self, front: Supervised, line: str) -> None:
        """A start the platform refused after it returned (a Telegram 409): as a failed start,
        one line, the others go on; none left stops serve (exit 1, that line)."""
        self.fronts.pop(front.platform, None)
        if not self.fronts:
            self._fatal(line)
            return
        log.error("%s", line)

    async def _start_health(self) -> None:
        port = self.config.health_port
        if port is None:
            return
        from bots import health

        def report() -> dict[str, Any]:
            return health.snapshot(self.fronts, self.store, self.scheduler, self.opponent)

        try:
            runner, self.health_port = await health.serve_health(port, report)
        except OSError as exc:  # one line; the bots serve on without it
            log.warning(
                "health: could not listen on 127.0.0.1:%d (%s); check PBEM_HEALTH_PORT", port, exc
            )
            return
        self.running.append(("health", runner.cleanup))
        log.info("health on http://127.0.0.1:%d/healthz", self.health_port)

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


def _db_label(store: Store) -> str:
    return store.engine.url.render_as_string(hide_password=True)


def run(config: Config, **kw: Any) -> int:
    """The blocking entry point of `pbem serve`."""
    setup_logging(config, terminal=not (config.discord_token or config.telegram_token))
    return asyncio.run(serve(config, **kw))

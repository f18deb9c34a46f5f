"""The chat bots of `pbem serve`, each watched: a bot that dies is restarted or stops `serve`.

A bot that dies after startup (a Discord gateway close 4004 / 4011 / 4014, which discord.py does
not reconnect; a Telegram token revoked while polling, after which PTB stops polling and leaves
the rest of the bot running) is reported in one line and then, as PBEM_ON_BOT_FAILURE says:

- `restart` (the default): started again after PBEM_RESTART_SECONDS, doubled after each failed
  start up to PBEM_RESTART_MAX_SECONDS; meanwhile the outbox keeps its posts (the bot's sender
  answers `RetryLater`) and `/healthz` shows the bot as restarting;
- `stop`: `pbem serve` stops and exits 1 (a process manager restarts it, or a host looks).

A start the platform refuses soon after it returned (`StartRefused`: Telegram's 409 Conflict
before the first update poll succeeded, another process polls the token) is a failed start,
whatever the policy: told in one line like any failed start, the bot stopped, and `serve` exits 1
when no other bot is left. A bot that runs but is not connected (a Discord gateway reconnecting,
a Telegram poll in conflict) says why in `Started.fault`: `/healthz` shows it (503).

Never a silent half-running process.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bots.platforms.common import RetryLater
from bots.startup import StartFailed, StartRefused, explain, unreachable

log = logging.getLogger("pbem.serve")

RESTART, STOP = "restart", "stop"
BOT_DOWN_WAIT = 15.0  # seconds an outbox row waits while its bot restarts (100 waits allowed)


@dataclass
class Started:
    """One started bot: its way out, how its death shows, how it stops, whether it is up."""

    send: Callable[..., Awaitable[Any]]
    died: Callable[[], Awaitable[BaseException | None]]  # returns when the bot is dead
    stop: Callable[[], Awaitable[Any]]
    connected: Callable[[], bool]
    label: str = ""  # for the log: "mode=polling bot=@name"
    # while running but not connected: (state, why), e.g. ("reconnecting", "the gateway ..."),
    # or None when the bot does not know why
    fault: Callable[[], tuple[str, str] | None] = lambda: None


@dataclass
class Supervised:
    """A platform's bot, started by `start()` (again after a death, when restarting)."""

    platform: str
    start: Callable[[], Awaitable[Started]]
    what: str  # "the Telegram bot"
    policy: str = RESTART
    first_delay: float = 5.0
    max_delay: float = 300.0
    current: Started | None = None
    state: str = "starting"  # starting, connected, restarting, stopped
    restarts: int = 0
    last_error: str | None = None
    _accepts: set[str] | None = field(default=None, repr=False)
    sleep: Callable[[float], Awaitable[Any]] | None = field(default=None, repr=False)  # tests

    # -- the outbox's sender for this platform, whichever bot runs now
    async def send(self, outgoing: Any, **kwargs: Any) -> Any:
        current = self.current
        if current is None:
            raise RetryLater(  # a wait, not a failure: the row keeps its attempts
                f"{self.what} is not running ({self.state}); retried later",
                retry_after=max(self.first_delay, BOT_DOWN_WAIT),
            )
        if self._accepts is not None:
            kwargs = {k: v for k, v in kwargs.items() if k in self._accepts}
        return await current.send(outgoing, **kwargs)

    def connected(self) -> bool:
        return self.current is not None and self.current.connected()

    def status(self) -> dict[str, Any]:
        state, error = self.state, self.last_error
        if state == "connected" and not self.connected():
            fault = self.current.fault() if self.current is not None else None
            state, error = fault or ("connecting", error)
        return {
            "connected": state == "connected",
            "state": state,
            "restarts": self.restarts,
            "last_error": error,
        }

    async def first_start(self, stop: asyncio.Event | None = None, patient: bool = True) -> bool:
        """The start at startup: raises StartFailed (one line) when it fails. A platform that
        cannot be reached (the network down at boot) is tried again while `patient`, the waits
        doubling from first_delay up to max_delay, a line each try: a refusal (a token, an
        intent) fails at once. False: `stop` was set meanwhile."""
        delay = self.first_delay
        while True:
            try:
                self._took(await self.start())
                return True
            except Exception as exc:
                self.state, self.last_error = "stopped", explain(StartFailed(self.what, exc))
                if not (patient and stop is not None and unreachable(exc)):
                    raise StartFailed(f"{self.what} did not start", exc) from exc
                line = explain(StartFailed(f"{self.what} did not start", exc))
                self.state, self.last_error = "starting", line
                log.error("%s; next try in %gs", line, delay)
                log.debug("%s: the traceback", self.what, exc_info=exc)
            await _first(self._sleep(delay), stop)
            if stop.is_set():
                return False
            delay = min(2 * delay, self.max_delay)

    def _sleep(self, seconds: float) -> Awaitable[Any]:
        return (self.sleep or asyncio.sleep)(seconds)

    def _took(self, started: Started) -> None:
        self.current, self.state = started, "connected"
        self._accepts = _accepted(started.send)

    async def watch(
        self,
        stop: asyncio.Event,
        fatal: Callable[[str], None],
        refused: Callable[[Supervised, str], None] | None = None,
    ) -> None:
        """Until `stop`: wait for the bot's death, then restart it (with backoff) or call
        `fatal` with the one line that says why (policy stop). A refused start (StartRefused)
        stops the bot and calls `refused` (default: `fatal`) with its one line. A bot that could
        not be reached at startup (bots/serve.py) is started here, with the same backoff."""
        if self.current is None and self.state == "restarting":
            await self._restart(stop)
        while not stop.is_set() and self.current is not None:
            error = await _first(self.current.died(), stop)
            if stop.is_set():
                return
            if isinstance(error, StartRefused):
                line = await self._refused(error)
                (refused or (lambda _front, why: fatal(why)))(self, line)
                return
            line = explain(StartFailed(f"{self.what} stopped", error or RuntimeError("it ended")))
            self.last_error = line
            dead, self.current = self.current, None
            with contextlib.suppress(Exception):
                await dead.stop()
            if self.policy == STOP:
                self.state = "stopped"
                log.error("%s; PBEM_ON_BOT_FAILURE=stop: serve stops", line)
                fatal(line)
                return
            self.state = "restarting"
            log.error("%s; restarting it", line)
            await self._restart(stop)

    async def _refused(self, error: StartRefused) -> str:
        line = explain(StartFailed(f"{self.what} did not start", error.cause))
        self.state, self.last_error = "stopped", line
        dead, self.current = self.current, None
        if dead is not None:
            with contextlib.suppress(Exception):
                await dead.stop()
        return line

    async def _restart(self, stop: asyncio.Event) -> None:
        delay = self.first_delay
        while not stop.is_set():
            await _first(self._sleep(delay), stop)
            if stop.is_set():
                return
            self.restarts += 1
            try:
                self._took(await self.start())
            except Exception as exc:  # noqa: BLE001 - each failed start is one line, then again
                self.last_error = explain(StartFailed(f"{self.what} did not restart", exc))
                log.error("%s; next try in %gs", self.last_error, min(2 * delay, self.max_delay))
                delay = min(2 * delay, self.max_delay)
                continue
            log.warning("%s restarted (restart %d)", self.what, self.restarts)
            return

    async def close(self) -> None:
        current, self.current = self.current, None
        self.state = "stopped"
        if current is not None:
            await current.stop()


async def _first(work: Awaitable[Any], stop: asyncio.Event) -> Any:
    """`work`'s result, or None as soon as `stop` is set."""
    task = asyncio.ensure_future(work)
    stopper = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopper}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopper.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        return None
    return task.result()


def _accepted(send: Callable[..., Any]) -> set[str] | None:
    try:
        params = inspect.signature(send).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return None
    return {p.name for p in params if p.kind is not inspect.Parameter.POSITIONAL_ONLY}


async def task_death(task: asyncio.Task[Any] | None) -> BaseException | None:
    """Wait for a task to end; its error (a task that ends quietly is a death too)."""
    if task is None:
        await asyncio.Event().wait()  # nothing to watch: never
        return None
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.shield(task)
    if task.cancelled():
        return asyncio.CancelledError("cancelled")
    return task.exception()


__all__ = ["RESTART", "STOP", "Started", "Supervised", "task_death"]

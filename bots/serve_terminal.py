"""The terminal front end of `pbem serve` (no bot token set): one local chat on standard input
and output, through the chat service like any platform.

Each input line is said by one local user in the one local chat ("terminal", "local");
`as NAME: <text>` says one line as another local user and `as NAME` switches the speaker. Every
answer is printed as it comes, then the posts it caused (through the outbox, in order); the
scheduler's posts (reminders, deadlines) are printed within a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import threading
import uuid
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from adjudicator.core.i18n import EN, say, t
from app import languages
from app.images import renderer
from app.messages import Incoming, Outgoing
from bots.clock import Clock
from bots.delivery import OutboxSender
from storage import Store, chat_store

if TYPE_CHECKING:
    from bots.chat import ChatService

log = logging.getLogger("pbem.serve")  # the logger of `pbem serve`, as before the split

TERMINAL = "terminal"
LOCAL_CHAT = "local"
_AS = re.compile(r"^as\s+([A-Za-z][A-Za-z0-9_-]{0,31})\s*(?::\s*(.*))?$", re.IGNORECASE | re.DOTALL)


def local_user_id(name: str) -> str:
    """A stable numeric id for a local user name (seats outlive the process)."""
    return str(int(hashlib.sha256(name.lower().encode()).hexdigest()[:12], 16))


class Terminal:
    """One local chat on standard input/output, through the chat service like any platform."""

    def __init__(
        self,
        chat: ChatService,
        store: Store,
        out: IO[str],
        *,
        user: str = "you",
        images: str | None = None,
    ):
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
                self.say(t("(you now speak as {user})", user=self.user))
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
    def say(self, text: str) -> None:
        """Write one of the terminal's own texts, in the local chat's language."""
        try:
            lang = languages.for_chat(self.chat.store, TERMINAL, LOCAL_CHAT)
        except Exception:  # noqa: BLE001 - the store failing: English rather than nothing
            lang = EN
        self.write(say(text, lang))

    def write(self, text: str) -> None:
        with self._print_lock:
            self.out.write(text.rstrip("\n") + "\n")
            self.out.flush()

    def _name(self, uid: str | None) -> str:
        if uid is None:
            return "?"
        if uid not in self._names:
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


def _read_lines(
    stream: IO[str], loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]
) -> None:
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


def _greet(terminal: Terminal) -> None:
    terminal.say(
        t(
            "pbem: a local game chat. Type `help`; `new hells-gate` starts a game; `as NAME: ...` "
            "speaks as another local player. End with Ctrl-D."
        )
    )


async def _next_line(queue: asyncio.Queue[str | None], stop: asyncio.Event) -> str | None:
    """The next input line; None at the end of input or when `stop` is set first."""
    getter = asyncio.ensure_future(queue.get())
    stopper = asyncio.ensure_future(stop.wait())
    await asyncio.wait({getter, stopper}, return_when=asyncio.FIRST_COMPLETED)
    stopper.cancel()
    if not getter.done():
        getter.cancel()
        return None
    return getter.result()


async def _answer(terminal: Terminal, incoming: Incoming) -> bool:
    """Print the chat service's answers to one line (False: it failed, and the user was told)."""
    try:
        outs = await asyncio.to_thread(terminal.chat.handle, incoming)
    except Exception:
        log.exception("the chat service failed on a terminal line")
        terminal.say(t("Sorry, something went wrong on my side; please try again."))
        return False
    for out in outs:
        terminal.show(out)
    return True


async def terminal_loop(
    terminal: Terminal,
    flush: Callable[[], Awaitable[None]],
    stdin: IO[str],
    stop: asyncio.Event,
) -> None:
    """Answer standard input line by line until its end or `stop`."""
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    loop = asyncio.get_running_loop()
    threading.Thread(
        target=_read_lines, args=(stdin, loop, queue), name="pbem-stdin", daemon=True
    ).start()
    interactive = stdin.isatty()
    if interactive:
        _greet(terminal)
    while not stop.is_set():
        if interactive:
            terminal.out.write(f"{terminal.user}> ")
            terminal.out.flush()
        line = await _next_line(queue, stop)
        if line is None:
            return
        incoming = terminal.incoming(line)
        if incoming is None:
            continue
        if await _answer(terminal, incoming):
            await flush()  # the game's posts (after a phase ...) follow their cause


class _Ahead:
    def __init__(self, clock: Clock, lead: timedelta):
        self.clock, self.lead = clock, lead

    def now(self) -> datetime:
        return self.clock.now() + self.lead


class TerminalPosts:
    """The outbox rows for the terminal, printed in order: after each answered line, and every
    second for the scheduler's posts (reminders, deadlines)."""

    def __init__(self, store: Store, terminal: Terminal, clock: Clock):
        # The terminal prints a line's answer itself before the posts it caused, so the short
        # hold the outbox gives such posts (for the adapters' in-place replies) is not waited
        # for: the sender's clock runs an hour ahead.
        ahead = _Ahead(clock, timedelta(hours=1))
        self.sender = OutboxSender(
            store, {TERMINAL: terminal.send}, ahead, owner="terminal", renderer=renderer(store)
        )
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

"""The harness of the end-to-end tests (tests/test_e2e_*.py): not a test module.

A `World` is the service side of one `pbem serve` process, wired as bots/serve.py wires it: the
REAL python-telegram-bot Application and the REAL discord.py bot, each talking to its local fake
(tests/fakes/), in front of the real ChatService + GameService + Store (a SQLite file), the
persisted outbox with its sender task, and the deadline Scheduler. Time is a FakeClock shared by
everything: deadlines are driven by moving it and calling `World.tick` (the scheduler's pass),
never by sleeping. The fakes live outside the World, so a World can "stop" and a new one (new
Store, ChatService, sender, bots) start on the same file, against the same platforms.

A chat is a `TelegramChat` or a `DiscordChat`; `await chat.say(user, text)` sends the text the
way a user would on that platform and returns an `Answer`: the Outgoing list the service
returned, each with what the platform's fake received for it (public, or private to the asker).
Posts made through the outbox are waited for with `World.tg_posts` / `World.dc_posts`.

No wait depends on how fast the machine answers: a wait wakes on the fakes' own events (each
call they answer) and on the service's (each message it handled), and its ceiling (`CEILING`,
minutes) is reached only by a delivery that is missing. What a user sees is found whatever the
order: a phase post that arrives before or between the parts of a direct reply, a slash
command's answer that comes late as the fill of a deferred "thinking..." slot.

`CASES` is every command of the order language (and the chat's own commands), each with the
moderator set-up that makes it meaningful; `run_case` plays one through a chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Self

import pytest

from app import images, outage
from app.messages import Incoming, Outgoing
from app.service import GameService
from bots import delivery
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds
from bots.platforms import discord as dc
from bots.platforms.discord import DM_REFUSED
from bots.platforms.telegram import FAILURE_TEXT, TelegramBot, TelegramConfig, to_markdown_v2
from bots.scheduler import Scheduler
from storage import Store, chat_store
from tests.fakes.discord_api import FakeDiscord, Sent
from tests.fakes.telegram_api import Call, FakeTelegramAPI, parse_markdown_v2

CEILING = 300.0  # seconds: only a delivery that is missing reaches it, never a slow machine
SCENARIO = 1800.0  # seconds: the ceiling of a whole test's scenario (many waits)
RECHECK = 0.1  # seconds: a state no event marks (a database row) is looked at again this often
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SENDS = ("sendMessage", "sendPhoto", "sendDocument")
FAILURES = (FAILURE_TEXT, dc.FAILED)

TG_GROUP = -1001001  # the Telegram group of the game
TG_SIDE = -1001002  # another group (the chat lifecycle cases)


@dataclass(frozen=True)
class TgUser:
    id: int
    name: str  # the @username, which the adapter passes as the display name
    first: str


TG_USERS = {
    "alice": TgUser(7001, "alice", "Alice"),
    "bob": TgUser(7002, "bob", "Bob"),
    "carol": TgUser(7003, "carol", "Carol"),
}
DC_NAMES = ("alice", "bob", "carol")


def now_clock() -> FakeClock:
    """A FakeClock at the wall clock's second (the log rows carry the wall clock)."""
    return FakeClock(datetime.now(UTC).replace(microsecond=0))


def uid_source(label: str) -> Callable[[], str]:
    """Reproducible game uids (the committed dice depend on them), distinct per game."""
    counter = itertools.count(1)
    return lambda: hashlib.sha256(f"e2e-uid-{label}-{next(counter)}".encode()).hexdigest()[:32]


def run(coro: Any, timeout: float = SCENARIO) -> Any:
    """Run a test's scenario in an event loop of its own."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


Wake = Callable[[], list[asyncio.Event]]


async def until(
    predicate: Callable[[], Any], what: str, timeout: float = CEILING, *, wake: Wake = list
) -> Any:
    """Wait until `predicate` gives something truthy (returned): it is looked at again when one
    of the events `wake()` gives is set (the fakes' and the service's, see `World.wakes`), or
    after RECHECK seconds; fail with `what` after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        events = wake()  # taken before the look: whatever changes after it sets one of them
        found = predicate()
        if found:
            return found
        left = end - loop.time()
        if left <= 0:
            raise AssertionError(f"timed out after {timeout:g}s waiting for {what}")
        waiters = [asyncio.ensure_future(e.wait()) for e in events]
        waiters.append(asyncio.ensure_future(asyncio.sleep(min(left, RECHECK))))
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()


def plain(text: str) -> str:
    """Discord's raw Markdown as a reader sees it (Telegram's fake renders it already)."""
    return text.replace("**", "").replace("`", "")


def tg_rendered(text: str) -> str:
    """How Telegram shows `text` once the adapter has made it MarkdownV2."""
    return parse_markdown_v2(to_markdown_v2(text))[0]


def last_line(text: str) -> str | None:
    lines = [ln.strip() for ln in text.split("\n") if ln.strip() and not ln.startswith("```")]
    return lines[-1] if lines else None


# ---------------------------------------------------------------- the service side


class Recorder:
    """The ChatService as the adapters see it, recording each message's answer."""

    def __init__(self, chat: ChatService):
        self.chat = chat
        self.answers: dict[str | None, list[list[Outgoing] | BaseException]] = {}
        self.incoming: dict[str | None, Incoming] = {}
        self.loop = asyncio.get_running_loop()
        self._handled = asyncio.Event()  # set, then replaced, as each message is answered

    def handled(self) -> asyncio.Event:
        """An event set once the next message has been answered (see `until`)."""
        return self._handled

    def _signal(self) -> None:
        self._handled.set()
        self._handled = asyncio.Event()

    def handle(self, incoming: Incoming) -> list[Outgoing]:  # in a worker thread
        return self.record(incoming, self.chat.handle)

    def record(
        self, incoming: Incoming, work: Callable[[Incoming], list[Outgoing]]
    ) -> list[Outgoing]:
        """`work(incoming)`'s answer, recorded under the message id (in a worker thread)."""
        self.incoming[incoming.message_id] = incoming
        answers = self.answers.setdefault(incoming.message_id, [])
        try:
            outs = work(incoming)
            answers.append(outs)
            return outs
        except BaseException as exc:
            answers.append(exc)
            raise
        finally:
            self.loop.call_soon_threadsafe(self._signal)

    @functools.cached_property
    def taps(self) -> TapsRecorder:
        """The tap core (bots/taps.py) as the adapters see it, its menus and presses
        recorded as `handle`'s answers are (under the interaction's message id)."""
        return TapsRecorder(self)

    def chat_migrated(self, platform: str, old: str, new: str) -> None:
        self.chat.chat_migrated(platform, old, new)

    async def answer(self, message_id: str, nth: int = 1) -> tuple[Incoming, list[Outgoing]]:
        """The service's answer to the message (`nth`: to its nth delivery)."""
        await until(
            lambda: len(self.answers.get(message_id, ())) >= nth,
            f"the service to handle {message_id} ({nth})",
            wake=lambda: [self._handled],
        )
        outs = self.answers[message_id][nth - 1]
        if isinstance(outs, BaseException):
            pytest.fail(f"the service crashed on {message_id}: {outs!r}")
        return self.incoming[message_id], outs


class TapsRecorder:
    """`Recorder.taps`: the chat's tap core as the adapters see it, recording each press's and
    each menu's answer under the incoming's message id (as `Recorder.answer` reads them), and
    each completion."""

    def __init__(self, recorder: Recorder):
        self.recorder, self.core = recorder, recorder.chat.taps
        self.taps, self.store = self.core, self.core.store
        self.completions: list[tuple[Incoming, list[tuple[str, str]]]] = []

    def complete(self, incoming: Incoming) -> list[tuple[str, str]]:
        found = self.core.complete(incoming)
        self.completions.append((incoming, found))
        return found

    def options(self, incoming: Incoming) -> list[Outgoing]:
        return self.recorder.record(incoming, self.core.options)

    def press(
        self, incoming: Incoming, token: str, values: list[str] | None = None
    ) -> list[Outgoing]:
        return self.recorder.record(incoming, lambda i: self.core.press(i, token, values))

    def sending(self, send: Callable[..., Any]) -> Callable[..., Any]:
        return self.core.sending(send)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core, name)


class Ahead:
    """The outbox sender's clock: the test's clock, ahead by `lead`. The chat service holds a
    phase post back for 2 s (on its clock) so that the adapter's direct reply goes first; on a
    clock that only moves when told, the sender would wait for ever."""

    def __init__(self, clock: FakeClock, lead: timedelta = timedelta(minutes=5)):
        self.clock, self.lead = clock, lead

    def now(self) -> datetime:
        return self.clock.now() + self.lead


class ErrorLog(logging.Handler):
    """ERROR records of the adapters, the service, the outbox and the scheduler."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def lines(self) -> list[str]:
        return [
            f"{r.name}: {r.getMessage()} {r.exc_info and r.exc_info[1]!r}" for r in self.records
        ]


class World:
    """One process of the service (see the module doc). Use `async with World(...) as w:`."""

    def __init__(
        self,
        db: str,
        clock: FakeClock,
        *,
        telegram: FakeTelegramAPI | None = None,
        discord: FakeDiscord | None = None,
        images: bool = True,
        sender: bool = True,
        label: str = "e2e",
        expected_errors: int = 0,
    ):
        self.db, self.clock, self.images = db, clock, images
        self.api, self.fake = telegram, discord
        self.run_sender, self.label, self.expected_errors = sender, label, expected_errors
        self.tg: TelegramBot | None = None
        self.dc: dc.PbemBot | None = None
        self.senders: dict[str, Callable[..., Any]] = {}
        self.errors = ErrorLog()
        self._stop_sender: asyncio.Event | None = None
        self._sender_task: asyncio.Task[None] | None = None
        self._started: list[Callable[[], Any]] = []

    async def __aenter__(self) -> Self:
        logging.getLogger().addHandler(self.errors)
        try:
            await self.start()
        except BaseException:
            await self.close(check=False)
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close(check=exc[0] is None)

    async def start(self) -> None:
        self.store = await asyncio.to_thread(Store, self.db)
        self._started.append(lambda: asyncio.to_thread(self.store.close))
        self.service = GameService(  # the scheduler's Core: the chat's clock and image setting
            self.store,
            seeds=DemoSeeds(f"e2e-{self.label}"),
            uids=uid_source(self.label),
            now=self.clock.now,
            images=self.images,
        )
        self.chat = ChatService(self.service, clock=self.clock, images=self.images)
        self.recorder = Recorder(self.chat)
        if self.api is not None:
            config = TelegramConfig(
                token=self.api.token,
                base_url=self.api.root_url,
                poll_timeout=1,
                request_timeout=CEILING,  # a local fake: an answer that is late is load, no fault
            )
            self.tg = TelegramBot(self.recorder, config, forward=self._forward)
            await self.tg.start()
            self._started.append(self.tg.stop)
            self.senders["telegram"] = self.chat.taps.sending(self.tg.send)
        if self.fake is not None:
            for name in DC_NAMES:
                self.fake.user(name)
            # Discord drops an interaction not answered within 3 s; the adapter defers after 2 s
            # (tests/test_discord_bot.py holds it to that). Here a loaded machine may take longer
            # to send even the defer: the answer, deferred or not, is what these tests are about.
            self.fake.interaction_deadline = CEILING
            self.dc = dc.build_bot(self.recorder, guild_ready_timeout=0.05)
            await dc.start(self.dc, self.fake.token, ready_timeout=CEILING)
            self._started.append(functools.partial(dc.stop, self.dc))
            # a post that asks a side gets its answer key as it is sent (as bots/serve.py does)
            send = functools.partial(dc.send_outgoing, self.dc)
            self.senders["discord"] = self.chat.taps.sending(send)
        if self.run_sender:
            self.start_sender()
        self.scheduler = Scheduler(
            self.service,
            self.store,
            self.clock,
            tick_seconds=3600,  # the test calls `tick`; no pass runs on the wall clock
            retry_seconds=3600,
        )
        await self.scheduler.start()  # the leader's catch-up pass runs now
        self._started.append(self.scheduler.stop)

    async def close(self, *, check: bool = True) -> None:
        try:
            await self.stop_sender()
            for stop in reversed(self._started):
                await stop()
            self._started.clear()
        finally:
            logging.getLogger().removeHandler(self.errors)
        if check:
            errors = self.errors.lines()
            assert len(errors) == self.expected_errors, errors

    def wakes(self) -> list[asyncio.Event]:
        """The events a wait wakes on: each call a fake answers, each message the service
        answers."""
        events = [self.recorder.handled()] if hasattr(self, "recorder") else []
        return events + [fake.answered() for fake in (self.api, self.fake) if fake is not None]

    async def until(self, predicate: Callable[[], Any], what: str) -> Any:
        """`until`, woken by this World's fakes and service."""
        return await until(predicate, what, wake=self.wakes)

    async def _forward(self, out: Outgoing) -> None:  # as bots/serve.py: through the outbox
        await asyncio.to_thread(delivery.enqueue, self.store, None, [out])

    # -- the outbox sender
    def start_sender(self, senders: dict[str, Callable[..., Any]] | None = None) -> None:
        assert self._sender_task is None, "a sender runs already"
        self._stop_sender = asyncio.Event()
        self.sender = delivery.OutboxSender(
            self.store,
            senders or self.senders,
            Ahead(self.clock),
            owner=f"e2e-{id(self)}",
            renderer=images.renderer(self.store),  # the posts' maps, drawn as they are sent
        )
        self._sender_task = asyncio.create_task(self.sender.run(self._stop_sender), name="outbox")

    async def stop_sender(self) -> None:
        task, self._sender_task = self._sender_task, None
        if task is None:
            return
        assert self._stop_sender is not None
        self._stop_sender.set()
        await asyncio.wait_for(task, CEILING)

    def pending(self) -> list[delivery.Row]:
        return delivery.rows(self.store, status=delivery.PENDING)

    async def drained(self) -> None:
        """Every row of the outbox sent (none pending; none failed)."""
        await self.until(lambda: not self.pending(), "the outbox to be sent")
        failed = delivery.rows(self.store, status=delivery.FAILED)
        assert not failed, [(r.id, r.last_error) for r in failed]

    # -- deadlines
    async def tick(self, *, up: bool = True) -> list[Outgoing]:
        """One pass of the scheduler at the clock's time. up: the service ran all along (the
        heartbeats a clock moved by hours skips are written first), so it is no outage."""
        if up:
            await asyncio.to_thread(outage.heartbeat, self.store, self.clock)
        return await self.scheduler.run_once()

    def deadline(self, game: str) -> datetime:
        at = chat_store.clock(self.store, game).deadline_at
        assert at is not None, f"no deadline runs in {game}"
        return at

    # -- direct (not through a platform): moderators' set-up of a situation
    _direct_ids = itertools.count(1)

    async def direct(
        self, platform: str, chat_id: str, user: str, name: str, text: str, **kw: Any
    ) -> list[Outgoing]:
        inc = Incoming(
            platform,
            chat_id,
            user,
            name,
            text,
            message_id=f"direct:{next(self._direct_ids)}:{time.monotonic_ns()}",
            **kw,
        )
        return await asyncio.to_thread(self.chat.handle, inc)

    def game(self, platform: str, chat_id: str) -> str:
        name = chat_store.binding(self.store, platform, chat_id)
        assert name is not None, f"no game in {platform} {chat_id}"
        return name

    # -- what the platforms received from the outbox (and anything else)
    async def tg_posts(
        self,
        chat_id: int,
        contains: str,
        *,
        count: int = 1,
        since: int = 0,
        photo: bool = False,
    ) -> list[Call]:
        """Successful sends to `chat_id` (calls from index `since`) whose rendered text holds
        `contains` (with `photo`: that are photos, i.e. a map with its caption; a post too long
        for a caption has its photo right after the text)."""
        assert self.api is not None

        def found() -> list[Call]:
            calls = [
                c
                for c in self.api.calls[since:]
                if c.ok and c.method in SENDS and c.chat_id == chat_id
            ]
            hits = []
            for n, c in enumerate(calls):
                if contains not in (c.rendered or ""):
                    continue
                later = [d for d in calls[n + 1 : n + 4] if d.photo is not None and not d.rendered]
                if photo and c.photo is None and not later:
                    continue
                hits.append(c)
            return hits if len(hits) >= count else []

        return await self.until(found, f"{count} post(s) to {chat_id} with {contains!r}")

    def tg_photos(self, chat_id: int, since: int = 0) -> list[bytes]:
        assert self.api is not None
        return [
            c.photo
            for c in self.api.calls[since:]
            if c.ok and c.chat_id == chat_id and c.photo is not None
        ]

    async def dc_posts(
        self,
        channel_id: str,
        contains: str,
        *,
        count: int = 1,
        since: int = 0,
        image: bool = False,
    ) -> list[Sent]:
        """Messages delivered to the channel (from index `since` of `fake.sent`) holding
        `contains` (with `image`: carrying a PNG, in that message or the part right after)."""
        assert self.fake is not None

        def found() -> list[Sent]:
            sent = [s for s in self.fake.sent[since:] if s.channel_id == channel_id]
            hits = []
            for n, s in enumerate(sent):
                if contains not in s.content:
                    continue
                files = s.files + [f for later in sent[n + 1 : n + 2] for f in later.files]
                if image and not any(data.startswith(PNG_MAGIC) for _, data in files):
                    continue
                hits.append(s)
            return hits if len(hits) >= count else []

        return await self.until(found, f"{count} message(s) to {channel_id} with {contains!r}")


# ---------------------------------------------------------------- what a user saw


@contextlib.asynccontextmanager
async def both_platforms(path: Any, clock: FakeClock, **kwargs: Any) -> Any:
    """The fake Telegram and Discord servers and a World serving both on the database at
    `path`: yields (api, fake, world)."""
    async with (
        FakeTelegramAPI() as api,
        FakeDiscord() as fake,
        World(str(path), clock, telegram=api, discord=fake, **kwargs) as w,
    ):
        yield api, fake, w


@dataclass
class Seen:
    """One Outgoing as it arrived on the platform."""

    out: Outgoing
    text: str  # as a reader sees it (Markdown rendered or stripped), all its parts
    private: bool  # only the asker sees it (a private chat, a DM, an ephemeral reply)
    images: list[bytes] = field(default_factory=list)
    where: str = ""  # "chat", "dm", "ephemeral", "notice" (a DM refused: asked to allow them)


@dataclass
class Answer:
    """The answer to one message: what the service returned and what the platform got."""

    incoming: Incoming
    seen: list[Seen]
    raw: dict = field(default_factory=dict)  # the platform's update or event

    @property
    def outs(self) -> list[Outgoing]:
        return [s.out for s in self.seen]

    @property
    def text(self) -> str:
        return "\n".join(s.text for s in self.seen)

    @property
    def public(self) -> str:
        return "\n".join(s.text for s in self.seen if not s.private)

    @property
    def private(self) -> str:
        return "\n".join(s.text for s in self.seen if s.private)

    @property
    def images(self) -> list[bytes]:
        return [i for s in self.seen for i in s.images]


class TelegramChat:
    """A Telegram group (or, with a positive id, a user's private chat with the bot)."""

    def __init__(self, world: World, chat_id: int):
        self.world, self.chat_id = world, chat_id
        assert world.api is not None
        self.api = world.api

    @property
    def key(self) -> tuple[str, str]:
        return ("telegram", str(self.chat_id))

    def mention(self, user: str) -> str:
        return "@" + TG_USERS[user].name

    async def say(
        self, user: str, text: str, *, via: str = "order", language_code: str | None = None
    ) -> Answer:
        """via "order": `/order <text>`; "command": `/<text>` (its first word the command);
        "botname": `/order@<bot> <text>`; "plain": the text as is (a private chat).
        language_code: the user's Telegram client language (none given when None)."""
        u = TG_USERS[user]
        typed = {
            "order": f"/order {text}",
            "command": f"/{text}",
            "botname": f"/order@{self.api.bot['username']} {text}",
            "plain": text,
        }[via]
        since = len(self.api.calls)
        update = self.api.push_message(
            typed, chat_id=self.chat_id, user_id=u.id, user_name=u.name, first_name=u.first,
            language_code=language_code,
        )  # fmt: skip
        message_id = f"tg:{self.chat_id}:{update['message']['message_id']}"
        incoming, outs = await self.world.recorder.answer(message_id)
        seen = [await self._seen(out, since) for out in outs]
        return Answer(incoming, seen, update)

    async def redeliver(self, answer: Answer) -> Answer:
        """Telegram delivers the message of `answer` once more (a new update, the same
        message): the service's second answer, as it arrived."""
        since = len(self.api.calls)
        self.api.push_update({"message": answer.raw["message"]})
        n = len(self.world.recorder.answers[answer.incoming.message_id]) + 1
        incoming, outs = await self.world.recorder.answer(answer.incoming.message_id, n)
        return Answer(incoming, [await self._seen(out, since) for out in outs], answer.raw)

    async def _seen(self, out: Outgoing, since: int) -> Seen:
        private = bool(out.private and out.user_id)
        target = int(out.user_id) if private else int(out.chat_id)  # type: ignore[arg-type]
        whole = tg_rendered(out.text) if out.text else ""
        last = last_line(whole)

        def find() -> Seen | None:
            calls = [c for c in self.api.calls[since:] if c.ok and c.method in SENDS]
            if private:
                notice = [
                    c
                    for c in calls
                    if c.chat_id == int(out.chat_id or 0)
                    and "please start a private chat with me" in (c.rendered or "")
                ]
                if notice:
                    return Seen(out, notice[0].rendered or "", False, [], "notice")
            mine = [c for c in calls if c.chat_id == target]
            ours = mine if last is None else [c for c in mine if _part_of(c.rendered, whole)]
            hit = next(
                (n for n, c in enumerate(ours) if last is None or last in (c.rendered or "")), None
            )
            if hit is None:
                return None
            parts = [c for c in ours[: hit + 1] if c.rendered]
            images = [c.photo or c.document for c in mine if c.photo or c.document]
            if out.image is not None and out.image not in images:
                return None
            text = "\n".join(c.rendered or "" for c in parts)
            where = "dm" if target > 0 else "chat"
            return Seen(out, text, private or target > 0, images if out.image else [], where)

        return await self.world.until(find, f"telegram to deliver {out.text[:60]!r} to {target}")


class DiscordChat:
    """A Discord channel (or the fake's thread)."""

    def __init__(self, world: World, channel_id: str):
        self.world, self.channel_id = world, channel_id
        assert world.fake is not None
        self.fake = world.fake

    @property
    def key(self) -> tuple[str, str]:
        return ("discord", self.channel_id)

    def user(self, name: str) -> dict:
        return self.fake.user(name)

    def mention(self, user: str) -> str:
        return f"<@{self.user(user)['id']}>"

    async def say(
        self, user: str, text: str, *, via: str = "mention", locale: str = "en-US"
    ) -> Answer:
        """via "mention": `@pbem <text>`; "order-mention": `@pbem order <text>` (the hybrid
        command); "slash": `/order text:<text>` (or `/map`, `/status`, `/options`, `/help`);
        "dm": the text in a direct message to the bot. locale: the user's client language
        (sent with a slash command)."""
        author = self.user(user)
        since = len(self.fake.sent)
        interaction = None
        if via == "slash":
            words = text.split(maxsplit=1)
            if text in ("map", "status", "options"):
                payload = await self.fake.send_command(
                    text, user=author, channel_id=self.channel_id, locale=locale
                )
            elif words and words[0] == "help":
                options = {"command": words[1]} if len(words) > 1 else None
                payload = await self.fake.send_command(
                    "help", options, user=author, channel_id=self.channel_id, locale=locale
                )
            else:
                payload = await self.fake.send_command(
                    "order", {"text": text}, user=author, channel_id=self.channel_id, locale=locale
                )
            interaction = payload["id"]
        elif via == "dm":
            payload = await self.fake.send_message(text, author=author, dm=True)
        else:
            typed = f"order {text}" if via == "order-mention" else text
            payload = await self.fake.send_message(
                typed, author=author, mention_bot=True, channel_id=self.channel_id
            )
        incoming, outs = await self.world.recorder.answer(f"dc:{payload['id']}")
        seen = [await self._seen(out, incoming, since, interaction) for out in outs]
        return Answer(incoming, seen, payload)

    async def _seen(
        self, out: Outgoing, inc: Incoming, since: int, interaction: str | None
    ) -> Seen:
        here = (out.private and out.user_id == inc.user_id) or (
            not out.private and out.chat_id == inc.chat_id
        )
        missing = [u for u in out.mentions if f"<@{u}>" not in out.text]
        whole = " ".join(f"<@{u}>" for u in missing) + (" " if missing else "") + out.text
        last = last_line(whole)

        def where(s: Sent) -> bool:
            if interaction is not None and here:
                return s.interaction_id == interaction and s.ephemeral == out.private
            if out.private:
                return s.kind == "dm" and s.recipient_id == out.user_id
            if (out.chat_id or "").startswith("dm:"):
                return s.kind == "dm" and s.recipient_id == (out.chat_id or "")[3:]
            return s.kind == "channel" and s.channel_id == out.chat_id

        def find() -> Seen | None:
            sent = self.fake.sent[since:]
            if out.private:
                refused = DM_REFUSED.format(user=out.user_id)
                notice = [s for s in sent if s.content == refused]
                if notice:
                    return Seen(out, notice[0].content, False, [], "notice")
            mine = [s for s in sent if where(s)]
            ours = mine if last is None else [s for s in mine if _part_of(s.content, whole)]
            hit = next((n for n, s in enumerate(ours) if last is None or last in s.content), None)
            if hit is None:
                return None
            parts = [s for s in ours[: hit + 1] if s.content]
            images = [data for s in mine for _, data in s.files]
            if out.image is not None and out.image not in images:
                return None
            kind = ours[hit].kind
            private = out.private or kind == "dm" or ours[hit].ephemeral
            label = "ephemeral" if ours[hit].ephemeral else ("dm" if kind == "dm" else "chat")
            text = plain("\n".join(s.content for s in parts))
            return Seen(out, text, private, images if out.image else [], label)

        return await self.world.until(find, f"discord to deliver {out.text[:60]!r}")


Chat = TelegramChat | DiscordChat


def _part_of(text: str | None, whole: str) -> bool:
    """Whether a message holds a part of the answer `whole` (not a post sent before, between
    or after its parts: those arrive in any order with a direct reply)."""
    return bool(text and text.strip() and text.strip() in whole)


def names(chat: Chat) -> dict[str, str]:
    """How the users are called in the service's texts (their display names)."""
    if isinstance(chat, TelegramChat):
        return {k: u.name for k, u in TG_USERS.items()}
    return {k: chat.user(k)["global_name"] for k in DC_NAMES}


def user_id(chat: Chat, user: str) -> str:
    """The service's user id ("platform:id")."""
    if isinstance(chat, TelegramChat):
        return f"telegram:{TG_USERS[user].id}"
    return f"discord:{chat.user(user)['id']}"


async def direct(world: World, chat: Chat, user: str, text: str) -> list[Outgoing]:
    """Say `text` in `chat` as `user` straight to the chat service (set-up, not under test)."""
    platform, chat_id = chat.key
    uid = user_id(chat, user).partition(":")[2]
    return await world.direct(platform, chat_id, uid, names(chat)[user], text)


async def started_game(world: World, chat: Chat) -> str:
    """A sandbox game in `chat`: alice created it (its moderator) and plays Soviet, bob German;
    carol has spoken (a known name, a spectator)."""
    for user, text, expect in (
        ("alice", "new hells-gate sandbox", "New game"),
        ("alice", "join soviet", "now plays soviet"),
        ("bob", "join german", "now plays german"),
        ("alice", "start", "begins"),
        ("carol", "status", "Turn 1"),
    ):
        outs = await direct(world, chat, user, text)
        assert outs and expect in outs[0].text, (text, outs)
    return world.game(*chat.key)


# ---------------------------------------------------------------- every command, one by one


@dataclass(frozen=True)
class Case:
    """One command sent through a platform. Texts may hold {alice} {bob} {carol} (a mention as
    the platform writes it), {base} (the log row the main game started at) and {code} (a link
    code of the main game, made in the set-up)."""

    id: str
    user: str
    text: str
    expect: str  # a regex the answer must match (Markdown rendered)
    setup: tuple[tuple[str, str], ...] = ()  # (user, text) said straight to the service first
    after: tuple[tuple[str, str], ...] = ()  # said after, to leave the game as it was
    private: bool = False  # the answer goes to the asker alone
    side: bool = False  # played in a chat of its own, made free first (the chat lifecycle)
    image: bool = False  # the answer carries the map


HIT = (("alice", "dice 6"), ("alice", "attack A1 with 47rc"))  # 1 hit: German must decide
CASES: list[Case] = [
    # the chat's own commands
    Case(
        "new",
        "alice",
        "new hells-gate sandbox",
        r"New game hells-gate-\d+: a sandbox game",
        side=True,
    ),
    Case(
        "join",
        "bob",
        "join german",
        r"(?i)bob now plays german",
        setup=(("alice", "new hells-gate"),),
        side=True,
    ),
    Case(
        "leave",
        "bob",
        "leave",
        r"(?i)bob no longer plays german",
        setup=(("alice", "new hells-gate"), ("bob", "join german")),
        side=True,
    ),
    Case(
        "start",
        "alice",
        "start",
        r"(?i)begins: Soviet \(alice\) against German \(bob\)",
        setup=(("alice", "new hells-gate"), ("alice", "join soviet"), ("bob", "join german")),
        side=True,
    ),
    Case("link", "alice", "link", r"Link code for hells-gate-\d+: [A-Z0-9]{8} \(single use"),
    Case("link CODE", "carol", "link {code}", r"This chat now follows hells-gate-", side=True),
    Case("deadline", "carol", "deadline", r"48 h per phase, 12 h per combat decision"),
    Case(
        "deadline set",
        "alice",
        "deadline 24h",
        r"each phase: 24 h",
        after=(("alice", "deadline 48h"),),
    ),
    Case("extend", "alice", "extend 2h", r"Deadline extended by 2 h: now"),
    Case("map", "carol", "map", r"hells-gate-\d+: turn 1, soviet-combat", image=True),
    Case("help", "carol", "help", r"You are a spectator\.\nQuestions: preview, options"),
    # the order language: players' orders
    Case("attack", "alice", "attack A1 with 47rc", r"die 6: 1 hit", setup=(("alice", "dice 6"),)),
    Case("preview", "alice", "preview attack A1 with 47rc", r"Final column 3:2", private=True),
    Case("losses", "bob", "losses 34id", r"34id .* takes a hit and is reduced", setup=HIT),
    Case("retreat", "bob", "retreat A2", r"34id .* retreats A1 → A2", setup=HIT),
    Case("move", "alice", "move 20tk D7", r"20tk .* moves C7-D7", setup=(("alice", "end"),)),
    Case(
        "enter",
        "alice",
        "enter 18tk E6",
        r"18tk .* enters at E6",
        setup=(
            ("alice", "set turn 2"),
            ("alice", "place 20grc E7"),
            ("alice", "place 21grc E7"),
            ("alice", "place 78rc F7"),
            ("alice", "place 88id D7"),  # D7 held by the enemy: 18tk chooses C7 or E6
            ("alice", "set phase soviet supply"),
        ),
    ),
    Case(
        "rebuild",
        "alice",
        "rebuild 20tk",
        r"20tk .* is rebuilt to full strength",
        setup=(
            ("alice", "set turn 5"),
            ("alice", "flip 20tk"),
            ("alice", "set phase soviet supply"),
        ),
    ),
    Case(
        "breakout",
        "bob",
        "breakout 57id",
        r"57id .* breaks out from F4",
        setup=(
            ("alice", "set turn 8"),
            ("alice", "set oos 57id on"),
            ("alice", "set phase german movement"),
            ("alice", "dice 5"),
            ("bob", "end"),
        ),
    ),
    Case("end", "alice", "end", r"Soviet ends the soviet-combat phase"),
    Case("default", "alice", "default", r"Deadline default for Soviet: end"),
    # questions
    Case("options", "alice", "options", r"units may act", private=True),
    Case("status", "carol", "status", r"Turn 1 of 8, soviet-combat phase"),
    Case("units", "carol", "units Smela", r"wiking +D6"),
    Case("supply", "carol", "supply", r"47rc \(B1, no OOS marker\): in supply"),
    Case("log", "carol", "log 3", r"(?m)^\d+\. (system|moderator|soviet|german)\b"),
    Case("help order", "carol", "help attack", r"Usage: attack <HEX> with <UNIT>"),
    Case("rolls", "carol", "rolls 5", r"combat A1 = 6", setup=HIT),
    Case("audit", "alice", "audit", r"OK: the chain holds"),
    # players' dice and corrections
    Case("salt", "bob", "salt my cat walked on the keyboard", r"Salt added to dice epoch"),
    Case("undo", "alice", "undo", r"Undone: row \d+ \(soviet: end\)", setup=(("alice", "end"),)),
    # moderators
    Case("place", "alice", "place 20tk C5", r"Moderator places 20tk in C5"),
    Case("flip", "alice", "flip 20tk", r"Moderator flips 20tk to its reduced side"),
    Case("set turn", "alice", "set turn 3", r"Moderator sets the turn to 3"),
    Case("set phase", "alice", "set phase german combat", r"sets the phase to german-combat"),
    Case("set weather", "alice", "set weather mud", r"sets the weather to mud"),
    Case("set oos", "alice", "set oos 57id on", r"places an OOS marker on 57id"),
    Case("set retreat", "alice", "set retreat 29tk on", r"Retreat marker on 29tk"),
    Case("dice", "alice", "dice 3 5", r"fixes the next die results: 3 5"),
    Case(
        "rewind",
        "alice",
        "rewind {base} the phase was ended by mistake",
        r"Rewound to row {base} by (?i:alice): the phase was ended by mistake",
        setup=(("alice", "end"),),
    ),
    Case(
        "pause",
        "alice",
        "pause waiting for a ruling",
        r"Game paused: orders wait",
        after=(("alice", "resume ruled"),),
    ),
    Case(
        "resume",
        "alice",
        "resume ruling given",
        r"Game resumed: orders are taken again",
        setup=(("alice", "pause a question"),),
    ),
    Case(
        "seat",
        "alice",
        "seat german {carol} replaces bob",
        r"(?i)carol now plays german, replacing bob",
        after=(("alice", "seat german {bob} back"),),
    ),
    Case(
        "unseat",
        "alice",
        "unseat german left the game",
        r"(?i)bob no longer plays german",
        after=(("alice", "seat german {bob} back"),),
    ),
    Case(
        "moderator add",
        "alice",
        "moderator add {carol} helps out",
        r"(?i)carol is now a moderator",
        after=(("alice", "moderator remove {carol} done"),),
    ),
    Case(
        "moderator remove",
        "alice",
        "moderator remove {carol} stepped down",
        r"(?i)carol is no longer a moderator",
        setup=(("alice", "moderator add {carol} for a while"),),
    ),
]


@dataclass
class Table:
    """The state `run_case` keeps between cases: the main game and its first row."""

    world: World
    main: Chat
    side: Chat
    game: str = ""
    base: int = 0

    async def prepare(self) -> None:
        self.game = await started_game(self.world, self.main)
        self.base = self.world.store.load(self.game, with_log=False).head_index


def _fill(text: str, table: Table, chat: Chat, code: str = "") -> str:
    subs = {u: chat.mention(u) for u in DC_NAMES} | {"base": str(table.base), "code": code}
    return re.sub(r"\{(alice|bob|carol|base|code)\}", lambda m: subs[m.group(1)], text)


async def run_case(table: Table, case: Case, via: str) -> Answer:
    """Bring the main game back to its start (a moderator's rewind), make the case's situation,
    send its command through the platform, check the answer, and undo what it changed."""
    world, main = table.world, table.main
    chat = table.side if case.side else main
    code = ""
    if case.side:
        await asyncio.to_thread(chat_store.unbind, world.store, *chat.key)
    else:
        await direct(world, main, "alice", f"rewind {table.base} back to the start")
    if "{code}" in case.text:
        (out,) = await direct(world, main, "alice", "link")
        code = re.search(r"`([A-Z0-9]{8})`", out.text).group(1)  # type: ignore[union-attr]
    for user, text in case.setup:
        outs = await direct(world, chat, user, _fill(text, table, chat))
        assert outs and not outs[0].text.startswith("Refused"), (case.id, text, outs)
    answer = await chat.say(case.user, _fill(case.text, table, chat, code), via=via)
    check_answer(answer, case, _fill(case.expect, table, chat))
    for user, text in case.after:
        outs = await direct(world, chat, user, _fill(text, table, chat))
        assert outs and not outs[0].text.startswith("Refused"), (case.id, text, outs)
    assert not world.errors.records, world.errors.lines()
    return answer


def check_answer(answer: Answer, case: Case, expect: str) -> None:
    """Answered (never silence, never the adapters' "something went wrong"), as expected, in
    the expected place."""
    assert answer.seen, f"{case.id}: no answer at all"
    text = answer.text
    for failure in FAILURES:
        assert failure not in text, f"{case.id}: {text}"
    assert re.search(expect, text), f"{case.id}: {expect!r} not in {text!r}"
    if case.private:
        assert re.search(expect, answer.private), f"{case.id}: not private: {answer.seen}"
        assert not re.search(expect, answer.public), f"{case.id}: shown to all: {answer.public}"
    else:
        assert re.search(expect, answer.public), f"{case.id}: not public: {answer.seen}"
    if case.image:
        assert answer.images and all(i.startswith(PNG_MAGIC) for i in answer.images)


# ---------------------------------------------------------------- a module's own event loop


class LoopFixture:
    """A World kept across the tests of one module: its event loop (asyncio.Runner) runs only
    while a test's coroutine runs; in between, the bots, the fakes and the sender wait."""

    def __init__(self) -> None:
        self.runner = asyncio.Runner()
        self._exits: list[Any] = []

    def run(self, coro, timeout: float = SCENARIO) -> Any:
        return self.runner.run(asyncio.wait_for(coro, timeout))

    def enter(self, manager) -> Any:
        """Enter an async context manager in this loop; it is exited by `close`."""
        value = self.run(manager.__aenter__())
        self._exits.append(manager)
        return value

    def close(self) -> None:
        try:
            while self._exits:
                manager = self._exits.pop()
                self.run(manager.__aexit__(None, None, None))
        finally:
            with contextlib.suppress(RuntimeError):
                self.runner.close()


async def linked_game(world: World, group: TelegramChat, channel: DiscordChat) -> str:
    """A started sandbox game played from a Telegram group and a Discord channel linked
    together: alice (moderator) plays Soviet from Telegram, bob German from Discord."""
    for chat, user, text, expect in (
        (group, "alice", "new hells-gate sandbox", "New game"),
        (group, "alice", "join soviet", "now plays soviet"),
        (group, "alice", "link", "Link code"),
    ):
        outs = await direct(world, chat, user, text)
        assert outs and expect in outs[0].text, (text, outs)
    code = re.search(r"`([A-Z0-9]{8})`", outs[0].text).group(1)  # type: ignore[union-attr]
    for chat, user, text, expect in (
        (channel, "bob", f"link {code}", "now follows"),
        (channel, "bob", "join german", "now plays german"),
        (group, "alice", "start", "begins"),
    ):
        outs = await direct(world, chat, user, text)
        assert outs and expect in outs[0].text, (text, outs)
    return world.game(*group.key)

"""Games through the chat service, audience by audience.

`chat_run` plays one game through the chat service (ChatService over GameService, FakeClock, no
images) and records, step by step (a step: one message sent), every text each audience got:
the group (the public answers and posts in the group chat), each side (the group, plus what
reached its player privately), the spectator and the moderator (the answers to their own
questions, plus anything private to them). `two_runs` plays the same messages twice with epoch
seeds that differ only in the hidden seed (the second seed a game draws).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.driver import MODERATOR, Driver, Masks
from adjudicator.core.system import GameSystem
from app import post_queue
from app.messages import Incoming, Outgoing
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import choose, legal_texts
from storage import Store, chat_store

GROUP = "-100700"
SPECTATOR = 9  # a chat user who onlooks (MODERATOR, the creator, holds no seat either)
UID = "c0ffee00c0ffee00c0ffee00c0ffee00"  # one game uid in both runs: the public dice agree
QUESTIONS = {
    "spectator": ("status", "log", "rolls"),
    "moderator": ("status", "log", "rolls", "audit"),
    "side": ("status",),
}


class Seeds:
    """Epoch seeds from a fixed sequence; `hidden` replaces the second one (the hidden seed)."""

    def __init__(self, hidden: str):
        self.n, self.hidden = 0, hidden

    def __call__(self) -> str:
        self.n += 1
        return self.hidden if self.n == 2 else hashlib.sha256(b"epoch %d" % self.n).hexdigest()


@dataclass
class Run:
    """What each audience got in one chat game: (step, text), the masks of every step for the
    public (key None) and each side, and the step at which the game ended."""

    received: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    masks: list[dict[str | None, Masks]] = field(default_factory=list)
    over_at: int | None = None
    script: list[tuple[int, str, str]] = field(default_factory=list)  # (user, chat, text)

    def get(self, audience: str, step: int, text: str) -> None:
        self.received.setdefault(audience, []).append((step, text))


class Table:
    """One chat game: the users send messages, the run records what reaches whom."""

    def __init__(self, d: Driver, service: GameService, run: Run):
        self.d, self.service, self.run = d, service, run
        self.chat = ChatService(service, clock=FakeClock(), images=False)
        self.ids = itertools.count(1)
        self.seen = 0  # outbox rows already filed
        self.side_of = {f"{u}": s for s, u in d.seats.items()}
        self.system: GameSystem | Any = None

    def audience(self, user: str) -> str:
        if user in self.side_of:
            return f"side:{self.side_of[user]}"
        return "moderator" if user == f"{MODERATOR}" else "spectator"

    def send(self, user: int, where: str, text: str) -> None:
        self.run.script.append((user, where, text))
        key, private = f"m{next(self.ids)}", where != GROUP
        message = Incoming("telegram", where, f"{user}", f"user{user}", text, key, private)
        outs = self.chat.handle(message)
        step, state = len(self.run.masks), self.state()
        self.remember(state)
        for out in outs:
            self.file(step, out, str(user))
        for row in post_queue.rows(self.service.store)[self.seen :]:
            self.file(step, row.outgoing, None)
            self.seen += 1
        if self.run.over_at is None and state is not None and self.system.situation(state).over:
            self.run.over_at = step

    def state(self) -> Any:
        """The game's state now (None before the game is made)."""
        name = chat_store.binding(self.service.store, "telegram", GROUP)
        if name is None:
            return None
        self.system = self.service.system(name)
        return self.service.state(name)

    def remember(self, state: Any) -> None:
        """The masks of this step: those of the last one (what one knows, one keeps knowing)
        and those of the state now, for the public (None) and each side."""
        known = self.run.masks[-1] if self.run.masks else {}
        now = {}
        if state is not None and self.d.hidden:
            now = {side: self.d.masks(self.system, state, side) for side in (None, *self.d.seats)}
        self.run.masks.append({k: known.get(k, {}) | now.get(k, {}) for k in known | now})

    def file(self, step: int, out: Outgoing, sender: str | None) -> None:
        if out.private or out.chat_id != GROUP:
            user = out.user_id or (out.chat_id or "").removeprefix("dm:")
            self.run.get(self.audience(user), step, out.text)
            return
        self.run.get("group", step, out.text)
        for side in self.d.seats:
            self.run.get(f"side:{side}", step, out.text)
        if sender is not None and self.audience(sender) in ("moderator", "spectator"):
            self.run.get(self.audience(sender), step, out.text)

    def questions(self) -> None:
        for q in QUESTIONS["spectator"]:
            self.send(SPECTATOR, GROUP, q)
        for q in QUESTIONS["moderator"]:
            self.send(MODERATOR, GROUP, q)
        for user in self.d.seats.values():
            for q in QUESTIONS["side"]:
                self.send(user, GROUP, q)
                self.send(user, f"dm:{user}", q)


def chat_game(table: Table, rng: random.Random) -> None:
    """Make the game, seat the players, start, then random legal orders with questions."""
    d = table.d
    table.send(MODERATOR, GROUP, f"new {d.system_id}")
    for side, user in d.seats.items():
        table.send(user, GROUP, f"join {side}")
    table.send(MODERATOR, GROUP, "start")
    for n in range(d.chat_orders):
        if table.run.over_at is not None:
            return
        if n % d.ask_every == 0:
            table.questions()
        state = table.state()
        side = table.system.situation(state).to_move[0]
        texts = legal_texts(table.system, state, side)
        if d.script_order is not None:
            texts = [text for text in texts if d.script_order(text)]
        table.send(d.seats[side], GROUP, choose(rng, texts))


def chat_run(d: Driver, hidden_seed: str, script: list[tuple[int, str, str]] | None = None) -> Run:
    """One chat game: random legal play, or the messages of `script` again."""
    store = Store(":memory:")
    try:
        service = GameService(store, seeds=Seeds(hidden_seed), uids=lambda: UID)
        table = Table(d, service, Run())
        if script is None:
            chat_game(table, random.Random(7))
        for user, where, text in script or ():
            table.send(user, where, text)
        return table.run
    finally:
        store.close()


def two_runs(d: Driver, seeds: tuple[str, str] = ("a" * 64, "b" * 64)) -> tuple[Run, Run]:
    """The same messages in two games whose hidden seeds differ (all else equal)."""
    first = chat_run(d, seeds[0])
    return first, chat_run(d, seeds[1], first.script)

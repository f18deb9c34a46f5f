"""Playing by taps on Telegram in the end-to-end tests (not a test module): a player who never
types an order. He opens his menu (a post's answer key, or `/options` in his private chat),
presses keys chosen at random among those offered (seeded), answers the ForceReply prompts the
bot asks, until an order is given. Everything is waited for on the fake's events."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.messages import Outgoing
from bots.demo import legal_texts
from storage import taps as tokens
from tests import e2e_support as E
from tests.fakes.telegram_api import Call

Policy = Callable[["Tapper", str, list[dict[str, Any]]], dict[str, Any]]


@dataclass(frozen=True)
class Tried:
    """An order a menu led to: its text, whether the game took it, and whether it was built
    through a template's builder (a key "✎ …")."""

    text: str
    taken: bool
    built: bool
    side: str


@dataclass
class Pressed:
    query: str  # the callback query's id
    answer: dict[str, Any]  # answerCallbackQuery's parameters
    outs: list[Outgoing]  # the service's answer to the press


@dataclass
class Tapper:
    world: E.World
    group: int
    seats: dict[str, str]  # side -> user (a key of E.TG_USERS)
    rng: random.Random
    given: list[tuple[str, str, str]] = field(default_factory=list)  # (side, text, how)
    compared: set[str] = field(default_factory=set)  # phases whose menu was compared
    presses: int = 0
    tried: list[Tried] = field(default_factory=list)
    legal_before: set[str] = field(default_factory=set)  # the side's legal orders, menu opened
    offered_verbs: set[str] = field(default_factory=set)  # of every legal order and template
    given_verbs: set[str] = field(default_factory=set)  # of every order the game took
    written: int = 0  # lines written to prompts
    parts: list[str] = field(default_factory=list)  # moves of part of a group, by the builder
    backs: int = 0  # builders the order went back from (a text the grammar refused)

    @property
    def api(self) -> Any:
        return self.world.api

    @property
    def store(self) -> Any:
        return self.world.store

    def tap(self, token: str) -> tokens.Tap:
        found = tokens.find(self.store, token)
        assert found is not None, f"a key's token unknown to the service: {token}"
        return found

    # -- the way in
    async def options(self, user: str) -> Call:
        u = E.TG_USERS[user]
        since = len(self.api.calls)
        update = self.api.push_message(
            "/options", chat_id=u.id, user_id=u.id, user_name=u.name, first_name=u.first
        )
        mid = f"tg:{u.id}:{update['message']['message_id']}"
        _, outs = await self.world.recorder.answer(mid, 2)  # the text answer, then the menu
        return await self.menu_of(outs, since)

    async def press(self, call: Call, key: dict[str, Any], user: str) -> Pressed:
        u = E.TG_USERS[user]
        self.presses += 1
        query = self.api.press(
            call, key["callback_data"], user_id=u.id, user_name=u.name, first_name=u.first
        )
        answer = await self.api.callback_answer(query, timeout=E.CEILING)
        outs = self.world.recorder.answers.get(f"tg:cb:{query}", [[]])[-1]
        assert isinstance(outs, list), outs
        return Pressed(query, answer, outs)

    async def menu_of(self, outs: list[Outgoing], since: int) -> Call:
        """The message that carries the menu among these answers (sent after `since`)."""
        (out,) = [o for o in outs if o.keyboard is not None]
        assert out.private and out.user_id, "a menu sent where others see it"
        want = [k.token for k in out.keyboard.keys]  # type: ignore[union-attr]

        def found() -> Call | None:
            for c in self.api.calls[since:]:
                if c.ok and [k.get("callback_data") for k in c.keys] == want:
                    return c
            return None

        call: Call = await self.world.until(found, "the menu to arrive")
        assert call.chat_id == int(out.user_id), "a menu outside the player's private chat"
        return call

    def answer_key(self, side: str) -> tuple[Call, dict[str, Any]] | None:
        """The newest group post's answer key for `side` in the game's present situation."""
        for c in reversed(self.api.calls):
            if c.ok and c.chat_id == self.group and len(c.keys) == 1:
                key = c.keys[0]
                tap = tokens.find(self.store, key.get("callback_data", ""))
                if tap is not None and tap.side == side and tap.kind == "answer":
                    return c, key
        return None

    async def open_menu(self, side: str) -> Call:
        """The side's menu: from a post's answer key (when there is one), else `/options`."""
        user = self.seats[side]
        found = self.answer_key(side)
        if found is not None and self.rng.random() < 0.7:
            since = len(self.api.calls)
            pressed = await self.press(*found, user)
            if not pressed.answer.get("show_alert"):
                return await self.menu_of(pressed.outs, since)
        return await self.options(user)

    # -- an order, by taps
    async def order(self, side: str, policy: Policy, game: str) -> tuple[str, bool]:
        """Open the side's menu and press until an order is given: its text, and whether the
        game took it (a built order the rules refuse is answered, and changes nothing)."""
        menu = await self.open_menu(side)
        self.compare(side, menu, game)
        system, state = self.world.service.system(game), self.world.service.state(game)
        self.legal_before = set(legal_texts(system, state, side))
        templates = system.order_templates(state, side)
        self.offered_verbs |= {text.split()[0] for text in [*self.legal_before, *templates]}
        user = self.seats[side]
        head = self.store.load(game, with_log=False).head_index
        built = False
        self.backs = 0
        pressed_labels: list[str] = []
        for _ in range(60):
            keys = [k for k in menu.keys if not k["text"].startswith("«")]
            if not keys:  # a built text the grammar refused: back to the start
                self.backs += 1
            key = policy(self, side, keys) if keys else menu.keys[-1]
            built = built or key["text"].startswith("✎")
            pressed_labels.append(key["text"] + " @ " + (menu.rendered or "")[:80])
            tap = self.tap(key["callback_data"])
            since = len(self.api.calls)
            pressed = await self.press(menu, key, user)
            assert not pressed.answer.get("show_alert"), (key, pressed.answer)
            if tap.kind == "order":
                text = str(tap.payload["text"])
                taken = self.store.load(game, with_log=False).head_index != head
                self.tried.append(Tried(text, taken, built, side))
                if taken:
                    self.given.append((side, text, "key"))
                    self.given_verbs.add(text.split()[0])
                return text, taken
            menu = await self.next_menu(pressed.outs, since, user, side)
        raise AssertionError(f"no order after 60 presses: {pressed_labels}")

    async def next_menu(self, outs: list[Outgoing], since: int, user: str, side: str) -> Call:
        """The menu these answers carry; where it asks for a line of free text, the line is
        written to the bot's ForceReply prompt (again, as long as lines are asked)."""
        menus = [o for o in outs if o.keyboard is not None]
        assert menus, outs
        menu = await self.menu_of(outs, since)
        while menus[0].keyboard.free:  # type: ignore[union-attr]
            since, menus, menu = await self.write(since, user, side)
        return menu

    async def write(self, since: int, user: str, side: str) -> tuple[int, list[Outgoing], Call]:
        """Answer the ForceReply prompt sent after `since`: the calls made before the answer,
        and the next menu (its Outgoings and its message)."""
        u = E.TG_USERS[user]

        def prompt() -> Call | None:
            for c in self.api.calls[since:]:
                if c.ok and c.chat_id == u.id and (c.reply_markup or {}).get("force_reply"):
                    return c
            return None

        asked: Call = await self.world.until(prompt, "the ForceReply prompt")
        self.written += 1
        line = free_line(asked.rendered or "", self.written)
        since = len(self.api.calls)
        update = self.api.push_message(
            line, chat_id=u.id, user_id=u.id, user_name=u.name, first_name=u.first,
            reply_to=asked.message,
        )  # fmt: skip
        _, outs = await self.world.recorder.answer(f"tg:{u.id}:{update['message']['message_id']}")
        self.given.append((side, line, "written"))
        menus = [o for o in outs if o.keyboard is not None]
        return since, menus, await self.menu_of(outs, since)

    # -- what the first step offers, against the legal orders
    def compare(self, side: str, menu: Call, game: str) -> None:
        """The first step's keys against legal_orders: each key an order or a word leading to
        orders, each legal order reached by exactly one key (unpaged menus)."""
        system = self.world.service.system(game)
        state = self.world.service.state(game)
        phase = str(system.situation(state).phase)
        taps = [self.tap(k["callback_data"]) for k in menu.keys]
        if phase in self.compared or any("page" in t.payload.get("go", {}) for t in taps):
            return
        legal = legal_texts(system, state, side)
        whole = {str(t.payload["text"]) for t in taps if t.kind == "order"}
        starts = [t.payload["go"]["prefix"] for t in taps if "prefix" in t.payload.get("go", {})]
        assert whole <= set(legal), sorted(whole - set(legal))
        for text in legal:
            words = text.split()
            ways = [p for p in starts if p and words[: len(p)] == p] + [1] * (text in whole)
            assert len(ways) == 1, (phase, text, ways)
        for p in starts:
            assert any(text.split()[: len(p)] == p for text in legal), (phase, p)
        self.compared.add(phase)


PART = re.compile(r"write (<[^ ]+>(?:\.\.\.)?)\.?\s*$")


def free_line(prompt: str, n: int = 1) -> str:
    """What a player writes when asked for a part the menu cannot offer (`n`: the lines
    written so far, to name a different unit each time)."""
    found = PART.search(prompt.strip())
    part = found[1] if found else ""
    if part == "<N>d<F>":
        return "2d6"
    if part.startswith("<UNIT>"):
        return f"inf{n}"
    if part.startswith("<HEX>"):
        return f"h{n}"
    return "by taps"


def random_key(tapper: Tapper, side: str, keys: list[dict[str, Any]]) -> dict[str, Any]:
    return tapper.rng.choice(keys)


def verb(key: dict[str, Any]) -> str:
    """The command word a key's label starts with ("✎ spend …" -> "spend")."""
    words = key["text"].removeprefix("✎").split()
    return words[0] if words else ""


@dataclass
class Biased:
    """A whole game's player: a key at random, but `end` only now and then while other keys
    are offered (as the demo player), templates left aside except those in `wanted` (pressed
    now and then until one of them gave an order), and now and then a key of a command word
    offered in the game but not given yet (so that every verb is given once)."""

    wanted: set[str]
    end_weight: float = 0.15
    template_weight: float = 0.6
    done_weight: float = 0.8  # in a template's builder: finish a list after its first name
    fresh_weight: float = 0.5  # a key of a verb not given yet, when one is offered

    plan: list[str] = field(default_factory=list)  # labels to press next, when offered
    planner: Callable[[Tapper, str], list[str]] | None = None  # a plan, from a first menu
    planned: int = 0  # plans made

    def __call__(self, tapper: Tapper, side: str, keys: list[dict[str, Any]]) -> dict[str, Any]:
        rng = tapper.rng
        if tapper.backs:  # a builder failed in this order: no template again
            keys = [k for k in keys if not k["text"].startswith("✎")] or keys
        may_plan = not self.plan and self.planner is not None and self.wanted
        if may_plan and any(k["text"].startswith("✎ move") for k in keys) and rng.random() < 0.5:
            self.plan = self.planner(tapper, side)  # type: ignore[misc]
            self.planned += bool(self.plan)
        if self.plan:
            step = self.plan.pop(0)
            found = [k for k in keys if k["text"] == step or k["text"].startswith(step)]
            if found:
                return found[0]
            self.plan = []
        built = [k for k in keys if k["text"].startswith("✎")]
        wanted = [k for k in built if verb(k) in self.wanted]
        if wanted and rng.random() < self.template_weight:
            return rng.choice(wanted)
        keys = [k for k in keys if k not in built] or keys
        fresh = [k for k in keys if verb(k) in tapper.offered_verbs - tapper.given_verbs]
        if fresh and rng.random() < self.fresh_weight:
            return rng.choice(fresh)
        done = [k for k in keys if k["text"] == "done"]
        if done and rng.random() < self.done_weight:
            return done[0]
        ends = [k for k in keys if k["text"].split()[0] == "end"]
        others = [k for k in keys if k not in ends]
        if ends and (not others or rng.random() < self.end_weight):
            return ends[0]
        return rng.choice(others)

"""Playing by taps on Discord, end to end: the REAL discord.py bot against the local fake of
Discord (tests/fakes/discord_api.py), in front of the real chat service, tap core (bots/taps.py),
SQLite store and outbox (tests/e2e_support.py), images off.

No order is typed: the games are created, joined and started by slash commands, then every order
comes from a button (or a modal) of a menu opened from a post's "Answer" key or `/options`,
chosen at random (seeded) among those offered. At every step the orders the menus offer are the
side's legal orders (walked through the real buttons at the first step). Presses by the wrong
player, a spectator, on a stale key and a double press change nothing; completions answer any
input with legal orders only; a hidden-information game shows nothing private in public."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.i18n import language
from app.messages import Outgoing
from bots.demo import choose, legal_texts
from bots.platforms import discord_keys
from bots.taps_menus import Menus
from storage import taps as tokens
from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord, Sent

SEED = 23
MAX_ORDERS = 400  # a Hell's Gate game of random orders takes about 160


def run(coro, timeout: float = 600.0) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))


@dataclass
class Pressed:
    """What one interaction brought: the service's answer, and the menu it left (if any)."""

    iid: str
    outs: list[Outgoing]
    menu: str | None  # the id of the message holding the menu now offered
    refused: bool

    @property
    def private(self) -> str:
        return "\n".join(o.text for o in self.outs if o.private)


@dataclass
class Key:
    custom_id: str
    label: str
    tap: tokens.Tap | None
    write: bool = False  # the button opens a modal (a line of free text)


@dataclass
class Table:
    """A channel of the fake Discord with a game played in it by taps."""

    w: E.World
    fake: FakeDiscord
    game: str = ""
    seats: dict[str, str] = field(default_factory=dict)  # side -> user name
    locale: str = "en-US"  # the client language every interaction carries

    @property
    def channel(self) -> str:
        return self.fake.channel_id

    def rows(self) -> int:
        return self.w.store.count_rows(self.game)

    # -- slash commands
    async def slash(self, user: str, name: str, text: str | None = None) -> list[Outgoing]:
        options = {"text": text} if text is not None else None
        since = len(self.fake.sent)
        payload = await self.fake.send_command(
            name, options, user=self.fake.user(user), locale=self.locale
        )
        incoming, outs = await self.w.recorder.answer(f"dc:{payload['id']}")
        chat = E.DiscordChat(self.w, self.channel)
        for out in outs:
            await chat._seen(out, incoming, since, payload["id"])
        return outs

    async def setup(self, system: str, sandbox: bool = False) -> None:
        """alice creates the game and takes its first side, bob the second; alice starts it."""
        said = await self.slash("alice", "new", f"{system} sandbox" if sandbox else system)
        assert "New game" in said[0].text, said
        self.game = self.w.game("discord", self.channel)
        sides = [s.id for s in self.w.service.system(self.game).sides]
        self.seats = {sides[0]: "alice", sides[1]: "bob"}
        for side, user in self.seats.items():
            await self.slash(user, "join", side)
        said = await self.slash("alice", "start")
        assert "begins" in said[0].text, said

    async def options(self, user: str) -> Pressed:
        payload = await self.fake.send_command(
            "options", user=self.fake.user(user), locale=self.locale
        )
        return await self._answered(payload["id"], user, menu=False)

    # -- presses
    def keys(self, message_id: str) -> list[Key]:
        found = []
        for b in self.fake.buttons(message_id):
            kind, token = discord_keys.parse(b["custom_id"]) or ("", "")
            tap = tokens.find(self.w.store, token)
            found.append(Key(b["custom_id"], b.get("label", ""), tap, kind == "write"))
        return found

    async def press(self, user: str, message_id: str, custom_id: str) -> Pressed:
        menu = bool(int(self.fake.message(message_id).get("flags") or 0) & 64)
        iid = await self.fake.press(
            message_id, custom_id, user=self.fake.user(user), locale=self.locale
        )
        return await self._answered(iid, user, menu=menu)

    async def write(self, user: str, message_id: str, custom_id: str, line: str) -> Pressed:
        """Press a button that opens a modal, write `line` in it, and submit it."""
        author = self.fake.user(user)
        iid = await self.fake.press(message_id, custom_id, user=author)
        assert await self.fake.wait_answered(iid) == 9  # a modal
        modal = self.fake.modals[iid]
        submit = await self.fake.submit_modal(
            modal["custom_id"], {"line": line}, user=author, message_id=message_id
        )
        return await self._answered(submit, user, menu=True)

    async def _answered(self, iid: str, user: str, *, menu: bool) -> Pressed:
        _, outs = await self.w.recorder.answer(f"dc:{iid}")
        await self._delivered(iid, outs, user, menu=menu)
        mine = [s for s in self.fake.sent if s.interaction_id == iid and s.buttons]
        refused = any(o.private and o.text.startswith("Refused") for o in outs)
        return Pressed(iid, outs, mine[-1].message_id if mine else None, refused)

    async def _delivered(self, iid: str, outs: list[Outgoing], user: str, *, menu: bool) -> None:
        """Every answer of the interaction arrived: its ephemeral parts (an edited menu
        counts once) and its posts to the channel."""
        uid = self.fake.user(user)["id"]
        mine = [o for o in outs if o.private and o.user_id == uid]
        here = len(mine) + (1 if menu and not (mine and mine[0].keyboard) else 0)
        here = max(here, 1)
        await self.w.until(
            lambda: len([s for s in self.fake.sent if s.interaction_id == iid]) >= here,
            f"the {here} answer(s) of interaction {iid}",
        )
        for out in outs:
            if not out.private and out.chat_id == self.channel:
                last = E.last_line(out.text) or ""
                await self.w.until(
                    lambda last=last: any(
                        s.kind == "channel" and last in s.content for s in self.fake.sent
                    ),
                    f"the post {last!r}",
                )

    # -- what the side is offered
    def offered(self, side: str) -> tuple[set[str], list[str]]:
        """The order texts reachable from the side's menu, and its templates (computed as the
        menus are, without pressing)."""
        place = self.w.chat.taps.place(self.game, side, None)
        menus = Menus(place, language("en"))
        seen, todo, orders, templates = set(), [{"prefix": []}], set(), []
        while todo:
            payload = todo.pop()
            if (key := json.dumps(payload, sort_keys=True)) in seen:
                continue
            seen.add(key)
            _, offers, _ = menus.menu(payload)
            for offer in offers:
                go = offer.payload.get("go")
                if offer.kind == "order":
                    orders.add(offer.payload["text"])
                elif go is not None and "build" in go:
                    templates.append(go["build"]["tpl"])
                elif go is not None:
                    todo.append(go)
        return orders, templates

    def legal(self, side: str) -> set[str]:
        system = self.w.service.system(self.game)
        return set(legal_texts(system, self.w.service.state(self.game), side))

    def situation(self) -> Any:
        system = self.w.service.system(self.game)
        return system.situation(self.w.service.state(self.game))

    async def walk(self, user: str, root: Pressed) -> set[str]:
        """Every order text reachable by pressing the menu's buttons (the template builders
        left aside), walked through the real buttons; the menu is left at its start."""
        found: set[str] = set()
        assert root.menu is not None
        mid = root.menu

        async def visit(path: list[dict]) -> None:
            onward = []
            for key in self.keys(mid):
                go = key.tap.payload.get("go") if key.tap else None
                if key.tap is not None and key.tap.kind == "order":
                    found.add(key.tap.payload["text"])
                elif go is not None and "build" not in go and go != {"prefix": []}:
                    onward.append(go)
            for go in onward:
                if go in path:
                    continue
                [key] = [k for k in self.keys(mid) if k.tap and k.tap.payload.get("go") == go]
                await self.press(user, mid, key.custom_id)
                await visit([*path, go])
                await self.follow(user, mid, path)

        await visit([])
        return found

    async def follow(self, user: str, mid: str, path: list[dict]) -> None:
        """Back to the menu's start, then down `path` (the payloads of the steps)."""
        back = [k for k in self.keys(mid) if k.tap and k.tap.payload.get("go") == {"prefix": []}]
        if back:
            await self.press(user, mid, back[0].custom_id)
        for go in path:
            [key] = [k for k in self.keys(mid) if k.tap and k.tap.payload.get("go") == go]
            await self.press(user, mid, key.custom_id)

    # -- giving an order by presses
    async def give(self, user: str, mid: str, target: str) -> Pressed:
        """Press down the menu to the order `target` (one of those offered), and press it."""
        for _ in range(40):
            keys = self.keys(mid)
            hit = [k for k in keys if k.tap and k.tap.payload.get("text") == target]
            if hit and hit[0].tap and hit[0].tap.kind == "order":
                return await self.press(user, mid, hit[0].custom_id)
            await self.give_step(user, mid, target)
        raise AssertionError(f"{target!r} not reached")

    async def give_step(self, user: str, mid: str, target: str) -> None:
        """One press down the menu toward the order `target`."""
        words = target.split()
        keys = self.keys(mid)
        deeper = [
            (len(go["prefix"]), k)
            for k in keys
            if k.tap
            and "prefix" in (go := k.tap.payload.get("go", {}))
            and "page" not in go
            and go["prefix"]
            and words[: len(go["prefix"])] == go["prefix"]
        ]
        onward = [k for k in keys if k.label.endswith("▶")]
        pick = max(deeper, key=lambda d: d[0])[1] if deeper else None
        pick = pick or (onward[0] if onward else None)
        assert pick is not None, (target, [k.label for k in keys])
        await self.press(user, mid, pick.custom_id)

    async def build(self, user: str, mid: str, template: str, plan: list[str]) -> Pressed:
        """The template's builder, answered along `plan` (a name, "done", "yes"/"no"): a key of
        that label, or else the line of free text in a modal; then its "send:" key."""
        [entry] = [
            k
            for k in self.keys(mid)
            if k.tap and k.tap.payload.get("go", {}).get("build", {}).get("tpl") == template
        ]
        pressed = await self.press(user, mid, entry.custom_id)
        for value in plan:
            keys = self.keys(mid)
            pages = [k for k in keys if k.tap and k.label.endswith("▶")]
            hit = [k for k in keys if k.label == value]
            while not hit and pages and not any(k.write for k in keys):
                await self.press(user, mid, pages[0].custom_id)
                keys = self.keys(mid)
                hit = [k for k in keys if k.label == value]
                pages = [k for k in keys if k.tap and k.label.endswith("▶")]
            names = value.split()
            if len(names) > 1 and any(k.label == names[0] for k in keys):
                for name in [*names, "done"]:  # several names, one key each, then "done"
                    [key] = [k for k in self.keys(mid) if k.label == name]
                    pressed = await self.press(user, mid, key.custom_id)
            elif hit:
                pressed = await self.press(user, mid, hit[0].custom_id)
            else:
                [free] = [k for k in keys if k.write]
                pressed = await self.write(user, mid, free.custom_id, value)
            if pressed.refused:
                return pressed
        send = [k for k in self.keys(mid) if k.label.startswith("send:")]
        if not send:
            return pressed  # the grammar refused the text built: said on the menu
        return await self.press(user, mid, send[0].custom_id)


async def table(w: E.World, fake: FakeDiscord, system: str, sandbox: bool = False) -> Table:
    t = Table(w, fake)
    await t.setup(system, sandbox)
    return t


def world(tmp_path, fake: FakeDiscord, label: str) -> E.World:
    return E.World(
        str(tmp_path / "games.db"), E.now_clock(), discord=fake, images=False, label=label
    )


async def answer_key(t: Table, since: int = 0) -> Sent:
    """The latest post to the channel (from `since`) carrying a key: the post that asks."""
    return (
        await t.w.until(
            lambda: [s for s in t.fake.sent[since:] if s.kind == "channel" and s.buttons],
            "a post with its answer key",
        )
    )[-1]


def test_the_first_menu_offers_exactly_the_legal_orders(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake, world(tmp_path, fake, "tap-first") as w:
            t = await table(w, fake, "hells-gate")
            post = await answer_key(t)
            [key] = post.buttons
            assert key["label"] == "My orders" and key["custom_id"].startswith("pbem:")
            side = t.situation().to_move[0]
            menu = await t.press(t.seats[side], post.message_id, key["custom_id"])
            assert menu.menu is not None and not menu.refused
            walked = await t.walk(t.seats[side], menu)
            assert walked == t.legal(side) == t.offered(side)[0]

    run(scenario())


ATTACK = "attack <HEX> with <UNIT> <UNIT> <UNIT>... [decisive] [flip <UNIT>]"
LOSSES = "losses [<UNIT>...] retreat <UNIT>=<HEX>..."


def attack_by_three(legal: set[str]) -> list[str] | None:
    """A builder's plan for an attack by three units on a hex that three may attack (the
    legal orders list singles and pairs): [hex, "u1 u2 u3", no decisive, no flip]."""
    by_hex: dict[str, set[str]] = {}
    for text in legal:
        words = text.split()
        if words[0] == "attack" and "with" in words:
            by_hex.setdefault(words[1], set()).update(words[words.index("with") + 1 :])
    for hex_, units in sorted(by_hex.items()):
        units -= {"decisive", "flip"}
        if len(units) >= 3:
            return [hex_, " ".join(sorted(units)[:3]), "no", "no"]
    return None


def split_retreat(legal: set[str]) -> list[str] | None:
    """A builder's plan for a retreat of the hit stack split between two hexes: [no step
    losses, u1, h1, u2, h2, ..., done], where the legal orders retreat the stack whole to
    either hex (and list a step loss of each of its units)."""
    hexes = sorted({t.split()[-1] for t in legal if t.startswith("losses retreat ")})
    units = sorted({t.split()[1] for t in legal if t.startswith("losses ") and len(t.split()) == 2})
    if len(hexes) < 2 or len(units) < 2:
        return None
    pairs = [w for n, u in enumerate(units) for w in (u, hexes[n % 2])]
    return ["no", *pairs, "done"]


def fresh_first(rng: random.Random, legal: list[str], fresh: set[str]) -> str:
    """The demo player's choice, but half the time an order of a verb not given yet (so that
    every verb offered in the game is given at least once)."""
    new = [o for o in legal if o.split()[0] in fresh]
    if new and rng.random() < 0.5:
        return rng.choice(new)
    return choose(rng, legal)


async def open_menu(t: Table, user: str, seen: int) -> tuple[Pressed, int]:
    """The player's menu: from the newest post's answer key when one came since `seen` (the
    count of messages looked at), else by `/options`."""
    posts = [s for s in t.fake.sent[seen:] if s.kind == "channel" and s.buttons]
    seen = len(t.fake.sent)
    if posts:
        menu = await t.press(user, posts[-1].message_id, posts[-1].buttons[0]["custom_id"])
        if menu.menu is not None:
            return menu, len(t.fake.sent)
    menu = await t.options(user)
    assert menu.menu is not None, menu.private
    return menu, len(t.fake.sent)


def test_a_whole_hells_gate_game_by_taps_alone(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake, world(tmp_path, fake, "tap-game") as w:
            t = await table(w, fake, "hells-gate")
            rng = random.Random(SEED)
            seen, count, done = 0, 0, {"attack by three": 0, "split retreat": 0, "split seen": 0}
            offered: set[str] = set()  # the verbs of every order and template offered
            given: set[str] = set()  # the verbs of every order the game took
            while not (here := t.situation()).over and count < MAX_ORDERS:
                side = here.to_move[0]
                user = t.seats[side]
                legal = t.legal(side)
                orders, templates = t.offered(side)
                assert orders == legal, (here.label, orders ^ legal)
                offered |= {text.split()[0] for text in [*orders, *templates]}
                menu, seen = await open_menu(t, user, seen)
                rows = t.rows()
                plan = None
                if ATTACK in templates and not done["attack by three"]:
                    plan = ("attack by three", ATTACK, attack_by_three(legal))
                if LOSSES in templates and not done["split retreat"]:
                    plan = ("split retreat", LOSSES, split_retreat(legal))
                    done["split seen"] += plan[2] is not None
                if plan and plan[2]:
                    assert menu.menu is not None
                    await t.build(user, menu.menu, plan[1], plan[2])
                    if t.rows() > rows:
                        done[plan[0]] += 1
                        given.add(plan[1].split()[0])
                        count += 1
                        continue
                    menu, seen = await open_menu(t, user, seen)
                target = fresh_first(rng, sorted(orders), offered - given)
                assert menu.menu is not None
                pressed = await t.give(user, menu.menu, target)
                assert not pressed.refused and t.rows() > rows, (target, pressed.private)
                given.add(target.split()[0])
                count += 1
            assert here.over, f"no result after {count} orders"
            assert offered <= given, (sorted(offered - given), sorted(given))
            assert done["attack by three"], done
            assert done["split retreat"] or not done["split seen"], done
            ok, report, _ = await asyncio.to_thread(w.service.audit, t.game)
            assert ok, report
            await asyncio.to_thread(w.service.verify, t.game)
            print(
                f"hells-gate by taps: {count} orders, {len(fake._interactions)} interactions, "
                f"{done}, verbs {sorted(given)}"
            )

    run(scenario())


async def play(t: Table, rng: random.Random, orders: int) -> int:
    """`orders` orders of the side(s) to move, each pressed down its menu, offers checked."""
    seen = given = 0
    while given < orders and not (here := t.situation()).over:
        side = here.to_move[0]
        legal = t.legal(side)
        offered, _ = t.offered(side)
        assert offered == legal, (here.label, offered ^ legal)
        menu, seen = await open_menu(t, t.seats[side], seen)
        assert menu.menu is not None
        rows = t.rows()
        pressed = await t.give(t.seats[side], menu.menu, choose(rng, sorted(offered)))
        assert not pressed.refused and t.rows() > rows, pressed.private
        given += 1
    return given


@pytest.mark.parametrize("system", ["northern-war", "stalins-war", "borodino"])
def test_a_turn_of_each_other_system_by_taps(tmp_path, system):
    async def scenario():
        async with FakeDiscord() as fake, world(tmp_path, fake, f"tap-{system}") as w:
            t = await table(w, fake, system)
            assert await play(t, random.Random(SEED), 4) == 4
            ok, report, _ = await asyncio.to_thread(w.service.audit, t.game)
            assert ok, report

    run(scenario())


def test_presses_of_others_stale_keys_and_double_presses_change_nothing(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake, world(tmp_path, fake, "tap-refusals") as w:
            t = await table(w, fake, "hells-gate")
            post = await answer_key(t)
            key = post.buttons[0]["custom_id"]
            side = t.situation().to_move[0]
            player = t.seats[side]
            other = next(u for u in t.seats.values() if u != player)
            rows = t.rows()
            for who in (other, "carol"):  # the other side's player, a spectator
                refused = await t.press(who, post.message_id, key)
                assert refused.refused and refused.menu is None
                [answer] = [s for s in fake.sent if s.interaction_id == refused.iid]
                assert answer.ephemeral and "only the player of" in answer.content
            assert t.rows() == rows

            # a stale key: a menu opened, then the game moved on (the phase ended elsewhere)
            stale = await t.options(player)
            fresh = await t.options(player)
            assert stale.menu and fresh.menu
            await t.give(player, fresh.menu, "end")
            rows = t.rows()
            # (its tokens may be dropped already, when the next situation's were issued)
            first = fake.buttons(stale.menu)[0]["custom_id"]
            late = await t.press(player, stale.menu, first)
            assert late.refused and ("no longer valid" in late.private or "earlier" in late.private)
            answers = [s for s in fake.sent if s.interaction_id == late.iid]
            assert all(s.ephemeral for s in answers) and any(
                "Refused" in s.content for s in answers
            )
            assert not fake.buttons(stale.menu)  # the stale menu lost its buttons
            assert t.rows() == rows

            # a double press: both arrive before the buttons are taken away; one order applied
            side = t.situation().to_move[0]
            player = t.seats[side]
            rows = t.rows()
            menu = await t.options(player)
            assert menu.menu is not None
            target = next(o for o in sorted(t.legal(side)) if o != "end")
            hit: list[Key] = []
            while not hit:
                keys = t.keys(menu.menu)
                hit = [k for k in keys if k.tap and k.tap.payload.get("text") == target]
                if not hit:
                    await t.give_step(player, menu.menu, target)
            author = fake.user(player)
            first = await fake.press(menu.menu, hit[0].custom_id, user=author)
            second = await fake.press(menu.menu, hit[0].custom_id, user=author)
            answers = [await t._answered(i, player, menu=True) for i in (first, second)]
            assert sorted(a.refused for a in answers) == [False, True]
            assert t.rows() == rows + 1
            assert not fake.buttons(menu.menu)  # the used menu lost its buttons

    run(scenario())


def test_completion_answers_empty_and_huge_inputs_with_legal_orders(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake, world(tmp_path, fake, "tap-complete") as w:
            t = await table(w, fake, "hells-gate")
            side = t.situation().to_move[0]
            player = t.seats[side]
            legal = t.legal(side)
            _, templates = t.offered(side)
            starts = {tpl.split("<")[0].split("[")[0].strip() + " " for tpl in templates}
            for typed in ("", "x" * 10_000, "att", "attack "):
                iid = await fake.autocomplete("order", "text", typed, user=fake.user(player))
                choices = await fake.wait_choices(iid)
                assert len(choices) <= 25
                assert all(c["value"] in legal or c["value"] in starts for c in choices), choices
                if typed.startswith("att"):
                    assert choices and all(c["value"].startswith("attack") for c in choices)
            assert choices and {c["value"] for c in choices} <= legal | starts
            iid = await fake.autocomplete("order", "text", "", user=fake.user(player))
            assert await fake.wait_choices(iid)  # an empty input: the first orders offered

    run(scenario())


def public(fake: FakeDiscord) -> list[Sent]:
    """What the channel shows everyone: posts, and interaction answers that are not ephemeral."""
    return [s for s in fake.sent if s.kind != "dm" and not s.ephemeral]


def test_hidden_information_stays_out_of_public_buttons_and_completions(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake, world(tmp_path, fake, "tap-hidden") as w:
            t = await table(w, fake, "stalins-war")
            await play(t, random.Random(SEED), 3)
            # free text through a modal: the builder of `roll <N>d<F> <PURPOSE>`
            side = t.situation().to_move[0]
            menu = await t.options(t.seats[side])
            assert menu.menu is not None
            rows = t.rows()
            rolled = await t.build(t.seats[side], menu.menu, "roll <N>d<F> <PURPOSE>", ["2d6", "x"])
            assert len(fake.modals) == 2 and t.rows() == rows + 1, rolled.private
            assert all(m["custom_id"].startswith("pbem:m:") for m in fake.modals.values())
            mine = {side: t.legal(side) for side in t.seats}
            for side, user in t.seats.items():
                others = set().union(*(v for k, v in mine.items() if k != side)) - mine[side]
                iid = await fake.autocomplete("order", "text", "", user=fake.user(user))
                values = {c["value"] for c in await fake.wait_choices(iid)}
                assert not values & others, (side, values & others)
            # a public message carries at most the answer key, whose label and id say nothing
            for sent in public(fake):
                for button in sent.buttons:
                    assert button["label"] in ("My orders", "Answer"), button
                    assert discord_keys.parse(button["custom_id"])[0] == "key"
            # the private menus' orders (hands, blocks) were never said in the channel
            secret = {o for side in t.seats for o in mine[side] if len(o.split()) > 1}
            shown = "\n".join(s.content for s in public(fake))
            private_menus = [s for s in fake.sent if s.ephemeral and s.buttons]
            assert private_menus, "no private menu was offered"
            leaked = [o for o in secret if o in shown]
            assert not leaked, leaked

    run(scenario())


def has_cyrillic(text: str) -> bool:
    return any("а" <= ch.lower() <= "я" for ch in text)


def test_a_russian_interaction_gets_russian_keys_and_gives_the_same_order(tmp_path):
    """A Russian client's menu and completions are Russian (in a channel whose language no one
    set: one set, by `language` or from its creator's client, says every text of it)."""

    async def scenario():
        async with FakeDiscord() as fake, world(tmp_path, fake, "tap-ru") as w:
            # made by a client in a language the bot does not speak: the channel has none set,
            # so each interaction's locale decides what its player alone sees
            t = Table(w, fake, locale="de")
            await t.setup("hells-gate")
            side = t.situation().to_move[0]
            player = t.seats[side]
            legal = t.legal(side)
            t.locale = "en-US"
            english = await t.options(player)
            assert english.menu is not None
            assert not any(has_cyrillic(k.label) for k in t.keys(english.menu))
            t.locale = "ru"  # a Russian client
            menu = await t.options(player)
            assert menu.menu is not None and not menu.refused
            keys = t.keys(menu.menu)
            ways = [
                k
                for k in keys
                if k.tap and (k.tap.kind == "order" or k.tap.payload.get("go", {}).get("prefix"))
            ]
            assert ways and all(has_cyrillic(k.label.split()[0]) for k in ways), [
                k.label for k in keys
            ]
            # completions: Russian labels, the canonical (English) orders as values
            iid = await fake.autocomplete("order", "text", "", user=fake.user(player), locale="ru")
            choices = [c for c in await fake.wait_choices(iid) if c["value"] in legal]
            assert choices, choices
            assert all(has_cyrillic(c["name"].split()[0]) for c in choices), choices
            word = choices[0]["name"].split()[0]
            iid = await fake.autocomplete(
                "order", "text", word[:3], user=fake.user(player), locale="ru"
            )
            typed = await fake.wait_choices(iid)
            verb = choices[0]["value"].split()[0]
            assert typed and all(c["value"].startswith(verb) for c in typed), (word, typed)
            # a press from the Russian menu: the same canonical order, in the log
            target = next(o for o in sorted(legal) if o != "end")
            rows = t.rows()
            pressed = await t.give(player, menu.menu, target)
            assert not pressed.refused and t.rows() == rows + 1, pressed.private
            [row] = w.store.log(t.game, 1)
            assert row.text == target and row.key.startswith("tap:"), (row.text, row.key)
            assert has_cyrillic(pressed.private) or has_cyrillic(
                "\n".join(o.text for o in pressed.outs)
            )

    run(scenario())

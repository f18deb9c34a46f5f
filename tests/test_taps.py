"""Playing by taps, the platform-neutral core (bots/taps.py, bots/taps_menus.py, app/choices.py,
storage/taps.py): the menus a side is offered are its legal orders, a press gives the same order
as typing it, and a press that should not count changes nothing. Driven through the chat service
with plain Incoming messages on real database files (SQLite, and PostgreSQL where it runs); the
platform adapters' own tests drive the real libraries (tests/test_e2e_tap_*.py)."""

from __future__ import annotations

import itertools
import random

import pytest

from app import choices
from app.messages import Incoming, Keyboard, Outgoing
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import legal_texts
from storage import Store, chat_store
from storage import taps as tokens
from tests.test_postgres import PG_URL, PgSchema

GROUP = "-100777"
SYSTEMS = ("hells-gate", "northern-war", "stalins-war", "borodino")


class Table:
    """One group on one platform with a game of `system`: user 1 plays the first side, user 2
    the second, user 3 looks on."""

    _ids = itertools.count(1)

    def __init__(self, store: Store, system: str):
        self.store = store
        self.chat = ChatService(GameService(store), clock=FakeClock(), images=False)
        self.say(1, f"new {system}")
        self.game = chat_store.binding(store, "telegram", GROUP)
        sides = [s.id for s in self.chat.service.system(self.game).sides]
        self.say(1, f"join {sides[0]}")
        self.say(2, f"join {sides[1]}")
        self.say(1, "start")
        self.users = {sides[0]: 1, sides[1]: 2}

    def incoming(self, user: int, text: str = "", **kw) -> Incoming:
        kw.setdefault("message_id", f"m{next(self._ids)}")
        return Incoming("telegram", GROUP, str(user), f"user{user}", text, **kw)

    def say(self, user: int, text: str) -> list[Outgoing]:
        return self.chat.handle(self.incoming(user, text))

    def place(self):
        return self.chat.taps.place(self.game, None, None)

    def waiting(self) -> str:
        here = self.place().situation
        return here.pending[0].side if here.pending else here.to_move[0]

    def log_length(self) -> int:
        return self.store.load(self.game, with_log=False).head_index

    def menu(self, user: int) -> Outgoing:
        (out,) = self.chat.taps.options(self.incoming(user))
        return out

    def press(self, user: int, token: str, values: list[str] | None = None) -> list[Outgoing]:
        return self.chat.taps.press(self.incoming(user), token, values)


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path / "games.db"))
    yield s
    s.close()


def reachable(table: Table, user: int, keyboard: Keyboard, seen: set[str], depth: int = 0) -> None:
    """Every order text the menu leads to by its trie keys (not the template builders)."""
    for key in keyboard.keys:
        tap = tokens.find(table.store, key.token)
        assert tap is not None
        if tap.kind == "order":
            seen.add(tap.payload["text"])
        elif "prefix" in tap.payload.get("go", {}) and tap.payload["go"]["prefix"] and depth < 8:
            (out,) = table.press(user, key.token)
            assert out.keyboard is not None, out.text
            reachable(table, user, out.keyboard, seen, depth + 1)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_menu_offers_exactly_the_legal_orders_of_the_side(store, system):
    table = Table(store, system)
    side = table.waiting()
    menu = table.menu(table.users[side])
    assert menu.private and menu.keyboard is not None
    seen: set[str] = set()
    reachable(table, table.users[side], menu.keyboard, seen)
    place = table.place()
    assert seen == set(legal_texts(place.system, place.state, side))


def test_a_pressed_order_is_the_typed_order_and_a_second_press_is_refused(store):
    table = Table(store, "hells-gate")
    side = table.waiting()
    user = table.users[side]
    out = table.menu(user)
    end = next(k for k in out.keyboard.keys if k.label == "end")
    before = table.log_length()
    first = table.press(user, end.token)
    assert table.log_length() == before + 1
    assert "ends the" in " ".join(o.text for o in first)
    again = table.press(user, end.token)
    assert table.log_length() == before + 1
    assert any("Refused" in o.text for o in again) and all(o.private for o in again)
    row = store.load(table.game).log[-1]  # the same row a typed `end` writes, by the presser
    assert (row.kind, row.actor, row.user, row.text) == ("order", side, f"telegram:{user}", "end")


def test_a_press_by_the_other_side_a_spectator_or_on_a_stale_key_changes_nothing(store):
    table = Table(store, "hells-gate")
    side = table.waiting()
    user = table.users[side]
    other = 3 - user
    out = table.menu(user)
    key = next(k for k in out.keyboard.keys if k.label == "end")
    before = table.log_length()
    for presser in (other, 3):
        said = table.press(presser, key.token)
        assert [o.private for o in said] == [True] and "Refused" in said[0].text
        assert "only the player of" in said[0].text
    assert table.log_length() == before
    table.say(user, "end")  # typed: the situation moves on
    moved = table.log_length()
    stale = table.press(user, key.token)
    assert "earlier moment" in stale[0].text and table.log_length() == moved
    forged = table.press(user, "A" * 16)
    assert "no longer valid" in forged[0].text and table.log_length() == moved


def test_an_attack_by_three_units_is_built_from_the_template_and_applied(store):
    table = Table(store, "hells-gate")
    place = table.place()
    side = table.waiting()
    user = table.users[side]
    texts = legal_texts(place.system, place.state, side)
    targets = {t.split()[1] for t in texts if t.startswith("attack ")}
    out = table.menu(user)
    template = next(k for k in out.keyboard.keys if k.label.startswith("✎ attack"))
    (out,) = table.press(user, template.token)
    hexes = [k for k in out.keyboard.keys if k.label in targets]
    assert {k.label for k in hexes} == targets  # the targets of the side's legal attacks
    (out,) = table.press(user, hexes[0].token)
    units = [k for k in out.keyboard.keys if k.label not in ("« back", "done")]
    for unit in units[:3]:
        (out,) = table.press(
            user, next(k for k in out.keyboard.keys if k.label == unit.label).token
        )
    done = next(k for k in out.keyboard.keys if k.label == "done")
    (out,) = table.press(user, done.token)
    while "Give this order" not in out.text:  # decisive? flip? no
        no = next(k for k in out.keyboard.keys if k.label == "no")
        (out,) = table.press(user, no.token)
    chosen = [u.label for u in units[:3]]
    assert f"attack {hexes[0].label} with " in out.text and all(u in out.text for u in chosen)
    send = next(k for k in out.keyboard.keys if k.label.startswith("send: "))
    before = table.log_length()
    said = " ".join(o.text for o in table.press(user, send.token))
    assert table.log_length() > before or "Refused (rule 8." in said


def test_a_free_part_of_a_template_is_a_line_the_player_writes(store):
    table = Table(store, "stalins-war")
    side = table.waiting()
    user = table.users[side]
    out = table.menu(user)
    roll = next(k for k in out.keyboard.keys if k.label.startswith("✎ roll"))
    (out,) = table.press(user, roll.token)
    assert out.keyboard.free is not None and "<N>d<F>" in out.text
    (out,) = table.press(user, out.keyboard.free, ["2d6"])
    assert out.keyboard.free is not None and "<PURPOSE>" in out.text
    (out,) = table.press(user, out.keyboard.free, ["partisans in Minsk"])
    assert "Give this order? `roll 2d6 partisans in Minsk`" in out.text
    send = next(k for k in out.keyboard.keys if k.label.startswith("send: "))
    before = table.log_length()
    said = " ".join(o.text for o in table.press(user, send.token))
    assert table.log_length() == before + 1, said


def test_completion_matches_prefixes_words_and_russian_and_reads_any_input(store):
    table = Table(store, "hells-gate")
    side = table.waiting()
    user = table.users[side]
    place = table.place()
    legal = set(legal_texts(place.system, place.state, side))
    everything = table.chat.taps.complete(table.incoming(user, ""))
    assert 0 < len(everything) <= 25 and {v for _, v in everything} <= legal | {"attack "}
    attacks = table.chat.taps.complete(table.incoming(user, "att"))
    assert attacks and all(v.startswith("attack") for _, v in attacks)
    russian = table.chat.taps.complete(table.incoming(user, "атака", locale="ru"))
    assert {v for _, v in russian} == {v for _, v in attacks}
    assert all(label.startswith("атака") for label, _ in russian)
    table.say(1, "language en")  # the group speaks English; his client, Russian: his own
    russian = table.chat.taps.complete(table.incoming(user, "ата", locale="ru"))
    assert russian and all(label.startswith("атака") for label, _ in russian)
    assert table.chat.taps.complete(table.incoming(user, "x" * 10_000)) == []
    assert table.chat.taps.complete(table.incoming(3 - user, "")) == []  # not his move
    assert table.chat.taps.complete(table.incoming(3, "")) == []  # a spectator has none


def test_a_post_asks_with_one_key_that_opens_the_side_s_menu_and_is_answered_once_moved(store):
    table = Table(store, "hells-gate")
    side = table.waiting()
    here = table.place().situation
    post = Outgoing("telegram", GROUP, "Soviet to move", asks={"game": table.game,
                    "key": here.key, "side": side})  # fmt: skip
    sent = table.chat.taps.decorate(post)
    assert sent.keyboard is not None and len(sent.keyboard.keys) == 1
    (key,) = sent.keyboard.keys
    assert key.label == "My orders" and side not in key.token
    (menu,) = table.press(table.users[side], key.token)
    assert menu.private and menu.keyboard and len(menu.keyboard.keys) > 1
    refused = table.press(3 - table.users[side], key.token)
    assert "only the player of" in refused[0].text
    decision = Outgoing("telegram", GROUP, "decide", mentions=["1"],
                        asks={"game": table.game, "key": here.key, "side": side, "decision": "y"})  # fmt: skip
    table.say(table.users[side], "end")
    answered = table.chat.taps.decorate(decision)
    assert answered.keyboard is None and answered.mentions == []
    assert answered.text.startswith("(Answered already.)")


def test_tokens_outlive_the_process_and_only_live_ones_are_kept(store, tmp_path):
    table = Table(store, "borodino")
    side = table.waiting()
    user = table.users[side]
    out = table.menu(user)
    live = tokens.count(store, table.game)
    assert live == len(out.keyboard.keys)
    restarted = ChatService(GameService(store), clock=FakeClock(), images=False)
    key = next(k for k in out.keyboard.keys if tokens.find(store, k.token).kind == "order")
    before = table.log_length()
    restarted.taps.press(table.incoming(user), key.token)
    assert table.log_length() > before
    table.menu(table.users[table.waiting()])  # new tokens for the new situation: old ones go
    assert all(
        tokens.find(store, k.token) is None or table.place().situation.key
        for k in out.keyboard.keys
    )


def test_every_menu_of_a_random_game_holds_at_most_25_keys_of_at_most_80_characters(store):
    rng = random.Random(7)
    table = Table(store, "northern-war")
    for _ in range(60):
        here = table.place().situation
        if here.over:
            break
        side = table.waiting()
        user = table.users[side]
        out = table.menu(user)
        for _ in range(8):
            kb = out.keyboard
            assert kb is not None and len(kb.keys) <= 25
            assert all(len(k.label) <= 80 and len(k.token) == 16 for k in kb.keys)
            orders = [k for k in kb.keys if tokens.find(store, k.token).kind == "order"]
            if orders:
                table.press(user, rng.choice(orders).token)
                break
            steps = [k for k in kb.keys if "back" not in k.label]
            if kb.free or not steps:
                table.say(user, "end")
                break
            (out,) = table.press(user, rng.choice(steps).token)
        else:
            table.say(user, "end")


def test_the_builder_of_a_template_writes_pairs_paths_and_options():
    names = {"hex": ["C6", "D6"], "unit": ["20tk", "75rc", "5ss"]}
    build = choices.Build("losses [<UNIT>...] retreat <UNIT>=<HEX>...")
    q = choices.ask(build, lambda k, _: names.get(k))
    assert q.kind == "yes"
    choices.answer(build, ["no"])
    assert choices.ask(build, lambda k, _: names.get(k)).options == ("20tk", "75rc", "5ss")
    for value in ("20tk", "D6", "75rc", "C6"):
        choices.answer(build, [value])
    q = choices.ask(build, lambda k, _: names.get(k))
    assert q.kind == "one" and q.more
    choices.answer(build, [])
    assert choices.ask(build, lambda k, _: names.get(k)).text == "losses retreat 20tk=D6 75rc=C6"
    move = choices.Build("move <BLOCK>[,<BLOCK>...] <AREA> [<AREA>...]")
    for value in ("s1", "s2", None, "pskov", "novgorod", None):
        choices.ask(
            move, lambda k, _: ["s1", "s2", "s3"] if k == "block" else ["pskov", "novgorod"]
        )
        choices.answer(move, [] if value is None else [value])
    assert choices.ask(move, lambda k, _: None).text == "move s1,s2 pskov novgorod"


@pytest.mark.skipif(PG_URL is None, reason="PBEM_TEST_PG is not set: no PostgreSQL server to use")
def test_tokens_on_postgresql_are_used_once():
    schema = PgSchema(PG_URL)
    store = Store(schema.url)
    try:
        table = Table(store, "hells-gate")
        user = table.users[table.waiting()]
        out = table.menu(user)
        end = next(k for k in out.keyboard.keys if k.label == "end")
        assert tokens.use(store, end.token, now=table.chat.now())
        assert not tokens.use(store, end.token, now=table.chat.now())
    finally:
        store.close()
        schema.drop()


def sandbox(store: Store) -> Table:
    """A sandbox Hell's Gate game (its moderator fixes the dice), seated as `Table` seats one."""
    table = Table.__new__(Table)
    table.store = store
    table.chat = ChatService(GameService(store), clock=FakeClock(), images=False)
    table.say(1, "new hells-gate sandbox")
    table.game = chat_store.binding(store, "telegram", GROUP)
    for user, side in ((1, "soviet"), (2, "german")):
        table.say(user, f"join {side}")
    table.say(1, "start")
    table.users = {"soviet": 1, "german": 2}
    return table


def tap(table: Table, user: int, out: Outgoing, label: str) -> Outgoing:
    """Press the key of `out` whose label is `label` (or starts with it); the one menu back."""
    key = next(k for k in out.keyboard.keys if k.label == label or k.label.startswith(label))
    (menu,) = table.press(user, key.token)
    return menu


def test_8_30_a_retreat_split_between_two_hexes_is_built_from_the_template(store):
    table = sandbox(store)
    table.say(1, "dice 6")  # two hits on B7's stack: a step, then the retreat
    said = table.say(1, "attack B7 with 20tk 29tk decisive flip 20tk")[0].text
    assert "German must apply 2 hits in B7" in said and "A6 or C6" in said
    german = table.users["german"]
    menu = tap(table, german, table.menu(german), "✎ losses")
    menu = tap(table, german, menu, "add: <UNIT>...")  # a step loss first
    menu = tap(table, german, tap(table, german, menu, "106id"), "done")
    for name in ("3pz", "A6", "106id", "C6"):  # each unit of the stack, and its hex
        menu = tap(table, german, menu, name)
    menu = tap(table, german, menu, "done")
    assert "Give this order? `losses 106id retreat 3pz=A6 106id=C6`" in menu.text
    before = table.log_length()
    (out, *_) = table.press(
        german, next(k for k in menu.keyboard.keys if k.label.startswith("send")).token
    )
    assert table.log_length() == before + 1, out.text
    row = store.load(table.game).log[-1]
    assert (row.actor, row.text) == ("german", "losses 106id retreat 3pz=A6 106id=C6")
    assert "A6" in out.text and "C6" in out.text

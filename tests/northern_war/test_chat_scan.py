"""The hidden-information scan through the chat service for the block game, over 10 games (the
contract suite plays one): two chat games with the same messages whose hidden seeds differ;
what each audience (group, each side, spectator, moderator) receives must be the same once the
values it may know are masked (the players besiege where they can, so that hidden siege dice
are drawn early). The games are compared while their public views agree: once a
hidden draw (a siege) gives a different public result, the games part legitimately. A planted
leak (a hidden draw told to the group) is found."""

from __future__ import annotations

import random
from dataclasses import replace

from adjudicator.core.driver import MODERATOR
from adjudicator.core.events import Event, Viewer
from adjudicator.northern_war import board
from adjudicator.northern_war.contract import DRIVER as NORTHERN_WAR
from adjudicator.northern_war.system import SYSTEM, NorthernWar
from app.service import GameService
from bots.demo import choose, legal_texts
from contract.drivers import registered
from contract.leaks import hidden_leaks
from contract.table import GROUP, UID, Run, Seeds, Table
from storage import Store

GAMES = 10
DRIVER = replace(NORTHERN_WAR, chat_orders=9, ask_every=9)


class PublicTable(Table):
    """A table that also keeps, step by step, the public view of the game."""

    def __init__(self, *args):
        super().__init__(*args)
        self.public: list = []

    def remember(self, state) -> None:
        super().remember(state)
        seen = None if state is None else self.system.view(state, Viewer.public())
        self.public.append(None if seen is None else self.system.state_to_json(seen))


def besieging_game(table: Table, rng: random.Random) -> None:
    """chat_game's random legal play, but a player besieges where he can and marches on an
    empty enemy fortress when he may (so that hidden siege dice are drawn early)."""
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
        sc = table.system.scenario
        sieges = [t for t in texts if t.startswith("siege ")]
        marches = [t for t in texts if t.startswith("move ") and _target(sc, state, side, t)]
        pick = sieges or (marches if rng.random() < 0.7 else [])
        table.send(d.seats[side], GROUP, rng.choice(pick) if pick else choose(rng, texts))


def _target(sc, state, side: str, text: str) -> bool:
    dest = text.split()[-1]
    terr = sc.territories[dest]
    return terr.fortress > 0 and state.control[dest] != side and not board.on_map(sc, state, dest)


def one_run(d, hidden: str, seed: int, script=None) -> tuple[Run, list]:
    store = Store(":memory:")
    try:
        service = GameService(store, seeds=Seeds(hidden), uids=lambda: UID)
        table = PublicTable(d, service, Run())
        if script is None:
            besieging_game(table, random.Random(seed))
        for user, where, text in script or ():
            table.send(user, where, text)
        return table.run, table.public
    finally:
        store.close()


def pair(d, seed: int) -> tuple[Run, Run, bool]:
    """Two runs cut where their public views part; whether the hidden values differed."""
    a, pa = one_run(d, "a" * 64, seed)
    b, pb = one_run(d, "b" * 64, seed, a.script)
    cut = next((n for n, (x, y) in enumerate(zip(pa, pb, strict=False)) if x != y), len(pa))
    for run in (a, b):
        run.over_at = cut if run.over_at is None else min(run.over_at, cut)
    return a, b, a.masks[:cut] != b.masks[:cut]


def test_2_19_n24_nothing_anyone_receives_in_10_chat_games_depends_on_a_hidden_value():
    differed = 0
    with registered(DRIVER) as d:
        for seed in range(GAMES):
            a, b, hidden_differ = pair(d, seed)
            assert a.script == b.script and a.over_at > 9, seed
            assert hidden_leaks(a, b) == [], seed
            differed += hidden_differ
    assert differed >= 1  # the hidden seeds did give different hidden values


class LeakyDraw(NorthernWar):
    """A planted leak: a hidden die drawn when the first entry phase ends, told to the group."""

    def apply(self, state, actor, order, dice):
        out = super().apply(state, actor, order, dice)
        if state.phase == "entry":
            value = dice.die(6, "leak", hidden=True)
            out.events.append(Event("Leak", f"The hidden die shows {value}.", {}))
        return out


def test_the_chat_scan_finds_a_hidden_draw_put_into_a_group_message():
    kind = replace(SYSTEM, id="leaky-northern-war", name="Leaky", rules=LeakyDraw)
    leaky = replace(DRIVER, system_id=kind.id, chat_orders=2)
    with registered(leaky, kind) as d:
        found = [x for x in hidden_leaks(*pair(d, 0)[:2]) if "hidden die shows" in x]
    assert any(x.startswith("group: ") for x in found), found

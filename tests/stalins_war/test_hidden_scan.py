"""Hidden hands: a scan of 200 random games at the engine and view level (no images) and 10
through the chat service (plus 2 by the contract's two-seed method), planted leaks that make
the scans fail, the fuzz of random legal
plays, and the export of a running game (no card of any hand) and of a finished one (audit)."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from importlib import resources

from adjudicator.core.dice import HashDice
from adjudicator.core.driver import MODERATOR
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Event, Viewer
from adjudicator.stalins_war import rounds, texts, turns
from adjudicator.stalins_war.contract import DRIVER
from adjudicator.stalins_war.orders import End
from adjudicator.stalins_war.state import other
from adjudicator.stalins_war.system import StalinsWar
from app import audit
from app.service import GameService
from bots.demo import choose, legal_texts
from contract.leaks import hidden_leaks
from contract.table import GROUP, Run, Table, two_runs
from storage import Store
from tests.stalins_war.helpers import system

SPENDS = (
    "spend combat h{n}",
    "spend strategic u{n}",
    "spend leave z{n} a{n} stays b{n}",
)  # rules 2: who stays (8.4)


def short(turns: int = 2, rules: type = StalinsWar) -> StalinsWar:
    return rules(replace(system().deck, turns=turns))


def secret_labels(sw: StalinsWar, state, side: str) -> set[str]:
    """Labels of `side`'s cards the opponent may not know: in hand (but the automatic Soviet
    cards, 16.5) or discarded face down."""
    p = state.players[side]
    public = set(p.set_aside) | {n for n, up in p.discard if up} | set(p.removed)
    public |= {n for r in state.played if r["side"] == side and (n := r["card"]) is not None}
    hidden = {n for n in p.hand if n > 6 or side == "axis"} | {n for n, up in p.discard if not up}
    return {sw.deck.card(side, n).label for n in hidden - public}


def scan_game(sw: StalinsWar, seed: int) -> list[str]:
    rng, dice = random.Random(seed), HashDice(seed)
    state, found = sw.initial(False, dice).state, []
    while not sw.situation(state).over:
        side = sw.situation(state).to_move[0]
        texts = legal_texts(sw, state, side)
        if state.open is not None and state.open.ops and rng.random() < 0.5:
            texts = [rng.choice(SPENDS).format(n=rng.randrange(9))]
        try:
            out = sw.apply(state, side, sw.grammar.parse(choose(rng, texts)), dice)
        except Rejection:  # a random spend the rules refuse (8.14, 8.16): end the round
            out = sw.apply(state, side, End(), dice)
        for owner in ("axis", "soviet"):
            secret = secret_labels(sw, out.state, owner)
            seen = sw.view(out.state, Viewer.of([o for o in ("axis", "soviet") if o != owner]))
            shown = "\n".join(
                e.text for e in out.events if e.audience.sees(Viewer.of([other(owner)]))
            )
            found += [f"seed {seed}: {label}" for label in secret if label in shown]
            p = seen.players[owner]
            assert p.hand == [] and p.hidden == len(out.state.players[owner].hand)
            assert set(p.deck) <= {None} and all(n is None for n, up in p.discard if not up)
        state = out.state
    return found


def test_16_1_to_16_6_200_random_games_show_no_hidden_card_to_the_opponent():
    sw = short()
    leaks = [leak for seed in range(200) for leak in scan_game(sw, seed)]
    assert leaks == []


class LeakyDraw(StalinsWar):
    """The canary: a public draw names the cards drawn."""

    def apply(self, state, actor, order, dice):
        out = super().apply(state, actor, order, dice)
        for n, e in enumerate(out.events):
            if e.kind == "HandShown":
                p = out.state.players[e.data["side"]]
                text = "Drawn: " + ", ".join(
                    self.deck.card(e.data["side"], c).label for c in p.hand
                )
                out.events[n] = Event("CardsDrawn", text)
        return out


def test_16_1_a_planted_leak_makes_the_scan_fail():
    assert scan_game(short(rules=LeakyDraw), 1)


def test_16_7_chat_games_differing_only_in_the_hidden_seed_tell_nobody_a_hand():
    """The contract's method (the same messages, another hidden seed): 0-OPS rounds and draws
    only, since a card named in one game is not in the other's hand."""
    d = replace(DRIVER, chat_orders=7, ask_every=6)
    for n in range(1):
        run_a, run_b = two_runs(d, (f"{n}a".ljust(64, "a"), f"{n}b".ljust(64, "b")))
        assert run_a.masks != run_b.masks
        assert hidden_leaks(run_a, run_b) == []


def chat_scan(seed: int, orders: int) -> list[str]:
    """One chat game of random legal orders, card plays included, with the questions of the
    group, a spectator, the moderator and each side (in the group and in private): after each
    message, no text anyone got names a card of a hand he may not see (a card once played face
    up may be named again: the log tells it)."""
    service = GameService(Store(":memory:"))
    d = DRIVER
    table, rng, found, done = Table(d, service, Run()), random.Random(seed), [], {}
    table.send(MODERATOR, GROUP, "new stalins-war")
    for side, user in d.seats.items():
        table.send(user, GROUP, f"join {side}")
    table.send(MODERATOR, GROUP, "start")
    ever_public: set[str] = set()
    for n in range(orders):
        if n % 5 == 4:
            table.questions()
        state = table.state()
        side = table.system.situation(state).to_move[0]
        table.send(d.seats[side], GROUP, choose(rng, legal_texts(table.system, state, side)))
        state, sw = table.state(), table.system
        for owner in ("axis", "soviet"):
            ever_public |= {
                sw.deck.card(owner, r["card"]).label
                for r in state.played
                if r["side"] == owner and r["card"] is not None
            }
        for audience, got in table.run.received.items():
            blind = [s for s in ("axis", "soviet") if audience != f"side:{s}"]
            secret = set().union(*(secret_labels(sw, state, s) for s in blind)) - ever_public
            for _, text in got[done.get(audience, 0) :]:
                found += [f"{audience}: {label} in {text!r}" for label in secret if label in text]
            done[audience] = len(got)
    return found


def test_16_1_to_16_6_ten_chat_games_with_card_plays_tell_nobody_a_hand():
    assert [leak for seed in range(10) for leak in chat_scan(seed, 10)] == []


def test_16_1_the_chat_scan_finds_a_hand_told_to_the_group(monkeypatch):
    def leaky(deck, side, p, why, rules=1):  # the canary: the hand goes to everyone
        return Event("HandShown", texts.hand_text(deck, side, p, why, rules))

    monkeypatch.setattr(turns, "hand_event", leaky)
    monkeypatch.setattr(rounds, "hand_event", leaky)
    leaks = chat_scan(1, 3)
    assert any(leak.startswith("group: ") for leak in leaks)
    assert any(leak.startswith("side:soviet: ") and "Axis" in leak for leak in leaks)


def test_fuzz_random_legal_plays_keep_the_books():
    sw = short(3)
    for seed in range(10):
        rng, dice = random.Random(seed), HashDice(seed)
        state = sw.initial(False, dice).state
        while not sw.situation(state).over:
            side = sw.situation(state).to_move[0]
            state = sw.apply(state, side, rng.choice(sw.legal_orders(state, side)), dice).state
            for owner, p in state.players.items():
                cards = p.hand + p.deck + [n for n, _ in p.discard] + p.removed + p.set_aside
                assert len(cards) == len(set(cards))  # no card twice (3.6)
                tw = set(sw.deck.group(owner, "total-war"))
                assert set(cards) | (tw if not p.total_war else set()) >= set(cards)
                assert p.count >= 0 and p.rp_plays <= 2
                assert sw.state_from_json(json.loads(json.dumps(sw.state_to_json(state)))) == state
            assert state.round in range(1, 6)


def test_16_7_export_holds_no_hand_before_the_end_and_audits_every_shuffle_after(tmp_path):
    store = Store(":memory:")
    service = GameService(store)
    deck = system().deck
    source = (resources.files("adjudicator.stalins_war") / "sample_deck.toml").read_text("utf-8")
    (tmp_path / "deck.toml").write_text(source.replace("turns = 18", "turns = 2"), "utf-8")
    service.new_game("sw", tmp_path / "deck.toml", system="stalins-war")
    assert deck.turns == 18
    rng = random.Random(4)
    for _ in range(8):
        state = service.state("sw")
        side = service.system("sw").situation(state).to_move[0]
        (reply, *_) = service.say(
            "sw", side, choose(rng, legal_texts(service.system("sw"), state, side))
        )
        assert reply.ok, reply.reply
    sw, state = service.system("sw"), service.state("sw")
    service.export("sw", tmp_path / "running.jsonl")
    text = (tmp_path / "running.jsonl").read_text("utf-8")
    for side in ("axis", "soviet"):
        for label in secret_labels(sw, state, side):
            assert label not in text, label
        hand = sorted(state.players[side].hand)
        assert json.dumps(hand) not in text and "Your hand" not in text
    ok, report = audit.verify_file(tmp_path / "running.jsonl")
    assert "sealed until the game ends" in report, report
    while not sw.situation(state := service.state("sw")).over:
        side = sw.situation(state).to_move[0]
        assert service.say("sw", side, choose(rng, legal_texts(sw, state, side)))[0].ok
    service.export("sw", tmp_path / "over.jsonl")
    ok, report = audit.verify_file(tmp_path / "over.jsonl")
    assert ok, report
    found = re.search(r"hidden seed revealed, (\d+) hidden value", report)
    assert found and int(found.group(1)) > 50, report
    store.close()

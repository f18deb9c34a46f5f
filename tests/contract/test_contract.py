"""The contract every game system passes (adjudicator/core/system.py states it), checked for each
system with a driver (conftest.py): the grammar round trip, the one gate in both directions, the
log's replay, a result within a bound, the deadline default, and that nothing anyone receives
depends on a hidden value he may not see (two chat games differing only in the hidden seed,
compared audience by audience by `hidden_leaks`; a canary shows the scan finds a leak). For the
hidden duel: an export holds no secret before the end and recomputes every hidden draw after it.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import replace

import pytest

from adjudicator.core import commands as C
from adjudicator.core import registry
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.grammar import ParseError
from app import audit
from app.service import GameService, ReplayMismatch
from storage import Store, state_hash
from storage.audit import read_export
from tests.contract.conftest import (
    DRIVERS,
    UID,
    Run,
    Seeds,
    bound_system,
    direct_play,
    registered,
    service_play,
    two_runs,
)
from tests.systems import duel

SHARED = (C.Salt, C.Rolls, C.Audit, C.Undo, *C.MODERATION, *C.SHARED_QUERIES, *C.SHARED_ORDERS)
DIGEST = re.compile(r"[0-9a-f]{16,}")  # commitments, head hashes (whole or cut), the game uid
NUMBERS = tuple(str(n) for n in range(13))
MUTANTS = 30  # mutated texts tried in each sampled state


def test_every_installed_system_has_a_driver():
    assert {s.id for s in registry.systems()} <= set(DRIVERS)


# -- the grammar and the one gate, on the rules alone
def test_every_legal_order_survives_the_grammar_round_trip(driver):
    system = bound_system(driver)
    for seed in (1, 2):
        for state, side, _ in direct_play(system, seed, driver.bound):
            for order in system.legal_orders(state, side):
                text = system.grammar.format(order)
                assert system.grammar.parse(text) == order, text


def test_every_listed_order_is_accepted_and_leaves_the_state_alone(driver):
    system, rng = bound_system(driver), random.Random(3)
    for state, side, dice in direct_play(system, 3, driver.bound):
        before = system.state_to_json(state)
        assert system.state_from_json(json.loads(json.dumps(before))) == state  # plain JSON
        legal = system.legal_orders(state, side)
        assert legal, f"{side} is to move but may give no order"
        for order in rng.sample(legal, min(4, len(legal))):
            system.apply(state, side, order, dice)  # a Rejection fails the test
        assert system.state_to_json(state) == before


def test_no_order_outside_the_gate_is_accepted(driver):
    system, rng = bound_system(driver), random.Random(4)
    words, examples = vocabulary(system), help_examples(system)
    tried = 0
    for n, (state, side, dice) in enumerate(direct_play(system, 4, driver.bound)):
        if n % max(1, driver.bound // 100):
            continue  # about a hundred states of a game
        texts = examples + [system.grammar.format(o) for o in system.legal_orders(state, side)]
        for text in (mutant(rng, rng.choice(texts), words) for _ in range(MUTANTS)):
            order = rules_order(system, text)
            for actor in [s.id for s in system.sides] if order is not None else ():
                tried += 1
                assert_in_gate(system, state, actor, order, dice, text)
    assert tried > 0


def vocabulary(system) -> list[str]:
    """Words to put in an order: the lexicon's ids, the sides, numbers, the usage's words."""
    lexicon = getattr(system.grammar, "lexicon", None)
    ids = [i for k in (lexicon.kinds if lexicon else ()) for i in lexicon.ids(k)]
    usage = {w for u, _ in system.grammar.commands.values() for w in re.findall(r"\b[a-z]+\b", u)}
    return [*ids, *(s.id for s in system.sides), *NUMBERS, *sorted(usage)]


def help_examples(system) -> list[str]:
    return [e for _, t in system.grammar.commands.values() for e in re.findall(r"Example: (.+)", t)]


def mutant(rng: random.Random, text: str, words: list[str]) -> str:
    said = text.split()
    for _ in range(rng.choice((0, 1, 1, 2))):  # 0: the text as it is
        i = rng.randrange(len(said) + 1)
        if i == len(said) or rng.random() < 0.2:
            said.insert(i, rng.choice(words))
        elif rng.random() < 0.1 and len(said) > 1:
            del said[i]
        else:
            said[i] = rng.choice(words)
    return " ".join(said)


def rules_order(system, text: str):
    """The order a text parses to, if it is one for the rules (not shared, not a question)."""
    try:
        order = system.grammar.parse(text)
    except ParseError:
        return None
    return None if isinstance(order, SHARED) or system.kind_of(order) != "order" else order


def assert_in_gate(system, state, actor, order, dice, text) -> None:
    try:
        out = system.apply(state, actor, order, dice)
    except Rejection:
        return
    legal = system.legal_orders(state, actor)
    templates = [template_re(t) for t in system.order_templates(state, actor)]
    canonical = system.grammar.format(order)
    assert order in legal or out.order in legal or any(t.fullmatch(canonical) for t in templates), (
        f"{actor}: {text!r} was accepted, but legal_orders lists it not, nor does a template"
    )


def template_re(template: str) -> re.Pattern:
    """A template as a pattern: <NAME> stands for any text, [...] is optional, ... repeats."""
    parts = re.split(r"( ?\[|\]|\.\.\.|<[^>]+>)", template)
    signs = {" [": "(?: ", "[": "(?:", "]": ")?", "...": ".*"}
    return re.compile(
        "".join(signs.get(p) or (".+" if p[:1] == "<" else re.escape(p)) for p in parts)
    )


# -- through the service
@pytest.fixture(scope="module")
def played(driver):
    """A game of random legal orders through the service, to its end; verified on the way."""
    store = Store(":memory:")
    # fixed dice (the seeds and the game's uid fix them): the game lasts past the midway check
    service = GameService(store, seeds=Seeds("d" * 64), uids=lambda: UID)
    name = driver.new_game(service, "contract")
    midway: list = []

    def verify_once(n: int) -> None:
        if n == 5:
            try:
                midway.append(service.verify(name))
            except ReplayMismatch as exc:
                midway.append(f"midway: {exc}")

    orders = service_play(service, name, random.Random(5), driver.bound, before=verify_once)
    yield service, name, orders, midway
    store.close()


def test_random_legal_play_through_the_service_reaches_a_result(driver, played):
    service, name, orders, _ = played
    result = service.system(name).situation(service.state(name)).result
    assert result is not None and orders <= driver.bound
    assert "winner" in result


def test_replaying_the_log_gives_the_stored_state(played):
    service, name, _, midway = played
    assert midway == [None]  # verified once midway: it raised nothing
    service.verify(name)


def test_the_deadline_default_is_always_legal(driver, store):
    service, rng = GameService(store), random.Random(6)
    name = driver.new_game(service, "defaults")
    given: list[str] = []

    def default(n: int) -> None:
        if rng.random() < 0.3:
            system = service.system(name)
            text = system.grammar.format(system.default_order(service.state(name)))
            (reply, *_) = service.say(name, "system", text)
            assert reply.ok, (text, reply.reply)
            given.append(text)

    service_play(service, name, rng, min(driver.bound, 40), before=default, finish=False)
    assert given


# -- hidden information
def test_the_duel_view_hides_the_deck_order_and_the_hand_of_another_side(duel_driver):
    system = bound_system(duel_driver)
    states = [state for state, _, _ in direct_play(system, 9, duel_driver.bound)]
    state = next(s for s in states if s.hands["north"] is not None)
    seen = system.view(state, Viewer.of(["south"]))
    assert seen.deck == [None] * len(state.deck) and seen.hands["north"] is None
    assert system.view(state, Viewer.of(["north"])).hands == state.hands
    assert system.view(state, Viewer.of([], over=True)) == state
    assert (seen.score, seen.plays) == (state.score, state.plays)


def hidden_leaks(run_a: Run, run_b: Run) -> list[str]:
    """What differs between two runs, message by message for each audience, once what may
    differ is normalised: digests and the uid, and the hidden values the audience may know at
    that step (the driver's masks); what is told once the game is over is not compared (nothing
    is hidden then)."""
    found = []
    for audience in sorted(set(run_a.received) | set(run_b.received)):
        a, b = seen_by(run_a, audience), seen_by(run_b, audience)
        for i, (x, y) in enumerate(itertools.zip_longest(a, b)):
            if x != y:
                found.append(f"{audience}: message {i + 1} differs: {x!r} / {y!r}")
    return found


def seen_by(run: Run, audience: str) -> list[str]:
    side = audience.removeprefix("side:") if audience.startswith("side:") else None
    end = run.over_at if run.over_at is not None else len(run.masks)
    return [
        masked(t, run.masks[s].get(side, {})) for s, t in run.received.get(audience, []) if s < end
    ]


def masked(text: str, masks: dict[str, str]) -> str:
    text = DIGEST.sub("<digest>", text)
    for old in sorted(masks, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", masks[old], text)
    return text


def test_nothing_anyone_receives_depends_on_a_hidden_value_he_may_not_see(driver):
    run_a, run_b = two_runs(driver)
    assert run_a.script == run_b.script
    assert {"group", "spectator", "moderator"} <= set(run_a.received)
    if driver.hidden:  # the hidden values differ indeed, or the comparison proves nothing
        assert run_a.masks != run_b.masks
    assert hidden_leaks(run_a, run_b) == []


class LeakyDuel(duel.Duel):
    """The canary: the public news of north's second draw says which card it is."""

    def drawn_publicly(self, side, card, new):
        event = super().drawn_publicly(side, card, new)
        if side == "north" and new.turn == 2:
            return replace(event, text=f"{side} draws a card: the {card}.")
        return event


def test_the_scan_finds_a_hidden_value_put_into_one_group_message(duel_driver):
    kind = replace(duel.SYSTEM, id="leaky-duel", name="Leaky duel", rules=LeakyDuel)
    with registered(replace(duel_driver, system_id=kind.id, kind=kind)) as leaky:
        run_a, run_b = two_runs(leaky)
    canary = [leak for leak in hidden_leaks(run_a, run_b) if "draws a card: the" in leak]
    assert any(leak.startswith("group: ") for leak in canary), canary
    assert not any(leak.startswith("side:north: ") for leak in canary), canary  # north knows it
    assert registry.get(duel.SYSTEM.id) and kind.id not in {s.id for s in registry.systems()}


# -- the export of a game with hidden information
def test_an_export_holds_no_secret_before_the_end_and_recomputes_every_hidden_draw_after(
    duel_driver, store, tmp_path
):
    service, rng = GameService(store), random.Random(8)
    name = duel_driver.new_game(service, "duel")
    service_play(service, name, rng, 7, finish=False)  # turn 1, and north's draw of turn 2
    state = service.state(name)
    assert state.hands["north"] is not None and state.shuffled
    _, report = exported(service, name, tmp_path / "running.jsonl")  # a replay waits for the end
    assert "OK: the chain holds" in report and "sealed until the game ends" in report, report
    text = (tmp_path / "running.jsonl").read_text("utf-8")
    for secret in secrets_of(service.system(name), state):
        assert secret not in text and secret not in report, secret
    service_play(service, name, rng, 40)
    ok, report = exported(service, name, tmp_path / "over.jsonl")
    assert ok, report
    found = re.search(r"hidden seed revealed, (\d+) hidden values? checked", report)
    assert found, report
    system = service.system(name)
    swaps, draws = len(system.deck) - 1, 2 * system.turns  # the shuffle, the cards drawn
    assert int(found.group(1)) == hidden_entries(tmp_path / "over.jsonl") == swaps + draws


def exported(service: GameService, name: str, path) -> tuple[bool, str]:
    service.export(name, path)
    return audit.verify_file(path)


def secrets_of(system, state: duel.DuelState) -> list[str]:
    """The hand and the deck as the export could show them (texts, JSON, a state hash)."""
    card, deck = state.hands["north"], state.deck
    drawn = [p[0] for plays in zip(state.plays["north"], state.plays["south"]) for p in plays]
    order = [*drawn, card, *deck]  # the shuffled deck as the first draw left it
    return [
        f"You draw the {card}", f"the {card}.", f'"card": {card}', f'"card":{card}',
        json.dumps(deck), json.dumps(deck, separators=(",", ":")),
        json.dumps(order), json.dumps(order, separators=(",", ":")),
        state_hash(system.state_to_json(state)),
    ]  # fmt: skip


def hidden_entries(path) -> int:
    """The hidden draws and private events of an export: what the audit must check."""
    _, rows = read_export(path)
    payloads = [r.get("payload") or {} for r in rows]
    draws = sum(1 for p in payloads for roll in p.get("rolls", []) if roll.get("hidden"))
    return draws + sum(len(p.get("hidden", [])) for p in payloads)

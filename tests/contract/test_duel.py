"""The suite's own checks on the hidden duel (tests/systems/duel.py): its view hides what it must,
the scan of two chat runs finds a leak planted in one group message (the canary), and an export
holds no secret before the end and recomputes every hidden draw after it."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

from adjudicator.core import registry
from adjudicator.core.events import Viewer
from app import audit
from app.service import GameService
from contract import drivers
from contract.leaks import hidden_leaks
from contract.play import bound_system, direct_play, new_game, service_play
from contract.table import two_runs
from storage import state_hash
from storage.audit import read_export
from tests.systems import duel


def test_the_duel_view_hides_the_deck_order_and_the_hand_of_another_side(duel_driver):
    system = bound_system(duel_driver)
    states = [state for state, _, _ in direct_play(system, 9, duel_driver.bound)]
    state = next(s for s in states if s.hands["north"] is not None)
    seen = system.view(state, Viewer.of(["south"]))
    assert seen.deck == [None] * len(state.deck) and seen.hands["north"] is None
    assert system.view(state, Viewer.of(["north"])).hands == state.hands
    assert system.view(state, Viewer.of([], over=True)) == state
    assert (seen.score, seen.plays) == (state.score, state.plays)


class LeakyDuel(duel.Duel):
    """The canary: the public news of north's second draw says which card it is."""

    def drawn_publicly(self, side, card, new):
        event = super().drawn_publicly(side, card, new)
        if side == "north" and new.turn == 2:
            return replace(event, text=f"{side} draws a card: the {card}.")
        return event


def test_the_scan_finds_a_hidden_value_put_into_one_group_message(duel_driver):
    kind = replace(duel.SYSTEM, id="leaky-duel", name="Leaky duel", rules=LeakyDuel)
    with drivers.registered(replace(duel_driver, system_id=kind.id), kind) as leaky:
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
    name = new_game(duel_driver, service, "duel")
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
        f"You draw the {card}",
        f"the {card}.",
        f'"card": {card}',
        f'"card":{card}',
        json.dumps(deck),
        json.dumps(deck, separators=(",", ":")),
        json.dumps(order),
        json.dumps(order, separators=(",", ":")),
        state_hash(system.state_to_json(state)),
    ]


def hidden_entries(path) -> int:
    """The hidden draws and private events of an export: what the audit must check."""
    _, rows = read_export(path)
    payloads = [r.get("payload") or {} for r in rows]
    draws = sum(1 for p in payloads for roll in p.get("rolls", []) if roll.get("hidden"))
    return draws + sum(len(p.get("hidden", [])) for p in payloads)

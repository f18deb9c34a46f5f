"""The contract driver of Stalin's War: hidden hands and decks (a card dealer).

The chat runs replay the first run's texts in the second, whose hands differ: an order naming a
card would be refused there. So the chat players choose among the legal orders that name no card
(0-OPS rounds, `end`, `draw`); tests/stalins_war/test_hidden_scan.py scans card plays of every
kind, at the engine and view level and through the chat service."""

from __future__ import annotations

import random
import re
from typing import Any

from bots.demo import choose, legal_texts
from tests.contract.drivers import Driver, Masks


def stalins_war_masks(state: Any, side: str | None) -> Masks:
    """What a viewer may know of the hidden cards: the cards played face up and removed
    (everyone, 16.2), and his own hand (its side), as the system prints them."""
    from adjudicator.stalins_war.data import load_deck

    deck = _deck(load_deck)
    masks: Masks = {}
    for owner, p in state.players.items():
        for number, up in p.discard:
            if up and number is not None:
                masks[deck.card(owner, number).label] = f"<{owner} card>"
        for number in p.removed:
            masks[deck.card(owner, number).label] = f"<{owner} card>"
    if side is not None:
        for number in state.players[side].hand:
            card = deck.card(side, number)
            masks[card.line()] = f"<{side} card>"
            masks[card.label] = f"<{side} card>"
        listed = ", ".join(f"#{n}" for n in sorted(state.players[side].hand))
        masks[f"Your hand: {listed} (`hand` for the cards)."] = f"<{side}'s hand>"  # status
    return masks


def no_card_named(rng: random.Random, system: Any, state: Any, side: str) -> str:
    texts = [t for t in legal_texts(system, state, side) if not re.search(r"(?<![a-z])\d", t)]
    return choose(rng, texts)


_DECK: list[Any] = []


def _deck(load: Any) -> Any:
    if not _DECK:
        from importlib import resources

        text = resources.files("adjudicator.stalins_war").joinpath("sample_deck.toml")
        _DECK.append(load(text.read_text("utf-8"), "sample_deck.toml"))
    return _DECK[0]


DRIVERS = (
    Driver(
        "stalins-war",
        None,
        {"axis": 2, "soviet": 3},
        900,
        30,
        3,
        masks=stalins_war_masks,
        script_order=no_card_named,
    ),
)

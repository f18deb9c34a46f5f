"""The contract driver of Stalin's War (entry point `pbem.contract`): hidden hands and decks.

The chat runs replay the first run's texts in the second, whose hands differ: an order naming a
card would be refused there. So the chat players keep to the legal orders that name no card
(0-OPS rounds, `end`, `draw`); tests/stalins_war/test_hidden_scan.py scans card plays of every
kind, at the engine and view level and through the chat service."""

from __future__ import annotations

import re
from typing import Any, cast

from adjudicator.core.driver import Driver, Masks
from adjudicator.core.system import GameSystem
from adjudicator.stalins_war.system import StalinsWar

CARD_NUMBER = re.compile(r"(?<![a-z])\d")


def stalins_war_masks(system: GameSystem, state: Any, side: str | None) -> Masks:
    """What a viewer may know of the hidden cards: the cards played face up and removed
    (everyone, 16.2), and his own hand (its side), as the system prints them."""
    deck = cast(StalinsWar, system).deck
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


def no_card_named(text: str) -> bool:
    """An order a chat run may send: one that names no card (no number in it)."""
    return CARD_NUMBER.search(text) is None


DRIVER = Driver(
    "stalins-war",
    {"axis": 2, "soviet": 3},
    bound=900,
    chat_orders=30,
    ask_every=3,
    masks=stalins_war_masks,
    script_order=no_card_named,
)

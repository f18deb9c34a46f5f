"""The order language of Stalin's War (issue: play, discard, draw, pass0, spend, end, roll,
hand, deck, track; plus the shared kit). Card numbers may be written `12` or `#12`; hexes and
units are the players' own board's names (one word each). parse(format(o)) == o. The Russian
words (russian.py) are aliases and keyword alternatives: the same order, its English text. Pure.

A text of one of these verbs that is no order is refused citing the rule of what it tried to
say (`pass0 reset swap x`: 9.9, the swap of one card; `spend combat`: 8.15): VERB_RULES by
verb, narrowed by position where a verb says several things (`_citing`). Only `options`, a
question about the orders, cites none, and its refusal says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from adjudicator.core.i18n import Msg, t
from adjudicator.grammar import Cursor, GrammarKit, Lexicon, Verb
from adjudicator.grammar.cursor import ParseError
from adjudicator.grammar.verbs import join
from adjudicator.grammar.words import tokens
from adjudicator.stalins_war import russian as ru
from adjudicator.stalins_war.grammar_edit import DICE_VERB, EDIT_VERBS, MAX_FACES, card_number
from adjudicator.stalins_war.orders import (
    DeckQ,
    Discard,
    Draw,
    End,
    HandQ,
    OptionsQ,
    Play,
    Roll,
    SpendCombat,
    SpendLeave,
    SpendStrategic,
    TotalWar,
    TrackQ,
    Zero,
)
from adjudicator.stalins_war.state import MODES

MAX_DICE = 20
VERB_RULES = {
    "play": "5.5",  # one card as OPS, RP or event (and 10.2)
    "pass0": "9.2",  # the 0-OPS round: one of two variants
    "spend": "8.2",  # what OPS pay for: leaving enemy ZOC, strategic movement, Combat markers
    "end": "8.21",  # the end of the action round: OPS left are lost
    "discard": "4.1",
    "draw": "4.2",
    "roll": "8.22",  # combat and the rest of the board are the players' (the hook of 8.22)
    "totalwar": "3.4",
    "hand": "16.1",  # each hand is secret: sent to its owner alone
    "deck": "16.1",  # everyone knows the sizes of hands, decks and discard piles
    "track": "7.2",  # the Consecutive OPS track
    "place": "3.6",  # the editor: a card's location
    "set": "13.1",  # the editor: the state of section 13
    "dice": "8.22",  # the fixed results of the next `roll` (sandbox games)
}  # `options` (a question about the orders) cites none: NO_RULE says why


@contextmanager
def _citing(rule: str) -> Iterator[None]:
    """A refusal of the words read inside cites `rule` (unless it cites a narrower one)."""
    try:
        yield
    except ParseError as exc:
        if exc.rule is None:
            exc.rule = rule
        raise


KEYWORDS = ("stays", "from", *ru.STAYS, *ru.FROM)
AND = ("and", *ru.AND)


def _names(c: Cursor, what: str) -> tuple[str, ...]:
    found: list[str] = []
    while c.peek() is not None and c.peek() not in KEYWORDS:
        word = c.word(what)
        if word not in AND:
            found.append(word)
    if not found:
        c.fail("syntax", t("{what} is missing", what=what))
    return tuple(found)


def _play(c: Cursor) -> Play:
    card = card_number(c)
    c.accept(*ru.MODE_FILLERS)
    mode = c.choice(t("the use"), {m: m for m in MODES} | ru.MODES, " | ".join(MODES))
    return Play(card, mode)


def _pass0(c: Cursor) -> Zero:
    variant = c.choice(
        t("the variant"), {"move": "move", "reset": "reset"} | ru.VARIANTS, "move | reset"
    )
    swap = None
    if c.accept("swap", *ru.SWAP):
        if variant != "reset":
            with _citing("9.7"):
                c.fail("syntax", t("only variant 2 (`pass0 reset swap <CARD>`) swaps a card"))
        with _citing("9.9"):
            swap = card_number(c)
    return Zero(variant, swap)


def _spend(c: Cursor) -> object:
    kind = c.choice(
        t("what the OPS pay"),
        {k: k for k in ("leave", "strategic", "combat")} | ru.SPENDS,
        "leave | strategic | combat",
    )
    if kind == "leave":
        with _citing("8.3"):
            hex_ = c.word(t("the hex"))
            units = _names(c, t("the units that leave"))
            stays: tuple[str, ...] = ()
            if c.accept("stays", *ru.STAYS):
                if c.accept("none", *ru.NONE):
                    c.done()
                    return SpendLeave(hex_, units, (), True)
                stays = _names(c, t("the units that stay"))
        return SpendLeave(hex_, units, stays)
    if kind == "strategic":
        with _citing("8.9"):
            units = _names(c, t("the units"))
            origin = c.word(t("the hex")) if c.accept("from", *ru.FROM) else None
        return SpendStrategic(units, origin)
    with _citing("8.15"):
        return SpendCombat(_names(c, t("the hexes")))


def _discard(c: Cursor) -> Discard:
    cards = [card_number(c)]
    while c.peek() is not None:
        c.accept(*AND)
        cards.append(card_number(c))
    return Discard(tuple(cards))


def _roll(c: Cursor) -> Roll:
    word = (c.peek() or "").lower()
    count, _, faces = word.replace(ru.DICE[0], "d").replace("k", "d").partition("d")
    if (
        not (count.isdigit() and faces.isdigit())
        or not (1 <= int(count) <= MAX_DICE)
        or not (2 <= int(faces) <= MAX_FACES)
    ):
        c.fail(
            "bad-number",
            t(
                "the dice are written like 2d6 (1 to {dice} dice of 2 to {faces} faces), not "
                "{word}",
                dice=MAX_DICE,
                faces=MAX_FACES,
                word=repr(word),
            ),
        )
    c.i += 1
    purpose = c.rest(t("the purpose of the roll (`roll 2d6 attack on Kiev`)"))
    return Roll(int(count), int(faces), purpose)


def _done(order: object) -> Callable[[Cursor], object]:
    def parse(c: Cursor) -> object:
        c.done()
        return order

    return parse


def _total_war(c: Cursor) -> TotalWar:
    c.accept(*ru.WAR)  # "тотальная война"
    c.done()
    return TotalWar()


def _leave(o: SpendLeave) -> str:
    stays = ("stays", *o.stays) if o.stays else ("stays", "none") if o.none_stay else ()
    return join("spend leave", o.hex, *o.units, *stays)


def _strategic(o: SpendStrategic) -> str:
    return join("spend strategic", *o.units, *(("from", o.origin) if o.origin else ()))


ENTRIES: dict[str, tuple[Msg, Msg]] = {
    "play": (
        t("play <CARD> ops|rp|event|rp+ops|rp+event"),
        t(
            "Play a card of your hand in your action round: for OPS (7.1), for RP (10.1) or as "
            "an event (11.1); rp+ops and rp+event only for a card whose text allows both "
            "(10.2). Example: play 7 ops"
        ),
    ),
    "pass0": (
        t("pass0 move | pass0 reset [swap <CARD>]"),
        t(
            "A 0-OPS round (section 9): `move` (variant 1: units may move or fight, the count "
            "stays) or `reset` (variant 2: no movement or combat, the count goes to 0, and you "
            "may swap one card for the top card of your deck). Example: pass0 reset swap 8"
        ),
    ),
    "spend": (
        t(
            "spend leave <HEX> <UNIT>... stays <UNIT>...|none | spend strategic <UNIT>... "
            "[from <HEX>] | spend combat <HEX>..."
        ),
        t(
            "Record OPS spent on your own board (section 8): units that started the round in "
            "an enemy-ZOC hex leave it (1 OPS when the last of them leaves, 8.6); the first "
            "`spend leave` of a hex names the units that started there and stay (`stays c`), "
            "or `stays none` when they all leave; strategic movement (1 OPS a unit), Combat "
            "markers (1 OPS a hex). Example: spend leave x a b stays c"
        ),
    ),
    "end": (t("end"), t("End your action round; OPS not spent are lost (8.21). Example: end")),
    "discard": (
        t("discard <CARD>..."),
        t(
            "Draw phase: discard cards of your hand face down (4.1); "
            "then `draw`. Example: discard 8 11"
        ),
    ),
    "draw": (
        t("draw"),
        t(
            "Draw phase: you have discarded what you wanted; the draws follow when both "
            "players have decided (4.2 to 4.5). Example: draw"
        ),
    ),
    "roll": (
        t("roll <N>d<F> <PURPOSE>"),
        t(
            "Roll dice for your board with a stated purpose; every "
            "roll is posted to the group. Example: roll 2d6 attack on Kiev"
        ),
    ),
    "totalwar": (
        t("totalwar"),
        t(
            "Your Total War begins (as your board says, 3.3): your Total War "
            "cards are shuffled into your draw deck (3.4). Example: totalwar"
        ),
    ),
    "hand": (t("hand"), t("Your hand, sent to you privately. Example: hand")),
    "options": (
        t("options"),
        t("The orders you may give now (answered to you privately). Example: options"),
    ),
    "deck": (
        t("deck"),
        t(
            "Each player's deck, hand, discard pile and removed cards (counts, and the "
            "cards played face up). Example: deck"
        ),
    ),
    "track": (
        t("track"),
        t(
            "The consecutive OPS track, the RP recorded and the actions of this turn. Example: track"
        ),
    ),
}


def _verb(
    word: str,
    parser: Callable[[Cursor], object],
    formats: dict[type, Any],
    group: str = "Cards",
    raw: bool = False,
    kind: str = "order",
    private: bool = False,
) -> Verb:
    aliases = ru.VERBS.get(word, ())
    entries = {word: ENTRIES[word]}
    return Verb(
        word, parser, entries, formats, aliases, group=group, raw=raw, kind=kind, private=private
    )


VERBS = (
    _verb("play", _play, {Play: lambda o: join("play", o.card, o.mode)}),
    _verb(
        "pass0",
        _pass0,
        {
            Zero: lambda o: join(
                "pass0", o.variant, *(("swap", o.swap) if o.swap is not None else ())
            )
        },
    ),
    _verb(
        "spend",
        _spend,
        {
            SpendLeave: _leave,
            SpendStrategic: _strategic,
            SpendCombat: lambda o: join("spend combat", *o.hexes),
        },
    ),
    _verb("end", _done(End()), {End: lambda o: "end"}),
    _verb("discard", _discard, {Discard: lambda o: join("discard", *o.cards)}),
    _verb("draw", _done(Draw()), {Draw: lambda o: "draw"}),
    _verb(
        "roll",
        _roll,
        {Roll: lambda o: join("roll", f"{o.count}d{o.faces}", o.purpose)},
        "Dice",
        raw=True,
    ),
    _verb("totalwar", _total_war, {TotalWar: lambda o: "totalwar"}),
    _verb(
        "hand", _done(HandQ()), {HandQ: lambda o: "hand"}, "Questions", kind="query", private=True
    ),
    _verb(
        "options",
        _done(OptionsQ()),
        {OptionsQ: lambda o: "options"},
        "Questions",
        kind="query",
        private=True,
    ),
    _verb("deck", _done(DeckQ()), {DeckQ: lambda o: "deck"}, "Questions", kind="query"),
    _verb("track", _done(TrackQ()), {TrackQ: lambda o: "track"}, "Questions", kind="query"),
    *EDIT_VERBS,
    DICE_VERB,
)


class SwGrammar(GrammarKit):
    """The kit's grammar; a Cyrillic command word no verb has is refused with Cyrillic
    did-you-mean suggestions (the kit suggests the canonical English words); a text of one of
    this system's verbs that is no order cites the rule of the verb (VERB_RULES)."""

    def parse(self, text: str) -> object:
        said = tokens(text)
        one_line = len(text.strip().splitlines()) <= 1
        if said and one_line and said[0] not in self.table.command_words and ru.cyrillic(said[0]):
            raise ParseError(
                "unknown-command", ru.unknown_command(said[0], self.table.command_words)
            )
        try:
            return super().parse(text)
        except ParseError as exc:
            verb = self.table.command_words.get(said[0]) if said and one_line else None
            if exc.rule is not None or verb not in VERBS_OF_SYSTEM:
                raise
            if verb in VERB_RULES:
                exc.rule = VERB_RULES[verb]
                raise
            raise ParseError(exc.code, t("{message} ({why})", message=exc.message, why=NO_RULE))


VERBS_OF_SYSTEM = frozenset(v.word for v in VERBS)
NO_RULE = t("a question, not an order: no rule of the game covers it")


def grammar(sides: Any) -> GrammarKit:
    return SwGrammar(Lexicon([]), sides, VERBS)

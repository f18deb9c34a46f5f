"""A moderator's position editor in Stalin's War: the verbs `place` and `set`, in the noun-verb
form of Hell's Gate's editor (`place <SIDE> <CARD> <WHERE>`, `set <NOUN> ...`), kind "edit"
(the kit routes them to `StalinsWar.edit`, edit.py). A card is named with its owner, since both
decks number their cards from 1. The edits that set a hidden value, a card put into a hand or
onto the deck and the deck order (16.1), are the verbs' `secret` order types.

Invariants: parse(format(o)) == o for every order here; the Russian words are spellings of the
English ones (the canonical text stays English). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.core import commands as C
from adjudicator.core.i18n import t
from adjudicator.grammar import MODERATOR, Cursor, Verb, join
from adjudicator.grammar.cursor import ParseError
from adjudicator.grammar.shared import RUSSIAN
from adjudicator.stalins_war.orders import (
    PlaceHidden,
    PlaceOpen,
    SetDeck,
    SetMud,
    SetNumber,
    SetRound,
    SetRp,
    SetTurn,
)

TURNS, ROUNDS = 18, 5  # rules 1.2, 1.3
MAX_FACES = 100  # `roll <N>d<F>`: at most 100 faces (the dice a moderator may fix, 8.22)
MAX_VALUE = 99  # a count, banked OPS, a hand size: any sensible value
MAX_RP = 999
NUMBERS = {  # set <NOUN> <SIDE> <N>: the noun, the rule, the lowest and highest value
    "count": ("7.2", 0, MAX_VALUE),
    "banked": ("1.8", 0, MAX_VALUE),
    "handsize": ("1.11", 0, MAX_VALUE),
    "rpplays": ("10.3", 0, 2),
}
SET_SUBJECTS = ("deck", *NUMBERS, "rp", "turn", "round", "mud")
SET_RULES = {  # the rule of what each noun sets, cited by a refusal of its words
    "set deck": "3.6",
    **{f"set {w}": rule for w, (rule, _low, _high) in NUMBERS.items()},
    "set rp": "10.1",
    "set turn": "1.2",
    "set round": "1.3",
    "set mud": "7.12",
}
SET_WORDS = {s: s for s in SET_SUBJECTS} | {  # Russian (the terms of the rules, 003)
    "колода": "deck",
    "колоду": "deck",
    "счет": "count",
    "счёт": "count",
    "отложенные": "banked",
    "банк": "banked",
    "рука": "handsize",
    "величина": "handsize",
    "оп": "rp",
    "розыгрышиоп": "rpplays",
    "ход": "turn",
    "раунд": "round",
    "распутица": "mud",
}
PLACE_WORDS = {
    "hand": "hand",
    "top": "top",
    "bottom": "bottom",
    "discard": "discard",
    "removed": "removed",
    "aside": "aside",
    "рука": "hand",
    "руку": "hand",
    "верх": "top",
    "низ": "bottom",
    "сброс": "discard",
    "удалена": "removed",
    "отложена": "aside",
}
DECK_WORDS = ("deck", "колода", "колоду")  # `place axis 7 deck top`
FILLERS = ("on", "in", "to", "into", "в", "на")
SWITCH = {"on": True, "off": False, "вкл": True, "выкл": False, "да": True, "нет": False}
PLACES_SAID = t("hand | deck top | deck bottom | discard | removed | aside")
NOUNS_SAID = t("deck, count, banked, handsize, rpplays, rp, turn, round or mud")


def card_number(c: Cursor) -> int:
    word = c.peek()
    digits = word.removeprefix("#") if word is not None else ""
    if not (digits.isascii() and digits.isdigit()) or int(digits) < 1:
        c.fail(
            "bad-number",
            t("a card number is expected (`12` or `#12`), not {word}", word=repr(word))
            if word is not None
            else t("a card number is expected (`12` or `#12`), missing"),
        )
    c.i += 1
    return int(digits)


def side_of(c: Cursor) -> str:
    words = c.grammar.side_words if c.grammar is not None else {"axis": "axis", "soviet": "soviet"}
    return str(c.choice(t("the side"), words, t("axis or soviet"), fold=True))


def _place(c: Cursor) -> object:
    side = side_of(c)
    card = card_number(c)
    c.accept(*FILLERS)
    c.accept(*DECK_WORDS)
    where = c.choice(t("where the card goes"), PLACE_WORDS, PLACES_SAID)
    c.done()
    if where in ("hand", "top", "bottom"):
        return PlaceHidden(side, card, where)
    return PlaceOpen(side, card, where)


def _set(c: Cursor) -> object:
    sub = c.peek()
    if sub not in SET_WORDS:
        got = t("not {word}", word=repr(sub)) if sub else t("missing")
        c.fail(
            "syntax",
            t("set what? {nouns}, {got}", nouns=NOUNS_SAID, got=got),
        )
    c.i += 1
    c.command = f"set {SET_WORDS[sub]}"
    try:
        order = PARSERS[c.command](c)
        c.done()
    except ParseError as exc:  # the rule of the value the noun sets
        if exc.rule is None:
            exc.rule = SET_RULES[c.command]
        raise
    return order


def _deck(c: Cursor) -> SetDeck:
    side = side_of(c)
    cards = [card_number(c)]
    while c.peek() is not None:
        cards.append(card_number(c))
    return SetDeck(side, tuple(cards))


def _number(what: str) -> Callable[[Cursor], SetNumber]:
    _rule, low, high = NUMBERS[what]

    def parse(c: Cursor) -> SetNumber:
        side = side_of(c)
        return SetNumber(what, side, c.number(t("the value"), low, high))

    return parse


def _rp(c: Cursor) -> SetRp:
    side = side_of(c)
    nation = c.word(t("the nationality"))
    return SetRp(side, nation, c.number(t("the RP"), 0, MAX_RP))


def _round(c: Cursor) -> SetRound:
    rnd = c.number(t("the action round"), 1, ROUNDS)
    side = side_of(c) if c.peek() is not None else "axis"
    return SetRound(rnd, side)


PARSERS: dict[str, Callable[[Cursor], object]] = {
    "set deck": _deck,
    **{f"set {w}": _number(w) for w in NUMBERS},
    "set rp": _rp,
    "set turn": lambda c: SetTurn(c.number(t("the turn"), 1, TURNS)),
    "set round": _round,
    "set mud": lambda c: SetMud(c.choice(t("the mud round"), SWITCH, t("on or off"))),
}

PLACE_ENTRY = (
    t("place <SIDE> <CARD> hand | deck top | deck bottom | discard | removed | aside"),
    t(
        "Moderator: put a card of that side's deck (3.6) in his hand or on top or at the "
        "bottom of his draw deck (secret: give it in a private chat; only that side and the "
        "moderators see the card), or face up on his discard pile, out of the game (11.4) or, "
        "a Soviet #1 to #6, set aside (3.8). It is taken from wherever it is. "
        "Example: place axis 7 hand"
    ),
)
SET_ENTRIES = {
    "set deck": (
        t("set deck <SIDE> <CARD>,..."),
        t(
            "Moderator: these cards, in this order, become the top of that side's draw deck "
            "(taken from wherever they are); the deck's other cards stay below them in their "
            "order. Secret: give it in a private chat. Shuffles and draws still come from the "
            "game's hidden seed (16.7). Example: set deck soviet 9,12,8"
        ),
    ),
    "set count": (
        t("set count <SIDE> <N>"),
        t(
            "Moderator: set a side's consecutive OPS count (7.2, 0 to 99). Example: set count axis 2"
        ),
    ),
    "set banked": (
        t("set banked <SIDE> <N>"),
        t(
            "Moderator: set a side's banked OPS (1.8; a house rule until 18.0 is supplied, Q6; "
            "lost at the end of the turn, 12.3). Example: set banked axis 2"
        ),
    ),
    "set handsize": (
        t("set handsize <SIDE> <N>"),
        t(
            "Moderator: set a side's hand size (1.11, 3.12: what the draw phase fills the hand "
            "up to). Example: set handsize soviet 7"
        ),
    ),
    "set rpplays": (
        t("set rpplays <SIDE> <N>"),
        t(
            "Moderator: set how many cards a side has played for RP this turn (10.3 to 10.5, "
            "0 to 2). Example: set rpplays soviet 1"
        ),
    ),
    "set rp": (
        t("set rp <SIDE> <NATIONALITY> <N>"),
        t(
            "Moderator: set the RP recorded for a nationality (10.1). Example: set rp axis germany 3"
        ),
    ),
    "set turn": (
        t("set turn <N>"),
        t(
            "Moderator: set the turn (1 to 18, 1.2); the books of the turn (RP plays, the "
            "actions of the turn) start empty. Example: set turn 7"
        ),
    ),
    "set round": (
        t("set round <N> [axis|soviet]"),
        t(
            "Moderator: the action phase, action round N (1 to 5), that side to act (the Axis "
            "player if none is named, 5.3). Example: set round 4 soviet"
        ),
    ),
    "set mud": (
        t("set mud on|off"),
        t(
            "Moderator: make the current action round a mud round, or not (Q5: the count is "
            "never reset in it, 7.12). Example: set mud on"
        ),
    ),
}


def _cards(cards: tuple[int, ...]) -> str:
    return ",".join(str(n) for n in cards)


def _where(where: str) -> str:
    return f"deck {where}" if where in ("top", "bottom") else where


def _dice(c: Cursor) -> C.Dice:
    values = [c.number(t("a die result"), 1, MAX_FACES)]
    while c.peek() is not None:
        values.append(c.number(t("a die result"), 1, MAX_FACES))
    return C.Dice(tuple(values))


# the shared `dice` with this game's dice: the rules roll none of their own; the only dice are
# those players roll for their board (`roll <N>d<F>`, 8.22), of up to 100 faces
DICE_VERB = Verb(
    "dice",
    _dice,
    {
        "dice": (
            t("dice <N> [<N> ...]"),
            t(
                "Moderator, sandbox games: fix the results of the next dice players `roll` "
                "(8.22), each 1 to 100 and no more than the faces of the die rolled. Shuffles "
                "and draws come from the game's hidden seed and never take them (16.7). "
                "Example: dice 3 5"
            ),
        )
    },
    {C.Dice: lambda o: join("dice", *o.values)},
    RUSSIAN["dice"],
    group=MODERATOR,
    kind="moderator",
)

EDIT_VERBS = (
    Verb(
        "place",
        _place,
        {"place": PLACE_ENTRY},
        {
            PlaceHidden: lambda o: join("place", o.side, o.card, _where(o.where)),
            PlaceOpen: lambda o: join("place", o.side, o.card, o.where),
        },
        ("поставить", "положить"),
        group=MODERATOR,
        kind="edit",
        secret=(PlaceHidden,),
    ),
    Verb(
        "set",
        _set,
        SET_ENTRIES,
        {
            SetDeck: lambda o: join("set deck", o.side, _cards(o.cards)),
            SetNumber: lambda o: join("set", o.what, o.side, o.value),
            SetRp: lambda o: join("set rp", o.side, o.nation, o.value),
            SetTurn: lambda o: join("set turn", o.turn),
            SetRound: lambda o: join("set round", o.round, o.side),
            SetMud: lambda o: join("set mud", "on" if o.on else "off"),
        },
        ("установить", "уст"),
        group=MODERATOR,
        kind="edit",
        secret=(SetDeck,),
        subwords=SET_WORDS,
    ),
)

__all__ = ["DICE_VERB", "EDIT_VERBS", "NUMBERS", "SET_SUBJECTS", "card_number"]

"""The block game's position editor in words: a moderator's `place` and `set`, in the
noun-verb form of Hell's Gate (`set <NOUN> <ID> <VALUE>`, `place <PIECE> <WHERE>`):

    place <BLOCK> <AREA> | place <BLOCK> pool | place <BLOCK> removed | place charles exile
    set strength <BLOCK> <N>        set control <AREA> <SIDE>       set exile <N>
    set turn <N>                    set year <N>                    set first <SIDE>
    set phase entry|winter

Every verb here is of kind "edit" (the kit routes it to NorthernWar.edit, past the gate, for a
moderator only); `place` of a block on the map and `set strength` are secret edits (they set a
block's identity in an area, or its strength: hidden values, 2.4, 2.19). The grammar reads
words and names only; the editor (edit.py) checks every value against the scenario and the
rules. Invariant: parse(format(o)) == o. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.core.i18n import t
from adjudicator.core.system import MODERATOR_ACTOR
from adjudicator.grammar import MODERATOR, Cursor, Verb, join, quoted
from adjudicator.northern_war.state import EXILE, POOL, REMOVED


@dataclass(frozen=True)
class Place:  # a block onto the map, in a territory (a secret edit: its identity there)
    block: str
    area: str


@dataclass(frozen=True)
class PlaceOff:  # a block off the map: pool (2.8), removed (4.3) or exile (4.6)
    block: str
    box: str


@dataclass(frozen=True)
class SetStrength:  # a block's current strength (2.4, a secret edit)
    block: str
    strength: int


@dataclass(frozen=True)
class SetControl:  # the side controlling a territory (N5)
    area: str
    side: str


@dataclass(frozen=True)
class SetExile:  # the return attempts of Charles XII made so far (4.7, 4.8)
    attempts: int


@dataclass(frozen=True)
class SetTurn:  # the turn of the year (N13)
    turn: int


@dataclass(frozen=True)
class SetYear:  # the year of the game, from 1 (N15)
    year: int


@dataclass(frozen=True)
class SetFirst:  # the first player of this turn (5.4)
    side: str


@dataclass(frozen=True)
class SetPhase:  # "entry" (before the action rolls) or "winter" (the winter campaign, 8.3)
    phase: str


EDITS = (
    Place,
    PlaceOff,
    SetStrength,
    SetControl,
    SetExile,
    SetTurn,
    SetYear,
    SetFirst,
    SetPhase,
)
SECRET = (Place, SetStrength)  # the edits that set a hidden value (2.4, 2.19)
# who may use the editor, for `help` only: a side's player is not shown it (he may not give it;
# the kit refuses an edit from anyone but a moderator)
EDITOR = (MODERATOR_ACTOR,)

BOXES = {
    "pool": POOL,
    "removed": REMOVED,
    "eliminated": REMOVED,
    "elim": REMOVED,
    "exile": EXILE,
    # Russian (issue 17): the replacement pool, out of the game, exile (2.3)
    "пул": POOL,
    "пополнение": POOL,
    "выведен": REMOVED,
    "уничтожен": REMOVED,
    "ссылка": EXILE,
}
_ON = ("at", "in", "to", "into", "on", "в", "на")
PHASES = ("entry", "action", "battle", "winter")  # the phases a game is in (the editor sets two)
_PHASE_WORDS = {p: p for p in PHASES} | {
    "входная": "entry",
    "действия": "action",
    "действий": "action",
    "битва": "battle",
    "битвы": "battle",
    "зима": "winter",
    "зимняя": "winter",
}

SET_SUBJECTS = ("strength", "control", "exile", "turn", "year", "first", "phase")
SET_WORDS = {s: s for s in SET_SUBJECTS} | {
    "фаза": "phase",
    "str": "strength",
    "сила": "strength",
    "контроль": "control",
    "ссылка": "exile",
    "ход": "turn",
    "год": "year",
    "первый": "first",
}

PLACE_HELP = t(
    "Moderator: put a block in a territory, in its nation's replacement pool, out of the game "
    "('removed'), or Charles XII into exile. A block put on the map keeps its strength (set it "
    "with 'set strength'); its new place is told to its owner and the moderators alone. "
    "Example: place rehnskiold livonia"
)
SET_ENTRIES = {
    "set strength": (
        t("set strength <BLOCK> <N>"),
        t(
            "Moderator: a block's current strength on the map, 1 to its maximum (2.4, 2.6); "
            "told to its owner and the moderators alone. Example: set strength charles 2"
        ),
    ),
    "set control": (
        t("set control <AREA> sweden|coalition"),
        t(
            "Moderator: the side controlling a territory (N5). Example: set control "
            "ingermanland coalition"
        ),
    ),
    "set exile": (
        t("set exile <N>"),
        t(
            "Moderator: how many return rolls Charles XII in exile has made (0 to 5; the next "
            "is attempt N+1, 4.8). Example: set exile 2"
        ),
    ),
    "set turn": (
        t("set turn <N>"),
        t(
            "Moderator: the turn of the year, 1 to the scenario's turns per year (the last is "
            "the winter turn, N13); the phase stays. Example: set turn 4"
        ),
    ),
    "set year": (
        t("set year <N>"),
        t(
            "Moderator: the year of the game, 1 to the scenario's number of years (N15); the "
            "phase stays. Example: set year 2"
        ),
    ),
    "set phase": (
        t("set phase entry|winter"),
        t(
            "Moderator: 'entry': the turn starts again before its action rolls, which "
            "Sweden's 'end' makes (5.1, 8.4); 'winter': the Swedish winter campaign after the "
            "winter turn, with Charles XII on the map (6.1, 6.7). Example: set phase winter"
        ),
    ),
    "set first": (
        t("set first sweden|coalition"),
        t(
            "Moderator: the first player of this turn (5.4), who then acts first if nobody "
            "has acted yet; before the action rolls, the side that goes first on a tie (5.5). "
            "Example: set first coalition"
        ),
    ),
}


def _side(c: Cursor) -> str:
    words: dict[str, str] = c.grammar.side_words
    return c.choice(t("the side"), words, t("sweden or coalition"), fold=True)


def _place(c: Cursor) -> Place | PlaceOff:
    block = c.thing("block")
    c.accept(*_ON)
    box = c.accept(*BOXES)
    if box:
        return PlaceOff(block, BOXES[box])
    return Place(block, c.thing("territory"))


def _set(c: Cursor) -> object:
    sub = c.peek()
    if sub not in SET_WORDS:
        got = t("not {word}", word=quoted(sub)) if sub else t("missing")
        c.fail(
            "syntax",
            t(
                "set what? strength, control, exile, turn, year, first or phase, {got}",
                got=got,
            ),
        )
    c.i += 1
    c.command = f"set {SET_WORDS[sub]}"
    return _SET_PARSERS[c.command](c)


_SET_PARSERS: dict[str, Callable[[Cursor], object]] = {
    "set strength": lambda c: SetStrength(c.thing("block"), c.number(t("the strength"), 0)),
    "set control": lambda c: SetControl(c.thing("territory"), _side(c)),
    "set exile": lambda c: SetExile(c.number(t("the return attempts"), 0)),
    "set turn": lambda c: SetTurn(c.number(t("the turn"), 0)),
    "set year": lambda c: SetYear(c.number(t("the year"), 0)),
    "set first": lambda c: SetFirst(_side(c)),
    "set phase": lambda c: SetPhase(
        c.choice(t("the phase"), _PHASE_WORDS, t("entry or winter"), fold=True)
    ),
}

EDIT_VERBS = (
    Verb(
        "place",
        _place,
        {
            "place": (
                t("place <BLOCK> <AREA> | place <BLOCK> pool|removed | place charles exile"),
                PLACE_HELP,
            )
        },
        {
            Place: lambda o: join("place", o.block, o.area),
            PlaceOff: lambda o: join("place", o.block, o.box),
        },
        ("поставить", "разместить"),
        group=MODERATOR,
        kind="edit",
        sides=EDITOR,
        secret=(Place,),
    ),
    Verb(
        "set",
        _set,
        SET_ENTRIES,
        {
            SetStrength: lambda o: join("set strength", o.block, o.strength),
            SetControl: lambda o: join("set control", o.area, o.side),
            SetExile: lambda o: join("set exile", o.attempts),
            SetTurn: lambda o: join("set turn", o.turn),
            SetYear: lambda o: join("set year", o.year),
            SetFirst: lambda o: join("set first", o.side),
            SetPhase: lambda o: join("set phase", o.phase),
        },
        ("установить", "уст"),
        group=MODERATOR,
        kind="edit",
        sides=EDITOR,
        secret=(SetStrength,),
        subwords=SET_WORDS,
    ),
)

__all__ = [
    "BOXES",
    "EDITS",
    "EDIT_VERBS",
    "SECRET",
    "SET_ENTRIES",
    "SET_SUBJECTS",
    "SET_WORDS",
    "Place",
    "PlaceOff",
    "SetControl",
    "SetExile",
    "SetFirst",
    "SetPhase",
    "SetStrength",
    "SetTurn",
    "SetYear",
]

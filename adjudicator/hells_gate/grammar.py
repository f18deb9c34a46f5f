"""The order language of Hell's Gate: its verbs, plugged into the grammar kit, and its Lexicon.

    grammar = HellsGateGrammar(scenario, SIDES)
    grammar.parse("a Smela w 29th Tank Corps 48rc")  # Attack("D6", ("29tk", "48rc"))
    grammar.format(order)                             # "attack D6 with 29tk 48rc"

Verbs: attack, preview, losses, retreat, move, enter, rebuild, breakout, end, options, units,
supply, and the sandbox verbs of grammar_sandbox (place, flip, set ...); the shared verbs of
adjudicator.grammar do the rest. Each verb and keyword has Russian words too, in the terms of the
Russian rules summary ("атака C6 силами 20тк 75ск", "ход 20тк C6 C5", "потери 389пд отход D6",
"конец"); the scenario's Russian designations, ids and town names (name_ru, id_ru) are names. Names: the scenario's units (id, designation, the first words
of a designation, 3 letters of an id) and hexes (id, town name and the names of
`scenario.named`, 4 letters of a word of a name); a name that is a unit's is never a hex's.

Invariants (those of adjudicator.grammar.kit, and):
- the canonical text writes unit ids (never designations) and uppercase hex ids;
- `format_order` and `help_text` need no scenario: they are those of every HellsGateGrammar
  with the sides SIDES.
Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from adjudicator.core.i18n import name, t
from adjudicator.core.system import Side
from adjudicator.grammar import (
    QUESTIONS,
    Cursor,
    Formatter,
    GrammarKit,
    Kind,
    Lexicon,
    Parser,
    Verb,
    join,
    verb_table,
)
from adjudicator.hells_gate.grammar_help import ENTRIES, HELP_TEXTS
from adjudicator.hells_gate.grammar_sandbox import SANDBOX_VERBS
from adjudicator.hells_gate.orders import (
    Attack,
    Breakout,
    End,
    Enter,
    Losses,
    Move,
    Options,
    Preview,
    Rebuild,
    Supply,
    Units,
)

if TYPE_CHECKING:
    from adjudicator.hells_gate.scenario import Scenario

SIDES = (
    Side(
        "soviet",
        name("Soviet", ru="СССР"),
        ("soviets", "sov", "ussr", "советские", "советский", "сов", "ссср"),
    ),
    Side(
        "german",
        name("German", ru="Германия"),
        ("germans", "ger", "de", "немецкие", "немецкий", "немцы", "нем"),
    ),
)
ORDERS = t("Orders")
ORDER = (
    *("attack", "preview", "losses", "retreat", "move", "enter", "rebuild", "breakout", "end"),
    *("default", "options", "status", "units", "supply", "log", "help"),
    *("place", "flip", "set", "dice", "salt", "rolls", "audit", "undo", "rewind", "pause"),
    *("resume", "seat", "unseat", "moderator"),
)
# Russian words (issue 17), in the terms of the Russian rules summary: "атака C6 силами 20тк 75ск",
# "ход 20тк C6 C5", "потери 389пд отход D6"; the canonical text stays English.
_WITH = ("with", "w", "силами", "с")
_DECISIVE = ("decisive", "dec", "d", "решительная", "решительно", "реш")  # Решительная атака
_FLIP = ("flip", "переворот", "перевернуть")
_RETREAT = ("retreat", "r", "ret", "отход", "отступление")
_ATTACK_WORDS = (
    "attack",
    "a",
    "att",
    "атака",
    "атаковать",
)  # "preview attack ...": may be left out
_TO = ("to", "в", "на")
_PATH = ("to", "via", "then", "в", "на", "через", "затем")
_AT = ("at", "in", "to", "into", "в", "на")
_PHASE = ("phase", "фаза", "фазы")  # "end phase", "конец фазы"


# -- parsers
def _attack(c: Cursor) -> Attack:
    hex_id = c.thing("hex")
    c.accept(*_WITH)
    units = c.things("unit", stop=(*_DECISIVE, *_FLIP))
    if not units:
        c.fail("syntax", t("an attack needs at least one attacking unit"))
    decisive, flip = False, None
    while c.peek() is not None:
        if not decisive and c.accept(*_DECISIVE):
            decisive = True
        elif flip is None and c.accept(*_FLIP):
            flip = c.thing("unit")
        else:
            c.fail("syntax", t("'decisive' and 'flip <UNIT>' may each be given once"))
    return Attack(hex_id, units, decisive, flip)


def _preview(c: Cursor) -> Preview:
    c.accept(*_ATTACK_WORDS)
    return Preview(_attack(c))


def _is_unit(c: Cursor) -> bool:
    """The next words name a unit; words that name a hex are read as the hex."""
    if c.peek() is None or len(c.matches("hex")) == 1:
        return False
    return bool(c.matches("unit"))


def _retreat_to(c: Cursor) -> str | tuple[tuple[str, str], ...]:
    """One hex for every remaining unit, or unit=hex pairs (8.31)."""
    if c.peek() is None:
        c.fail("syntax", t("a retreat needs a hex, or a hex for each unit"))
    if not _is_unit(c):
        return c.thing("hex")
    pairs = []
    while c.peek() is not None:
        unit = c.thing("unit")
        c.accept("=", *_TO)
        pairs.append((unit, c.thing("hex")))
    return tuple(pairs)


def _losses(c: Cursor) -> Losses:
    units = c.things("unit", stop=_RETREAT)
    retreat = _retreat_to(c) if c.accept(*_RETREAT) else None
    return Losses(units, retreat)


def _move(c: Cursor) -> Move:
    unit = c.thing("unit")
    path: list[str] = []
    while c.peek() is not None or not path:
        c.accept(*_PATH)
        path.append(c.thing("hex"))
    if len(path) > 2:
        c.fail("syntax", t("a move enters at most 2 hexes (9.6)"))
    return Move(unit, tuple(path))


def _enter(c: Cursor) -> Enter:
    unit = c.thing("unit")
    c.accept(*_AT)
    return Enter(unit, c.thing("hex"))


def _end(c: Cursor) -> End:
    c.accept(*_PHASE)  # "end phase"
    return End()


def _units(c: Cursor) -> Units:
    if c.peek() is None:
        return Units()
    sides = c.grammar.side_words
    side = c.accept(*sides)
    return Units(sides[side] if side else c.thing("hex"))


# -- canonical text
def _format_attack(a: Attack) -> str:
    words = ["attack", a.hex, "with", *a.units]
    words += ["decisive"] if a.decisive else []
    words += ["flip", a.flip] if a.flip is not None else []
    return " ".join(words)


def _format_losses(order: Losses) -> str:
    words = ["losses", *order.units]
    if isinstance(order.retreat, str):
        words += ["retreat", order.retreat]
    elif order.retreat is not None:
        words += ["retreat", *(f"{unit}={hex_id}" for unit, hex_id in order.retreat)]
    return " ".join(words)


def _verb(
    word: str,
    parser: Parser,
    formats: Mapping[type, Formatter],
    *aliases: str,
    group: str = ORDERS,
    kind: str = "order",
    private: bool = False,
    sides: tuple[str, ...] = (),
) -> Verb:
    entries = {word: ENTRIES[word]}
    return Verb(
        word, parser, entries, formats, aliases, group, kind=kind, private=private, sides=sides
    )


VERBS = (
    _verb("attack", _attack, {Attack: _format_attack}, "a", "att", "атака", "атаковать", "ат"),
    _verb(
        "preview",
        _preview,
        {Preview: lambda o: f"preview {_format_attack(o.attack)}"},
        "pv",
        "p",
        "прогноз",
        "оценка",
        group=QUESTIONS,
        kind="query",
        private=True,  # a side's possibilities: only its player sees them
    ),
    _verb("losses", _losses, {Losses: _format_losses}, "loss", "l", "потери"),
    _verb("retreat", lambda c: Losses(retreat=_retreat_to(c)), {}, "ret", "отход", "отступление"),
    _verb("move", _move, {Move: lambda o: join("move", o.unit, *o.path)}, "m", "mv", "ход"),
    _verb("enter", _enter, {Enter: lambda o: join("enter", o.unit, o.hex)}, "ввод", "ввести"),
    _verb(
        "rebuild",
        lambda c: Rebuild(c.thing("unit")),
        {Rebuild: lambda o: join("rebuild", o.unit)},
        "пополнить",
        "пополнение",
        sides=("soviet",),  # 12.16: the Soviet rebuild
    ),
    _verb(
        "breakout",
        lambda c: Breakout(c.thing("unit")),
        {Breakout: lambda o: join("breakout", o.unit)},
        "bo",
        "прорыв",
        sides=("german",),  # 12.17: German breakouts
    ),
    _verb("end", _end, {End: lambda o: "end"}, "done", "pass", "конец", "готово", "пас"),
    _verb(
        "options",
        lambda c: Options(c.thing("unit") if c.peek() is not None else None),
        {Options: lambda o: join("options", o.unit)},
        "opt",
        "o",
        "варианты",
        group=QUESTIONS,
        kind="query",
        private=True,
    ),
    _verb(
        "units",
        _units,
        {Units: lambda o: join("units", o.where)},
        "u",
        "части",
        group=QUESTIONS,
        kind="query",
    ),
    _verb(
        "supply",
        lambda c: Supply(),
        {Supply: lambda o: "supply"},
        "sup",
        "снабжение",
        group=QUESTIONS,
        kind="query",
    ),
    *SANDBOX_VERBS,
)


# -- names
def names_lexicon(
    units: Mapping[str, str],
    hexes: Mapping[str, str | None],
    named: Mapping[str, object] | None = None,
    more_units: Sequence[tuple[str, str]] = (),
    more_hexes: Sequence[tuple[str, str]] = (),
) -> Lexicon:
    """units: id -> designation; hexes: id -> town name or None; named: the scenario's named
    hexes (name -> hex id; other values are not hex names); more_units, more_hexes: (id, another
    name) pairs, such as the Russian names and ids of the scenario data."""
    more = [(v, k.replace("_", " ")) for k, v in (named or {}).items() if isinstance(v, str)]
    unit = Kind("unit", units, _unquoted(more_units), leading_words=True, id_prefix=3)  # "29t"
    hex_ = Kind("hex", hexes, [*more, *_unquoted(more_hexes)], inner=True, word_prefix=4)
    return Lexicon([unit, hex_])  # "cherk" names Cherkassy, "смел" Smela


def _unquoted(names: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Names without their quotation marks: «Викинг» is typed Викинг."""
    return [(thing, re.sub('[«»"]', "", n)) for thing, n in names]


def russian_names(scenario: Scenario) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(unit id, Russian designation or id) and (hex id, Russian town name) pairs of the data."""
    units = [
        (u.id, n) for u in scenario.units.values() for n in (u.name_ru, u.id_ru) if n is not None
    ]
    hexes = [(h, spec.name_ru) for h, spec in scenario.hexes.items() if spec.name_ru is not None]
    return units, hexes


def scenario_lexicon(scenario: Scenario) -> Lexicon:
    units = {u.id: u.designation for u in scenario.units.values()}
    hexes = {h: spec.name for h, spec in scenario.hexes.items()}
    return names_lexicon(units, hexes, scenario.named, *russian_names(scenario))


class HellsGateGrammar(GrammarKit):
    """The grammar of one Hell's Gate scenario (adjudicator.core.system.Grammar).

    `.lexicon` is its Lexicon (kinds "unit" and "hex"), `.turns` the scenario's number of turns.
    """

    def __init__(self, scenario: Scenario, sides: Sequence[Side] = SIDES):
        self._setup(scenario_lexicon(scenario), scenario.turns, sides)

    @classmethod
    def from_names(
        cls,
        units: Mapping[str, str],
        hexes: Mapping[str, str | None],
        turns: int,
        sides: Sequence[Side] = SIDES,
        named: Mapping[str, object] | None = None,
    ) -> HellsGateGrammar:
        """The grammar of names given one by one (see names_lexicon), not of a scenario."""
        grammar = cls.__new__(cls)
        grammar._setup(names_lexicon(units, hexes, named), turns, sides)
        return grammar

    def _setup(self, lexicon: Lexicon, turns: int, sides: Sequence[Side]) -> None:
        self.turns = turns
        super().__init__(lexicon, sides, VERBS, order=ORDER, help_texts=HELP_TEXTS)


_TABLE = verb_table(SIDES, VERBS, ORDER, HELP_TEXTS)


def format_order(order: object) -> str:
    """The canonical text of an order, query or command of Hell's Gate (no scenario needed)."""
    return _TABLE.format(order)


def help_text(topic: str | None = None) -> str:
    """`help` and `help <COMMAND>` of Hell's Gate with the sides SIDES (no scenario needed)."""
    return _TABLE.help(topic)


__all__ = [
    "ENTRIES",
    "HELP_TEXTS",
    "ORDER",
    "SIDES",
    "VERBS",
    "HellsGateGrammar",
    "format_order",
    "help_text",
    "names_lexicon",
    "scenario_lexicon",
]

"""The order language of Hell's Gate: its verbs, plugged into the grammar kit, and its Lexicon.

    grammar = HellsGateGrammar(scenario, SIDES)
    grammar.parse("a Smela w 29th Tank Corps 48rc")  # Attack("D6", ("29tk", "48rc"))
    grammar.format(order)                             # "attack D6 with 29tk 48rc"

Verbs: attack, preview, losses, retreat, move, enter, rebuild, breakout, end, options, units,
supply, and the sandbox verbs of grammar_sandbox (place, flip, set ...); the shared verbs of
adjudicator.grammar do the rest. Names: the scenario's units (id, designation, the first words
of a designation, 3 letters of an id) and hexes (id, town name and the names of
`scenario.named`, 4 letters of a word of a name); a name that is a unit's is never a hex's.

Invariants (those of adjudicator.grammar.kit, and):
- the canonical text writes unit ids (never designations) and uppercase hex ids;
- `format_order` and `help_text` need no scenario: they are those of every HellsGateGrammar
  with the sides SIDES.
Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from adjudicator.core.system import Side
from adjudicator.grammar import (
    QUESTIONS,
    Cursor,
    Entry,
    Formatter,
    GrammarKit,
    Kind,
    Lexicon,
    Parser,
    Verb,
    join,
    verb_table,
)
from adjudicator.hells_gate.grammar_sandbox import SANDBOX_VERBS, U
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
    Side("soviet", "Soviet", ("soviets", "sov", "ussr")),
    Side("german", "German", ("germans", "ger", "de")),
)
ORDERS = "Orders"
ORDER = (
    *("attack", "preview", "losses", "retreat", "move", "enter", "rebuild", "breakout", "end"),
    *("default", "options", "status", "units", "supply", "log", "help"),
    *("place", "flip", "set", "dice", "salt", "rolls", "audit", "undo", "rewind", "pause"),
    *("resume", "seat", "unseat", "moderator"),
)
HELP_TEXTS = {  # Hell's Gate's words for shared commands
    "status": "Show the turn, phase, weather and any decision waiting. Example: status",
    "help": "Show the commands, or the help of one. Example: help attack",
}
_WITH = ("with", "w")
_DECISIVE = ("decisive", "dec", "d")
_RETREAT = ("retreat", "r", "ret")
_ATTACK_WORDS = ("attack", "a", "att")  # "preview attack ...": the word may be left out

# -- the commands: usage line and help paragraph with an example
ENTRIES: dict[str, Entry] = {
    "attack": (
        f"attack <HEX> with {U} [{U} ...] [decisive] [flip {U}]",
        (
            "Attack an adjacent enemy hex with one or more of your units (section 8). "
            "'decisive' declares a decisive attack (8.17-8.19); 'flip <UNIT>' chooses the "
            "attacker flipped for it (8.18). Hexes by id or town name, units by id or "
            "designation. 'with' may be left out or written 'w'; 'decisive' may be written "
            "'dec' or 'd'. "
            "Example: attack C6 with 20tk 75rc decisive flip 20tk"
        ),
    ),
    "preview": (
        f"preview attack <HEX> with {U} [{U} ...] [decisive] [flip {U}]",
        (
            "Show the odds and possible results of an attack without making it; the word 'attack' "
            "may be left out. Example: preview attack C6 with 20tk 75rc"
        ),
    ),
    "losses": (
        f"losses [{U} ...] [retreat <HEX> | retreat {U}=<HEX> ...]",
        (
            "Answer the hits of an attack on your hex (8.23-8.34): the units that each take one "
            "hit, in order, then the retreat of the other units, to one hex or a hex per unit "
            "(8.31). 'losses' alone takes no step loss; 'retreat' may be written 'r' or 'ret'. "
            "Example: losses 389id retreat D6"
        ),
    ),
    "retreat": (
        f"retreat <HEX> | retreat {U}=<HEX> [{U}=<HEX> ...]",
        "Short for 'losses retreat ...': answer the hits by a retreat only. Example: retreat B5",
    ),
    "move": (
        f"move {U} [to] <HEX> [<HEX>]",
        (
            "Move a unit into an adjacent hex, or along a path of two hexes (section 9); the hexes "
            "may also be joined by '-' or ','. Example: move 20tk to C6 C5"
        ),
    ),
    "enter": (
        f"enter {U} <HEX>",
        "Bring a reinforcement onto the map (7). Example: enter 11pz A6",
    ),
    "rebuild": (
        f"rebuild {U}",
        "Flip a reduced corps to full strength in turns 5 and 7 (12.16). Example: rebuild 20tk",
    ),
    "breakout": (
        f"breakout {U}",
        "Attempt the turn-8 breakout of an out-of-supply unit (12.17). Example: breakout 57id",
    ),
    "end": ("end", "End your part of the current phase ('end phase' also works). Example: end"),
    "options": (
        f"options [{U}]",
        (
            "List the orders you may give now, grouped by unit; with a unit, every order of "
            "that unit (each path, each attack). Example: options 20tk"
        ),
    ),
    "units": (
        "units [<HEX> | soviet | german]",
        (
            "List the units by side and hex; those in one hex, or one side's, with their "
            "designations (sides also sov, ussr, ger, de). Example: units Smela"
        ),
    ),
    "supply": ("supply", "Show the supply state of the units (section 6). Example: supply"),
}


# -- parsers
def _attack(c: Cursor) -> Attack:
    hex_id = c.thing("hex")
    c.accept(*_WITH)
    units = c.things("unit", stop=(*_DECISIVE, "flip"))
    if not units:
        c.fail("syntax", "an attack needs at least one attacking unit")
    decisive, flip = False, None
    while c.peek() is not None:
        if not decisive and c.accept(*_DECISIVE):
            decisive = True
        elif flip is None and c.accept("flip"):
            flip = c.thing("unit")
        else:
            c.fail("syntax", "'decisive' and 'flip <UNIT>' may each be given once")
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
        c.fail("syntax", "a retreat needs a hex, or a hex for each unit")
    if not _is_unit(c):
        return c.thing("hex")
    pairs = []
    while c.peek() is not None:
        unit = c.thing("unit")
        c.accept("=", "to")
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
        c.accept("to", "via", "then")
        path.append(c.thing("hex"))
    if len(path) > 2:
        c.fail("syntax", "a move enters at most 2 hexes (9.6)")
    return Move(unit, tuple(path))


def _enter(c: Cursor) -> Enter:
    unit = c.thing("unit")
    c.accept("at", "in", "to", "into")
    return Enter(unit, c.thing("hex"))


def _end(c: Cursor) -> End:
    c.accept("phase")  # "end phase"
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
    word: str, parser: Parser, formats: Mapping[type, Formatter], *aliases: str, group: str = ORDERS
) -> Verb:
    return Verb(word, parser, {word: ENTRIES[word]}, formats, aliases, group)


VERBS = (
    _verb("attack", _attack, {Attack: _format_attack}, "a", "att"),
    _verb(
        "preview",
        _preview,
        {Preview: lambda o: f"preview {_format_attack(o.attack)}"},
        "pv",
        "p",
        group=QUESTIONS,
    ),
    _verb("losses", _losses, {Losses: _format_losses}, "loss", "l"),
    _verb("retreat", lambda c: Losses(retreat=_retreat_to(c)), {}, "ret"),
    _verb("move", _move, {Move: lambda o: join("move", o.unit, *o.path)}, "m", "mv"),
    _verb("enter", _enter, {Enter: lambda o: join("enter", o.unit, o.hex)}),
    _verb(
        "rebuild", lambda c: Rebuild(c.thing("unit")), {Rebuild: lambda o: join("rebuild", o.unit)}
    ),
    _verb(
        "breakout",
        lambda c: Breakout(c.thing("unit")),
        {Breakout: lambda o: join("breakout", o.unit)},
        "bo",
    ),
    _verb("end", _end, {End: lambda o: "end"}, "done", "pass"),
    _verb(
        "options",
        lambda c: Options(c.thing("unit") if c.peek() is not None else None),
        {Options: lambda o: join("options", o.unit)},
        "opt",
        "o",
        group=QUESTIONS,
    ),
    _verb("units", _units, {Units: lambda o: join("units", o.where)}, "u", group=QUESTIONS),
    _verb("supply", lambda c: Supply(), {Supply: lambda o: "supply"}, "sup", group=QUESTIONS),
    *SANDBOX_VERBS,
)


# -- names
def names_lexicon(
    units: Mapping[str, str],
    hexes: Mapping[str, str | None],
    named: Mapping[str, object] | None = None,
) -> Lexicon:
    """units: id -> designation; hexes: id -> town name or None; named: the scenario's named
    hexes (name -> hex id; other values are not hex names)."""
    more = [(v, k.replace("_", " ")) for k, v in (named or {}).items() if isinstance(v, str)]
    unit = Kind("unit", units, leading_words=True, id_prefix=3)  # "29t" names 29tk
    hex_ = Kind("hex", hexes, more, inner=True, word_prefix=4)  # "cherk" names Cherkassy
    return Lexicon([unit, hex_])


def scenario_lexicon(scenario: Scenario) -> Lexicon:
    units = {u.id: u.designation for u in scenario.units.values()}
    hexes = {h: spec.name for h, spec in scenario.hexes.items()}
    return names_lexicon(units, hexes, scenario.named)


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

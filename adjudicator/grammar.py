"""The order language of Hell's Gate, shared by every front end (terminal, Discord, Telegram).

Text -> order (`parse`, `parse_message`) and order -> canonical text (`format_order`).
Pure: no I/O, no clock, no randomness. Invariants:
- parse(format_order(o), lexicon) == o for every well-formed order o;
- format_order(parse(t, lexicon)) is the canonical form of t: lowercase command words, unit ids
  (never designations), uppercase hex ids, one space between words;
- every refusal is a ParseError (a Rejection with rule None) saying what is wrong and what is legal.
The grammar checks syntax and names only; whether an order is legal is the engine's job.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from adjudicator.core.commands import (
    MAX_TEXT,
    Audit,
    Moderator,
    Pause,
    Resume,
    Rewind,
    Rolls,
    Salt,
    Seat,
    Undo,
    Unseat,
)
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate.orders import (
    Attack,
    Breakout,
    Default,
    Dice,
    End,
    Enter,
    Flip,
    Help,
    Log,
    Losses,
    Move,
    Options,
    Place,
    Preview,
    Rebuild,
    SetOOS,
    SetPhase,
    SetRetreat,
    SetTurn,
    SetWeather,
    Status,
    Supply,
    Units,
)
from adjudicator.hells_gate.scenario import WEATHERS
from adjudicator.hells_gate.state import PHASES

if TYPE_CHECKING:
    from adjudicator.core.commands import Command
    from adjudicator.hells_gate.orders import Order
    from adjudicator.hells_gate.scenario import Scenario

    Query = Preview | Options | Status | Units | Supply | Log | Help
    Parsed = Order | Query | Command

__all__ = [
    "COMMANDS",
    "Lexicon",
    "ParseError",
    "format_order",
    "help_text",
    "parse",
    "parse_message",
]


class ParseError(Rejection):
    """Text that is not an order. rule is None: the grammar, not a rule, refuses it.

    code: "empty", "syntax", "unknown-command", "unknown-unit", "ambiguous-unit", "unknown-hex",
    "ambiguous-hex" or "bad-number"; the message ends with the usage line of the command.
    """


# -- the commands: usage line and help paragraph with an example
_U = "<UNIT>"
COMMANDS: dict[str, tuple[str, str]] = {
    "attack": (
        f"attack <HEX> with {_U} [{_U} ...] [decisive] [flip {_U}]",
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
        f"preview attack <HEX> with {_U} [{_U} ...] [decisive] [flip {_U}]",
        (
            "Show the odds and possible results of an attack without making it; the word 'attack' "
            "may be left out. Example: preview attack C6 with 20tk 75rc"
        ),
    ),
    "losses": (
        f"losses [{_U} ...] [retreat <HEX> | retreat {_U}=<HEX> ...]",
        (
            "Answer the hits of an attack on your hex (8.23-8.34): the units that each take one "
            "hit, in order, then the retreat of the other units, to one hex or a hex per unit "
            "(8.31). 'losses' alone takes no step loss; 'retreat' may be written 'r' or 'ret'. "
            "Example: losses 389id retreat D6"
        ),
    ),
    "retreat": (
        f"retreat <HEX> | retreat {_U}=<HEX> [{_U}=<HEX> ...]",
        "Short for 'losses retreat ...': answer the hits by a retreat only. Example: retreat B5",
    ),
    "move": (
        f"move {_U} [to] <HEX> [<HEX>]",
        (
            "Move a unit into an adjacent hex, or along a path of two hexes (section 9); the hexes "
            "may also be joined by '-' or ','. Example: move 20tk to C6 C5"
        ),
    ),
    "enter": (
        f"enter {_U} <HEX>",
        "Bring a reinforcement onto the map (7). Example: enter 11pz A6",
    ),
    "rebuild": (
        f"rebuild {_U}",
        "Flip a reduced corps to full strength in turns 5 and 7 (12.16). Example: rebuild 20tk",
    ),
    "breakout": (
        f"breakout {_U}",
        "Attempt the turn-8 breakout of an out-of-supply unit (12.17). Example: breakout 57id",
    ),
    "end": ("end", "End your part of the current phase ('end phase' also works). Example: end"),
    "options": ("options", "List the orders you may give now. Example: options"),
    "status": ("status", "Show the turn, phase, weather and any decision waiting. Example: status"),
    "units": (
        "units [<HEX> | soviet | german]",
        (
            "List the units: all, those in one hex, or one side's (also sov, ussr, ger, de). "
            "Example: units Smela"
        ),
    ),
    "supply": ("supply", "Show the supply state of the units (section 6). Example: supply"),
    "log": ("log [<N>]", "Show the last N entries of the game log, or all. Example: log 10"),
    "help": ("help [<COMMAND>]", "Show the commands, or the help of one. Example: help attack"),
    "default": (
        "default",
        (
            "Moderator: do what a passed deadline does: the pending decision's default, or end the "
            "phase. Example: default"
        ),
    ),
    "place": (
        f"place {_U} <HEX> | place {_U} eliminated | place {_U} off | place {_U} turn <N>",
        (
            "Moderator: put a unit in a hex, in the eliminated box ('elim'), off the map, or on "
            "the turn track for turn N. Example: place 20tk C5"
        ),
    ),
    "flip": (f"flip {_U}", "Moderator: flip a two-step unit over. Example: flip 20tk"),
    "set turn": ("set turn <N>", "Moderator: set the game turn (1 to 8). Example: set turn 3"),
    "set phase": (
        "set phase <PHASE>",
        (
            f"Moderator: set the phase, one of {', '.join(PHASES)}; spaces or underscores may "
            "replace the hyphens. Example: set phase german combat"
        ),
    ),
    "set weather": ("set weather snow|mud", "Moderator: set the weather. Example: set weather mud"),
    "set oos": (
        f"set oos {_U} on|off",
        "Moderator: put or remove an out-of-supply marker. Example: set oos 57id on",
    ),
    "set retreat": (
        f"set retreat {_U} on|off",
        "Moderator: put or remove a Retreat marker. Example: set retreat 29tk off",
    ),
    "dice": (
        "dice <N> [<N> ...]",
        "Moderator, sandbox games: fix the next die results, each 1 to 6. Example: dice 3 5",
    ),
    # -- fair dice and the audit (every game)
    "salt": (
        "salt <TEXT>",
        (
            "Player: add your own entropy to this turn's dice. Every roll of the open dice epoch "
            "mixes in the salts; accepted until the epoch's first roll, and public in the log. "
            "Example: salt my cat walked on the keyboard"
        ),
    ),
    "rolls": (
        "rolls [<N>]",
        (
            "Show the last N rolls (default 10) with their purpose, dice epoch, number in the "
            "epoch and value; rolls fixed by a moderator are marked. Example: rolls 5"
        ),
    ),
    "audit": (
        "audit",
        (
            "Moderator: check the hash chain of the log, every revealed seed against its "
            "commitment and every roll of every revealed epoch, with dice statistics per side "
            "and purpose. Example: audit"
        ),
    ),
    # -- taking back and moderation
    "undo": (
        "undo",
        (
            "Player: take back your own last order, unless it rolled a die, a dice epoch ended "
            "or was revealed after it, or your opponent has acted since. The order stays in the "
            "log, marked as undone. Example: undo"
        ),
    ),
    "rewind": (
        "rewind <LOG-INDEX> <REASON...>",
        (
            "Moderator: every order after that log row stops counting; the rows stay in the log "
            "as rewound, the dice epoch ends (its seed is revealed) and a fresh one opens. "
            "Example: rewind 12 the weather roll was entered twice"
        ),
    ),
    "pause": (
        "pause <REASON...>",
        "Moderator: stop taking orders (questions still work). Example: pause waiting for a ruling",
    ),
    "resume": (
        "resume <REASON...>",
        "Moderator: take orders again after a pause. Example: resume ruling given",
    ),
    "seat": (
        "seat soviet|german <USER> [<REASON...>]",
        "Moderator: give a side to a player. Example: seat soviet alice replaces bob",
    ),
    "unseat": (
        "unseat soviet|german <REASON...>",
        "Moderator: free a side's seat. Example: unseat german left the game",
    ),
    "moderator add": (
        "moderator add <USER> [<REASON...>]",
        "Moderator: make a user a moderator of this game. Example: moderator add carol",
    ),
    "moderator remove": (
        "moderator remove <USER> [<REASON...>]",
        (
            "Moderator: take the moderator role from a user (the last moderator stays). "
            "Example: moderator remove carol stepped down"
        ),
    ),
}
_SET_SUBJECTS = ("turn", "phase", "weather", "oos", "retreat")
_GROUPS = {
    "Orders": ("attack", "losses", "retreat", "move", "enter", "rebuild", "breakout", "end"),
    "Questions": ("preview", "options", "status", "units", "supply", "log", "help"),
    "Moderator": ("default", "place", "flip", *(f"set {s}" for s in _SET_SUBJECTS), "dice"),
    "Fair dice and the audit": ("salt", "rolls", "audit"),
    "Taking back and moderation": (
        "undo",
        "rewind",
        "pause",
        "resume",
        "seat",
        "unseat",
        "moderator add",
        "moderator remove",
    ),
}

# -- the words: command aliases first, then the words inside commands
_ALIASES = {
    "attack": ("attack", "a", "att"),
    "preview": ("preview", "pv", "p"),
    "losses": ("losses", "loss", "l"),
    "retreat": ("retreat", "ret"),
    "move": ("move", "m", "mv"),
    "enter": ("enter",),
    "rebuild": ("rebuild",),
    "breakout": ("breakout", "bo"),
    "end": ("end", "done", "pass"),
    "default": ("default",),
    "options": ("options", "opt", "o"),
    "status": ("status", "st", "s"),
    "units": ("units", "u"),
    "supply": ("supply", "sup"),
    "log": ("log",),
    "help": ("help", "h", "?"),
    "place": ("place",),
    "flip": ("flip",),
    "set": ("set",),
    "dice": ("dice",),
    "salt": ("salt",),
    "rolls": ("rolls",),
    "audit": ("audit",),
    "undo": ("undo",),
    "rewind": ("rewind",),
    "pause": ("pause",),
    "resume": ("resume",),
    "seat": ("seat",),
    "unseat": ("unseat",),
    "moderator": ("moderator", "mod"),
}
_COMMAND_WORDS = {alias: cmd for cmd, aliases in _ALIASES.items() for alias in aliases}
_SET_WORDS = {s: s for s in _SET_SUBJECTS} | {"ret": "retreat"}
_MODERATOR_WORDS = {"add": "add", "remove": "remove", "rm": "remove"}
_SUBCOMMANDS = {"set": _SET_WORDS, "moderator": _MODERATOR_WORDS}
_WITH = ("with", "w")
_DECISIVE = ("decisive", "dec", "d")
_RETREAT = ("retreat", "r", "ret")
_SIDES = dict.fromkeys(("soviet", "soviets", "sov", "ussr"), "soviet") | dict.fromkeys(
    ("german", "germans", "ger", "de"), "german"
)
_SWITCH = {"on": True, "yes": True, "off": False, "no": False}
_PLACES = {"eliminated": "eliminated", "elim": "eliminated", "off": "off"}


# -- words
_SPLIT = re.compile(r"[\s,()]+")
_HEX_CHAIN = re.compile(r"[a-z]\d+(?:-[a-z]\d+)+")
_MIN_ID_PREFIX = 3  # "29t" names 29tk; shorter prefixes are too often ambiguous
_MIN_NAME_PREFIX = 4  # "cherk" names Cherkassy


def _words(text: str) -> tuple[str, ...]:
    """Lowercase words; commas and parentheses separate words like spaces."""
    return tuple(w for w in _SPLIT.split(text.lower()) if w)


def _tokens(text: str) -> list[str]:
    """The words of one line; '=' is a word of its own and 'C6-C5' is two hexes."""
    out: list[str] = []
    for word in _words(text.replace("=", " = ")):
        out.extend(word.split("-") if _HEX_CHAIN.fullmatch(word) else [word])
    return out


def _whole(name: str) -> set[tuple[str, ...]]:
    """A whole name as words, also with hyphens read as spaces."""
    return {p for p in (_words(name), _words(name.replace("-", " "))) if p}


def _parts(name: str, inner: bool) -> set[tuple[str, ...]]:
    """The parts of a name: outside parentheses, and if inner inside them too: a town's other
    name ("Tychinovka (Tikhonovka)"), not a unit's qualifier ("5th SS Panzer Battalion (Wiking)")."""
    parts = [re.sub(r"\(.*?\)", " ", name), *(re.findall(r"\((.*?)\)", name) if inner else ())]
    return {p for part in parts for p in _whole(part)}


def _phrase_table(names: Iterable[tuple[str, str]], inner: bool) -> dict[tuple[str, ...], str]:
    """Phrase -> the one thing it names. A whole name wins over a part of another name; a
    phrase naming two things is dropped."""
    names = list(names)
    whole = [(p, thing) for thing, name in names for p in _whole(name)]
    taken = {p for p, _ in whole}
    parts = [(p, thing) for thing, name in names for p in _parts(name, inner) if p not in taken]
    return _unambiguous(parts) | _unambiguous(whole)


def _unambiguous(pairs: Iterable[tuple[tuple[str, ...], str]]) -> dict[tuple[str, ...], str]:
    found: dict[tuple[str, ...], set[str]] = {}
    for phrase, thing in pairs:
        found.setdefault(phrase, set()).add(thing)
    return {p: next(iter(t)) for p, t in found.items() if len(t) == 1}


def _longest(
    table: Mapping[tuple[str, ...], str], words: Sequence[str], i: int
) -> tuple[str, int] | None:
    """Greedy: the longest phrase of table starting at words[i]."""
    longest = max((len(p) for p in table), default=0)
    for n in range(min(longest, len(words) - i), 0, -1):
        thing = table.get(tuple(words[i : i + n]))
        if thing is not None:
            return thing, n
    return None


class Lexicon:
    """The names of one scenario: unit ids and designations, hex ids and town names.

    Case-insensitive. A match is ([thing], length in words); ([a, b, ...], n) is ambiguous and
    ([], 0) is unknown.
    """

    def __init__(
        self,
        units: Mapping[str, str],
        hexes: Mapping[str, str | None],
        turns: int,
        named: Mapping[str, object] | None = None,
    ):
        self.designations = dict(units)
        self.hex_names = {h: n for h, n in hexes.items() if n}
        self.hex_ids = tuple(hexes)
        self.turns = turns
        self.unit_phrases = _phrase_table(units.items(), inner=False) | {
            (u.lower(),): u for u in units
        }
        towns = [*self.hex_names.items()]
        towns += [(v, k.replace("_", " ")) for k, v in (named or {}).items() if isinstance(v, str)]
        by_name = _phrase_table(towns, inner=True)
        self.hex_phrases = {p: h for p, h in by_name.items() if p not in self.unit_phrases}
        self.hex_phrases |= {(h.lower(),): h for h in hexes}

    @classmethod
    def from_scenario(cls, scenario: Scenario) -> Lexicon:
        units = {u.id: u.designation for u in scenario.units.values()}
        hexes = {h: spec.name for h, spec in scenario.hexes.items()}
        return cls(units, hexes, scenario.turns, scenario.named)

    def match_unit(self, words: Sequence[str], i: int) -> tuple[list[str], int]:
        hit = _longest(self.unit_phrases, words, i)
        if hit:
            return [hit[0]], hit[1]
        for n in range(min(len(words) - i, max(map(len, self.unit_phrases), default=0)), 0, -1):
            key = tuple(words[i : i + n])  # the first words of a designation: "29th tank"
            ids = {u for p, u in self.unit_phrases.items() if len(p) > n and p[:n] == key}
            if ids:
                return sorted(ids), n
        w = words[i]
        ids = {u for u in self.designations if len(w) >= _MIN_ID_PREFIX and u.startswith(w)}
        return sorted(ids), 1 if ids else 0

    def match_hex(self, words: Sequence[str], i: int) -> tuple[list[str], int]:
        hit = _longest(self.hex_phrases, words, i)
        if hit:
            return [hit[0]], hit[1]
        w = words[i]
        if len(w) < _MIN_NAME_PREFIX:
            return [], 0
        found = {h for p, h in self.hex_phrases.items() if any(x.startswith(w) for x in p)}
        return sorted(found), 1 if found else 0

    def match(self, kind: str, words: Sequence[str], i: int) -> tuple[list[str], int]:
        """kind "unit" or "hex": the thing named at words[i:]."""
        return self.match_unit(words, i) if kind == "unit" else self.match_hex(words, i)

    def label(self, kind: str, thing: str) -> str:
        """For messages: "29tk (29th Tank Corps)", "D6 (Smela)"."""
        if kind == "unit":
            return f"{thing} ({self.designations[thing]})"
        name = self.hex_names.get(thing)
        return f"{thing} ({name})" if name else thing

    def suggest(self, kind: str, phrases: Sequence[str]) -> list[str]:
        """Labels of the things of kind whose names are closest to any of phrases."""
        table = self.unit_phrases if kind == "unit" else self.hex_phrases
        return _suggest(phrases, {" ".join(p): self.label(kind, t) for p, t in table.items()})


def _suggest(phrases: Sequence[str], choices: Mapping[str, str]) -> list[str]:
    """Up to three labels of choices closest to any of phrases, best first."""
    score: dict[str, float] = {}
    for phrase in phrases:
        for close in difflib.get_close_matches(phrase, list(choices), n=3, cutoff=0.6):
            ratio = difflib.SequenceMatcher(None, phrase, close).ratio()
            score[choices[close]] = max(score.get(choices[close], 0.0), ratio)
    return sorted(score, key=lambda label: (-score[label], label))[:3]


def _did_you_mean(labels: Sequence[str]) -> str:
    return f"; did you mean {' or '.join(labels)}?" if labels else ""


def _usage(command: str) -> str:
    if command in COMMANDS:
        return COMMANDS[command][0]
    return " | ".join(u for c, (u, _) in COMMANDS.items() if c.startswith(f"{command} "))


# -- reading one line
class _Cursor:
    """The words of one line and the position reached; failures carry the command's usage."""

    def __init__(self, words: list[str], lexicon: Lexicon, command: str):
        self.words, self.lex, self.command, self.i = words, lexicon, command, 1

    def peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def accept(self, *options: str) -> str | None:
        word = self.peek()
        if word is not None and word in options:
            self.i += 1
            return word
        return None

    def fail(self, code: str, message: str) -> NoReturn:
        end = "" if message.endswith((".", "?", "!")) else "."
        raise ParseError(code, f"{message}{end} Usage: {_usage(self.command)}")

    def done(self) -> None:
        if self.peek() is not None:
            self.fail("syntax", f"unexpected {' '.join(self.words[self.i :])!r} at the end")

    def choice(self, what: str, table: Mapping[str, str | bool], legal: str) -> str | bool:
        word = self.peek()
        if word is None or word not in table:
            self.fail("syntax", f"{what} must be {legal}, {f'not {word!r}' if word else 'missing'}")
        self.i += 1
        return table[word]

    def number(self, what: str, low: int, high: int | None = None) -> int:
        word = self.peek()
        valid = word is not None and word.isascii() and word.isdigit()
        if not valid or int(word) < low or (high is not None and int(word) > high):
            span = f"from {low} to {high}" if high is not None else f"of at least {low}"
            got = f"not {word!r}" if word else "missing"
            self.fail("bad-number", f"{what} must be a whole number {span}, {got}")
        self.i += 1
        return int(word)

    def unit(self) -> str:
        return self._thing("unit")

    def hex(self) -> str:
        return self._thing("hex")

    def is_unit(self) -> bool:
        """The next words name a unit; words that name a hex are read as the hex."""
        if self.peek() is None or len(self.lex.match_hex(self.words, self.i)[0]) == 1:
            return False
        return bool(self.lex.match_unit(self.words, self.i)[0])

    def units(self, stop: Sequence[str]) -> tuple[str, ...]:
        found = []
        while self.peek() is not None and self.peek() not in stop:
            found.append(self.unit())
            self.accept("and")  # "with 20tk and 75rc"
        return tuple(found)

    def _thing(self, kind: str) -> str:
        if self.peek() is None:
            self.fail("syntax", f"a {kind} is missing")
        found, n = self.lex.match(kind, self.words, self.i)
        if len(found) != 1:
            self._not_found(kind, found, n)
        self.i += n
        return found[0]

    def _not_found(self, kind: str, ambiguous: list[str], n: int) -> NoReturn:
        lex, rest = self.lex, self.words[self.i : self.i + 6]
        if ambiguous:
            names = " or ".join(lex.label(kind, t) for t in ambiguous)
            self.fail(f"ambiguous-{kind}", f"{' '.join(rest[:n])!r} could be {names}")
        other = "hex" if kind == "unit" else "unit"
        elsewhere = lex.match(other, self.words, self.i)[0]
        if len(elsewhere) == 1:  # "move C6 20tk": the right word in the wrong place
            said = lex.label(other, elsewhere[0])
            self.fail(f"unknown-{kind}", f"{said} is a {other}, but a {kind} is expected here")
        phrases = [" ".join(rest[:k]) for k in range(1, len(rest) + 1)]
        hint = _did_you_mean(lex.suggest(kind, phrases))
        self.fail(f"unknown-{kind}", f"unknown {kind} {rest[0]!r}{hint}")


def _attack(c: _Cursor) -> Attack:
    hex_id = c.hex()
    c.accept(*_WITH)
    units = c.units(stop=(*_DECISIVE, "flip"))
    if not units:
        c.fail("syntax", "an attack needs at least one attacking unit")
    decisive, flip = False, None
    while c.peek() is not None:
        if not decisive and c.accept(*_DECISIVE):
            decisive = True
        elif flip is None and c.accept("flip"):
            flip = c.unit()
        else:
            c.fail("syntax", "'decisive' and 'flip <UNIT>' may each be given once")
    return Attack(hex_id, units, decisive, flip)


def _preview(c: _Cursor) -> Preview:
    c.accept(*_ALIASES["attack"])
    return Preview(_attack(c))


def _retreat_to(c: _Cursor) -> str | tuple[tuple[str, str], ...]:
    """One hex for every remaining unit, or unit=hex pairs (8.31)."""
    if c.peek() is None:
        c.fail("syntax", "a retreat needs a hex, or a hex for each unit")
    if not c.is_unit():
        return c.hex()
    pairs = []
    while c.peek() is not None:
        unit = c.unit()
        c.accept("=", "to")
        pairs.append((unit, c.hex()))
    return tuple(pairs)


def _losses(c: _Cursor) -> Losses:
    units = c.units(stop=_RETREAT)
    retreat = _retreat_to(c) if c.accept(*_RETREAT) else None
    return Losses(units, retreat)


def _move(c: _Cursor) -> Move:
    unit = c.unit()
    path = []
    while c.peek() is not None or not path:
        c.accept("to", "via", "then")
        path.append(c.hex())
    if len(path) > 2:
        c.fail("syntax", "a move enters at most 2 hexes (9.6)")
    return Move(unit, tuple(path))


def _enter(c: _Cursor) -> Enter:
    unit = c.unit()
    c.accept("at", "in", "to", "into")
    return Enter(unit, c.hex())


def _place(c: _Cursor) -> Place:
    unit = c.unit()
    c.accept("at", "in", "to", "into", "on")
    box = c.accept(*_PLACES)
    if box:
        return Place(unit, _PLACES[box])
    if c.accept("turn"):
        return Place(unit, f"turn {c.number('the turn', 1, c.lex.turns)}")
    return Place(unit, c.hex())


def _set(c: _Cursor) -> Parsed:
    sub = c.peek()
    if sub not in _SET_WORDS:
        got = f"not {sub!r}" if sub else "missing"
        c.fail("syntax", f"set what? turn, phase, weather, oos or retreat, {got}")
    c.i += 1
    c.command = f"set {_SET_WORDS[sub]}"
    return _SET_PARSERS[c.command](c)


def _set_phase(c: _Cursor) -> SetPhase:
    words = c.words[c.i :]
    c.i = len(c.words)
    parts = "-".join(words).replace("_", "-").split("-")
    phase = "-".join([_SIDES.get(parts[0], parts[0]), *parts[1:]]) if words else ""
    if phase not in PHASES:
        suggest = difflib.get_close_matches(phase, PHASES, n=2) if phase else []
        got = f"not {' '.join(words)!r}{_did_you_mean(suggest)}" if words else "missing"
        c.fail("syntax", f"the phase must be one of {', '.join(PHASES)}; {got}")
    return SetPhase(phase)


def _unit_switch(c: _Cursor) -> tuple[str, bool]:
    unit = c.unit()
    return unit, c.choice("the marker", _SWITCH, "on or off")


_SET_PARSERS: dict[str, Callable[[_Cursor], Parsed]] = {
    "set turn": lambda c: SetTurn(c.number("the turn", 1, c.lex.turns)),
    "set phase": _set_phase,
    "set weather": lambda c: SetWeather(
        c.choice("the weather", {w: w for w in WEATHERS}, " or ".join(WEATHERS))
    ),
    "set oos": lambda c: SetOOS(*_unit_switch(c)),
    "set retreat": lambda c: SetRetreat(*_unit_switch(c)),
}


def _dice(c: _Cursor) -> Dice:
    values = [c.number("a die", 1, 6)]
    while c.peek() is not None:
        values.append(c.number("a die", 1, 6))
    return Dice(tuple(values))


def _units(c: _Cursor) -> Units:
    if c.peek() is None:
        return Units()
    side = c.accept(*_SIDES)
    return Units(_SIDES[side] if side else c.hex())


def _log(c: _Cursor) -> Log:
    return Log(c.number("the count", 1) if c.peek() is not None else None)


def _help(c: _Cursor) -> Help:
    if c.peek() is None:
        return Help()
    command = _command(c.words[c.i])
    c.i += 1
    subs = _SUBCOMMANDS.get(command, {})
    if c.peek() in subs:
        command = f"{command} {subs[c.words[c.i]]}"
        c.i += 1
    return Help(command)


def _end(c: _Cursor) -> End:
    c.accept("phase")  # "end phase"
    return End()


def _command(word: str) -> str:
    if word in _COMMAND_WORDS:
        return _COMMAND_WORDS[word]
    suggest = difflib.get_close_matches(word, list(_COMMAND_WORDS), n=3, cutoff=0.6)
    names = list(dict.fromkeys(_COMMAND_WORDS[s] for s in suggest))
    said = f"unknown command {word!r}{_did_you_mean(names) or '.'}"
    commands = ", ".join(_ALIASES)
    raise ParseError(
        "unknown-command", f"{said} Commands: {commands}; 'help <COMMAND>' explains one."
    )


# -- service commands: free text keeps its case, so these read the line as typed
def _rest(c: _Cursor, what: str | None) -> str | None:
    """The rest of the line as one text, single-spaced; what: required (named in the error)."""
    text = " ".join(c.words[c.i :])
    c.i = len(c.words)
    if not text:
        if what:
            c.fail("syntax", f"{what} is missing")
        return None
    if len(text) > MAX_TEXT:
        c.fail(
            "syntax", f"{what or 'the reason'} is {len(text)} characters long; at most {MAX_TEXT}"
        )
    return text


def _side(c: _Cursor) -> str:
    word = c.peek()
    side = _SIDES.get(word.lower()) if word else None
    if side is None:
        c.fail(
            "syntax", f"the side must be soviet or german, {f'not {word!r}' if word else 'missing'}"
        )
    c.i += 1
    return side


def _user(c: _Cursor) -> str:
    word = c.peek()
    if word is None:
        c.fail("syntax", "the user is missing")
    c.i += 1
    return word


def _rewind(c: _Cursor) -> Rewind:
    index = c.number("the log row", 0)
    return Rewind(index, _rest(c, "the reason (it goes into the log)"))


def _moderator(c: _Cursor) -> Moderator:
    word = (c.peek() or "").lower()
    if word not in _MODERATOR_WORDS:
        c.fail("syntax", f"moderator add or remove? {f'not {word!r}' if word else 'missing'}")
    c.i += 1
    action = _MODERATOR_WORDS[word]
    c.command = f"moderator {action}"
    return Moderator(action, _user(c), _rest(c, None))


_RAW_PARSERS: dict[str, Callable[[_Cursor], Parsed]] = {
    "salt": lambda c: Salt(_rest(c, "the salt text")),
    "rolls": lambda c: Rolls(c.number("the count", 1) if c.peek() is not None else None),
    "audit": lambda c: Audit(),
    "undo": lambda c: Undo(),
    "rewind": _rewind,
    "pause": lambda c: Pause(_rest(c, "the reason (it goes into the log)")),
    "resume": lambda c: Resume(_rest(c, "the reason (it goes into the log)")),
    "seat": lambda c: Seat(_side(c), _user(c), _rest(c, None)),
    "unseat": lambda c: Unseat(_side(c), _rest(c, "the reason (it goes into the log)")),
    "moderator": _moderator,
}
_FIRST_WORD = re.compile(r"\s*[^\s,()=]+\s*")  # the command word; the rest as typed


def _raw_words(text: str, command_word: str) -> list[str]:
    """The words of a line as typed (case kept), the command word first."""
    head = _FIRST_WORD.match(text)
    return [command_word, *text[head.end() if head else 0 :].split()]


_PARSERS: dict[str, Callable[[_Cursor], Parsed]] = {
    "attack": _attack,
    "preview": _preview,
    "losses": _losses,
    "retreat": lambda c: Losses(retreat=_retreat_to(c)),
    "move": _move,
    "enter": _enter,
    "rebuild": lambda c: Rebuild(c.unit()),
    "breakout": lambda c: Breakout(c.unit()),
    "end": _end,
    "default": lambda c: Default(),
    "options": lambda c: Options(),
    "status": lambda c: Status(),
    "units": _units,
    "supply": lambda c: Supply(),
    "log": _log,
    "help": _help,
    "place": _place,
    "flip": lambda c: Flip(c.unit()),
    "set": _set,
    "dice": _dice,
}


def parse(text: str, lexicon: Lexicon) -> Parsed:
    """One line of text -> one order or query of adjudicator.hells_gate.orders; or ParseError."""
    if len(text.strip().splitlines()) > 1:
        raise ParseError("syntax", "one order per line: send each order on a line of its own.")
    words = _tokens(text)
    if not words:
        raise ParseError("empty", "an empty line is no order; type 'help' for the commands.")
    command = _command(words[0])
    if command in _RAW_PARSERS:
        cursor = _Cursor(_raw_words(text, words[0]), lexicon, command)
        order = _RAW_PARSERS[command](cursor)
    else:
        cursor = _Cursor(words, lexicon, command)
        order = _PARSERS[command](cursor)
    cursor.done()
    return order


def parse_message(text: str, lexicon: Lexicon) -> list[tuple[str, Parsed | ParseError]]:
    """A chat message -> (line, order or ParseError) for each non-blank line, in order."""
    results: list[tuple[str, Parsed | ParseError]] = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            try:
                results.append((line, parse(line, lexicon)))
            except ParseError as exc:
                results.append((line, exc))
    return results


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


def _join(*words: object) -> str:
    return " ".join(str(w) for w in words if w is not None)


_FORMATTERS: dict[type, Callable[[Any], str]] = {
    Attack: _format_attack,
    Preview: lambda o: f"preview {_format_attack(o.attack)}",
    Losses: _format_losses,
    Move: lambda o: _join("move", o.unit, *o.path),
    Enter: lambda o: _join("enter", o.unit, o.hex),
    Rebuild: lambda o: _join("rebuild", o.unit),
    Breakout: lambda o: _join("breakout", o.unit),
    End: lambda o: "end",
    Default: lambda o: "default",
    Place: lambda o: _join("place", o.unit, o.where),
    Flip: lambda o: _join("flip", o.unit),
    SetTurn: lambda o: _join("set turn", o.turn),
    SetPhase: lambda o: _join("set phase", o.phase),
    SetWeather: lambda o: _join("set weather", o.weather),
    SetOOS: lambda o: _join("set oos", o.unit, "on" if o.on else "off"),
    SetRetreat: lambda o: _join("set retreat", o.unit, "on" if o.on else "off"),
    Dice: lambda o: _join("dice", *o.values),
    Options: lambda o: "options",
    Status: lambda o: "status",
    Units: lambda o: _join("units", o.where),
    Supply: lambda o: "supply",
    Log: lambda o: _join("log", o.count),
    Help: lambda o: _join("help", o.command),
    Salt: lambda o: _join("salt", o.text),
    Rolls: lambda o: _join("rolls", o.count),
    Audit: lambda o: "audit",
    Undo: lambda o: "undo",
    Rewind: lambda o: _join("rewind", o.index, o.reason),
    Pause: lambda o: _join("pause", o.reason),
    Resume: lambda o: _join("resume", o.reason),
    Seat: lambda o: _join("seat", o.side, o.user, o.reason),
    Unseat: lambda o: _join("unseat", o.side, o.reason),
    Moderator: lambda o: _join("moderator", o.action, o.user, o.reason),
}


def format_order(order: Parsed) -> str:
    """The canonical text of an order or query: parse(format_order(o)) == o."""
    formatter = _FORMATTERS.get(type(order))
    if formatter is None:
        raise TypeError(f"not an order or query: {order!r}")
    return formatter(order)


# -- help
def help_text(command: str | None = None) -> str:
    """All usage lines, or the usage, help and aliases of one command (aliases accepted)."""
    if command is None or not command.strip():
        lines = ["Commands (type 'help <COMMAND>' for more):"]
        for title, names in _GROUPS.items():
            lines += [f"{title}:"] + [f"  {COMMANDS[n][0]}" for n in names]
        return "\n".join(lines)
    words = _words(command)
    try:
        name = _command(words[0])
    except ParseError as exc:
        return exc.message
    subs = _SUBCOMMANDS.get(name, {})
    if len(words) > 1 and words[1] in subs:
        name = f"{name} {subs[words[1]]}"
    if name not in COMMANDS:  # "set", "moderator": every command of the group
        return "\n\n".join(help_text(n) for n in COMMANDS if n.startswith(f"{name} "))
    usage, text = COMMANDS[name]
    aliases = [a for a in _ALIASES.get(name, ()) if a != name]
    also = f"\nAliases: {', '.join(aliases)}" if aliases else ""
    return f"Usage: {usage}\n{text}{also}"

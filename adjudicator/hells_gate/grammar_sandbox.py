"""Hell's Gate's position-editing verbs (sandbox games): place, flip, set turn|phase|weather|oos|
retreat. The grammar (adjudicator.hells_gate.grammar) plugs them into the kit; the rules refuse
them outside a sandbox game, and to anyone but a moderator.

Invariants: parse(format(o)) == o for every order here; a unit is written by its id and a hex by
its id; a phase by its id (hyphens; a side word may begin it: "sov combat"); the turn is checked
against the scenario's number of turns (`cursor.grammar.turns`). Pure: no I/O.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from adjudicator.grammar import MODERATOR, Cursor, Verb, did_you_mean, join, quoted
from adjudicator.hells_gate.orders import (
    Flip,
    Place,
    SetOOS,
    SetPhase,
    SetRetreat,
    SetTurn,
    SetWeather,
)
from adjudicator.hells_gate.scenario import WEATHERS
from adjudicator.hells_gate.state import PHASES

U = "<UNIT>"
SET_SUBJECTS = ("turn", "phase", "weather", "oos", "retreat")
SET_WORDS = {s: s for s in SET_SUBJECTS} | {"ret": "retreat"}
_SWITCH = {"on": True, "yes": True, "off": False, "no": False}
_PLACES = {"eliminated": "eliminated", "elim": "eliminated", "off": "off"}

PLACE_HELP = (
    "Moderator: put a unit in a hex, in the eliminated box ('elim'), off the map, or on "
    "the turn track for turn N. Example: place 20tk C5"
)
PHASE_HELP = (
    f"Moderator: set the phase, one of {', '.join(PHASES)}; spaces or underscores may "
    "replace the hyphens. Example: set phase german combat"
)
SET_ENTRIES = {
    "set turn": ("set turn <N>", "Moderator: set the game turn (1 to 8). Example: set turn 3"),
    "set phase": ("set phase <PHASE>", PHASE_HELP),
    "set weather": ("set weather snow|mud", "Moderator: set the weather. Example: set weather mud"),
    "set oos": (
        f"set oos {U} on|off",
        "Moderator: put or remove an out-of-supply marker. Example: set oos 57id on",
    ),
    "set retreat": (
        f"set retreat {U} on|off",
        "Moderator: put or remove a Retreat marker. Example: set retreat 29tk off",
    ),
}


def _turn(c: Cursor) -> int:
    return c.number("the turn", 1, c.grammar.turns)


def _place(c: Cursor) -> Place:
    unit = c.thing("unit")
    c.accept("at", "in", "to", "into", "on")
    box = c.accept(*_PLACES)
    if box:
        return Place(unit, _PLACES[box])
    if c.accept("turn"):
        return Place(unit, f"turn {_turn(c)}")
    return Place(unit, c.thing("hex"))


def _set(c: Cursor) -> object:
    sub = c.peek()
    if sub not in SET_WORDS:
        got = f"not {quoted(sub)}" if sub else "missing"
        c.fail("syntax", f"set what? turn, phase, weather, oos or retreat, {got}")
    c.i += 1
    c.command = f"set {SET_WORDS[sub]}"
    return _SET_PARSERS[c.command](c)


def _set_phase(c: Cursor) -> SetPhase:
    said = c.words[c.i :]
    c.i = len(c.words)
    parts = "-".join(said).replace("_", "-").split("-")
    sides = c.grammar.side_words
    phase = "-".join([sides.get(parts[0], parts[0]), *parts[1:]]) if said else ""
    if phase not in PHASES:
        suggest = difflib.get_close_matches(phase, PHASES, n=2) if phase else []
        got = f"not {quoted(' '.join(said))}{did_you_mean(suggest)}" if said else "missing"
        c.fail("syntax", f"the phase must be one of {', '.join(PHASES)}; {got}")
    return SetPhase(phase)


def _unit_switch(c: Cursor) -> tuple[str, bool]:
    unit = c.thing("unit")
    return unit, c.choice("the marker", _SWITCH, "on or off")


_SET_PARSERS: dict[str, Callable[[Cursor], object]] = {
    "set turn": lambda c: SetTurn(_turn(c)),
    "set phase": _set_phase,
    "set weather": lambda c: SetWeather(
        c.choice("the weather", {w: w for w in WEATHERS}, " or ".join(WEATHERS))
    ),
    "set oos": lambda c: SetOOS(*_unit_switch(c)),
    "set retreat": lambda c: SetRetreat(*_unit_switch(c)),
}


def _on(on: bool) -> str:
    return "on" if on else "off"


SANDBOX_VERBS = (
    Verb(
        "place",
        _place,
        {
            "place": (
                f"place {U} <HEX> | place {U} eliminated | place {U} off | place {U} turn <N>",
                PLACE_HELP,
            )
        },
        {Place: lambda o: join("place", o.unit, o.where)},
        group=MODERATOR,
    ),
    Verb(
        "flip",
        lambda c: Flip(c.thing("unit")),
        {"flip": (f"flip {U}", "Moderator: flip a two-step unit over. Example: flip 20tk")},
        {Flip: lambda o: join("flip", o.unit)},
        group=MODERATOR,
    ),
    Verb(
        "set",
        _set,
        SET_ENTRIES,
        {
            SetTurn: lambda o: join("set turn", o.turn),
            SetPhase: lambda o: join("set phase", o.phase),
            SetWeather: lambda o: join("set weather", o.weather),
            SetOOS: lambda o: join("set oos", o.unit, _on(o.on)),
            SetRetreat: lambda o: join("set retreat", o.unit, _on(o.on)),
        },
        group=MODERATOR,
        subwords=SET_WORDS,
    ),
)

__all__ = ["SANDBOX_VERBS", "SET_ENTRIES", "SET_SUBJECTS", "SET_WORDS"]

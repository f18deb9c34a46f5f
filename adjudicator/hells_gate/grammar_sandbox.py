"""Hell's Gate's position-editing verbs: place, flip, set turn|phase|weather|oos|retreat. The
grammar (adjudicator.hells_gate.grammar) plugs them into the kit as kind "edit": a moderator's
only; at once in a sandbox game, else a proposal another person confirms (app/edits.py). None
sets a hidden value (the game has none).

Invariants: parse(format(o)) == o for every order here; a unit is written by its id and a hex by
its id; a phase by its id (hyphens; a side word may begin it: "sov combat"); the turn is checked
against the scenario's number of turns (`cursor.grammar.turns`). Pure: no I/O.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable

from adjudicator.core.i18n import t
from adjudicator.grammar import MODERATOR, Cursor, Verb, did_you_mean, join, quoted
from adjudicator.hells_gate.grammar_help import U
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

SET_SUBJECTS = ("turn", "phase", "weather", "oos", "retreat")
SET_WORDS = (
    {s: s for s in SET_SUBJECTS}
    | {"ret": "retreat"}
    | {  # Russian (issue 17)
        "ход": "turn",
        "фаза": "phase",
        "погода": "weather",
        "вне": "oos",  # вне снабжения: the out-of-supply marker
        "внеснабжения": "oos",
        "отступление": "retreat",
        "отход": "retreat",
    }
)
_SWITCH = {"on": True, "yes": True, "off": False, "no": False}
_SWITCH |= {"вкл": True, "да": True, "выкл": False, "нет": False}
_PLACES = {"eliminated": "eliminated", "elim": "eliminated", "off": "off"}
_PLACES |= {"уничтожена": "eliminated", "уничтожен": "eliminated", "вне-карты": "off"}
_ON = ("at", "in", "to", "into", "on", "в", "на")
_TURN = ("turn", "ход")
_WEATHERS = {w: w for w in WEATHERS} | {"снег": "snow", "грязь": "mud", "дождь": "mud"}  # 11.1
_PHASE_WORDS = {  # 4.1 in the Russian summary's words: "советская фаза боя" -> soviet-combat
    "советская": "soviet",
    "немецкая": "german",
    "снабжение": "supply",
    "снабжения": "supply",
    "бой": "combat",
    "боя": "combat",
    "движение": "movement",
    "движения": "movement",
    "восстановление": "recovery",
    "восстановления": "recovery",
    "общая": "joint",
}

PLACE_HELP = t(
    "Moderator: put a unit in a hex, in the eliminated box ('elim'), off the map, or on "
    "the turn track for turn N. Example: place 20tk C5"
)
PHASE_HELP = t(
    "Moderator: set the phase, one of {phases}; spaces or underscores may "
    "replace the hyphens. Example: set phase german combat",
    phases=", ".join(PHASES),
)
SET_ENTRIES = {
    "set turn": (
        t("set turn <N>"),
        t("Moderator: set the game turn (1 to 8). Example: set turn 3"),
    ),
    "set phase": (t("set phase <PHASE>"), PHASE_HELP),
    "set weather": (
        t("set weather snow|mud"),
        t("Moderator: set the weather. Example: set weather mud"),
    ),
    "set oos": (
        t("set oos {u} on|off", u=U),
        t("Moderator: put or remove an out-of-supply marker. Example: set oos 57id on"),
    ),
    "set retreat": (
        t("set retreat {u} on|off", u=U),
        t("Moderator: put or remove a Retreat marker. Example: set retreat 29tk off"),
    ),
}


def _turn(c: Cursor) -> int:
    return c.number(t("the turn"), 1, c.grammar.turns)


def _place(c: Cursor) -> Place:
    unit = c.thing("unit")
    c.accept(*_ON)
    box = c.accept(*_PLACES)
    if box:
        return Place(unit, _PLACES[box])
    if c.accept(*_TURN):
        return Place(unit, f"turn {_turn(c)}")
    return Place(unit, c.thing("hex"))


def _set(c: Cursor) -> object:
    sub = c.peek()
    if sub not in SET_WORDS:
        got = t("not {word}", word=quoted(sub)) if sub else t("missing")
        c.fail("syntax", t("set what? turn, phase, weather, oos or retreat, {got}", got=got))
    c.i += 1
    c.command = f"set {SET_WORDS[sub]}"
    return _SET_PARSERS[c.command](c)


def _set_phase(c: Cursor) -> SetPhase:
    said = c.words[c.i :]
    c.i = len(c.words)
    parts = [_PHASE_WORDS.get(p, p) for p in "-".join(said).replace("_", "-").split("-")]
    parts = [p for p in parts if p != "фаза"]  # "советская фаза боя"
    if parts[-1:] == ["soviet"] or parts[-1:] == ["german"]:  # "бой советская": side first
        parts = [parts[-1], *parts[:-1]]
    sides = c.grammar.side_words
    phase = "-".join([sides.get(parts[0], parts[0]), *parts[1:]]) if said else ""
    if phase not in PHASES:
        suggest = difflib.get_close_matches(phase, PHASES, n=2) if phase else []
        typed = quoted(" ".join(said))
        got = (
            t("not {word}{hint}", word=typed, hint=did_you_mean(suggest)) if said else t("missing")
        )
        c.fail(
            "syntax",
            t("the phase must be one of {phases}; {got}", phases=", ".join(PHASES), got=got),
        )
    return SetPhase(phase)


def _unit_switch(c: Cursor) -> tuple[str, bool]:
    unit = c.thing("unit")
    return unit, c.choice(t("the marker"), _SWITCH, t("on or off"))


_SET_PARSERS: dict[str, Callable[[Cursor], object]] = {
    "set turn": lambda c: SetTurn(_turn(c)),
    "set phase": _set_phase,
    "set weather": lambda c: SetWeather(c.choice(t("the weather"), _WEATHERS, t("snow or mud"))),
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
                t(
                    "place {u} <HEX> | place {u} eliminated | place {u} off | place {u} turn <N>",
                    u=U,
                ),
                PLACE_HELP,
            )
        },
        {Place: lambda o: join("place", o.unit, o.where)},
        ("поставить", "разместить"),
        group=MODERATOR,
        kind="edit",
    ),
    Verb(
        "flip",
        lambda c: Flip(c.thing("unit")),
        {
            "flip": (
                t("flip {u}", u=U),
                t("Moderator: flip a two-step unit over. Example: flip 20tk"),
            )
        },
        {Flip: lambda o: join("flip", o.unit)},
        ("перевернуть",),
        group=MODERATOR,
        kind="edit",
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
        ("установить", "уст"),
        group=MODERATOR,
        kind="edit",
        subwords=SET_WORDS,
    ),
)

__all__ = ["SANDBOX_VERBS", "SET_ENTRIES", "SET_SUBJECTS", "SET_WORDS"]

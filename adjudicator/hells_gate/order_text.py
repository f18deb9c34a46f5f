"""An order's canonical text as a text a reader sees in his language: the English canonical text
(grammar.format_order), or its Russian form, which parses to the same order ("attack C6 with
20tk 75rc" is "атака C6 силами 20tk 75rc" in Russian; ids and hex ids stay as they are).

Invariants: str(said_order(o)) is "`" + format_order(o) + "`"; the Russian form parses (with a
scenario's grammar) to o. Pure: no I/O.
"""

from __future__ import annotations

from adjudicator.core.i18n import Msg, cat, name
from adjudicator.hells_gate.grammar import format_order

COMMANDS = {  # the canonical command words of Hell's Gate -> Russian ones (grammar.VERBS)
    "attack": "атака",
    "preview": "прогноз",
    "losses": "потери",
    "retreat": "отход",
    "move": "ход",
    "enter": "ввод",
    "rebuild": "пополнить",
    "breakout": "прорыв",
    "end": "конец",
    "options": "варианты",
    "units": "части",
    "supply": "снабжение",
    "place": "поставить",
    "flip": "перевернуть",
    "set": "уст",
}
RUSSIAN_WORDS = {  # the other words of the canonical texts -> Russian keywords
    "attack": "атака",
    "with": "силами",
    "decisive": "решительная",
    "flip": "переворот",
    "retreat": "отход",
    "soviet": "советские",
    "german": "немецкие",
    "eliminated": "уничтожен",
    "turn": "ход",
    "phase": "фаза",
    "weather": "погода",
    "oos": "вне",
    "snow": "снег",
    "mud": "грязь",
}
_SWITCHES = {"on": "вкл", "off": "выкл"}  # set oos|retreat <UNIT> on|off


def russian_order(canonical: str) -> str:
    """The Russian form of a canonical order text (see the module doc)."""
    words = canonical.split(" ")
    head = COMMANDS.get(words[0], words[0])
    if words[0] == "set":
        said = [head, RUSSIAN_WORDS.get(words[1], words[1])]
        if words[1] == "retreat":
            said[1] = "отступление"
        rest = words[2:]
        if words[1] in ("oos", "retreat") and rest:
            rest = [*rest[:-1], _SWITCHES.get(rest[-1], rest[-1])]
        elif words[1] == "weather":
            rest = [RUSSIAN_WORDS.get(w, w) for w in rest]
        return " ".join([*said, *rest])
    said = [head, *(RUSSIAN_WORDS.get(w, w) for w in words[1:])]
    if words[0] == "place" and words[-1] == "off":
        said[-1] = "вне-карты"
    return " ".join(said)


def said_order(order: object) -> Msg:
    """`the order` as a command to type, in the reader's language (see the module doc)."""
    canonical = format_order(order)
    return cat("`", name(canonical, ru=russian_order(canonical)), "`")


__all__ = ["COMMANDS", "RUSSIAN_WORDS", "russian_order", "said_order"]

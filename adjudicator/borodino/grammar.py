"""The order language of the Borodino referee: its verbs, plugged into the grammar kit.

Verbs: at, disorder, rout, eliminate, activated, dispute, activate, end, rally, recovery,
return, morale; `dice` is the kit's with the scenario's die (1.10); the shared verbs do the
rest. Names: units (id, or the first words of a name: "odessa"), Activation Groups (id or
name), hexes (the board's four digits, "0712"). Canonical text: ids, lower case.

Russian: every verb has Russian command words (the terms of the Russian rules: Сбор,
Восстановление, Возвращение на карту, Потеря строя, бежавшие части, ...; RU below), the
actions of `activated` have Russian words, and the units and groups are also named by their
Russian names (`name_ru`). The canonical text stays English: format(parse("сбор odessa")) is
"rally odessa". An unknown Cyrillic command word is answered with Cyrillic suggestions.
Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import difflib
import re

from adjudicator.borodino import orders as O
from adjudicator.borodino.data import Scenario
from adjudicator.borodino.grammar_edit import EDIT_VERBS
from adjudicator.core.commands import Dice
from adjudicator.core.i18n import Msg, cat, name, t
from adjudicator.core.system import Side
from adjudicator.grammar import (
    MODERATOR,
    Cursor,
    GrammarKit,
    Kind,
    Lexicon,
    ParseError,
    Parser,
    Verb,
    join,
    quoted,
    tokens,
)

SIDES = (
    Side("russian", name("Russian", ru="Россия"), ("russians", "rus", "ru", "русские", "рус")),
    Side("french", name("French", ru="Франция"), ("fr", "fra", "france", "французы", "фр")),
)
ORDERS = t("Reports (your own units)")
ROLLS = t("The referee's phases and rolls")
ORDER = (
    *("at", "disorder", "rout", "eliminate", "activated", "dispute"),
    *("activate", "end", "rally", "morale", "recovery", "return"),
    *("status", "options", "log", "help", "default", "dice", "place", "set"),
)
RU = {  # the Russian command words of each verb (the first is the one help shows)
    "at": ("позиция", "поз"),
    "disorder": ("потеря", "расстройство"),  # "потеря строя odessa": Потеря строя (1.3)
    "rout": ("бегство", "бежала"),  # бежавшие части (1.6)
    "eliminate": ("уничтожение", "уничтожена"),
    "activated": ("действовала",),
    "dispute": ("спор", "оспорить"),
    "activate": ("активация", "активировать"),  # Фаза Активации
    "end": ("конец", "завершить"),
    "rally": ("сбор",),  # Сбор частей
    "morale": ("мораль",),  # Фаза Морали
    "recovery": ("восстановление",),  # Фаза Восстановления
    "return": ("возвращение", "вернуть"),  # Возвращение на карту
    "dice": ("кубики", "кубик"),
}
ACTION_WORDS = {  # 2.2: the words of what a unit did ("не двигались, не меняли развернутость и
    # не стреляли")
    **{a: a for a in O.ACTIONS},
    "двигалась": "moved",
    "стреляла": "fired",
    "развернулась": "faced",
}
DISORDER_TAIL = "строя"  # "потеря строя odessa"


def _unit_order(kind: type, word: str, usage: Msg, group: Msg = ORDERS) -> Verb:
    def parse(c: Cursor) -> object:
        return kind(c.thing("unit"))

    return _verb(word, kind, parse, usage, "unit", group=group)


def _disorder(c: Cursor) -> O.Disorder:
    if c.words[0] in RU["disorder"]:
        c.accept(DISORDER_TAIL)
    return O.Disorder(c.thing("unit"))


def _at(c: Cursor) -> O.At:
    return O.At(c.thing("unit"), c.thing("hex"))


def _activated(c: Cursor) -> O.Activated:
    unit = c.thing("unit")
    action = c.choice(t("what it did"), ACTION_WORDS, t("moved, fired or faced"))
    return O.Activated(unit, action)


def _dispute(c: Cursor) -> O.Dispute:
    return O.Dispute(c.thing("unit"), c.rest(t("what is disputed")))


def _activate(c: Cursor) -> O.Activate | O.ActivateWhich:
    if c.peek() is None:  # which? the rules' check names the groups that may be activated now
        return O.ActivateWhich()
    if c.matches("group"):
        return O.Activate(c.thing("group"))
    return O.Activate(c.thing("unit"))


def _return(c: Cursor) -> O.Return:
    return O.Return(c.thing("unit"), c.thing("hex"))


def _bare(kind: type, word: str, group: Msg = ROLLS) -> Verb:
    def parse(c: Cursor) -> object:
        return kind()

    usage = name(word, ru=RU[word][0])  # the word alone (a form here: no catalogue's msgid)
    return _verb(word, kind, parse, usage, group=group)


def _dice_verb(sides: int) -> Verb:
    def parse(c: Cursor) -> Dice:
        values = [c.number("a die", 1, sides)]
        while c.peek() is not None:
            values.append(c.number("a die", 1, sides))
        return Dice(tuple(values))

    usage = name("dice <N> [<N> ...]", ru="кубики <N> [<N> ...]")  # the shared verb's usage
    text = t(
        "Moderator, sandbox games: fix the next die results, each 1 to {sides}. Example: dice 3 5",
        sides=sides,
    )
    return Verb(
        "dice",
        parse,
        {"dice": (usage, text)},
        {Dice: lambda o: join("dice", *o.values)},
        aliases=RU["dice"],
        group=MODERATOR,
        kind="moderator",
    )


HELP = {
    "at": t(
        "Report where your unit is (a unit not yet in play enters there). In its own activation "
        "a move makes it unable to rally (2.2). Example: at odessa 0604"
    ),
    "disorder": t("Report that your unit is Disordered (flipped). Example: disorder odessa"),
    "rout": t(
        "Report that your unit routed: it goes to your Withdrawn Box (1.6). Example: rout odessa"
    ),
    "eliminate": t(
        "Report that your unit is eliminated: Permanently Eliminated box (1.7). "
        "Example: eliminate odessa"
    ),
    "activated": t(
        "Report what your unit did in its Activation Phase: it may then not rally (2.2). "
        "Example: activated odessa fired"
    ),
    "dispute": t(
        "Question your opponent's report on one of his units: sent to the moderators and "
        "recorded in the log. Example: dispute 25e it was adjacent to odessa"
    ),
    "activate": t(
        "Open the Activation Phase of one of your Activation Groups (or of an independent unit, "
        "2.8); once a turn each. Example: activate neverovsky"
    ),
    "end": t(
        "Close your Activation Phase (its Rally phase begins, 2.1) or your Rally phase. "
        "Example: end"
    ),
    "rally": t(
        "In your Rally phase: the bot rolls for one eligible Disordered unit against its "
        "Disordered-side cohesion (2.2-2.7). Example: rally odessa"
    ),
    "morale": t(
        "The Morale Phase: the collapse check of every Activation Group (6.2, 6.3). Example: morale"
    ),
    "recovery": t(
        "The whole Recovery Phase: the Morale Phase first if not held, who goes first, a roll "
        "for every unit in a Recovery Box, then the placements; then the Withdrawn Boxes move "
        "and the turn ends. Example: recovery"
    ),
    "return": t(
        "Place your recovered unit within 3 hexes of its group (independent: of its Army) and "
        "at least 3 from every enemy unit (4.2-4.4). Example: return odessa 0805"
    ),
}


def _verb(
    word: str, kind: type, parser: Parser, usage: Msg, *fields: str, group: Msg = ORDERS
) -> Verb:
    """A verb whose canonical text is its command word, then the order's `fields` in order."""

    def fmt(o: object) -> str:
        return join(word, *(getattr(o, f) for f in fields))

    return Verb(
        word, parser, {word: (usage, HELP[word])}, {kind: fmt}, aliases=RU[word], group=group
    )


VERBS = (
    _verb("at", O.At, _at, t("at <UNIT> <HEX>"), "unit", "hex"),
    _verb("disorder", O.Disorder, _disorder, t("disorder <UNIT>"), "unit"),
    _unit_order(O.Rout, "rout", t("rout <UNIT>")),
    _unit_order(O.Eliminate, "eliminate", t("eliminate <UNIT>")),
    _verb(
        "activated",
        O.Activated,
        _activated,
        t("activated <UNIT> moved|fired|faced"),
        "unit",
        "action",
    ),
    _verb("dispute", O.Dispute, _dispute, t("dispute <UNIT> <TEXT...>"), "unit", "text"),
    Verb(
        "activate",
        _activate,
        {"activate": (t("activate <AG|UNIT>"), HELP["activate"])},
        {O.Activate: lambda o: join("activate", o.group), O.ActivateWhich: lambda o: "activate"},
        aliases=RU["activate"],
        group=ROLLS,
    ),
    _bare(O.End, "end"),
    _unit_order(O.Rally, "rally", t("rally <UNIT>"), ROLLS),
    _bare(O.Morale, "morale"),
    _bare(O.Recovery, "recovery"),
    _verb("return", O.Return, _return, t("return <UNIT> <HEX>"), "unit", "hex", group=ROLLS),
)
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


class BorodinoGrammar(GrammarKit):
    def __init__(self, scen: Scenario, help_texts: dict[str, str]):
        kinds = [
            Kind(
                "group",
                {g.id: g.name for g in scen.groups.values()},
                leading_words=True,
                more_names=[(g.id, g.name_ru) for g in scen.groups.values() if g.name_ru],
                inner=True,
            ),
            Kind(
                "unit",
                {u.id: u.name for u in scen.units.values()},
                leading_words=True,
                more_names=_russian_names(scen),
            ),
            Kind("hex", {h: None for h in scen.map.hexes}),
        ]
        verbs = (*VERBS, _dice_verb(scen.die_sides), *EDIT_VERBS)
        super().__init__(Lexicon(kinds), SIDES, verbs, order=ORDER, help_texts=help_texts)

    def parse(self, text: str) -> object:
        try:
            return super().parse(text)
        except ParseError as exc:
            said = tokens(text)
            if exc.code != "unknown-command" or not said or not _CYRILLIC.search(said[0]):
                raise
            raise ParseError("unknown-command", self._unknown_russian(said[0])) from None

    def _unknown_russian(self, word: str) -> Msg:
        """An unknown Cyrillic command word: the closest Cyrillic command words (at most 3)."""
        russian = [w for w in self.table.command_words if _CYRILLIC.search(w)]
        close = difflib.get_close_matches(word, russian, n=3, cutoff=0.6)
        if not close:
            return t("unknown command {word}. Say 'help' for the commands.", word=quoted(word))
        return t(
            "unknown command {word}; did you mean {words}? Say 'help' for the commands.",
            word=quoted(word),
            words=_or(close),
        )


def _russian_names(scen: Scenario) -> list[tuple[str, str]]:
    """Each unit's Russian name, and its first word alone ("одесский"): a name of its own, so
    that a mistyped one ("одеский") is answered with a suggestion; a first word two units share
    names neither (the Lexicon drops it)."""
    found = []
    for u in scen.units.values():
        if u.name_ru:
            first = u.name_ru.split()[0]
            found += [(u.id, u.name_ru)] + ([(u.id, first)] if first != u.name_ru else [])
    return found


def _or(words: list[str]) -> Msg:
    said: Msg = cat(words[0])
    for more in words[1:]:
        said = t("{a} or {b}", a=said, b=more)
    return said

"""The order language of the Borodino referee: its verbs, plugged into the grammar kit.

Verbs: at, disorder, rout, eliminate, activated, dispute, activate, end, rally, recovery,
return, morale; `dice` is the kit's with the scenario's die (1.10); the shared verbs do the
rest. Names: units (id, or the first words of a name: "odessa"), Activation Groups (id or
name), hexes (the board's four digits, "0712"). Canonical text: ids, lower case.
Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from adjudicator.borodino import orders as O
from adjudicator.borodino.data import Scenario
from adjudicator.core.commands import Dice
from adjudicator.core.system import Side
from adjudicator.grammar import Cursor, Formatter, GrammarKit, Kind, Lexicon, Parser, Verb, join

SIDES = (
    Side("russian", "Russian", ("russians", "rus", "ru")),
    Side("french", "French", ("fr", "fra", "france")),
)
ORDERS = "Reports (your own units)"
ROLLS = "The referee's phases and rolls"
ORDER = (
    *("at", "disorder", "rout", "eliminate", "activated", "dispute"),
    *("activate", "end", "rally", "morale", "recovery", "return"),
    *("status", "log", "help", "default", "dice"),
)


def _unit_order(kind: type, word: str, usage: str, group: str = ORDERS) -> Verb:
    def parse(c: Cursor) -> object:
        return kind(c.thing("unit"))

    return _verb(word, parse, usage, kind, lambda o: join(word, o.unit), group)


def _at(c: Cursor) -> O.At:
    return O.At(c.thing("unit"), c.thing("hex"))


def _activated(c: Cursor) -> O.Activated:
    unit = c.thing("unit")
    action = c.choice("what it did", {a: a for a in O.ACTIONS}, "moved, fired or faced")
    return O.Activated(unit, action)


def _dispute(c: Cursor) -> O.Dispute:
    return O.Dispute(c.thing("unit"), c.rest("what is disputed"))


def _activate(c: Cursor) -> O.Activate:
    if c.matches("group"):
        return O.Activate(c.thing("group"))
    return O.Activate(c.thing("unit"))


def _return(c: Cursor) -> O.Return:
    return O.Return(c.thing("unit"), c.thing("hex"))


def _bare(kind: type, word: str, group: str = ROLLS) -> Verb:
    def parse(c: Cursor) -> object:
        return kind()

    return _verb(word, parse, word, kind, lambda o: word, group)


def _dice_verb(sides: int) -> Verb:
    def parse(c: Cursor) -> Dice:
        values = [c.number("a die", 1, sides)]
        while c.peek() is not None:
            values.append(c.number("a die", 1, sides))
        return Dice(tuple(values))

    usage = "dice <N> [<N> ...]"
    text = (
        f"Moderator, sandbox games: fix the next die results, each 1 to {sides}. Example: dice 3 5"
    )
    return Verb("dice", parse, {"dice": (usage, text)}, {Dice: lambda o: join("dice", *o.values)},
                group="Moderator")  # fmt: skip


HELP = {
    "at": (
        "Report where your unit is (a unit not yet in play enters there). In its own activation "
        "a move makes it unable to rally (2.2). Example: at odessa 0604"
    ),
    "disorder": "Report that your unit is Disordered (flipped). Example: disorder odessa",
    "rout": "Report that your unit routed: it goes to your Withdrawn Box (1.6). Example: rout odessa",
    "eliminate": (
        "Report that your unit is eliminated: Permanently Eliminated box (1.7). "
        "Example: eliminate odessa"
    ),
    "activated": (
        "Report what your unit did in its Activation Phase: it may then not rally (2.2). "
        "Example: activated odessa fired"
    ),
    "dispute": (
        "Question your opponent's report on one of his units: sent to the moderators and "
        "recorded in the log. Example: dispute 25e it was adjacent to odessa"
    ),
    "activate": (
        "Open the Activation Phase of one of your Activation Groups (or of an independent unit, "
        "2.8); once a turn each. Example: activate neverovsky"
    ),
    "end": (
        "Close your Activation Phase (its Rally phase begins, 2.1) or your Rally phase. "
        "Example: end"
    ),
    "rally": (
        "In your Rally phase: the bot rolls for one eligible Disordered unit against its "
        "Disordered-side cohesion (2.2-2.7). Example: rally odessa"
    ),
    "morale": (
        "The Morale Phase: the collapse check of every Activation Group (6.2, 6.3). Example: morale"
    ),
    "recovery": (
        "The whole Recovery Phase: the Morale Phase first if not held, who goes first, a roll "
        "for every unit in a Recovery Box, then the placements; then the Withdrawn Boxes move "
        "and the turn ends. Example: recovery"
    ),
    "return": (
        "Place your recovered unit within 3 hexes of its group (independent: of its Army) and "
        "at least 3 from every enemy unit (4.2-4.4). Example: return odessa 0805"
    ),
}


def _verb(word: str, parser: Parser, usage: str, kind: type, fmt: Formatter, group: str) -> Verb:
    return Verb(word, parser, {word: (usage, HELP[word])}, {kind: fmt}, group=group)


VERBS = (
    _verb("at", _at, "at <UNIT> <HEX>", O.At, lambda o: join("at", o.unit, o.hex), ORDERS),
    _unit_order(O.Disorder, "disorder", "disorder <UNIT>"),
    _unit_order(O.Rout, "rout", "rout <UNIT>"),
    _unit_order(O.Eliminate, "eliminate", "eliminate <UNIT>"),
    _verb(
        "activated", _activated, "activated <UNIT> moved|fired|faced", O.Activated,
        lambda o: join("activated", o.unit, o.action), ORDERS,
    ),
    _verb(
        "dispute", _dispute, "dispute <UNIT> <TEXT...>", O.Dispute,
        lambda o: join("dispute", o.unit, o.text), ORDERS,
    ),
    _verb(
        "activate", _activate, "activate <AG|UNIT>", O.Activate,
        lambda o: join("activate", o.group), ROLLS,
    ),
    _bare(O.End, "end"),
    _unit_order(O.Rally, "rally", "rally <UNIT>", ROLLS),
    _bare(O.Morale, "morale"),
    _bare(O.Recovery, "recovery"),
    _verb(
        "return", _return, "return <UNIT> <HEX>", O.Return,
        lambda o: join("return", o.unit, o.hex), ROLLS,
    ),
)  # fmt: skip


class BorodinoGrammar(GrammarKit):
    def __init__(self, scen: Scenario, help_texts: dict[str, str]):
        kinds = [
            Kind("group", {g.id: g.name for g in scen.groups.values()}, leading_words=True),
            Kind("unit", {u.id: u.name for u in scen.units.values()}, leading_words=True),
            Kind("hex", {h: None for h in scen.map.hexes}),
        ]
        verbs = (*VERBS, _dice_verb(scen.die_sides))
        super().__init__(Lexicon(kinds), SIDES, verbs, order=ORDER, help_texts=help_texts)

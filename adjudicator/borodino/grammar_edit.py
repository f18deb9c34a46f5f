"""The moderator's position editor in the order language (edit.py has its rules): `place` and
`set`, verbs of kind "edit", plugged into the grammar (grammar.BorodinoGrammar).

Canonical text: `place <UNIT> <HEX|withdrawn|recovery|awaiting|eliminated|later>` ("awaiting" is
the location "recovered", 4.5), `set state <UNIT> formed|disordered|routed|eliminated`, `set
losses <AG> <N>`, `set collapsed <AG> yes|no`, `set turn <N>`, `set phase <PHASE> [<AG|UNIT>]`;
parse(format(o)) == o. Russian command words and values as in Hell's Gate's editor (`поставить`,
`уст`) and in the terms of the Russian rules (пбч, упадок, ...). Pure: no I/O.
"""

from __future__ import annotations

from adjudicator.borodino import orders as O
from adjudicator.core.i18n import t
from adjudicator.grammar import MODERATOR, Cursor, Verb, join, quoted

RU = {"place": ("поставить", "разместить"), "set": ("установить", "уст")}  # as Hell's Gate

PLACE_WORDS = {  # 1.5 and its Decision: the boxes and the two more states
    **{b: b for b in O.BOXES},
    "awaiting": "recovered",  # 4.5: recovered, awaiting placement
    "pe": "eliminated",  # the Permanently Eliminated box (1.7)
    "пбч": "withdrawn",  # Поле Бежавших Частей
    "бежавшие": "withdrawn",
    "восстанавливаемые": "recovery",  # Поле Восстанавливаемых Частей
    "восстановление": "recovery",
    "ожидает": "recovered",  # восстановлена, ожидает возвращения на карту (4.5)
    "восстановлена": "recovered",
    "выбыла": "eliminated",  # Поле Окончательно Выбывших Частей
    "уничтожена": "eliminated",
    "позже": "later",  # ещё не вошла в игру (6.4)
    "позднее": "later",
}
PLACE_SAID = t("a hex of the map, or withdrawn, recovery, awaiting, eliminated or later")
STATE_WORDS = {
    **{s: s for s in O.STATES},
    "боевой": "formed",  # в Боевом порядке (1.3)
    "нормальная": "formed",
    "расстроена": "disordered",  # потерявшая строй (1.3)
    "потеря": "disordered",
    "бежала": "routed",  # Бежавшая (1.6)
    "бежавшая": "routed",
    "уничтожена": "eliminated",
    "выбыла": "eliminated",
}
SWITCH = {"yes": True, "on": True, "no": False, "off": False}
SWITCH |= {"да": True, "вкл": True, "нет": False, "выкл": False}
PHASE_WORDS = {
    **{p: p for p in O.PHASES},
    "между": "activations",  # между активациями
    "активация": "activation",
    "сбор": "rally",
    "восстановление": "recovery",
    "возвращение": "placement",
}
SET_WORDS = {
    **{w: w for w in ("state", "losses", "collapsed", "turn", "phase")},
    "состояние": "state",
    "потери": "losses",
    "упадок": "collapsed",  # Упадок духа (6.1)
    "коллапс": "collapsed",
    "ход": "turn",
    "фаза": "phase",
}
ON_WORDS = ("at", "in", "to", "into", "on", "в", "на")
EDIT_HELP = {
    "place": (
        t("place <UNIT> <HEX> | place <UNIT> withdrawn|recovery|awaiting|eliminated|later"),
        t(
            "Moderator: put a unit in a hex of the map (its side stays up; from off the map it "
            "comes Formed), in the Withdrawn Box, the Recovery Box, the Recovery Box recovered "
            "and awaiting placement (4.5), the Permanently Eliminated box, or back among the "
            "units not yet entered (6.4). Example: place odessa awaiting"
        ),
    ),
    "set state": (
        t("set state <UNIT> formed|disordered|routed|eliminated"),
        t(
            "Moderator: set a unit's state: Formed or Disordered (a unit on the map, 1.3), "
            "routed (the Withdrawn Box, 1.6) or eliminated (1.7). Example: set state odessa "
            "disordered"
        ),
    ),
    "set losses": (
        t("set losses <AG> <N>"),
        t(
            "Moderator: raise an Activation Group's losses (L of 6.3) to N: its last units on "
            "the map in the order of battle rout to the Withdrawn Box (artillery and Opolchenie "
            "do not count). To lower them, `place` a lost unit. Example: set losses compans 2"
        ),
    ),
    "set collapsed": (
        t("set collapsed <AG> yes|no"),
        t(
            "Moderator: put or remove an Activation Group's Collapsed marker (6.7); the effects "
            "of 6.5 are not applied (`set state`, `place`). Example: set collapsed neverovsky yes"
        ),
    ),
    "set turn": (
        t("set turn <N>"),
        t(
            "Moderator: begin turn N (1 to the scenario's last), between activations, nothing "
            "activated yet, with N - 1 Recovery Phases held. Example: set turn 2"
        ),
    ),
    "set phase": (
        t("set phase activations|recovery|placement | set phase activation|rally <AG|UNIT>"),
        t(
            "Moderator: set the phase: between activations, an Activation or Rally phase of a "
            "group (or an independent unit), the Recovery Phase (the Morale Phase held), or "
            "the placements of recovered units. Example: set phase rally neverovsky"
        ),
    ),
}


def _box_word(where: str) -> str:
    """The word of a place in canonical text: "awaiting" for the recovered units (4.5)."""
    return "awaiting" if where == "recovered" else where


def _place(c: Cursor) -> O.Place:
    unit = c.thing("unit")
    c.accept(*ON_WORDS)
    word = c.peek()
    if word in PLACE_WORDS:
        c.i += 1
        return O.Place(unit, PLACE_WORDS[word])
    if word is None or not c.matches("hex"):
        got = t("not {word}", word=quoted(word)) if word else t("missing")
        c.fail("syntax", t("where to? {legal}, {got}", legal=PLACE_SAID, got=got))
    return O.Place(unit, c.thing("hex"))


def _group_or_unit(c: Cursor) -> str:
    return c.thing("group") if c.matches("group") else c.thing("unit")


def _set_phase(c: Cursor) -> O.SetPhase:
    legal = t("activations, activation, rally, recovery or placement")
    phase = c.choice(t("the phase"), PHASE_WORDS, legal)
    if phase == "activations":
        c.accept("активациями")
    if phase not in ("activation", "rally"):
        return O.SetPhase(phase)
    if c.peek() is None:
        c.fail(
            "syntax",
            t(
                "an Activation or Rally phase names its group: set phase {phase} <AG|UNIT>",
                phase=phase,
            ),
        )
    return O.SetPhase(phase, _group_or_unit(c))


def _set(c: Cursor) -> object:
    sub = c.peek()
    if sub not in SET_WORDS:
        got = t("not {word}", word=quoted(sub)) if sub else t("missing")
        c.fail("syntax", t("set what? state, losses, collapsed, turn or phase, {got}", got=got))
    c.i += 1
    c.command = f"set {SET_WORDS[sub]}"
    what = SET_WORDS[sub]
    if what == "state":
        unit = c.thing("unit")
        legal = t("formed, disordered, routed or eliminated")
        return O.SetState(unit, c.choice(t("the state"), STATE_WORDS, legal))
    if what == "losses":
        gid = c.thing("group")
        return O.SetLosses(gid, c.number(t("the losses"), 0))
    if what == "collapsed":
        gid = c.thing("group")
        return O.SetCollapsed(gid, c.choice(t("the marker"), SWITCH, t("yes or no")))
    if what == "turn":
        return O.SetTurn(c.number(t("the turn"), 1))
    return _set_phase(c)


EDIT_VERBS = (
    Verb(
        "place",
        _place,
        {"place": EDIT_HELP["place"]},
        {O.Place: lambda o: join("place", o.unit, _box_word(o.where))},
        aliases=RU["place"],
        group=MODERATOR,
        kind="edit",
    ),
    Verb(
        "set",
        _set,
        {k: v for k, v in EDIT_HELP.items() if k.startswith("set ")},
        {
            O.SetState: lambda o: join("set state", o.unit, o.state),
            O.SetLosses: lambda o: join("set losses", o.group, o.losses),
            O.SetCollapsed: lambda o: join("set collapsed", o.group, "yes" if o.on else "no"),
            O.SetTurn: lambda o: join("set turn", o.turn),
            O.SetPhase: lambda o: join("set phase", o.phase, o.group),
        },
        aliases=RU["set"],
        group=MODERATOR,
        kind="edit",
        subwords=SET_WORDS,
    ),
)

__all__ = ["EDIT_VERBS", "SET_WORDS"]

"""The verbs every game system's grammar has, with their usage, help and canonical text.

Questions (status, log, help, options), sandbox orders (default; dice fixes the next die results), fair
dice and the audit (salt, rolls, audit), taking back and moderation (undo, rewind, pause, resume,
seat, unseat, moderator add|remove). Their dataclasses are adjudicator.core.commands.

Invariants:
- free text (a salt, a reason, a user name) keeps its case and is single-spaced: those verbs
  read the line as typed (`raw`), so parse(format(c)) == c for text without doubled spaces;
- a side is read with the side words of the system (adjudicator.core.system.side_words), and
  written by its id; the usage lines of seat and unseat name the sides' ids;
- every help paragraph ends with an example that parses.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.core.commands import (
    Audit,
    Default,
    Dice,
    Help,
    Log,
    Moderator,
    Pause,
    Resume,
    Rewind,
    Rolls,
    Salt,
    Seat,
    Status,
    Undo,
    Unseat,
)
from adjudicator.core.i18n import t
from adjudicator.core.options import Options
from adjudicator.core.system import Side
from adjudicator.grammar.ai_words import seat_user as _seat_user
from adjudicator.grammar.ai_words import seat_words as _seat_words
from adjudicator.grammar.cursor import Cursor
from adjudicator.grammar.lexicon import one_of
from adjudicator.grammar.verbs import Entry, Formatter, Parser, Verb, join
from adjudicator.grammar.words import quoted

QUESTIONS = t("Questions")
MODERATOR = t("Moderator")
FAIR_DICE = t("Fair dice and the audit")
MODERATION = t("Taking back and moderation")
MODERATOR_WORDS = {
    "add": "add",
    "remove": "remove",
    "rm": "remove",
    "добавить": "add",
    "удалить": "remove",
    "снять": "remove",
}
_REASON = t("the reason (it goes into the log)")
_USER = t("the user")
_DIE = t("a die")
SIDE = t("the side")

# Russian command words of the shared verbs (aliases: the canonical text stays English).
RUSSIAN = {
    "status": ("статус",),
    "log": ("журнал",),
    "help": ("помощь", "справка"),
    "options": ("варианты",),
    "default": ("умолчание",),
    "dice": ("кубики",),
    "salt": ("соль",),
    "rolls": ("броски",),
    "audit": ("аудит",),
    "undo": ("отмена",),
    "rewind": ("откат",),
    "pause": ("пауза",),
    "resume": ("продолжить",),
    "seat": ("назначить",),
    "unseat": ("освободить",),
    "moderator": ("модератор",),
}


def either(ids: Sequence[str]) -> str:
    """ "a or b", "a, b or c": for messages (the "or" said in the message's language)."""
    return one_of(ids)


def _side(c: Cursor) -> str:
    ids = [s.id for s in c.grammar.sides]
    words: Mapping[str, str] = c.grammar.side_words  # the grammar's side words -> side ids
    return c.choice(SIDE, words, either(ids), fold=True)


def _help(c: Cursor) -> Help:
    if c.peek() is None:
        return Help()
    table = c.grammar.table
    command = table.command(c.words[c.i])
    c.i += 1
    sub = table.subcommand(command, c.peek())
    if sub:
        c.i += 1
    return Help(sub or command)


def _dice(c: Cursor) -> Dice:
    values = [c.number(_DIE, 1, 6)]
    while c.peek() is not None:
        values.append(c.number(_DIE, 1, 6))
    return Dice(tuple(values))


def _moderator(c: Cursor) -> Moderator:
    word = (c.peek() or "").lower()
    if word not in MODERATOR_WORDS:
        got = t("not {word}", word=quoted(word)) if word else t("missing")
        c.fail("syntax", t("moderator add or remove? {got}", got=got))
    c.i += 1
    action = MODERATOR_WORDS[word]
    c.command = f"moderator {action}"
    return Moderator(action, c.word(_USER), c.optional_rest())


def _count(c: Cursor) -> int | None:
    return c.number(t("the count"), 1) if c.peek() is not None else None


# -- the commands: usage line and help paragraph with an example (seat, unseat: see _seats)
ENTRIES: dict[str, Entry] = {
    "status": (
        t("status [full]"),
        t("Show the turn, phase and any decision waiting; `full`: hashes whole. Example: status"),
    ),
    "log": (t("log [<N>]"), t("Show the last N entries of the game log, or all. Example: log 10")),
    "help": (
        t("help [<COMMAND>]"),
        t("Show the commands, or the help of one. Example: help status"),
    ),
    "options": (
        t("options"),
        t("Your legal orders now, grouped by command (answered to you only). Example: options"),
    ),
    "default": (
        t("default"),
        (
            t(
                "Moderator: do what a passed deadline does: the pending decision's default, or end the "
                "phase. Example: default"
            )
        ),
    ),
    "dice": (
        t("dice <N> [<N> ...]"),
        t("Moderator, sandbox games: fix the next die results, each 1 to 6. Example: dice 3 5"),
    ),
    "salt": (
        t("salt <TEXT>"),
        (
            t(
                "Player: add your own entropy to this turn's dice. Every roll of the open dice epoch "
                "mixes in the salts; accepted until the epoch's first roll, and public in the log. "
                "Example: salt my cat walked on the keyboard"
            )
        ),
    ),
    "rolls": (
        t("rolls [<N>]"),
        (
            t(
                "Show the last N rolls (default 10) with their purpose, dice epoch, number in the "
                "epoch and value; rolls fixed by a moderator are marked. Example: rolls 5"
            )
        ),
    ),
    "audit": (
        t("audit"),
        (
            t(
                "Moderator: check the hash chain of the log, every revealed seed against its "
                "commitment and every roll of every revealed epoch, with dice statistics per side "
                "and purpose. Players and moderators: `audit export` sends the log as a file, "
                "`audit page` a page that checks it in any browser (the open dice epoch's rolls "
                "are checkable after its turn). Example: audit"
            )
        ),
    ),
    "undo": (
        t("undo"),
        (
            t(
                "Player: take back your own last order, unless it rolled a die, a dice epoch ended "
                "or was revealed after it, or your opponent has acted since. The order stays in the "
                "log, marked as undone. Example: undo"
            )
        ),
    ),
    "rewind": (
        t("rewind <LOG-INDEX> <REASON...>"),
        (
            t(
                "Moderator: every order after that log row stops counting; the rows stay in the log "
                "as rewound, the dice epoch ends (its seed is revealed) and a fresh one opens. "
                "A rewind that discards rolls (outside a sandbox) is only proposed: it applies "
                "when the other side's player says `confirm rewind` (every player, for dice of no "
                "side; a moderator who held the role before the roll only while that seat is "
                "free; `cancel rewind` withdraws it; it lapses after 24 h or when the game moves "
                "on). "
                "Example: rewind 12 the weather roll was entered twice"
            )
        ),
    ),
    "pause": (
        t("pause <REASON...>"),
        t(
            "Moderator: stop taking orders (questions still work). Example: pause waiting for a ruling"
        ),
    ),
    "resume": (
        t("resume <REASON...>"),
        t("Moderator: take orders again after a pause. Example: resume ruling given"),
    ),
    "moderator add": (
        t("moderator add <USER> [<REASON...>]"),
        t("Moderator: make a user a moderator of this game. Example: moderator add carol"),
    ),
    "moderator remove": (
        t("moderator remove <USER> [<REASON...>]"),
        (
            t(
                "Moderator: take the moderator role from a user (the last moderator stays). "
                "Example: moderator remove carol stepped down"
            )
        ),
    ),
}


def _verb(
    word: str,
    parser: Parser,
    formats: Mapping[type, Formatter],
    *aliases: str,
    group: str,
    raw: bool = True,
    kind: str = "order",
) -> Verb:
    aliases = (*aliases, *RUSSIAN.get(word, ()))
    return Verb(word, parser, {word: ENTRIES[word]}, formats, aliases, group, raw=raw, kind=kind)


_COMMON = (
    _verb(
        "status",
        lambda c: Status(bool(c.accept("full", "полностью", "полный"))),  # the hashes whole
        {Status: lambda o: "status full" if o.full else "status"},
        "st",
        "s",
        group=QUESTIONS,
        raw=False,
        kind="query",
    ),
    _verb(
        "log",
        lambda c: Log(_count(c)),
        {Log: lambda o: join("log", o.count)},
        group=QUESTIONS,
        raw=False,
        kind="query",
    ),
    _verb(
        "help",
        _help,
        {Help: lambda o: join("help", o.command)},
        "h",
        "?",
        group=QUESTIONS,
        raw=False,
        kind="query",
    ),
    Verb(  # answered by the kit from legal_orders (core/options.py); to the asker only
        "options",
        lambda c: Options(),
        {"options": ENTRIES["options"]},
        {Options: lambda o: "options"},
        ("opt", *RUSSIAN["options"]),
        QUESTIONS,
        kind="query",
        private=True,
    ),
    _verb(
        "default",
        lambda c: Default(),
        {Default: lambda o: "default"},
        group=MODERATOR,
        raw=False,
        kind="moderator",
    ),
    _verb(
        "dice",
        _dice,
        {Dice: lambda o: join("dice", *o.values)},
        group=MODERATOR,
        raw=False,
        kind="moderator",
    ),
    _verb(
        "salt",
        lambda c: Salt(c.rest(t("the salt text"))),
        {Salt: lambda o: join("salt", o.text)},
        group=FAIR_DICE,
    ),
    _verb(
        "rolls",
        lambda c: Rolls(_count(c)),
        {Rolls: lambda o: join("rolls", o.count)},
        group=FAIR_DICE,
    ),
    _verb("audit", lambda c: Audit(), {Audit: lambda o: "audit"}, group=FAIR_DICE),
    _verb("undo", lambda c: Undo(), {Undo: lambda o: "undo"}, group=MODERATION),
    _verb(
        "rewind",
        lambda c: Rewind(c.number(t("the log row"), 0), c.rest(_REASON)),
        {Rewind: lambda o: join("rewind", o.index, o.reason)},
        group=MODERATION,
    ),
    _verb(
        "pause",
        lambda c: Pause(c.rest(_REASON)),
        {Pause: lambda o: join("pause", o.reason)},
        group=MODERATION,
    ),
    _verb(
        "resume",
        lambda c: Resume(c.rest(_REASON)),
        {Resume: lambda o: join("resume", o.reason)},
        group=MODERATION,
    ),
)
_MODERATOR = Verb(
    "moderator",
    _moderator,
    {name: ENTRIES[name] for name in ("moderator add", "moderator remove")},
    {Moderator: lambda o: join("moderator", o.action, o.user, o.reason)},
    ("mod", *RUSSIAN["moderator"]),
    MODERATION,
    subwords=MODERATOR_WORDS,
    raw=True,
)


def _seats(sides: Sequence[Side]) -> tuple[Verb, Verb]:
    """seat and unseat: their usage names the sides' ids."""
    ids = [s.id for s in sides]
    which = "|".join(ids)
    seat = t(
        "Moderator: give a side to a player. Example: seat {side} alice replaces bob", side=ids[0]
    )
    unseat = t("Moderator: free a side's seat. Example: unseat {side} left the game", side=ids[-1])
    return (
        Verb(
            "seat",
            lambda c: Seat(_side(c), _seat_user(c), c.optional_rest()),
            {"seat": (t("seat {sides} <USER>|ai [easy|normal] [<REASON...>]", sides=which), seat)},
            {Seat: lambda o: join("seat", o.side, *_seat_words(o.user), o.reason)},
            RUSSIAN["seat"],
            group=MODERATION,
            raw=True,
        ),
        Verb(
            "unseat",
            lambda c: Unseat(_side(c), c.rest(_REASON)),
            {"unseat": (t("unseat {sides} <REASON...>", sides=which), unseat)},
            {Unseat: lambda o: join("unseat", o.side, o.reason)},
            RUSSIAN["unseat"],
            group=MODERATION,
            raw=True,
        ),
    )


def shared_verbs(sides: Sequence[Side]) -> tuple[Verb, ...]:
    """The shared verbs, in their order; the usage of seat and unseat names the ids of sides
    (at least one side)."""
    if not sides:
        raise ValueError("a grammar needs the sides of its game")
    return (*_COMMON, *_seats(sides), _MODERATOR)


__all__ = [
    "ENTRIES",
    "FAIR_DICE",
    "MODERATION",
    "MODERATOR",
    "MODERATOR_WORDS",
    "QUESTIONS",
    "either",
    "shared_verbs",
]

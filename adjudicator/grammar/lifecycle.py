"""The chat's lifecycle commands: new, join, leave, start, link, deadline, extend, map.

What a chat says about a game rather than in it; a chat front end carries them out (the
dataclasses are adjudicator.core.commands). `parse_lifecycle` reads one of them from a line.

Invariants:
- None for a line whose first word (any case) is none of the lifecycle words: it is for the
  game's grammar; a lifecycle line that does not fit is refused with a ParseError ending with
  " Usage: " and the command's usage line;
- words of the command (a system id, "sandbox", a side, "full") are read in any case and given
  in lower case; a side is given as its id when the system's side words are known; a link code
  and the arguments of deadline and extend are given as typed, single-spaced.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from adjudicator.core.commands import (
    DeadlineCmd,
    Extend,
    Join,
    Leave,
    Link,
    MapCmd,
    NewGame,
    Start,
)
from adjudicator.core.i18n import Msg, t
from adjudicator.grammar.cursor import Cursor
from adjudicator.grammar.lexicon import Lexicon
from adjudicator.grammar.shared import SIDE, either

USAGE: dict[str, Msg] = {
    "new": t("new [<SYSTEM>] [sandbox]"),
    "join": t("join [<SIDE>]"),
    "leave": t("leave [<SIDE>]"),
    "start": t("start"),
    "link": t("link [<CODE>]"),
    "deadline": t("deadline [decisions] [<DURATION>]"),
    "extend": t("extend <DURATION>"),
    "map": t("map [full]"),
}
_SIDE_USAGE = {
    "join": lambda which: t("join {sides}", sides=which),
    "leave": lambda which: t("leave {sides}", sides=which),
}
# Russian words of the lifecycle commands and of their flags (the command is the same)
RUSSIAN = {
    "новая": "new",
    "вступить": "join",
    "выйти": "leave",
    "начать": "start",
    "связать": "link",
    "срок": "deadline",
    "продлить": "extend",
    "карта": "map",
}
FLAGS = {
    "sandbox": ("sandbox", "песочница"),
    "full": ("full", "полная"),
    "decisions": ("решения",),
    "reminders": ("напоминания",),
    "edit": ("edit", "правку", "правка"),  # confirm edit, cancel edit
    "rewind": ("rewind", "откат"),  # confirm rewind, cancel rewind
}
_NO_NAMES = Lexicon(())
CHAT_WORDS = {
    **RUSSIAN,
    "помощь": "help",
    "справка": "help",
    "аудит": "audit",
    "язык": "language",
    "подтвердить": "confirm",  # подтвердить правку: confirm edit (app/edits.py)
    "отменить": "cancel",  # отменить правку: cancel edit
}  # what the chat front ends route


def canonical_words(words: Sequence[str]) -> list[str]:
    """A chat command's words with its Russian command word and flags in English ("новая
    hells-gate песочница" -> "new hells-gate sandbox"); other lines as they are."""
    if not words or words[0].lower() not in CHAT_WORDS:
        return list(words)
    flags = {w: flag for flag, said in FLAGS.items() for w in said}
    return [CHAT_WORDS[words[0].lower()], *(flags.get(w.lower(), w) for w in words[1:])]


def _new(c: Cursor, sides: Mapping[str, str] | None) -> NewGame:
    word = c.peek()
    system = None
    if word is not None and word.lower() not in FLAGS["sandbox"]:
        system, c.i = word.lower(), c.i + 1
    return NewGame(system, _flag(c, "sandbox"))


def _flag(c: Cursor, flag: str) -> bool:
    """Whether the next word is flag, in any case (and step over it)."""
    word = c.peek()
    if word is not None and word.lower() in FLAGS[flag]:
        c.i += 1
        return True
    return False


def _side(c: Cursor, sides: Mapping[str, str] | None) -> str | None:
    word = c.peek()
    if word is None:
        return None
    if sides is None:
        c.i += 1
        return word.lower()
    return c.choice(SIDE, sides, either(_ids(sides)), fold=True)


def _ids(sides: Mapping[str, str]) -> list[str]:
    return list(dict.fromkeys(sides.values()))


def _usage(sides: Mapping[str, str] | None) -> Callable[[str], str]:
    """The usage of a command; join and leave name the sides when they are known."""
    if not sides:
        return lambda command: USAGE[command]
    which = f"[{'|'.join(_ids(sides))}]"
    return lambda command: _SIDE_USAGE[command](which) if command in _SIDE_USAGE else USAGE[command]


def _args(c: Cursor) -> str:
    """The rest of the line as typed, single-spaced ("" if nothing)."""
    text = " ".join(c.words[c.i :])
    c.i = len(c.words)
    return text


def _deadline_args(c: Cursor) -> str:
    """deadline's arguments as typed, a Russian flag ("решения") given in English."""
    word = (c.peek() or "").lower()
    for flag in ("decisions", "reminders"):
        if word in FLAGS[flag]:
            c.words[c.i] = flag
    return _args(c)


def _map(c: Cursor, sides: Mapping[str, str] | None) -> MapCmd:
    return MapCmd(_flag(c, "full"))


def _extend(c: Cursor, sides: Mapping[str, str] | None) -> Extend:
    return Extend(c.rest(t("the duration")))


_PARSERS: dict[str, Callable[[Cursor, Mapping[str, str] | None], object]] = {
    "new": _new,
    "join": lambda c, sides: Join(_side(c, sides)),
    "leave": lambda c, sides: Leave(_side(c, sides)),
    "start": lambda c, sides: Start(),
    "link": lambda c, sides: Link(c.word(t("the code")) if c.peek() is not None else None),
    "deadline": lambda c, sides: DeadlineCmd(_deadline_args(c)),
    "extend": _extend,
    "map": _map,
}


def parse_lifecycle(text: str, side_words: Mapping[str, str] | None = None) -> object | None:
    """The lifecycle command of a line, None if it is none; ParseError if it does not fit.

    side_words: word -> side id (adjudicator.core.system.side_words) for join and leave; None:
    the side word is given as written, in lower case."""
    said = text.split()
    head = said[0].lower() if said else None
    head = RUSSIAN.get(head, head) if head is not None else None
    if head not in _PARSERS:
        return None
    cursor = Cursor([head, *said[1:]], head, lexicon=_NO_NAMES, usage=_usage(side_words))
    command = _PARSERS[head](cursor, side_words)
    cursor.done()
    return command


__all__ = ["CHAT_WORDS", "RUSSIAN", "USAGE", "canonical_words", "parse_lifecycle"]

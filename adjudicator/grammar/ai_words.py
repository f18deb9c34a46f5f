"""The built-in opponent's words in `seat <SIDE> ai [easy|normal]` (`назначить <SIDE> ии
[лёгкий|обычный]`): its seat's user id is "ai:<level>", written back as `ai <level>` so that the
canonical text reads as typed. Pure: no I/O.
"""

from __future__ import annotations

from adjudicator.core.i18n import t
from adjudicator.grammar.cursor import Cursor

_USER = t("the user")

AI_WORDS = ("ai", "ии")
AI_PREFIX = "ai:"
AI_LEVELS = {"easy": "easy", "normal": "normal", "лёгкий": "easy", "легкий": "easy"}
AI_LEVELS |= {"обычный": "normal"}
AI_DEFAULT_LEVEL = "normal"


def seat_user(c: Cursor) -> str:
    """The user of `seat`: a user word, or `ai [<LEVEL>]` (the opponent, "ai:<level>")."""
    word = c.word(_USER)
    if word.lower() not in AI_WORDS and not word.lower().startswith(AI_PREFIX):
        return word
    level = word.lower()[len(AI_PREFIX) :] if word.lower().startswith(AI_PREFIX) else ""
    if not level and (c.peek() or "").lower() in AI_LEVELS:
        level = AI_LEVELS[(c.peek() or "").lower()]
        c.i += 1
    return AI_PREFIX + (AI_LEVELS.get(level, level) or AI_DEFAULT_LEVEL)


def seat_words(user: str) -> tuple[str, ...]:
    """A seat's user as the canonical text writes it (the opponent: `ai <level>`)."""
    if user.startswith(AI_PREFIX):
        return ("ai", user[len(AI_PREFIX) :])
    return (user,)


__all__ = ["AI_DEFAULT_LEVEL", "AI_LEVELS", "AI_PREFIX", "AI_WORDS", "seat_user", "seat_words"]

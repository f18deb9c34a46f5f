"""The names of new games: the ones a person would give. By default the system's id and a
number unique in the database (`hells-gate-12`); or a name the creator chooses (`new hells-gate
korsun`): letters (any alphabet), digits and hyphens, lower case, never a platform id.

    problem(name)          # None, or why the name cannot be a game's (a text for the user)
    numbered(stem, taken)  # "stem-N": N one more than the highest taken
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from adjudicator.core.i18n import t

LONGEST = 32
SHORTEST = 3
_WORD = re.compile(r"[^\W_](?:[^\W_]|-(?=[^\W_]))*")  # letters and digits; inner hyphens
_LONG_NUMBER = re.compile(r"\d{7,}")  # a platform id (Discord, Telegram) is a long number
RESERVED = frozenset({"sandbox", "песочница", "new", "in", "use", "all", "none"})


def normal(name: str) -> str:
    """A name as it is stored and compared: lower case."""
    return name.strip().lower()


def problem(name: str) -> str | None:
    """Why `name` (normal) cannot name a game, or None."""
    if not SHORTEST <= len(name) <= LONGEST or not _WORD.fullmatch(name):
        return t(
            "a game's name is {least} to {most} letters, digits and hyphens (e.g. korsun-1943)",
            least=SHORTEST,
            most=LONGEST,
        )
    if name in RESERVED or not any(ch.isalpha() for ch in name) or _LONG_NUMBER.search(name):
        return t("{name} cannot name a game: choose a word (e.g. korsun-1943)", name=name)
    return None


def numbered(stem: str, taken: Iterable[str]) -> str:
    """`stem-N`, N one more than the highest number taken after `stem-` (1 if none)."""
    pattern = re.compile(re.escape(stem) + r"-(\d+)")
    found = [int(m.group(1)) for n in taken if (m := pattern.fullmatch(n))]
    return f"{stem}-{max(found, default=0) + 1}"


__all__ = ["LONGEST", "normal", "numbered", "problem"]

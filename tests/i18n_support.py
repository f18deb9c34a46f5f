"""For tests of texts in Russian: what in a text is still English.

    assert english_left(reply, allowed={"odessa", "vilna"}) == []

A word is English when it is Latin letters only, 3 or more of them, not an id (no digit), not
inside `backticks` (a command to type) and not one of `allowed` (unit ids, user and game names)
or of the abbreviations the rules use in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

ABBREVIATIONS = {"ops", "rp", "vp", "zoc", "oos", "crt", "png", "sha", "sha256", "utc", "html",
                 "json", "pbem", "id", "ids", "url", "dm", "ok"}  # fmt: skip
_TICKS = re.compile(r"`[^`]*`")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


def english_left(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The English words of a text meant to be Russian (see the module doc)."""
    keep = {a.lower() for a in allowed} | ABBREVIATIONS
    bare = _TICKS.sub(" ", text)
    found = []
    for token in re.split(r"[\s,.;:!?()\[\]{}<>\"«»/|=+*#]+", bare):
        if not token or any(ch.isdigit() for ch in token):
            continue
        for word in _WORD.findall(token):
            if len(word) >= 3 and word.lower() not in keep:
                found.append(word)
    return found


def russian_share(text: str) -> float:
    """The share of Cyrillic letters among a text's letters."""
    letters = [ch for ch in text if ch.isalpha()]
    return sum("\u0400" <= ch <= "\u04ff" for ch in letters) / max(1, len(letters))

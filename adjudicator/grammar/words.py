"""Lines into words: the tokeniser every grammar of the kit reads with.

Invariants:
- `words` lowercases and splits at white space, commas and parentheses; no word is empty;
- `tokens` also makes '=' a word of its own and splits a chain of hex-like ids ("c6-c5") at its
  hyphens, but no other hyphenated word ("korsun-shevchenkovsky");
- `raw_words` keeps the case and the punctuation of what follows the command word (free text:
  a salt, a reason, a user name), split at white space only;
- `quoted` shows at most QUOTE_LIMIT characters of a user's text in a refusal.
Pure: no I/O.
"""

from __future__ import annotations

import re

_SPLIT = re.compile(r"[\s,()]+")
_HEX_CHAIN = re.compile(r"[a-z]\d+(?:-[a-z]\d+)+")
_FIRST_WORD = re.compile(r"\s*[^\s,()=]+\s*")  # the command word; the rest as typed


# Cyrillic letters that look like Latin ones, as a Russian keyboard types them in an id: "С6"
# (Cyrillic С) is the hex C6, "20тк" the unit 20tk. Folded only in a word with a digit (an id),
# and only when every letter of the word then is Latin: "389пд" and "атака" stay as they are.
_LOOK_ALIKE = str.maketrans("авекмнорстухі", "abekmhopctyxi")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def fold_id(word: str) -> str:
    """A lowercase word with a digit, its Cyrillic look-alike letters made Latin (see above)."""
    if not _CYRILLIC.search(word) or not any(ch.isdigit() for ch in word):
        return word
    folded = word.translate(_LOOK_ALIKE)
    return word if _CYRILLIC.search(folded) else folded


def words(text: str) -> tuple[str, ...]:
    """Lowercase words; commas and parentheses separate words like spaces; an id typed with
    Cyrillic look-alike letters is folded to Latin (fold_id)."""
    return tuple(fold_id(w) for w in _SPLIT.split(text.lower()) if w)


def tokens(text: str) -> list[str]:
    """The words of one line; '=' is a word of its own and 'C6-C5' is two hexes."""
    out: list[str] = []
    for word in words(text.replace("=", " = ")):
        out.extend(word.split("-") if _HEX_CHAIN.fullmatch(word) else [word])
    return out


QUOTE_LIMIT = 60  # a refusal quotes at most this many characters of what was typed


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """What a user typed, quoted for a refusal: repr-like, cut to at most `limit` characters of
    the text (the cut marked "…"), so a long junk line never makes a long refusal."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    return repr(shown)


def raw_words(text: str, command_word: str) -> list[str]:
    """The words of a line as typed (case kept), the command word first."""
    head = _FIRST_WORD.match(text)
    return [command_word, *text[head.end() if head else 0 :].split()]


__all__ = ["QUOTE_LIMIT", "fold_id", "quoted", "raw_words", "tokens", "words"]

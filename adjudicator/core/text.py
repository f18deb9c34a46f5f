"""Small helpers for the texts players read: plurals that agree with their count. Pure."""

from __future__ import annotations

_IRREGULAR = {"hex": "hexes", "is": "are", "was": "were", "plays": "play", "has": "have"}


def plural(count: int, word: str, many: str | None = None) -> str:
    """ "1 hit", "2 hits", "1 hex", "3 hexes", "0 units": the count and the word agreeing with it
    (many: the plural when it is not the word + "s"; the last word of a phrase is inflected)."""
    return f"{count} {noun(count, word, many)}"


def noun(count: int, word: str, many: str | None = None) -> str:
    """The word agreeing with count, without the count: noun(2, "hit") == "hits"."""
    if count == 1:
        return word
    if many is not None:
        return many
    head, _, last = word.rpartition(" ")
    inflected = _IRREGULAR.get(last) or (
        last + "es" if last.endswith(("x", "s", "ch")) else last + "s"
    )
    return f"{head} {inflected}" if head else inflected


__all__ = ["noun", "plural"]

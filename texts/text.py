"""Small helpers for the texts players read: plurals that agree with their count. Pure.

Both give a texts.i18n Msg: in English "1 hit", "2 hits"; in another language the plural forms of
its catalogue (Russian: "1 удар", "2 удара", "5 ударов"), whose msgids are "{n} hit" and
"{n} hits" (plural) or "hit" and "hits" (noun).
"""

from __future__ import annotations

from texts.i18n import Msg

_IRREGULAR = {"hex": "hexes", "is": "are", "was": "were", "plays": "play", "has": "have"}


def plural(count: int, word: str, many: str | None = None) -> Msg:
    """ "1 hit", "2 hits", "1 hex", "3 hexes", "0 units": the count and the word agreeing with it
    (many: the plural when it is not the word + "s"; the last word of a phrase is inflected)."""
    return _counted(f"{{n}} {word}", f"{{n}} {plural_of(word, many)}", count)


def noun(count: int, word: str, many: str | None = None) -> Msg:
    """The word agreeing with count, without the count: noun(2, "hit") == "hits"."""
    return _counted(word, plural_of(word, many), count)


def _counted(singular: str, plural_: str, count: int) -> Msg:
    """tn() of templates made here (the catalogue extractor reads plural() and noun() calls)."""
    return Msg(singular, {"n": count}, plural_template=plural_, count="n")


def plural_of(word: str, many: str | None = None) -> str:
    """The English plural of a word or of a phrase's last word."""
    if many is not None:
        return many
    head, _, last = word.rpartition(" ")
    inflected = _IRREGULAR.get(last) or (
        last + "es" if last.endswith(("x", "s", "ch")) else last + "s"
    )
    return f"{head} {inflected}" if head else inflected


__all__ = ["noun", "plural", "plural_of"]

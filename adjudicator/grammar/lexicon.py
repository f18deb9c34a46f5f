"""The names of one game's things, kind by kind: phrase tables with did-you-mean suggestions.

A game system gives the `Lexicon` its kinds of names (`Kind`: e.g. "unit" and "hex"), each a
table of ids with an optional name (a designation, a town), more names for some ids, and how
abbreviations name things (id prefixes, the first words of a name, word prefixes).

Invariants:
- case-insensitive: phrases are tuples of lowercase words (adjudicator.grammar.words);
- a match is ([thing], length in words); ([a, b, ...], n) is ambiguous and ([], 0) is unknown;
- every id names its thing; a whole name wins over a part of another name (the part outside or,
  with `inner`, inside parentheses); a phrase naming two things of a kind names neither;
- a kind's name phrases never shadow the phrases of an earlier kind (its ids still count);
- suggestions are at most three labels ("29tk (29th Tank Corps)"), best first.
Pure: no I/O.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from adjudicator.core.i18n import Msg, cat, t
from adjudicator.core.text import noun
from adjudicator.grammar.words import words

Phrases = dict[tuple[str, ...], str]
Match = tuple[list[str], int]


@dataclass(frozen=True)
class Kind:
    """One kind of name. things: id -> its name (None: known by its id only)."""

    name: str  # "unit": in error codes ("unknown-unit") and messages ("a unit is missing")
    things: Mapping[str, str | None]
    more_names: Sequence[tuple[str, str]] = ()  # (id, another name of it)
    inner: bool = False  # the parts in parentheses are names too ("Tychinovka (Tikhonovka)")
    leading_words: bool = False  # the first words of a name name it ("29th tank")
    id_prefix: int | None = None  # so many first letters of an id name it ("29t")
    word_prefix: int | None = None  # so many first letters of a word of a name name it ("cherk")
    word: str | None = None  # how messages name the kind (a Msg: noun(1, "unit")); None: KIND_WORDS


# The kinds' words in messages ("a unit is missing"), said in the language of the message.
KIND_WORDS: dict[str, str] = {
    "unit": noun(1, "unit"),
    "hex": noun(1, "hex"),
    "block": noun(1, "block"),
    "territory": noun(1, "territory", "territories"),
    "nation": noun(1, "nation"),
    "group": noun(1, "group"),
    "card": noun(1, "card"),
    "area": noun(1, "area"),
}


class Lexicon:
    """The names of one scenario, by kind (see the module doc)."""

    def __init__(self, kinds: Sequence[Kind]):
        self._kinds = {k.name: k for k in kinds}
        self._phrases: dict[str, Phrases] = {}
        taken: set[tuple[str, ...]] = set()
        for kind in kinds:
            table = {p: t for p, t in _name_phrases(kind).items() if p not in taken}
            table |= {(thing.lower(),): thing for thing in kind.things}
            self._phrases[kind.name] = table
            taken |= set(table)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._kinds)

    def word(self, kind: str) -> str:
        """The kind's word in messages: "unit" (a Msg said in the message's language)."""
        spec = self._kinds.get(kind)
        return (spec.word if spec else None) or KIND_WORDS.get(kind, kind)

    def ids(self, kind: str) -> tuple[str, ...]:
        """Every id of a kind, in the order given."""
        return tuple(self._kinds[kind].things)

    def names(self, kind: str) -> dict[str, str]:
        """id -> name of the things of a kind that have a name."""
        return {t: n for t, n in self._kinds[kind].things.items() if n}

    def phrases(self, kind: str) -> Mapping[tuple[str, ...], str]:
        """Every phrase that names one thing of a kind -> its id."""
        return self._phrases[kind]

    def match(self, kind: str, words_: Sequence[str], i: int) -> Match:
        """The thing of kind named at words_[i:] (see the module doc)."""
        spec, table = self._kinds[kind], self._phrases[kind]
        hit = _longest(table, words_, i)
        if hit:
            return [hit[0]], hit[1]
        for found in _abbreviations(spec, table, words_, i):
            if found[0]:
                return found
        return [], 0

    def label(self, kind: str, thing: str) -> str:
        """For messages: "29tk (29th Tank Corps)", "D6 (Smela)", "A1"."""
        name = self._kinds[kind].things.get(thing)
        return t("{thing} ({name})", thing=thing, name=name) if name else thing

    def suggest(self, kind: str, phrases: Sequence[str]) -> list[str]:
        """Labels of the things of kind whose names are closest to any of phrases."""
        table = self._phrases[kind]
        return suggest(phrases, {" ".join(p): self.label(kind, t) for p, t in table.items()})


def _name_phrases(kind: Kind) -> Phrases:
    named = [(t, n) for t, n in kind.things.items() if n]
    named += list(kind.more_names)
    return _phrase_table(named, kind.inner)


def _abbreviations(kind: Kind, table: Phrases, words_: Sequence[str], i: int) -> Iterable[Match]:
    """The matches of abbreviations, in the order they are tried."""
    if kind.leading_words:
        yield _leading_words(table, words_, i)
    w = words_[i]
    if kind.id_prefix is not None and len(w) >= kind.id_prefix:
        ids = {t for t in kind.things if t.lower().startswith(w)}
        yield sorted(ids), 1 if ids else 0
    if kind.word_prefix is not None and len(w) >= kind.word_prefix:
        found = {t for p, t in table.items() if any(x.startswith(w) for x in p)}
        yield sorted(found), 1 if found else 0


def _leading_words(table: Phrases, words_: Sequence[str], i: int) -> Match:
    """The things whose names start with the longest run of words_[i:]: "29th tank"."""
    longest = max(map(len, table), default=0)
    for n in range(min(len(words_) - i, longest), 0, -1):
        key = tuple(words_[i : i + n])
        ids = {t for p, t in table.items() if len(p) > n and p[:n] == key}
        if ids:
            return sorted(ids), n
    return [], 0


def _whole(name: str) -> set[tuple[str, ...]]:
    """A whole name as words, also with hyphens read as spaces."""
    return {p for p in (words(name), words(name.replace("-", " "))) if p}


def _parts(name: str, inner: bool) -> set[tuple[str, ...]]:
    """The parts of a name: outside parentheses, and if inner inside them too: a town's other
    name ("Tychinovka (Tikhonovka)"), not a unit's qualifier ("5th SS Panzer Battalion (Wiking)")."""
    parts = [re.sub(r"\(.*?\)", " ", name), *(re.findall(r"\((.*?)\)", name) if inner else ())]
    return {p for part in parts for p in _whole(part)}


def _phrase_table(names: Iterable[tuple[str, str]], inner: bool) -> Phrases:
    """Phrase -> the one thing it names. A whole name wins over a part of another name; a
    phrase naming two things is dropped."""
    names = list(names)
    whole = [(p, thing) for thing, name in names for p in _whole(name)]
    taken = {p for p, _ in whole}
    parts = [(p, thing) for thing, name in names for p in _parts(name, inner) if p not in taken]
    return _unambiguous(parts) | _unambiguous(whole)


def _unambiguous(pairs: Iterable[tuple[tuple[str, ...], str]]) -> Phrases:
    found: dict[tuple[str, ...], set[str]] = {}
    for phrase, thing in pairs:
        found.setdefault(phrase, set()).add(thing)
    return {p: next(iter(t)) for p, t in found.items() if len(t) == 1}


def _longest(
    table: Mapping[tuple[str, ...], str], words_: Sequence[str], i: int
) -> tuple[str, int] | None:
    """Greedy: (thing, length) of the longest phrase of table starting at words_[i], or None."""
    longest = max((len(p) for p in table), default=0)
    for n in range(min(longest, len(words_) - i), 0, -1):
        thing = table.get(tuple(words_[i : i + n]))
        if thing is not None:
            return thing, n
    return None


def suggest(phrases: Sequence[str], choices: Mapping[str, str]) -> list[str]:
    """Up to three labels of choices (phrase -> label) closest to any of phrases, best first."""
    score: dict[str, float] = {}
    for phrase in phrases:
        for close in difflib.get_close_matches(phrase, list(choices), n=3, cutoff=0.6):
            ratio = difflib.SequenceMatcher(None, phrase, close).ratio()
            score[choices[close]] = max(score.get(choices[close], 0.0), ratio)
    return sorted(score, key=lambda label: (-score[label], label))[:3]


def did_you_mean(labels: Sequence[str]) -> str:
    """ "; did you mean A or B?" for a message, or "" when there is nothing to suggest."""
    return t("; did you mean {names}?", names=any_of(labels)) if labels else ""


def any_of(labels: Sequence[str]) -> str:
    """ "A or B or C" (each "or" said in the language of the text)."""
    if len(labels) <= 1:
        return labels[0] if labels else ""
    return t("{a} or {b}", a=any_of(labels[:-1]), b=labels[-1])


def all_of(labels: Sequence[str]) -> str:
    """ "A and B and C" (each "and" said in the language of the text)."""
    if len(labels) <= 1:
        return labels[0] if labels else ""
    return t("{a} and {b}", a=all_of(labels[:-1]), b=labels[-1])


def one_of(ids: Sequence[str]) -> Msg | str:
    """ "a", "a or b", "a, b or c": for messages."""
    if len(ids) <= 1:
        return ids[0] if ids else ""
    return t("{a} or {b}", a=cat(*ids[:-1], sep=", "), b=ids[-1])


__all__ = ["KIND_WORDS", "Kind", "Lexicon", "all_of", "any_of", "did_you_mean", "one_of", "suggest"]

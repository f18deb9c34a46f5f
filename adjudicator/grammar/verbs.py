"""Verbs and the table of a grammar's verbs: command words, usage lines, help, canonical text.

A `Verb` is one command word of a grammar: its aliases, the parser that reads the rest of the
line from a Cursor, the formatters of the order types it gives, and its help entries (a verb
with sub-commands, such as "set", has one entry per sub-command: "set turn", "set phase").

Invariants of a `VerbTable`:
- every alias names one verb; an unknown command word is refused with at most three
  did-you-mean suggestions (never the whole list of commands: `help` gives it) and at most
  QUOTE_LIMIT characters of the word;
- every help entry is (usage line, help paragraph ending with "Example: ..."); `usage(c)` is the
  usage of entry c, or of every entry of the group c ("set": "set turn <N> | set phase ...");
- `help()` lists every usage line, grouped by the verbs' groups in order of first appearance;
- `format(o)` is the canonical text of o, by the formatter registered for type(o); other types
  are refused with TypeError;
- a verb's flags say what its orders are: `kind` ("order" a player's, "edit" a moderator's edit
  of the position (`set`, `place`), "moderator" a sandbox command (`dice`), "query" a question),
  `private` (a question whose answer shows a side's possibilities: answered to its player only),
  `secret` (an edit that sets a value hidden from a side: True for every order type of the verb,
  or the order types that do) and `sides` (the sides that may use it; empty: every side).
  `kind_of(o)`, `is_private(o)`, `is_secret(o)` read them by type(o) ("order", False for a type
  no verb formats); `help(side=s)` lists only the verbs side s may use.
Pure: no I/O.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.i18n import cat, lines, t
from adjudicator.core.i18n import name as i18n_name
from adjudicator.grammar.cursor import Cursor, ParseError
from adjudicator.grammar.lexicon import did_you_mean
from adjudicator.grammar.words import quoted, words

_CYRILLIC = re.compile(r"[\u0400-\u04ff]")

Parser = Callable[[Cursor], object]
Formatter = Callable[[Any], str]
Entry = tuple[str, str]  # (usage line, help paragraph with an example)
KINDS = ("order", "edit", "moderator", "query")


@dataclass(frozen=True, eq=False)
class Verb:
    """One command word of a grammar (see the module doc)."""

    word: str  # the canonical command word: "attack"
    parser: Parser  # reads the words after the command word
    entries: Mapping[str, Entry]  # help: "attack" -> (usage, paragraph); or "set turn", ...
    formats: Mapping[type, Formatter] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()  # other command words for it: "a", "att"
    group: str = t("Commands")  # the heading of its entries in `help`
    subwords: Mapping[str, str] = field(default_factory=dict)  # "ret" -> "retreat" (set ret)
    raw: bool = False  # reads the line as typed (free text keeps its case)
    kind: str = "order"  # "order" | "edit" | "moderator" | "query" (see the module doc)
    private: bool = False  # a question answered to the asking side's player only
    secret: bool | tuple[type, ...] = False  # an edit that sets a hidden value (module doc)
    sides: tuple[str, ...] = ()  # the sides that may use it (empty: every side)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a verb's kind is one of {KINDS}, not {self.kind!r}")

    @property
    def words(self) -> tuple[str, ...]:
        return (self.word, *self.aliases)


def join(*parts: object) -> str:
    """Words of a canonical text, one space apart; None parts are left out."""
    return " ".join(str(p) for p in parts if p is not None)


class VerbTable:
    """The verbs of one grammar, in order (see the module doc).

    help_texts: replacements of help paragraphs by entry name (a system's wording of a shared
    command, e.g. an example with one of its own commands).
    """

    def __init__(self, verbs: Sequence[Verb], help_texts: Mapping[str, str] | None = None):
        self.verbs = {v.word: v for v in verbs}
        self.command_words = {alias: v.word for v in verbs for alias in v.words}
        texts = help_texts or {}
        self.commands: dict[str, Entry] = {
            name: (usage, texts.get(name, text))
            for v in verbs
            for name, (usage, text) in v.entries.items()
        }
        self.groups: dict[str, list[str]] = {}
        for v in verbs:
            self.groups.setdefault(v.group, []).extend(v.entries)
        self.formats = {t: f for v in verbs for t, f in v.formats.items()}
        self.verb_of = {t: v for v in verbs for t in v.formats}  # an order's type -> its verb

    def command(self, word: str) -> str:
        """The verb a command word names; ParseError "unknown-command" otherwise."""
        if word in self.command_words:
            return self.command_words[word]
        raise ParseError(
            "unknown-command",
            t(
                "unknown command {word}{hint} Say 'help' for the commands.",
                word=quoted(word),
                hint=did_you_mean(self.close_words(word)) or ".",
            ),
        )

    def close_words(self, word: str) -> list[str]:
        """At most three command words close to word, in its script: a Latin word suggests
        the verbs' canonical words, a Cyrillic word their Cyrillic aliases."""
        cyrillic = bool(_CYRILLIC.search(word))
        same = [w for w in self.command_words if bool(_CYRILLIC.search(w)) == cyrillic]
        close = difflib.get_close_matches(word, same, n=3, cutoff=0.6)
        if cyrillic:
            return close
        return list(dict.fromkeys(self.command_words[s] for s in close))[:3]

    def subcommand(self, command: str, word: str | None) -> str | None:
        """ "set turn" for ("set", "turn"); None if word is no sub-command of command."""
        subs = self.verbs[command].subwords
        return f"{command} {subs[word]}" if word is not None and word in subs else None

    def usage(self, command: str) -> str:
        if command in self.commands:
            return self.commands[command][0]
        return cat(
            *(u for c, (u, _) in self.commands.items() if c.startswith(f"{command} ")), sep=" | "
        )

    def kind_of(self, order: object) -> str:
        """ "order", "edit", "moderator" or "query": the flag of the verb that formats
        type(order)."""
        verb = self.verb_of.get(type(order))
        return verb.kind if verb is not None else "order"

    def is_private(self, order: object) -> bool:
        verb = self.verb_of.get(type(order))
        return verb is not None and verb.private

    def is_secret(self, order: object) -> bool:
        """Whether the order is an edit that sets a value hidden from a side (a hand, a block's
        strength): given in a private chat only, its text and reply sealed (app.edits)."""
        verb = self.verb_of.get(type(order))
        if verb is None or verb.secret is False:
            return False
        return verb.secret is True or isinstance(order, verb.secret)

    def help(self, topic: str | None = None, side: str | None = None) -> str:
        """All usage lines (with a side: those of the verbs that side may use), or the usage,
        help and aliases of one command (aliases accepted)."""
        said = words(topic) if topic is not None else ()
        if not said:
            return self._listing(side)
        try:
            name = self.command(said[0])
        except ParseError as exc:
            return exc.message
        if len(said) > 1:
            name = self.subcommand(name, said[1]) or name
        if name not in self.commands:  # "set", "moderator": every command of the group
            return cat(
                *(self.help(n) for n in self.commands if n.startswith(f"{name} ")), sep="\n\n"
            )
        usage, text = self.commands[name]
        # the other Latin words (a Russian word is the Russian usage line's own word)
        every = self.verbs[name].aliases if name in self.verbs else ()
        aliases = tuple(a for a in every if not _CYRILLIC.search(a))
        russian = tuple(a for a in every if _CYRILLIC.search(a))[1:]  # (the first: the usage's)
        if aliases:  # in Russian: the other Russian words, or (none) the Latin ones
            listed = cat(*aliases, sep=", ")
            others = i18n_name(str(listed), ru=", ".join(russian) if russian else None)
            return t(
                "Usage: {usage}\n{text}\nAliases: {aliases}", usage=usage, text=text, aliases=others
            )
        return t("Usage: {usage}\n{text}", usage=usage, text=text)

    def format(self, order: object) -> str:
        """The canonical text of an order, query or command: parse(format(o)) == o."""
        formatter = self.formats.get(type(order))
        if formatter is None:
            raise TypeError(f"not an order or query: {order!r}")
        return formatter(order)

    def _listing(self, side: str | None = None) -> str:
        mine = self._entries_of(side)
        said: list[str] = [t("Commands (type 'help <COMMAND>' for more):")]
        for title, names in self.groups.items():
            names = [n for n in names if n in mine]
            if names:
                said += [t("{title}:", title=title)]
                said += [t("  {usage}", usage=self.commands[n][0]) for n in names]
        return lines(said)

    def _entries_of(self, side: str | None) -> set[str]:
        """The help entries of the verbs `side` may use (None: every verb's)."""
        return {
            name
            for v in self.verbs.values()
            if side is None or not v.sides or side in v.sides
            for name in v.entries
        }


def compose(
    shared: Sequence[Verb], own: Sequence[Verb], order: Sequence[str] | None = None
) -> list[Verb]:
    """A system's verbs with the shared ones: a system verb replaces a shared verb of its word;
    the words of order come first, in that order, then the other system verbs, then the other
    shared ones."""
    by_word = {v.word: v for v in shared} | {v.word: v for v in own}
    unknown = [w for w in order or () if w not in by_word]
    if unknown:
        raise ValueError(f"no verb {', '.join(unknown)} to put in order")
    words_ = [*(order or ()), *(v.word for v in own), *(v.word for v in shared)]
    return [by_word[w] for w in dict.fromkeys(words_)]


__all__ = ["KINDS", "Entry", "Formatter", "Parser", "Verb", "VerbTable", "compose", "join"]

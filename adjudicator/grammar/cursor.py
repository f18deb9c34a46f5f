"""Reading one line: `ParseError` and the `Cursor` a verb's parser reads its words with.

Invariants:
- every refusal of the grammar is a ParseError: a Rejection with rule None (the grammar, not a
  rule of the game, refuses the text) whose message says what is wrong and, after the command
  word, ends with " Usage: " and the usage line of the command being read;
- a cursor only moves forward; `done` refuses any word left over;
- a thing of a kind is read by the grammar's Lexicon: unknown and ambiguous names are refused
  with did-you-mean suggestions, and a name of another kind in the wrong place is said to be so.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, TypeVar

from adjudicator.core.commands import MAX_TEXT
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t, tn
from adjudicator.grammar.lexicon import Lexicon, any_of, did_you_mean
from adjudicator.grammar.words import quoted

T = TypeVar("T")
REASON = t("the reason")


class ParseError(Rejection):
    """Text that is not an order. rule is None: the grammar, not a rule, refuses it.

    code: "empty", "syntax", "unknown-command", "bad-number", or "unknown-<KIND>" and
    "ambiguous-<KIND>" for a kind of the lexicon ("unknown-unit", "ambiguous-hex"); the message
    ends with the usage line of the command.
    """


class Cursor:
    """The words of one line (the command word first) and the position reached.

    command: the command being read (a parser may narrow it: "set" -> "set turn"); usage gives
    its usage line for a refusal. grammar: the grammar reading the line (an
    adjudicator.grammar.GrammarKit, or a system's subclass whose attributes the system's parsers
    read, such as the number of turns); None outside a game.
    """

    def __init__(
        self,
        words: list[str],
        command: str,
        *,
        lexicon: Lexicon,
        usage: Callable[[str], str],
        grammar: Any = None,
    ):
        self.words, self.command, self.i = words, command, 1
        self.lex, self.usage, self.grammar = lexicon, usage, grammar

    def peek(self) -> str | None:
        return self.words[self.i] if self.i < len(self.words) else None

    def accept(self, *options: str) -> str | None:
        """The next word if it is one of options (and step over it), else None."""
        word = self.peek()
        if word is not None and word in options:
            self.i += 1
            return word
        return None

    def fail(self, code: str, message: str) -> NoReturn:
        usage = self.usage(self.command)
        if message.endswith((".", "?", "!")):
            raise ParseError(code, t("{message} Usage: {usage}", message=message, usage=usage))
        raise ParseError(code, t("{message}. Usage: {usage}", message=message, usage=usage))

    def done(self) -> None:
        if self.peek() is not None:
            left = quoted(" ".join(self.words[self.i :]))
            self.fail("syntax", t("unexpected {words} at the end", words=left))

    def choice(self, what: str, table: Mapping[str, T], legal: str, fold: bool = False) -> T:
        """The value of the next word in table (fold: of the word in lower case); legal says
        what would be, for the refusal."""
        word = self.peek()
        key = word.lower() if word is not None and fold else word
        if key is None or key not in table:
            self.fail(
                "syntax", t("{what} must be {legal}, {got}", what=what, legal=legal, got=_got(word))
            )
        self.i += 1
        return table[key]

    def number(self, what: str, low: int, high: int | None = None) -> int:
        """A whole number from low to high (no upper bound if high is None)."""
        word = self.peek()
        value = int(word) if word is not None and word.isascii() and word.isdigit() else None
        if value is None or value < low or (high is not None and value > high):
            span = (
                t("from {low} to {high}", low=low, high=high)
                if high is not None
                else t("of at least {low}", low=low)
            )
            said = t(
                "{what} must be a whole number {span}, {got}", what=what, span=span, got=_got(word)
            )
            self.fail("bad-number", said)
        self.i += 1
        return value

    def word(self, what: str) -> str:
        """The next word as it is (a user name); what names it when it is missing."""
        word = self.peek()
        if word is None:
            self.fail("syntax", t("{what} is missing", what=what))
        self.i += 1
        return word

    def rest(self, what: str) -> str:
        """The rest of the line as one text, single-spaced; what names it when it is missing."""
        text = self.optional_rest(what)
        if text is None:
            self.fail("syntax", t("{what} is missing", what=what))
        return text

    def optional_rest(self, what: str = REASON) -> str | None:
        """The rest of the line as one text, single-spaced, or None if there is none. At most
        MAX_TEXT characters (what names it when it is longer)."""
        text = " ".join(self.words[self.i :])
        self.i = len(self.words)
        if len(text) > MAX_TEXT:
            long = tn(
                "{what} is {n} characters long; at most {limit}",
                "{what} is {n} characters long; at most {limit}",
                len(text),
                what=what,
                limit=MAX_TEXT,
            )
            self.fail("syntax", long)
        return text or None

    def matches(self, kind: str) -> list[str]:
        """The things of kind the next words could name (one: a name; several: ambiguous;
        none at the end of the line, where a bare verb leaves the cursor)."""
        if self.peek() is None:
            return []
        return self.lex.match(kind, self.words, self.i)[0]

    def thing(self, kind: str) -> str:
        """The id of the thing of kind named by the next words."""
        if self.peek() is None:
            self.fail("syntax", t("a {kind} is missing", kind=self.lex.word(kind)))
        found, n = self.lex.match(kind, self.words, self.i)
        if len(found) != 1:
            self._not_found(kind, found, n)
        self.i += n
        return found[0]

    def things(self, kind: str, stop: Sequence[str]) -> tuple[str, ...]:
        """Things of kind up to the end or a word of stop; "and" may join them."""
        found = []
        while self.peek() is not None and self.peek() not in stop:
            found.append(self.thing(kind))
            self.accept("and", "и")  # "with 20tk and 75rc", "силами 20тк и 75ск"
        return tuple(found)

    def _not_found(self, kind: str, ambiguous: list[str], n: int) -> NoReturn:
        lex, rest = self.lex, self.words[self.i : self.i + 6]
        if ambiguous:
            names = any_of([lex.label(kind, x) for x in ambiguous])
            said = quoted(" ".join(rest[:n]))
            self.fail(f"ambiguous-{kind}", t("{words} could be {names}", words=said, names=names))
        for other in (k for k in lex.kinds if k != kind):
            elsewhere = self.matches(other)
            if len(elsewhere) == 1:  # "move C6 20tk": the right word in the wrong place
                said = lex.label(other, elsewhere[0])
                self.fail(
                    f"unknown-{kind}",
                    t(
                        "{thing} is a {other}, but a {kind} is expected here",
                        thing=said,
                        other=lex.word(other),
                        kind=lex.word(kind),
                    ),
                )
        phrases = [" ".join(rest[:k]) for k in range(1, len(rest) + 1)]
        hint = did_you_mean(lex.suggest(kind, phrases))
        unknown = t(
            "unknown {kind} {word}{hint}", kind=lex.word(kind), word=quoted(rest[0]), hint=hint
        )
        self.fail(f"unknown-{kind}", unknown)


def _got(word: str | None) -> str:
    return t("not {word}", word=quoted(word)) if word else t("missing")


__all__ = ["Cursor", "ParseError"]

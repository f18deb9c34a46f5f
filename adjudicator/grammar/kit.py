"""`GrammarKit`: a game system's order language from the shared verbs, its own verbs, its
Lexicon and its sides. It implements adjudicator.core.system.Grammar.

    grammar = GrammarKit(lexicon, sides, verbs=MY_VERBS)
    grammar.parse("attack C6 with 20tk")   # -> an order of the system, or raises ParseError
    grammar.format(order)                  # -> "attack C6 with 20tk"

Invariants:
- parse(format(o)) == o for every well-formed order o, and format(parse(t)) is the canonical
  form of t (the verbs' formatters write it: lowercase command words, ids, one space apart);
- one order per line: `parse` refuses a text of several lines; `parse_message` reads each
  non-blank line and keeps a refusal in its place, never raising;
- every refusal is a ParseError (a Rejection with rule None) saying what is wrong and, after the
  command word, the usage line of the command;
- the grammar checks syntax and names only; whether an order is legal is the rules' job.
Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicator.core.i18n import t
from adjudicator.core.system import Side, side_words
from adjudicator.grammar.cursor import Cursor, ParseError
from adjudicator.grammar.lexicon import Lexicon
from adjudicator.grammar.shared import shared_verbs
from adjudicator.grammar.verbs import Entry, Verb, VerbTable, compose
from adjudicator.grammar.words import raw_words, tokens


def verb_table(
    sides: Sequence[Side],
    verbs: Sequence[Verb] = (),
    order: Sequence[str] | None = None,
    help_texts: Mapping[str, str] | None = None,
) -> VerbTable:
    """The table of a system's verbs with the shared ones (see verbs.compose for order)."""
    return VerbTable(compose(shared_verbs(sides), verbs, order), help_texts)


class GrammarKit:
    """A game's grammar (see the module doc).

    verbs: the system's verbs (one with the word of a shared verb replaces it); order: the
    command words in the order `help` and the unknown-command refusal list them; help_texts:
    a system's help paragraphs of shared commands. A system may subclass GrammarKit: its
    parsers find the grammar, with the system's attributes, as `cursor.grammar`.
    """

    def __init__(
        self,
        lexicon: Lexicon,
        sides: Sequence[Side],
        verbs: Sequence[Verb] = (),
        *,
        order: Sequence[str] | None = None,
        help_texts: Mapping[str, str] | None = None,
    ):
        self.lexicon = lexicon
        self.sides = tuple(sides)
        self.side_words = side_words(self.sides)
        self.table = verb_table(self.sides, verbs, order, help_texts)

    @property
    def commands(self) -> Mapping[str, Entry]:
        """Every command's (usage line, help paragraph), by name ("attack", "set turn")."""
        return self.table.commands

    def parse(self, text: str) -> object:
        """One line of text -> one order, query or command; or ParseError."""
        if len(text.strip().splitlines()) > 1:
            raise ParseError(
                "syntax", t("one order per line: send each order on a line of its own.")
            )
        said = tokens(text)
        if not said:
            raise ParseError("empty", t("an empty line is no order; type 'help' for the commands."))
        command = self.table.command(said[0])
        verb = self.table.verbs[command]
        line = raw_words(text, said[0]) if verb.raw else said
        cursor = Cursor(line, command, lexicon=self.lexicon, usage=self.table.usage, grammar=self)
        order = verb.parser(cursor)
        cursor.done()
        return order

    def parse_message(self, text: str) -> list[tuple[str, object]]:
        """A chat message -> (line, order or ParseError) for each non-blank line, in order."""
        results: list[tuple[str, object]] = []
        for line in text.splitlines():
            line = line.strip()
            if line:
                try:
                    results.append((line, self.parse(line)))
                except ParseError as exc:
                    results.append((line, exc))
        return results

    def format(self, order: object) -> str:
        """The canonical text of an order: parse(format(o)) == o; TypeError for a non-order."""
        return self.table.format(order)

    def help(self, topic: str | None = None, side: str | None = None) -> str:
        """All usage lines (with a side: those of the verbs that side may use), or the usage,
        help and aliases of one command (aliases accepted)."""
        return self.table.help(topic, side)

    def kind_of(self, order: object) -> str:
        """ "order", "edit", "moderator" or "query", from the flags of the order's verb."""
        return self.table.kind_of(order)

    def is_private(self, order: object) -> bool:
        """Whether the order's verb is a question answered to the asking side only."""
        return self.table.is_private(order)

    def is_secret(self, order: object) -> bool:
        """Whether the order is an edit that sets a hidden value (its verb's `secret` flag)."""
        return self.table.is_secret(order)


__all__ = ["GrammarKit", "verb_table"]

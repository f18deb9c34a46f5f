"""The game-agnostic grammar kit: what every game system's order language is made of.

- words: lines into lowercase words (`words`, `tokens`) or words as typed (`raw_words`);
- lexicon: a system's kinds of names (`Kind`: units, hexes, cards ...) in a `Lexicon` that
  matches ids, names and abbreviations and suggests close names;
- cursor: `ParseError` and the `Cursor` a verb's parser reads a line with;
- verbs: `Verb` (command word, aliases, parser, formatters, usage and help) and `VerbTable`;
- shared: the verbs every system has (status, log, help, options, default, dice, salt, rolls, audit,
  undo, rewind, pause, resume, seat, unseat, moderator add|remove);
- kit: `GrammarKit`, a system's grammar (adjudicator.core.system.Grammar) from the shared verbs,
  its own verbs, its Lexicon and its sides;
- lifecycle: `parse_lifecycle` for the chat's new, join, leave, start, link, deadline, extend, map.

Invariants: the kit names no game system and imports none; parse(format(o)) == o for every
order a grammar of the kit parses; every refusal is a ParseError (rule None). Pure: no I/O, no
clock, no randomness.
"""

from __future__ import annotations

from adjudicator.grammar.cursor import Cursor, ParseError
from adjudicator.grammar.kit import GrammarKit, verb_table
from adjudicator.grammar.lexicon import Kind, Lexicon, did_you_mean, suggest
from adjudicator.grammar.lifecycle import USAGE as LIFECYCLE_USAGE
from adjudicator.grammar.lifecycle import parse_lifecycle
from adjudicator.grammar.shared import (
    FAIR_DICE,
    MODERATION,
    MODERATOR,
    QUESTIONS,
    either,
    shared_verbs,
)
from adjudicator.grammar.verbs import Entry, Formatter, Parser, Verb, VerbTable, compose, join
from adjudicator.grammar.words import QUOTE_LIMIT, quoted, raw_words, tokens, words

__all__ = [
    "FAIR_DICE",
    "LIFECYCLE_USAGE",
    "MODERATION",
    "MODERATOR",
    "QUESTIONS",
    "QUOTE_LIMIT",
    "Cursor",
    "Entry",
    "Formatter",
    "GrammarKit",
    "Kind",
    "Lexicon",
    "ParseError",
    "Parser",
    "Verb",
    "VerbTable",
    "compose",
    "did_you_mean",
    "either",
    "join",
    "parse_lifecycle",
    "quoted",
    "raw_words",
    "shared_verbs",
    "suggest",
    "tokens",
    "verb_table",
    "words",
]

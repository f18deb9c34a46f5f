"""`options`: the kit's answer to "what may I order now?", from the system's `legal_orders`.

The grammar kit's shared verb `options` (adjudicator.grammar.shared) gives `Options()`, a
question answered to the asking side's player only (its verb is `private`); the kit's
`RulesSystem.answer` answers it with `options_text`, so a system written on the kit has it with
no code of its own. A system with its own `options` verb (Hell's Gate, Stalin's War) replaces
the shared one and answers it itself.

The answer: the side's legal orders now as canonical texts, grouped by command word in the order
`legal_orders` gives them, a line a command word with at most PER_LINE orders ("and N more"),
at most MAX_LINES lines in all; then the templates of the orders not listed one by one.
Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.core.i18n import Msg, cat, lines, t, tn

MAX_LINES = 20  # the lines of an answer, its heading and templates included
PER_LINE = 4  # the orders named on a command word's line


@dataclass(frozen=True)
class Options:
    """`options`: the asking side's legal orders now (answered to him only)."""


def options_text(head: Msg, said: Sequence[str], templates: Sequence[str] = ()) -> Msg:
    """head ("You may give"), then the canonical texts `said` grouped by their command word,
    then the templates (the caller says when there is neither)."""
    groups: dict[str, list[str]] = {}
    for text in said:
        groups.setdefault(text.split(" ", 1)[0], []).append(text)
    rows = [_row(word, texts) for word, texts in groups.items()]
    tail = (
        [t("Also, with your own values: {orders}", orders=_quoted(templates))] if templates else []
    )
    room = MAX_LINES - 1 - len(tail)
    if len(rows) > room:
        rows = [*rows[: room - 1], t("... and {n} more commands", n=len(rows) - room + 1)]
    count = tn("{head} {n} order now:", "{head} {n} orders now:", len(said), head=head)
    return lines([count, *rows, *tail])


def _row(word: str, texts: list[str]) -> Msg:
    shown = _quoted(texts[:PER_LINE])
    if len(texts) > PER_LINE:
        shown = t("{orders} and {n} more", orders=shown, n=len(texts) - PER_LINE)
    return t("  {word}: {orders}", word=word, orders=shown)


def _quoted(texts: Sequence[str]) -> Msg:
    return cat(*(f"`{s}`" for s in texts), sep=", ")


__all__ = ["MAX_LINES", "PER_LINE", "Options", "options_text"]

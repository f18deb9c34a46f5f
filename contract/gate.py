"""Orders outside the gate: texts mutated from the legal ones and the help's examples, each of
which the rules must refuse unless `legal_orders` lists it or one of `order_templates` matches."""

from __future__ import annotations

import random
import re
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.system import GameSystem
from adjudicator.grammar import ParseError

SHARED = (C.Salt, C.Rolls, C.Audit, C.Undo, *C.MODERATION, *C.SHARED_QUERIES, *C.SHARED_ORDERS)
NUMBERS = tuple(str(n) for n in range(13))
MUTANTS = 30  # mutated texts tried in each sampled state


def vocabulary(system: GameSystem) -> list[str]:
    """Words to put in an order: the lexicon's ids, the sides, numbers, the usage's words."""
    lexicon: Any = getattr(system.grammar, "lexicon", None)  # a GrammarKit's; else none
    ids = [i for k in (lexicon.kinds if lexicon is not None else ()) for i in lexicon.ids(k)]
    commands: dict[str, tuple[str, str]] = getattr(system.grammar, "commands", {})
    usage = {w for u, _ in commands.values() for w in re.findall(r"\b[a-z]+\b", u)}
    return [*ids, *(s.id for s in system.sides), *NUMBERS, *sorted(usage)]


def help_examples(system: GameSystem) -> list[str]:
    commands: dict[str, tuple[str, str]] = getattr(system.grammar, "commands", {})
    return [e for _, t in commands.values() for e in re.findall(r"Example: (.+)", t)]


def mutant(rng: random.Random, text: str, words: list[str]) -> str:
    said = text.split()
    for _ in range(rng.choice((0, 1, 1, 2))):  # 0: the text as it is
        i = rng.randrange(len(said) + 1)
        if i == len(said) or rng.random() < 0.2:
            said.insert(i, rng.choice(words))
        elif rng.random() < 0.1 and len(said) > 1:
            del said[i]
        else:
            said[i] = rng.choice(words)
    return " ".join(said)


def rules_order(system: GameSystem, text: str) -> object | None:
    """The order a text parses to, if it is one for the rules (not shared, not a question)."""
    try:
        order = system.grammar.parse(text)
    except ParseError:
        return None
    return None if isinstance(order, SHARED) or system.kind_of(order) != "order" else order


def assert_in_gate(
    system: GameSystem, state: Any, actor: str, order: object, dice: Any, text: str
) -> None:
    try:
        out = system.apply(state, actor, order, dice)
    except Rejection:
        return
    legal = system.legal_orders(state, actor)
    templates = [template_re(t) for t in system.order_templates(state, actor)]
    canonical = system.grammar.format(order)
    assert order in legal or out.order in legal or any(t.fullmatch(canonical) for t in templates), (
        f"{actor}: {text!r} was accepted, but legal_orders lists it not, nor does a template"
    )


def template_re(template: str) -> re.Pattern[str]:
    """A template as a pattern: <NAME> stands for any text, [...] is optional, ... repeats."""
    parts = re.split(r"( ?\[|\]|\.\.\.|<[^>]+>)", template)
    signs = {" [": "(?: ", "[": "(?:", "]": ")?", "...": ".*"}
    return re.compile(
        "".join(signs.get(p) or (".+" if p[:1] == "<" else re.escape(p)) for p in parts)
    )

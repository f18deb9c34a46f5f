"""`options` from the kit (adjudicator/core/options.py): the grammar kit's shared question,
answered by RulesSystem from `legal_orders` and `order_templates`, to the asker only; a system
with its own `options` (Hell's Gate, Stalin's War) keeps it."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from adjudicator.core.options import MAX_LINES, PER_LINE, Options, options_text
from adjudicator.grammar import GrammarKit, Lexicon
from adjudicator.grammar.shared import shared_verbs
from app import games
from tests.systems import duel


def bound(system_id: str) -> Any:
    kind = registry.get(system_id)
    return kind.load(*games.default_scenario(kind))


def test_options_is_a_shared_question_answered_to_the_asker_only():
    words = {v.word: v for v in shared_verbs(duel.SIDES)}
    verb = words["options"]
    assert verb.kind == "query" and verb.private and {"opt", "варианты"} <= set(verb.aliases)
    grammar = GrammarKit(Lexicon([]), duel.SIDES)
    assert grammar.parse("options") == Options() and grammar.format(Options()) == "options"
    assert "options" in grammar.help()


@pytest.mark.parametrize("system_id", ["hells-gate", "stalins-war"])
def test_a_system_with_its_own_options_keeps_it(system_id):
    system = bound(system_id)
    assert type(system.grammar.parse("options")) is not Options
    assert type(system.grammar.parse("варианты")) is type(system.grammar.parse("options"))


@pytest.mark.parametrize("system_id", ["borodino"])
def test_a_kit_system_answers_options_from_its_legal_orders(system_id):
    system = bound(system_id)
    state = system.initial(False, HashDice(1)).state
    side = system.situation(state).to_move[0]
    query = system.grammar.parse("options")
    assert query == Options() and system.is_private(query)
    text = str(system.answer(state, side, query).text)
    legal = system.legal_orders(state, side)
    assert text.splitlines()[0].startswith(f"You may give {len(legal)} order")
    assert f"`{system.grammar.format(legal[0])}`" in text


def test_options_text_groups_by_command_word_and_stays_within_its_lines():
    said = [f"move u{i} h{j}" for i in range(3) for j in range(3)] + ["end"]
    said += [f"verb{k} x" for k in range(40)]
    text = str(options_text("You may give", said, ["at <UNIT> <HEX>"]))
    rows = text.splitlines()
    assert rows[0] == f"You may give {len(said)} orders now:"
    shown = ", ".join(f"`{s}`" for s in said[:PER_LINE])
    assert rows[1] == f"  move: {shown} and {9 - PER_LINE} more" and rows[2] == "  end: `end`"
    assert len(rows) == MAX_LINES and rows[-2] == "... and 25 more commands"  # 42 - 17 shown
    assert rows[-1] == "Also, with your own values: `at <UNIT> <HEX>`"


def test_2_19_the_northern_war_answers_options_from_a_sides_view_with_its_commands():
    """Its view hides the enemy's blocks, so legal orders cannot be listed from it (they named
    them: KeyError in a tap game); `options` there is the side's own help."""
    from adjudicator.core.events import Viewer

    system = bound("northern-war")
    state = system.initial(False, HashDice(1)).state
    for side in ("sweden", "coalition"):
        view = system.view(state, Viewer.of([side]))
        said = str(system.answer(view, side, system.grammar.parse("options")).text)
        assert said == str(system.answer(view, side, system.grammar.parse("help")).text)

"""`options` in Borodino: the kit's answer from the one gate (legal.legal_orders, rule 2.1's
activations and rally attempts, 4.2-4.4's placements): the asker's legal orders now, grouped
by command word, at most 20 lines, to the asker only."""

from __future__ import annotations

from adjudicator.borodino.system import SYSTEM
from adjudicator.core.dice import FixedDice
from adjudicator.core.i18n import Msg
from adjudicator.core.options import MAX_LINES, Options
from app.games import default_scenario
from tests.borodino.helpers import Table, line_group, scenario


def system():
    return SYSTEM.load(*default_scenario(SYSTEM))


def said(text: Msg | str) -> str:
    return str(text)


def test_2_1_options_lists_the_askers_legal_orders_by_command_word():
    s = system()
    state = s.initial(False, FixedDice([])).state
    query = s.grammar.parse("options")
    assert query == Options() == s.grammar.parse("варианты") == s.grammar.parse("opt")
    assert s.kind_of(query) == "query" and s.is_private(query)  # to the asker only
    text = said(s.answer(state, "russian", query).text)
    rows = text.splitlines()
    legal = s.legal_orders(state, "russian")
    assert rows[0] == f"You may give {len(legal)} orders now:"
    assert "  activate: `activate neverovsky`, `activate karpov`" in rows
    assert "  morale: `morale`" in rows and "  recovery: `recovery`" in rows
    at = sum(1 for o in legal if type(o).__name__ == "At")
    assert (
        f"  at: `at odessa 0603`, `at odessa 0604`, `at odessa 0702`, `at odessa 0704` and {at - 4} more"
        in rows
    )
    assert rows[-1] == "Also, with your own values: `at <UNIT> <HEX>`, `dispute <UNIT> <TEXT...>`"
    assert len(rows) <= MAX_LINES
    assert "`activate compans`" not in text  # the other side's group


def test_2_1_a_spectator_is_told_the_options_of_the_side_the_game_waits_for():
    s = system()
    state = s.initial(False, FixedDice([])).state
    state = s.apply(state, "russian", s.grammar.parse("activate neverovsky"), FixedDice([])).state
    text = said(s.answer(state, "moderator", Options()).text)
    assert text.startswith("Russian may give") and "  end: `end`" in text.splitlines()
    for order in s.legal_orders(state, "russian")[:3]:
        assert f"`{s.grammar.format(order)}`" in text


def test_2_6_in_a_rally_phase_options_names_the_rally_attempts_and_end():
    parts = [*line_group("r", "russian", 2, 10, disordered=True), *line_group("f", "french", 1, 1)]
    t = Table(scenario(*parts))
    t.say("russian", "activate r")
    t.say("russian", "end")
    text = said(t.system.answer(t.state, "russian", Options()).text)
    assert "  rally: `rally r1`, `rally r2`" in text.splitlines() and "  end: `end`" in text
    assert said(t.system.answer(t.state, "french", Options()).text).startswith("You may give")


def test_3_1_once_the_referees_part_is_over_there_is_no_order():
    t = Table(
        scenario(*line_group("r", "russian", 1, 10), *line_group("f", "french", 1, 1), phases=1)
    )
    t.say("russian", "recovery")
    assert t.system.situation(t.state).over
    assert (
        said(t.system.answer(t.state, "russian", Options()).text)
        == "You have no order to give now."
    )

"""The jager flag (borodino-recovery.md 7.1; 7.2-7.14 are the players' to apply on their board)
and a scenario without Activation Groups (the Shevardino case, 8.7)."""

from __future__ import annotations

from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from tests.borodino.helpers import Table, scenario, unit


def test_7_1_use_jager_rules_is_stored_with_the_game_and_shown_in_status():
    off = Table(scenario(unit("a", "russian", "1001"), unit("b", "french", "0101")))
    on = Table(scenario(unit("a", "russian", "1001"), unit("b", "french", "0101"), jager=True))
    assert off.system.show(off.state)["use_jager_rules"] is False
    assert on.system.show(on.state)["use_jager_rules"] is True
    status = off.system.answer(off.state, "russian", off.system.grammar.parse("status")).text
    assert "use_jager_rules is off (rule 7.1)" in status
    assert "use_jager_rules is on" in on.system.answer(on.state, "russian",
                                                       on.system.grammar.parse("status")).text  # fmt: skip


def test_7_2_to_7_14_help_says_the_players_apply_them_and_the_bot_checks_none():
    t = Table(scenario(unit("a", "russian", "1001"), unit("b", "french", "0101")))
    text = t.system.grammar.help()
    assert "the players apply them on their board" in text and "no jager rule is checked" in text


def test_8_7_without_activation_groups_every_unit_is_independent_and_returns_near_its_army():
    parts = [unit("a", "russian", "1001", army="1st"), unit("b", "russian", "1005", army="1st"),
             unit("c", "french", "0101", army="ga")]  # fmt: skip
    t = Table(scenario(*parts))
    assert not t.system.scenario.groups
    t.say("russian", "activate a")  # its own activation (2.8)
    t.say("russian", "end")
    t.say("russian", "rout a")
    said = t.say("russian", "morale")
    assert said == ["Morale Phase: no Activation Group collapses (6.3).",
                    "Turn 1: Morale Phase held; the Recovery Phase is next (`recovery`)."]  # fmt: skip
    t.say("russian", "recovery")
    t.say("russian", "recovery", [1])
    t.say("russian", "return a 1008")  # 4.4: within 3 of b, of its Army
    assert t.spot("a").hex == "1008"


def test_deadline_defaults_are_in_help():
    t = Table(scenario(unit("a", "russian", "1001"), unit("b", "french", "0101")))
    text = t.system.grammar.help()
    assert "a Rally phase: `end` (an optional rally: none is made)" in text
    assert "a placement: `return` to the legal hex nearest the unit's group" in text
    assert "the Recovery Phase: `recovery` (it is run)" in text
    assert "Deadline defaults" in t.system.grammar.help("default")


def test_1_10_a_sandbox_moderator_fixes_the_next_die_results_of_the_scenarios_die():
    t = Table(scenario(unit("a", "russian", "1001", army="1st", disordered=True),
                       unit("b", "french", "0101"), die=8), sandbox=True)  # fmt: skip
    dice = t.system.grammar.parse("dice 8 1")
    state = t.system.apply(t.state, "moderator", dice, None).state
    assert state.fixed_dice == [8, 1]
    state = t.system.apply(state, "russian", t.system.grammar.parse("activate a"), None).state
    state = t.system.apply(state, "russian", t.system.grammar.parse("end"), None).state
    out = t.system.apply(state, "russian", t.system.grammar.parse("rally a"), HashDice(1))
    assert [(r.value, r.fixed, r.faces) for r in out.rolls] == [(8, True, 8)]
    assert out.state.fixed_dice == [1]
    plain = Table(scenario(unit("a", "russian", "1001"), unit("b", "french", "0101")))
    try:
        plain.system.apply(plain.state, "moderator", dice, None)
    except Rejection as exc:
        assert exc.code == "sandbox-only"
    else:
        raise AssertionError("a game that is no sandbox took `dice`")

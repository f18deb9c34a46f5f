"""The moderator's position editor (adjudicator/borodino/edit.py; `place`, `set`): each noun of
the spec it edits (1.5 locations, 1.3 sides, 6.3 losses, 6.7 the Collapsed marker, the turn and
the phase), its refusals naming what is legal and the rule, its Russian forms, and the kit's
gates (an edit is the moderator's; a refusal changes nothing)."""

from __future__ import annotations

import pytest

from adjudicator.borodino import orders as O
from adjudicator.borodino.system import SYSTEM
from adjudicator.core.dice import FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.grammar import ParseError
from app import games

SYSTEM_BOUND = SYSTEM.load(*games.default_scenario(SYSTEM))


class Board:
    """The sample order of battle, edited by the moderator and played by the players."""

    def __init__(self, sandbox: bool = True):
        self.system = SYSTEM_BOUND
        self.state = self.system.initial(sandbox, FixedDice([])).state

    def say(self, text: str, actor: str = "moderator", dice=()) -> list[str]:
        out = self.system.apply(self.state, actor, self.system.grammar.parse(text), FixedDice(dice))
        self.state = out.state
        return [str(e.text) for e in out.events]

    def refused(self, text: str, actor: str = "moderator") -> Rejection:
        before = self.state.to_json()
        with pytest.raises(Rejection) as exc:
            self.say(text, actor)
        assert self.state.to_json() == before  # a refusal changes nothing
        return exc.value

    def spot(self, uid: str):
        return self.state.units[uid]


def test_1_5_place_a_unit_in_each_box_and_in_a_hex():
    b = Board()
    for word, where in [("withdrawn", "withdrawn"), ("recovery", "recovery"),
                        ("awaiting", "recovered"), ("eliminated", "eliminated"),
                        ("later", "later")]:  # fmt: skip
        said = b.say(f"place odessa {word}")
        assert b.spot("odessa").where == where and b.spot("odessa").hex is None
        assert said and said[0].startswith("Moderator places odessa in ")
    assert "odessa" not in b.state.entered  # 6.4: later is not yet in play
    said = b.say("place odessa 0101")
    assert b.spot("odessa").where == "map" and b.spot("odessa").hex == "0101"
    assert not b.spot("odessa").disordered and "odessa" in b.state.entered
    assert "hex 0101, Formed (was: not yet entered)" in said[0]


def test_1_5_place_in_a_hex_held_by_the_enemy_is_refused():
    refusal = Board().refused("place odessa 0303")  # the French 25e
    assert refusal.rule == "1.5" and "0303 is held by an enemy unit" in str(refusal)


def test_1_5_place_on_the_map_keeps_the_side_up():
    b = Board()
    b.say("set state odessa disordered")
    b.say("place odessa 0202")
    assert b.spot("odessa").hex == "0202" and b.spot("odessa").disordered


def test_1_5_place_refuses_what_is_no_place_naming_the_places():
    b = Board()
    with pytest.raises(ParseError) as exc:
        b.system.grammar.parse("place odessa moon")
    said = str(exc.value)
    assert "withdrawn, recovery, awaiting, eliminated or later" in said and "'moon'" in said


def test_1_3_1_6_1_7_set_state():
    b = Board()
    b.say("set state odessa disordered")
    assert b.spot("odessa").disordered
    b.say("set state odessa formed")
    assert not b.spot("odessa").disordered
    b.say("set state odessa routed")
    assert b.spot("odessa").where == "withdrawn"
    refusal = b.refused("set state odessa formed")
    assert refusal.rule == "1.3" and "`place odessa <HEX>` first" in str(refusal)
    b.say("set state odessa eliminated")
    assert b.spot("odessa").where == "eliminated"
    with pytest.raises(ParseError) as exc:
        b.system.grammar.parse("set state odessa happy")
    assert "formed, disordered, routed or eliminated" in str(exc.value)


def test_6_3_set_losses_routs_the_last_units_on_the_map_and_refuses_lowering():
    b = Board()
    said = b.say("set losses neverovsky 2")
    assert [b.spot(u).where for u in ("simbirsk", "49jag")] == ["withdrawn"] * 2
    assert b.spot("27art").on_map and b.spot("smolop").on_map  # not counted (6.6)
    assert "2 of 5 (was 0)" in said[0] and "simbirsk, 49jag" in said[0]
    refusal = b.refused("set losses neverovsky 1")
    assert refusal.rule == "6.3" and "lost: simbirsk, 49jag" in str(refusal)
    assert "N may be 2 to 5" in str(refusal)
    refusal = b.refused("set losses neverovsky 6")
    assert refusal.rule == "6.3" and "N may be 2 to 5" in str(refusal)


def test_6_7_set_collapsed_puts_and_removes_the_marker_without_the_effects():
    b = Board()
    said = b.say("set collapsed neverovsky yes")
    assert b.state.collapsed == ["neverovsky"] and "6.5 are not applied" in said[0]
    assert b.spot("odessa").on_map and not b.spot("odessa").disordered  # no 6.5(a)
    b.say("set collapsed neverovsky no")
    assert b.state.collapsed == []
    with pytest.raises(ParseError) as exc:
        b.system.grammar.parse("set collapsed neverovsky maybe")
    assert "yes or no" in str(exc.value)
    with pytest.raises(ParseError):
        b.system.grammar.parse("set collapsed karpov yes")  # an independent unit, no group


def test_6_8_a_collapsed_marker_set_by_hand_bars_rallies():
    b = Board()
    b.say("set state odessa disordered")
    b.say("set collapsed neverovsky yes")
    b.say("activate neverovsky", "russian")
    said = b.say("end", "russian")
    assert any("no unit may attempt to rally" in s for s in said)


def test_set_turn_begins_that_turn_and_refuses_turns_past_the_last():
    b = Board()
    b.say("activate neverovsky", "russian")
    said = b.say("set turn 2")
    st = b.state
    assert (st.turn, st.phase, st.active, st.activated) == (2, "activations", None, [])
    assert st.recovery_phases == 1 and st.initiative == "french" and "turn 2" in said[0]
    refusal = b.refused("set turn 4")
    assert refusal.rule == "3.1" and "turns 1 to 3" in str(refusal)


def test_set_phase_rally_then_a_real_rally():
    b = Board()
    b.say("set state odessa disordered")
    b.say("set phase rally neverovsky")
    assert (b.state.phase, b.state.active) == ("rally", "neverovsky")
    said = b.say("rally odessa", "russian", [1])
    assert any("rallies" in s for s in said)


def test_set_phase_refusals_name_the_group_and_the_rule():
    b = Board()
    refusal = b.refused("set phase activation odessa")
    assert refusal.rule == "2.8" and "`set phase activation neverovsky`" in str(refusal)
    with pytest.raises(ParseError) as exc:
        b.system.grammar.parse("set phase rally")
    assert "set phase rally <AG|UNIT>" in str(exc.value)
    with pytest.raises(ParseError) as exc:
        b.system.grammar.parse("set phase lunch")
    assert "activations, activation, rally, recovery or placement" in str(exc.value)


def test_4_5_set_phase_placement_waits_for_a_side_with_a_unit_to_place():
    b = Board()
    refusal = b.refused("set phase placement")
    assert refusal.rule == "4.5" and "`place <UNIT> awaiting`" in str(refusal)
    b.say("place odessa awaiting")
    b.say("set phase placement")
    assert b.state.phase == "placement" and b.state.placing == ["russian"]
    said = b.say("return odessa 0701", "russian")
    assert any("returns to the map at 0701" in s for s in said)


def test_3_1_set_phase_recovery_then_the_recovery_phase():
    b = Board()
    b.say("place odessa recovery")
    b.say("set phase recovery")
    assert b.state.morale_done
    said = b.say("recovery", "russian", [1])
    assert any("odessa (Odessa Infantry Regiment) recovers: die 1" in s for s in said)
    assert b.state.phase == "placement" and b.spot("odessa").where == "recovered"


def test_an_edit_is_the_moderators_in_any_game():
    b = Board(sandbox=False)
    refusal = b.refused("place odessa withdrawn", "russian")
    assert refusal.code == "moderator-only"
    b.say("place odessa withdrawn")  # the kit lets a moderator edit; the app gates the game
    assert b.spot("odessa").where == "withdrawn"


def test_an_edit_after_the_referees_part_is_refused():
    b = Board()
    b.state.result = {"winner": "draw", "text": "over", "lost": {"russian": 0, "french": 0}}
    assert b.refused("set turn 2").code == "game-over"


def test_edits_are_of_kind_edit_and_nothing_is_secret():
    s = SYSTEM_BOUND
    for order in (O.Place("odessa", "0101"), O.SetState("odessa", "formed"),
                  O.SetLosses("neverovsky", 1), O.SetCollapsed("neverovsky", True),
                  O.SetTurn(2), O.SetPhase("rally", "neverovsky")):  # fmt: skip
        assert s.kind_of(order) == "edit" and not s.is_secret(order)
        assert s.grammar.parse(s.grammar.format(order)) == order


@pytest.mark.parametrize(
    "russian, english",
    [
        ("поставить odessa пбч", "place odessa withdrawn"),
        ("разместить odessa ожидает", "place odessa awaiting"),
        ("поставить odessa на 0101", "place odessa 0101"),
        ("поставить odessa позже", "place odessa later"),
        ("установить состояние odessa бежала", "set state odessa routed"),
        ("уст состояние odessa боевой", "set state odessa formed"),
        ("уст потери neverovsky 2", "set losses neverovsky 2"),
        ("уст упадок neverovsky да", "set collapsed neverovsky yes"),
        ("уст ход 2", "set turn 2"),
        ("уст фаза сбор neverovsky", "set phase rally neverovsky"),
        ("уст фаза между активациями", "set phase activations"),
    ],
)
def test_russian_forms_of_the_editor(russian, english):
    g = SYSTEM_BOUND.grammar
    assert g.format(g.parse(russian)) == english


def test_help_lists_the_editor():
    text = SYSTEM_BOUND.grammar.help()
    for usage in ("place <UNIT> <HEX>", "set state <UNIT>", "set losses <AG> <N>",
                  "set collapsed <AG> yes|no", "set turn <N>", "set phase"):  # fmt: skip
        assert usage in text
    assert "Example: place odessa awaiting" in SYSTEM_BOUND.grammar.help("place")

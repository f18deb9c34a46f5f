"""The moderator's position editor of the block game (issue 26): `place` and `set` (kind "edit"),
every noun, its refusals (a player, a value the rules do not allow), which edits are secret and
whom their events reach; a moderator's `dice` (1.9) and `default` (the side the game waits for)."""

from __future__ import annotations

import pytest

from adjudicator.core import commands as C
from adjudicator.core.dice import FixedDice, HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR
from adjudicator.grammar import ParseError
from adjudicator.northern_war import grammar_edit as E
from adjudicator.northern_war.state import EXILE, ON_MAP, POOL, REMOVED
from tests.northern_war.helpers import sample
from tests.northern_war.test_rules import actions_for

MOD = MODERATOR_ACTOR


@pytest.fixture(scope="module")
def system():
    return sample()


@pytest.fixture
def start(system):
    return system.initial(True, HashDice(1)).state


def edit(system, state, text, actor=MOD):
    order = system.grammar.parse(text)
    assert system.grammar.parse(system.grammar.format(order)) == order
    return system.apply(state, actor, order, FixedDice([]))


def refused(system, state, text, rule, *says, actor=MOD):
    with pytest.raises(Rejection) as err:
        edit(system, state, text, actor)
    assert err.value.rule == rule, err.value
    for said in says:
        assert said in str(err.value), err.value
    return err.value


# -- the nouns
def test_place_a_block_in_a_territory_keeps_its_strength_and_moves_it(system, start):
    out = edit(system, start, "place rehnskiold livonia")
    assert out.state.at["rehnskiold"] == "livonia" and out.state.status["rehnskiold"] == ON_MAP
    assert out.state.strength["rehnskiold"] == start.strength["rehnskiold"]
    assert start.at["rehnskiold"] == "estonia"  # the state given is untouched
    assert "rehnskiold" not in out.state.moved  # no move for rule 7.8


def test_2_8_place_a_block_in_the_pool_and_back_on_the_map(system, start):
    state = edit(system, start, "place repnin pool").state
    assert (state.status["repnin"], state.at["repnin"]) == (POOL, None)
    state = edit(system, state, "place repnin pskov").state
    assert (state.status["repnin"], state.at["repnin"]) == (ON_MAP, "pskov")


def test_4_3_place_a_block_removed_and_eliminated_is_the_same_box(system, start):
    assert edit(system, start, "place peter removed").state.status["peter"] == REMOVED
    assert edit(system, start, "place peter eliminated").state.status["peter"] == REMOVED


def test_4_6_charles_into_exile_counts_his_attempts_from_nothing_and_back_ends_the_exile(
    system, start
):
    state = edit(system, start, "place charles exile").state
    assert (state.status["charles"], state.exile_attempts) == (EXILE, 0)
    state = edit(system, state, "set exile 3").state
    assert state.exile_attempts == 3
    back = edit(system, state, "place charles stockholm").state
    assert (back.status["charles"], back.exile_attempts) == (ON_MAP, None)


def test_4_6_only_charles_goes_into_exile(system, start):
    refused(system, start, "place rehnskiold exile", "4.6", "only Charles XII")


def test_4_8_exile_attempts_need_charles_in_exile_and_are_0_to_5(system, start):
    refused(system, start, "set exile 1", "4.6", "not in exile", "place charles exile")
    state = edit(system, start, "place charles exile").state
    refused(system, state, "set exile 6", "4.8", "0 to 5")


def test_2_6_set_strength_is_1_to_the_blocks_maximum(system, start):
    assert edit(system, start, "set strength peter 2").state.strength["peter"] == 2
    refused(system, start, "set strength peter 5", "2.6", "1 to its maximum 4, not 5")
    refused(system, start, "set strength peter 0", "2.6", "not 0")


def test_2_4_set_strength_of_a_block_off_the_map_is_refused(system, start):
    state = edit(system, start, "place repnin pool").state
    refused(system, state, "set strength repnin 2", "2.4", "not on the map", "place it first")


def test_n5_set_control_of_a_territory(system, start):
    assert start.control["ingermanland"] == "sweden"
    state = edit(system, start, "set control ingermanland coalition").state
    assert state.control["ingermanland"] == "coalition"
    refused(system, state, "set control ingermanland coalition", "N5", "already controls")
    with pytest.raises(ParseError, match="sweden or coalition"):
        system.grammar.parse("set control ingermanland none")


def test_n13_n15_set_turn_and_year_move_the_game_turn_too(system, start):
    state = edit(system, start, "set year 2").state
    state = edit(system, state, "set turn 3").state
    sc = system.scenario
    assert (state.year, state.turn, state.count) == (2, 3, sc.turns_per_year + 3)
    assert system.situation(state).turn == state.count  # the dice epoch follows
    refused(system, state, f"set turn {sc.turns_per_year + 1}", "N13", "1 to 4")
    refused(system, state, f"set year {sc.years + 1}", "N15", f"1 to {sc.years}")


def test_5_4_set_first_before_anybody_acts_gives_the_move(system):
    state = actions_for(system, "sweden", 2)  # Sweden first, nobody has acted
    assert system.situation(state).to_move == ("sweden",)
    state = edit(system, state, "set first coalition").state
    assert (state.first, state.prev_second, state.to_move) == ("coalition", "sweden", "coalition")


def test_5_4_set_first_after_an_action_keeps_the_side_acting(system):
    state = actions_for(system, "sweden", 2)
    state = system.apply(
        state, "sweden", system.grammar.parse("move rehnskiold livonia"), FixedDice([])
    )
    state = edit(system, state.state, "set first coalition").state
    assert state.first == "coalition" and state.to_move == "sweden"


def test_8_3_set_phase_winter_opens_the_winter_campaign_after_the_winter_turn(system, start):
    refused(system, start, "set phase winter", "8.3", "'set turn 4' first")
    state = edit(system, start, "set turn 4").state
    exiled = edit(system, state, "place charles exile").state
    refused(system, exiled, "set phase winter", "6.7", "without Charles XII on the map")
    state = edit(system, state, "set phase winter").state
    assert (state.phase, state.to_move, state.winter_moved) == ("winter", "sweden", False)
    out = system.apply(state, "sweden", system.grammar.parse("winter none"), FixedDice([3, 5]))
    assert (out.state.year, out.state.turn, out.state.phase) == (2, 1, "action")


def test_8_4_set_phase_entry_starts_the_turn_again_from_its_action_rolls(system):
    state = actions_for(system, "sweden", 2)
    state = system.apply(
        state, "sweden", system.grammar.parse("move rehnskiold livonia"), FixedDice([])
    )
    state = edit(system, state.state, "set phase entry").state
    assert (state.phase, state.to_move, state.moved, state.actions) == ("entry", "sweden", [], {})
    out = system.apply(state, "sweden", system.grammar.parse("end"), FixedDice([2, 4]))
    assert out.state.rolls == {"sweden": 2, "coalition": 4} and out.state.to_move == "coalition"
    refused(system, state, "set phase battle", "8.4", "'entry'", "'winter'")


def test_the_editor_is_in_the_moderators_help_and_not_in_a_players(system, start):
    g = system.grammar
    assert "set strength <BLOCK> <N>" in system.help(MOD) and "place <BLOCK>" in g.help()
    for side in ("sweden", "coalition"):
        said = system.help(side)
        assert "set strength <BLOCK>" not in said and " place <BLOCK>" not in said
        assert "replace <BLOCK>" in said  # (the orders are there)
    assert "Example: set strength charles 2" in g.help("set strength")
    assert "Example: place rehnskiold livonia" in g.help("place")


def test_the_russian_words_of_the_editor(system, start):
    assert system.grammar.parse("уст сила петр 2") == E.SetStrength("peter", 2)
    assert system.grammar.parse("поставить карл ссылка") == E.PlaceOff("charles", EXILE)


# -- refusals
def test_a_player_may_not_edit_the_position(system, start):
    for side in ("sweden", "coalition"):
        with pytest.raises(Rejection, match="only a moderator may edit the position"):
            edit(system, start, "set strength charles 2", side)


def test_the_deadlines_system_actor_may_edit(system, start):
    assert edit(system, start, "set turn 2", SYSTEM_ACTOR).state.turn == 2


def test_n11_a_nation_out_of_the_war_goes_on_no_map(system, start):
    state = start.clone()
    state.armistice = ["denmark"]
    state.status["frederick"], state.at["frederick"] = REMOVED, None
    refused(system, state, "place frederick holstein", "N11", "out of the war")


def test_n3_no_edit_while_a_battle_is_fought_and_none_once_the_game_is_over(system, start):
    state = start.clone()
    state.battle = {"area": "estonia"}
    refused(system, state, "set turn 2", "N3", "a battle is being fought in Estonia")
    over = start.clone()
    over.result = {"winner": "draw", "sweden": 1, "coalition": 1, "text": "a draw"}
    refused(system, over, "set turn 2", "N15", "the game is over")


def test_unknown_nouns_and_places_name_what_is_legal(system):
    with pytest.raises(ParseError, match="strength, control, exile, turn, year, first or phase"):
        system.grammar.parse("set weather snow")
    with pytest.raises(ParseError, match="unknown territory"):
        system.grammar.parse("place peter atlantis")


# -- secrets: which edits set a hidden value, and whom their events reach
def test_2_4_2_19_strength_and_a_block_on_the_map_are_secret_edits_the_rest_not(system):
    g = system.grammar
    secret = {
        "set strength charles 2": True,
        "place rehnskiold livonia": True,
        "place peter pool": False,
        "place charles exile": False,
        "set control pskov sweden": False,
        "set exile 1": False,
        "set turn 2": False,
        "set year 2": False,
        "set first sweden": False,
        "set phase winter": False,
    }
    assert {text: system.is_secret(g.parse(text)) for text in secret} == secret
    assert all(system.kind_of(g.parse(text)) == "edit" for text in secret)


def test_2_19_a_strength_set_is_told_in_full_to_its_owner_and_the_moderators_alone(system, start):
    out = edit(system, start, "set strength peter 2")
    public = [e for e in out.events if e.audience.public]
    assert [str(e.text) for e in public] == [
        "Moderator changes the strength of a block of Russia in Novgorod."
    ]
    assert all("Peter" not in str(e.text) and "2" not in str(e.data) for e in public)
    private = [e for e in out.events if not e.audience.public]
    assert {e.audience.to_json() for e in private} == {"side:coalition", "moderators"}
    for viewer, sees in (
        (Viewer.of(["coalition"]), True),
        (Viewer.of([], moderator=True), True),
        (Viewer.of(["sweden"]), False),
        (Viewer.public(), False),
    ):
        told = [e for e in private if e.audience.sees(viewer)]
        assert bool(told) == sees, viewer
        assert all("Peter I to 2" in str(e.text) for e in told)


def test_2_19_a_block_placed_on_the_map_is_named_to_its_owner_alone(system, start):
    out = edit(system, start, "place rehnskiold livonia")
    public = [e for e in out.events if e.audience.public]
    assert [str(e.text) for e in public] == ["Moderator places a block of Sweden in Livonia."]
    assert "rehnskiold" not in str(public[0].data)
    private = {e.audience.to_json() for e in out.events if not e.audience.public}
    assert private == {"side:sweden", "moderators"}


# -- the moderator's dice and default in a sandbox game
def test_1_9_a_moderators_dice_are_the_next_action_rolls(system, start):
    state = system.apply(start, MOD, C.Dice((3, 5)), FixedDice([])).state
    assert state.fixed_dice == [3, 5]
    out = system.apply(state, "sweden", system.grammar.parse("end"), FixedDice([]))
    assert out.state.rolls == {"sweden": 3, "coalition": 5}
    assert [r.fixed for r in out.rolls] == [True, True] and out.state.fixed_dice == []


def test_1_9_fixed_dice_are_d6_results_and_a_sandbox_tool(system, start):
    with pytest.raises(Rejection) as err:
        system.apply(start, MOD, C.Dice((7,)), FixedDice([]))
    assert err.value.rule == "1.9" and "1 to 6" in str(err.value)
    plain = system.initial(False, HashDice(1)).state
    with pytest.raises(Rejection, match="only in sandbox games"):
        system.apply(plain, MOD, C.Dice((3,)), FixedDice([]))


def test_5_7_a_moderators_default_is_the_waiting_sides_and_is_logged_as_default(system):
    state = actions_for(system, "sweden", 2)
    state.sandbox = True
    out = system.apply(state, MOD, C.Default(), FixedDice([]))
    assert out.state.finished == ["sweden"] and system.situation(out.state).to_move == (
        "coalition",
    )
    assert out.order == C.Default()  # replays as the moderator's default, not as his `end`
    again = system.apply(out.state, MOD, C.Default(), FixedDice([1, 2]))
    assert again.state.turn == 2  # coalition ended too: the next turn's rolls


def test_1_9_n3_d_a_battles_dice_come_from_the_moderators_fixed_dice(system, start):
    state = start
    for text in (
        "place sheremetev livonia",  # against Lewenhaupt, alone there
        "set strength sheremetev 1",
        "set strength lewenhaupt 1",
    ):
        state = edit(system, state, text).state
    state = system.apply(state, MOD, C.Dice((3, 5, 1)), FixedDice([])).state
    state = system.apply(state, "sweden", system.grammar.parse("end"), FixedDice([])).state
    assert state.to_move == "coalition" and state.fixed_dice == [1]  # the rolls took 3, 5
    state = system.apply(state, "coalition", system.grammar.parse("end"), FixedDice([])).state
    out = system.apply(state, "sweden", system.grammar.parse("end"), FixedDice([2, 2]))
    (battle,) = [r for r in out.rolls if r.purpose.startswith("battle livonia")]
    assert (battle.purpose, battle.value, battle.fixed) == ("battle livonia lewenhaupt", 1, True)
    assert out.state.status["sheremetev"] == POOL  # Lewenhaupt (B2) fires first and hits
    assert [r.fixed for r in out.rolls if r.purpose.startswith("action")] == [False, False]


def test_7_8_a_block_that_moved_this_turn_and_is_placed_has_still_moved(system):
    state = actions_for(system, "sweden", 2)
    state = system.apply(
        state, "sweden", system.grammar.parse("move lewenhaupt pskov"), FixedDice([])
    )
    state = edit(system, state.state, "place lewenhaupt livonia").state
    assert state.at["lewenhaupt"] == "livonia" and "lewenhaupt" in state.moved
    with pytest.raises(Rejection) as err:
        system.apply(
            state, "sweden", system.grammar.parse("move lewenhaupt estonia"), FixedDice([])
        )
    assert err.value.rule == "7.8", err.value


def test_4_9_no_edit_while_a_decision_waits_and_the_refusal_cites_its_rule(system, start):
    state = start.clone()
    state.pending = {"kind": "return", "side": "sweden", "choices": ["stockholm"]}
    refused(system, state, "set turn 2", "4.9", "a decision waits")

"""The rules of the block game (rules/northern-war-blocks.md), by rule number, and the examples
of section 9 (X1-X16), one test each."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.core.dice import FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.northern_war import battle, turns, views
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.state import EXILE, ON_MAP, REMOVED
from adjudicator.northern_war.system import NorthernWar
from tests.northern_war.helpers import sample

ROLLS = [1, 2] * 40  # action rolls enough for the turns a test runs into


def long_game() -> NorthernWar:
    """The sample scenario over twenty years (the entry phases of many years)."""
    return NorthernWar(replace(sample().scenario, years=20))


def begun(system, sweden: int, coalition: int, *more: int):
    """Turn 1 after the action rolls (the first entry phase ends with `end`)."""
    state = system.initial(False, FixedDice([])).state
    return system.apply(state, "sweden", O.End(), FixedDice([sweden, coalition, *more])).state


def go(system, state, side, *texts, dice=()):
    for text in texts:
        state = system.apply(state, side, system.grammar.parse(text), FixedDice(list(dice))).state
    return state


def refused(system, state, side, text, rule):
    with pytest.raises(Rejection) as err:
        system.apply(state, side, system.grammar.parse(text), FixedDice([]))
    assert err.value.rule == rule, err.value
    return err.value


# -- section 9
def test_x1_4_7_charles_returns_on_5_in_the_second_entry_phase_and_without_a_roll_in_the_sixth():
    system = long_game()
    sc, state = system.scenario, begun(system, 1, 2)
    state.status["charles"], state.at["charles"], state.exile_attempts = EXILE, None, 0
    events = turns.end_year(sc, state, FixedDice([5, *ROLLS]))  # year Y+1: 5, needs 6
    assert state.exile_attempts == 1 and state.status["charles"] == EXILE
    assert any("needs 6+: he stays in exile" in e.text for e in events)
    turns.end_year(sc, state, FixedDice([5]))  # year Y+2: 5, needs 5
    assert state.pending["kind"] == "return"
    state = system.apply(state, "sweden", O.ReturnCharles("stockholm"), FixedDice(ROLLS)).state
    assert state.status["charles"] == ON_MAP and state.at["charles"] == "stockholm"
    assert state.strength["charles"] == 4  # rule 4.9: at full strength
    state.status["charles"], state.at["charles"], state.exile_attempts = EXILE, None, 0
    for _ in range(5):
        turns.end_year(sc, state, FixedDice([1, *ROLLS]))
    assert state.exile_attempts == 5 and state.pending is None
    events = turns.end_year(sc, state, FixedDice([]))  # the sixth: no die is asked for
    assert state.pending["kind"] == "return" and "without a roll" in events[-1].text


def test_x2_5_11_a_3_against_a_6_the_coalition_resolves_an_event_then_sweden_has_2_actions():
    system = sample()
    state = begun(system, 3, 6)
    assert state.first == "coalition" and state.actions == {"sweden": 2, "coalition": 0}
    assert state.to_move == "sweden" and "coalition" in state.finished


def test_x3_5_5_a_tie_makes_the_second_player_of_the_previous_turn_first():
    system = sample()
    state = begun(system, 5, 2)  # turn 1: sweden first, coalition second
    state.turn = 3
    turns.start_turn(system.scenario, state, FixedDice([4, 4]))
    assert state.first == "coalition"


def test_x4_5_6_a_tie_in_the_first_turn_is_rolled_again_and_the_new_rolls_count():
    system = sample()
    state = begun(system, 3, 3, 2, 5)
    assert state.rolls == {"sweden": 2, "coalition": 5} and state.first == "coalition"
    assert state.actions == {"sweden": 1, "coalition": 3}


def test_x5_5_13_after_an_event_a_6_is_rolled_again_until_it_is_not_and_that_roll_counts():
    system = sample()
    state = begun(system, 6, 2)
    assert state.prev_event == ["sweden"]
    turns.start_turn(system.scenario, state, FixedDice([6, 6, 2, 4]))
    assert state.rolls == {"sweden": 2, "coalition": 4} and state.first == "coalition"
    assert state.actions["sweden"] == 1


def test_x6_5_12_the_restriction_holds_across_an_entry_phase():
    system = long_game()
    state = begun(system, 6, 2)
    turns.end_year(system.scenario, state, FixedDice([6, 3, 1]))
    assert state.year == 2 and state.turn == 1 and state.rolls["sweden"] == 3


def test_x7_5_9_both_roll_6_events_in_order_then_foraging_and_no_battle_phase():
    system = sample()
    state = begun(system, 5, 2)  # the coalition is the second player of turn 1
    state.turn = 2
    events = turns.start_turn(system.scenario, state, FixedDice([6, 6]))
    order = [e.data["side"] for e in events if e.kind == "EventResolved"]
    assert order == ["coalition", "sweden"]  # rule 5.5: the tie goes to the previous second
    events = turns.advance(system.scenario, state, FixedDice([1, 2]))
    assert state.turn == 3 and not any("battle phase" in e.text for e in events)


def actions_for(system, side: str, n: int):
    state = begun(system, 5, 1) if side == "sweden" else begun(system, 1, 5)
    state.actions[side] = n
    return state


def test_x8_5_18_recon_move_move_replace_is_legal_and_move_then_recon_is_not():
    system = sample()
    state = actions_for(system, "sweden", 4)
    state = go(
        system,
        state,
        "sweden",
        "recon pskov",
        "move lewenhaupt courland",
        "move stenbock stockholm",
        "replace uppland",
    )
    assert state.strength["uppland"] == 3 and state.actions["sweden"] == 0
    state = go(system, actions_for(system, "sweden", 3), "sweden", "move stenbock stockholm")
    refused(system, state, "sweden", "recon pskov", "5.18")


def test_x9_5_30_policy_twice_a_year_is_refused_and_once_in_each_of_two_years_is_legal():
    system = long_game()
    state = go(system, actions_for(system, "coalition", 3), "coalition", "policy russia", dice=[4])
    refused(system, state, "coalition", "policy russia", "5.30")
    turns.end_year(system.scenario, state, FixedDice([1, 5]))  # the next year: coalition first
    assert state.policy_used == []
    state = go(system, state, "coalition", "policy russia", dice=[2])
    assert state.policy_used == ["russia"]


def test_x10_5_35_5_33_replacement_at_maximum_refused_with_a_line_legal_without_refused():
    system = sample()
    state = actions_for(system, "coalition", 3)
    refused(system, state, "coalition", "replace sheremetev", "5.35")
    state.strength["repnin"] = 2
    assert go(system, state, "coalition", "replace repnin").strength["repnin"] == 3
    state.at["nyland"], state.at["repnin"] = "stockholm", "finland"  # Swedish land all round
    refused(system, state, "coalition", "replace repnin", "5.33")


def test_x11_7_12_one_action_splits_a_group_and_blocks_stop_where_the_enemy_is():
    system = sample()
    state = actions_for(system, "coalition", 2)
    state.at["cossacks"], state.at["nyland"] = "novgorod", "ingermanland"
    refused(system, state, "coalition", "move peter ingermanland finland", "7.5")
    state = go(
        system, state, "coalition", "move cossacks pskov smolensk", "move peter,repnin ingermanland"
    )
    assert state.at["cossacks"] == "smolensk" and state.actions["coalition"] == 1
    assert state.at["peter"] == state.at["repnin"] == "ingermanland"


def test_x12_7_10_a_siege_declared_after_movement_spends_no_action():
    system = sample()
    state = go(
        system, actions_for(system, "coalition", 2), "coalition", "move peter,repnin ingermanland"
    )
    assert state.actions["coalition"] == 1
    state = go(system, state, "coalition", "siege ingermanland")
    assert state.actions["coalition"] == 1 and state.sieges[0][:2] == ["ingermanland", "coalition"]


def winter_state(system):
    state = begun(system, 5, 1)
    state.phase, state.to_move, state.winter_moved = "winter", "sweden", False
    state.rules = 1  # the campaign ends after one march (rules 2: test_rules_v2.py)
    state.strength.update(charles=4, rehnskiold=3, lewenhaupt=1)
    state.at["lewenhaupt"] = "estonia"
    return state


def test_x13_6_5_6_10_winter_campaign_a_block_at_1_may_not_go_the_others_lose_a_step_first():
    system = sample()
    state = winter_state(system)
    refused(system, state, "sweden", "winter charles,rehnskiold,lewenhaupt ingermanland", "6.10")
    out = system.apply(
        state,
        "sweden",
        system.grammar.parse("winter charles,rehnskiold ingermanland"),
        FixedDice(ROLLS),
    )
    assert any(e.kind == "WinterSteps" for e in out.events)
    assert out.state.strength["charles"] == 3 and out.state.strength["rehnskiold"] == 2
    assert out.state.at["charles"] == "ingermanland" and out.state.year == 2


def test_x14_4_3_4_4_4_6_peter_is_removed_armistice_for_russia_charles_goes_into_exile():
    system = sample()
    sc, state = system.scenario, begun(system, 5, 1)
    state.strength["peter"] = state.strength["charles"] = 1
    battle.hit(sc, state, "peter")
    assert state.status["peter"] == REMOVED and state.truce_due == ["russia"]
    battle.hit(sc, state, "charles")
    assert state.status["charles"] == EXILE and state.exile_attempts == 0
    turns.end_battle_phase(sc, state)  # rule 4.4: at the end of the phase
    assert state.armistice == ["russia"]
    assert all(state.status[b] == REMOVED for b in sc.blocks if sc.blocks[b].nation == "russia")


def test_x15_5_21_5_23_recon_needs_a_land_block_reveals_to_its_maker_and_hides_again():
    base = sample()
    sc = base.scenario
    fleet = NorthernWar(
        replace(sc, blocks={**sc.blocks, "nyland": replace(sc.blocks["nyland"], type="fleet")})
    )
    state = actions_for(base, "sweden", 3)
    state.at.update(peter="ingermanland", charles="stockholm", rehnskiold="stockholm")
    refused(fleet, state, "sweden", "recon ingermanland", "5.21")
    out = base.apply(state, "sweden", O.Recon("ingermanland"), FixedDice([]))
    private = [e for e in out.events if not e.audience.public]
    assert [e.audience.side for e in private] == ["sweden"]
    assert "Seen in turn 1" in private[0].text and "Peter I" in private[0].text
    public = [e.text for e in out.events if e.audience.public]
    assert public and not any("Peter" in t or "strength" in t for t in public)
    seen = base.view(out.state, Viewer.of(["sweden"]))
    assert "peter" not in seen.at and seen.seen["sweden"]["peter"][:2] == [3, 1]  # seen in turn 1
    assert "peter" not in base.view(out.state, Viewer.of(["coalition"])).seen.get("sweden", {})
    assert go(base, out.state, "sweden", "move nyland stockholm").at["nyland"] == "stockholm"


def test_x16_2_7_2_9_a_hit_takes_a_step_and_a_full_regiment_takes_no_replacement():
    system = sample()
    sc, state = system.scenario, actions_for(system, "coalition", 3)
    battle.hit(sc, state, "repnin")  # B2 at strength 3
    assert state.strength["repnin"] == 2
    refused(system, state, "coalition", "replace preobrazhensky", "5.35")  # 3 of 3


# -- battles and sieges (N3, N4) and what they reveal (N24)
def battle_state(system):
    state = begun(system, 5, 1)
    state.at.update(peter="estonia", repnin="estonia")  # Charles A2 4 + Rehnskiold B2 3 defend
    state.holders["estonia"] = "sweden"
    state.phase, state.to_move = "battle", None
    return state


def test_n3_d_a_fires_before_b_before_c_and_the_defender_first_at_one_letter():
    system = sample()
    state = battle_state(system)
    battle.begin(system.scenario, state, "estonia")
    assert state.battle["queue"] == ["charles", "rehnskiold", "repnin", "peter"]


def test_2_12_n3_e_hits_are_results_up_to_the_rating_on_the_strongest_block_owner_chooses():
    system = sample()
    sc, state = system.scenario, battle_state(system)
    events = battle.begin(sc, state, "estonia")
    events += battle.run(sc, state, FixedDice([1, 3, 2, 6]))  # Charles A2 at 4: two hits
    fired = next(e for e in events if e.kind == "BlockFired")
    assert fired.data["hits"] == 2
    assert state.pending == {"kind": "hit", "side": "coalition", "choices": ["peter", "repnin"]}
    state = system.apply(state, "coalition", O.Hit("repnin"), FixedDice([6] * 40)).state
    assert state.strength["repnin"] == 2 and state.strength["peter"] == 2  # the second hit


def test_n3_f_g_after_three_rounds_the_attackers_retreat():
    system = sample()
    sc, state = system.scenario, battle_state(system)
    battle.begin(sc, state, "estonia")
    events = battle.run(sc, state, FixedDice([6] * 60))  # nobody hits in three rounds
    assert any(e.kind == "AttackersRetreat" for e in events)
    assert state.pending["kind"] == "retreat" and state.pending["side"] == "coalition"
    assert set(state.pending["choices"]) == {"ingermanland", "pskov"}
    assert "livonia" not in state.pending["choices"]  # Swedish blocks there (N3 g)


def test_n24_a_battle_shows_its_blocks_to_both_and_they_are_hidden_again_afterwards():
    system = sample()
    sc, state = system.scenario, battle_state(system)
    battle.begin(sc, state, "estonia")
    public = system.view(state, Viewer.public())
    assert public.strength["peter"] == 3 and public.strength["charles"] == 4
    battle.run(sc, state, FixedDice([1] * 4))  # Charles: 4 hits, Peter and Repnin equal
    while state.battle is not None:  # the coalition's choices, then Rehnskiold's 3 hits
        state = system.apply(
            state, "coalition", system.default_order(state), FixedDice([1] * 9)
        ).state
    assert state.status["peter"] == REMOVED and state.armistice == ["russia"]  # 4.3, 4.4
    assert "charles" not in system.view(state, Viewer.of(["coalition"])).at


def test_n4_c_siege_dice_are_hidden_told_to_their_owner_the_result_to_everyone():
    system = sample()
    sc, state = system.scenario, begun(system, 5, 1)
    state.at.update(peter="ingermanland", repnin="ingermanland")
    state.sieges = [["ingermanland", "coalition", ["peter", "repnin"]]]
    dice = FixedDice([1, 6, 6, 6, 6, 6, 6, 6])  # 4 hidden dice per block, the first 3 count
    events = battle.resolve_sieges(sc, state, dice)
    private = [e for e in events if not e.audience.public]
    assert [e.audience.side for e in private] == ["coalition"] and "1 6 6 6 6 6" in private[0].text
    public = [e for e in events if e.audience.public]
    assert (
        public[0].text == "Siege of Ingermanland by coalition: the garrison surrenders; "
        "Ingermanland passes to coalition."
    )
    assert state.control["ingermanland"] == "coalition" and dice.used == 8


def test_n4_b_a_siege_needs_an_enemy_fortress():
    system = sample()
    state = actions_for(system, "sweden", 3)
    refused(system, state, "sweden", "siege estonia", "N4 b")  # his own


def test_n15_after_the_last_winter_more_victory_territories_win():
    system = sample()
    sc, state = system.scenario, begun(system, 5, 1)
    state.year = sc.years
    for t in ("novgorod", "moscow"):
        state.control[t] = "sweden"
    events = turns.end_year(sc, state, FixedDice([]))
    assert state.result["winner"] == "sweden" and events[-1].kind == "GameEnded"


def test_2_19_the_block_list_is_ones_own_with_strengths_and_seen_records():
    system = sample()
    state = begun(system, 5, 1)
    state.seen["sweden"] = {"repnin": [3, 1, "1700, turn 1", "novgorod"]}
    mine = system.answer(system.view(state, Viewer.of(["sweden"])), "sweden", O.Blocks()).text
    assert "Charles XII [charles]" in mine and "strength 4/4" in mine
    assert "Seen in turn 1 (1700, turn 1) in Novgorod: Repnin B2 strength 3 (then)" in mine
    assert "Peter" not in mine
    public = system.answer(system.view(state, Viewer.public()), "x", O.Blocks()).text
    assert "strength" not in public and "Novgorod: 2 russia" in public
    assert views.anonymous(next(b for b in system.view(state, Viewer.public()).at if "@" in b))

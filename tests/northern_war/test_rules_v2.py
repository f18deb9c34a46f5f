"""Rules version 2 of the block game (docs/northern-war.md, "Rules versions"): N3 f, a battle
ends as soon as one side has no block left; 6.8 with 7.2, the winter campaign's group may split.
Each fix is tested under both versions: version 1 (stored games) stays as it was."""

from __future__ import annotations

import pytest

from adjudicator.core.dice import FixedDice, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.system import start
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.legal import WINTER_TEMPLATE
from adjudicator.northern_war.state import NWState
from adjudicator.northern_war.system import NorthernWar
from tests.northern_war.helpers import sample

ROLLS = [1, 2] * 40  # action rolls enough for the turns a test runs into


def go(system, state, side, *texts, dice=()):
    for text in texts:
        state = system.apply(state, side, system.grammar.parse(text), FixedDice(list(dice))).state
    return state


def refused(system, state, side, text, rule):
    with pytest.raises(Rejection) as err:
        system.apply(state, side, system.grammar.parse(text), FixedDice([]))
    assert err.value.rule == rule, err.value
    return err.value


# -- the version itself
def test_rules_version_2_is_the_newest_and_a_new_game_keeps_its_version():
    system = sample()
    assert NorthernWar.rules_version == 2
    assert system.initial(False, FixedDice([])).state.rules == 2  # None: the newest
    assert system.initial(False, FixedDice([]), rules=1).state.rules == 1
    assert start(system, False, FixedDice([]), 1).state.rules == 1
    assert start(system, False, FixedDice([]), None).state.rules == 2


def test_rules_version_1_is_left_out_of_the_json_and_a_stored_state_without_it_reads_as_1():
    system = sample()
    old = system.initial(False, FixedDice([]), rules=1).state.to_json()
    assert "rules" not in old  # the JSON (and hash) of a stored game's state as before
    assert NWState.from_json(old).rules == 1
    new = system.initial(False, FixedDice([])).state.to_json()
    assert new["rules"] == 2 and NWState.from_json(new).rules == 2


# -- N3 f: the battle ends as soon as one side has no block left
def wipe_out(rules: int, dice: list[int]):
    """Peter I (strength 1) attacks Charles XII (A2, 4) and Rehnskiold (B2, 3) in Estonia;
    Charles XII's first die is a hit: the coalition has no block left after the first shot."""
    system = sample()
    state = system.initial(False, FixedDice([]), rules=rules).state
    state.strength["peter"] = 1
    state.at.update(charles="estonia", rehnskiold="estonia", peter="novgorod")
    state = go(system, state, "sweden", "end", dice=[1, 5])  # coalition first, 3 actions
    state = go(system, state, "coalition", "move peter pskov estonia", "end")
    assert state.to_move == "sweden"
    recorded = RecordingDice(FixedDice(dice))
    out = system.apply(state, "sweden", O.End(), recorded)
    battle_dice = [r.value for r in recorded.rolls if r.purpose.startswith("battle ")]
    fired = [e for e in out.events if e.kind == "BlockFired"]
    shown = [d for e in fired for d in e.data["dice"]]  # the dice of the public report (N24)
    return out, battle_dice, fired, shown


def test_n3_f_rules_1_a_side_wiped_out_in_round_1_the_rest_of_the_round_still_rolls():
    out, battle_dice, fired, shown = wipe_out(1, [1, 6, 6, 6, 6, 6, 6, 1, 5])
    assert [e.data["block"] for e in fired] == ["charles", "rehnskiold"]
    assert len(battle_dice) == 7 and shown == [1, 6, 6, 6, 6, 6, 6]  # 3 dice at nobody
    assert out.state.status["peter"] == "removed" and out.state.battle is None


def test_n3_f_rules_2_the_battle_ends_as_soon_as_a_side_has_no_block_left_and_no_die_more():
    out, battle_dice, fired, shown = wipe_out(2, [1, 6, 6, 6, 1, 5])
    assert [e.data["block"] for e in fired] == ["charles"]
    assert len(battle_dice) == 4 and shown == [1, 6, 6, 6]
    kinds = [e.kind for e in out.events]
    eliminated = kinds.index("BlockEliminated")
    assert kinds[eliminated + 1] == "BattleEnded"  # nothing fires after the last block fell
    assert out.state.status["peter"] == "removed" and out.state.battle is None
    assert out.state.rolls == {"sweden": 1, "coalition": 5}  # the next dice: turn 2's rolls


def test_n3_f_rules_2_a_battle_with_both_sides_left_plays_its_rounds_as_before():
    """The fix changes nothing while both sides have blocks: three rounds of misses, 10 dice a
    round (Charles 4, Rehnskiold 3, Peter 3), then the attackers retreat, under both rules."""
    for rules in (1, 2):
        system = sample()
        state = system.initial(False, FixedDice([]), rules=rules).state
        state.at.update(charles="estonia", rehnskiold="estonia", peter="novgorod")
        state = go(system, state, "sweden", "end", dice=[1, 5])
        state = go(system, state, "coalition", "move peter pskov estonia", "end")
        out = system.apply(state, "sweden", O.End(), FixedDice([6] * 30))
        assert sum(e.kind == "BlockFired" for e in out.events) == 9
        assert any(e.kind == "AttackersRetreat" for e in out.events)


# -- 6.8 with 7.2: the winter campaign's group may split
def winter(rules: int, **strength: int) -> tuple[NorthernWar, NWState]:
    """The Swedish winter campaign of 1700: Charles XII (4), Rehnskiold (3) and Lewenhaupt (3)
    in Estonia; Sheremetev out of Pskov (a coalition fortress, 2), so a free siege is possible
    there."""
    system = sample()
    state = system.initial(False, FixedDice([]), rules=rules).state
    state = go(system, state, "sweden", "end", dice=[5, 1])
    state.phase, state.to_move, state.winter_moved = "winter", "sweden", False
    state.finished, state.free_sieges, state.sieges = [], [], []
    state.at.update(charles="estonia", rehnskiold="estonia", lewenhaupt="estonia")
    state.at["sheremetev"] = "smolensk"
    state.strength.update({"charles": 4, "rehnskiold": 3, "lewenhaupt": 3, **strength})
    return system, state


def test_6_8_7_2_rules_2_blocks_that_began_the_winter_campaign_with_charles_split_from_him():
    system, state = winter(2)
    state = go(system, state, "sweden", "winter charles ingermanland")
    assert state.phase == "winter" and state.to_move == "sweden"  # the action goes on
    assert system.order_templates(state, "sweden") == (WINTER_TEMPLATE,)
    assert O.Winter(("rehnskiold",), ("livonia",)) in system.legal_orders(state, "sweden")
    state = go(system, state, "sweden", "winter rehnskiold livonia")
    assert state.at["rehnskiold"] == "livonia" and state.strength["rehnskiold"] == 2  # 6.5
    assert state.strength["charles"] == 3 and state.phase == "winter"
    out = system.apply(
        state, "sweden", system.grammar.parse("winter lewenhaupt ingermanland"), FixedDice(ROLLS)
    )
    steps = [e for e in out.events if e.kind == "WinterSteps"]
    assert len(steps) == 1 and steps[0].data == {"count": 1}  # only the block of this march
    new = out.state
    assert new.at["lewenhaupt"] == "ingermanland" and new.strength["lewenhaupt"] == 2
    assert new.year == 2 and new.phase == "action"  # no block left behind, no free siege: over


def test_6_8_rules_1_the_winter_campaign_is_one_march_the_group_cannot_split():
    system, state = winter(1)
    out = system.apply(
        state, "sweden", system.grammar.parse("winter charles ingermanland"), FixedDice(ROLLS)
    )
    assert out.state.year == 2  # the campaign is over at once, Rehnskiold left in Estonia
    system, state = winter(1)
    state = go(system, state, "sweden", "winter charles pskov")  # a free siege keeps it open
    err = refused(system, state, "sweden", "winter rehnskiold livonia", "6.4")
    assert "after the winter march: a free siege, or 'end'" in str(err)


def test_7_2_rules_2_only_blocks_still_where_the_campaign_began_may_split():
    system, state = winter(2, lewenhaupt=1)
    state.at["stenbock"] = "livonia"
    state = go(system, state, "sweden", "winter charles ingermanland")
    err = refused(system, state, "sweden", "winter charles finland", "7.2")  # he has marched
    assert "blocks still in Estonia" in str(err)
    refused(system, state, "sweden", "winter stenbock courland", "7.2")  # not with Charles
    refused(system, state, "sweden", "winter lewenhaupt livonia", "6.10")  # at strength 1
    err = refused(system, state, "sweden", "winter none", "6.8")
    assert "a free siege, or 'end'" in str(err)
    refused(system, state, "sweden", "winter rehnskiold ingermanland finland stockholm", "2.13")


def test_6_8_rules_2_the_campaign_waits_for_end_while_blocks_are_left_whatever_their_strength():
    """Whether the campaign waits must not tell the coalition the strength of the blocks left
    behind (their place is public, 2.19): it waits for both strengths of Lewenhaupt."""
    for weak in (1, 3):
        system, state = winter(2, lewenhaupt=weak)
        state = go(system, state, "sweden", "winter charles,rehnskiold ingermanland")
        assert state.phase == "winter" and system.situation(state).to_move == ("sweden",)
        listed = system.legal_orders(state, "sweden")
        assert (O.Winter(("lewenhaupt",), ("livonia",)) in listed) == (weak == 3)
        assert O.End() in listed and system.default_order(state) == O.End()
        view = system.view(state, Viewer.of(["coalition"]))
        assert system.situation(view) == system.situation(state)
        state = system.apply(state, "sweden", O.End(), FixedDice(ROLLS)).state
        assert state.year == 2 and state.strength["lewenhaupt"] == weak


def test_7_11_rules_2_a_split_into_the_same_territory_joins_its_free_siege():
    system, state = winter(2)
    state = go(system, state, "sweden", "winter charles pskov", "winter rehnskiold pskov")
    assert state.free_sieges == [["pskov", ["charles", "rehnskiold"]]]
    state = go(system, state, "sweden", "winter lewenhaupt livonia")
    assert state.phase == "winter"  # the free siege is still open (7.10)
    # Charles XII (A2, now 3) 1 1 6 of 1 1 6 6, Rehnskiold (B2, now 2) 6 6 of 6 6 1 1: 2 hits
    out = system.apply(
        state, "sweden", O.Siege("pskov"), FixedDice([1, 1, 6, 6, 6, 6, 1, 1, *ROLLS])
    )
    assert out.state.control["pskov"] == "sweden" and out.state.year == 2


# -- 2.19 with N24: a battle leaves a "seen" record, as reconnaissance does
def test_2_19_rules_2_a_battle_leaves_each_side_a_seen_record_of_the_enemy_blocks_in_it():
    out, *_ = wipe_out(2, [1, 6, 6, 6, 1, 5])
    seen = out.state.seen
    assert seen["sweden"]["peter"][0] == 1  # Peter I's strength when the battle began
    assert seen["sweden"]["peter"][3] == "estonia"
    assert {b: r[0] for b, r in seen["coalition"].items()} == {"charles": 4, "rehnskiold": 3}
    # each record is its viewer's own: the other side's view of the state has none of it
    system = sample()
    swede = system.view(out.state, Viewer(sides=frozenset({"sweden"})))
    assert "coalition" not in swede.seen and "peter" in swede.seen["sweden"]


def test_2_19_rules_1_a_battle_left_no_seen_record():
    out, *_ = wipe_out(1, [1, 6, 6, 6, 6, 6, 6, 1, 5])
    assert out.state.seen == {}

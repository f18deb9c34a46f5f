"""Section 7: reinforcements and the German 24th Panzer Division (7.7-7.10)."""

from __future__ import annotations

import re

from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.loader import default_scenario_text, load_scenario
from adjudicator.hells_gate.victory import victory_points
from tests.hells_gate.helpers import END, A, Game, L, M, empty_state, new_game


def track(state, turn: int, *ids: str):
    """Put units back in the turn-track box of `turn`."""
    for uid in ids:
        state.units[uid].box, state.units[uid].hex, state.units[uid].track_turn = (
            "turn_track",
            None,
            turn,
        )
    return state


def soviet_phase(scenario, units, turn, reinforcements=(), **kw) -> Game:
    """Play up to the Soviet supply and reinforcement phase of `turn` (weather roll 6)."""
    state = track(
        empty_state(scenario, units, turn=turn - 1, phase="german-movement", **kw),
        turn,
        *reinforcements,
    )
    g = Game(scenario, state)
    g.do("german", END, dice=[6])
    assert g.state.turn == turn
    return g


def german_phase(scenario, units, turn, reinforcements=(), trigger=False, **kw) -> Game:
    """Play up to the German supply and reinforcement phase of `turn`. `trigger`: a Soviet unit
    has already been in A2-A6 (7.8), as the engine records it."""
    state = track(
        empty_state(scenario, units, turn=turn, phase="soviet-movement", **kw),
        turn,
        *reinforcements,
    )
    state.soviet_entered_trigger = trigger
    g = Game(scenario, state)
    g.do("soviet", END)
    return g


P4 = ("24pz", "16pz", "17pz", "baeke")  # the German turn-4 box


# -- 7.1 / 7.2


def test_7_1_every_unit_of_the_turn_box_enters(scenario):
    """7.1 In his supply and reinforcement phase of turn T, a player brings onto the map every
    unit in the turn-track box of turn T."""
    g = soviet_phase(scenario, {"47rc": "A1"}, 2, ("18tk", "5gcc", "5mc"))
    track(g.state, 3, "104rc")
    assert {u: g.unit(u).hex for u in ("18tk", "5gcc", "5mc")} == {
        "18tk": "D7",
        "5gcc": "C7",
        "5mc": "B1",
    }
    assert g.unit("104rc").box == "turn_track"  # turn 3 box: not yet
    assert g.state.phase == "soviet-combat"
    g.do("soviet", END)
    g.do("soviet", END)
    g.do("german", END)
    g.do("german", END, dice=[6])
    assert (g.state.turn, g.unit("104rc").hex) == (3, "B1")


def test_7_1_reinforcements_enter_only_in_their_own_sides_phase(scenario):
    """7.1 In HIS supply and reinforcement phase of turn T, a player brings on his units."""
    state = track(empty_state(scenario, {}, turn=1, phase="german-movement"), 2, "18tk", "lah")
    g = Game(scenario, state)
    g.do("german", END, dice=[6])  # Soviet supply phase of turn 2
    assert g.unit("18tk").hex == "D7"
    assert g.unit("lah").box == "turn_track"
    g.do("soviet", END)
    g.do("soviet", END)  # German supply phase of turn 2
    assert g.unit("lah").hex == "A2"


def test_7_2_reinforcements_enter_full_strength_in_their_entry_hex(scenario):
    """7.2 Each reinforcement enters full-strength side up in its `entry_hex`."""
    g = german_phase(scenario, {"47rc": "F1"}, 4, P4, trigger=True)
    for uid in P4:
        u = g.unit(uid)
        assert (u.box, u.hex, u.reduced, u.oos, u.retreated) == (
            "map",
            scenario.units[uid].entry_hex,
            False,
            False,
            False,
        )
        assert u.entered_turn == 4
    assert [e.data["unit"] for e in g.events if e.kind == "ReinforcementEntered"] == list(P4)


# -- 7.3 attack and move on entry


def test_7_3_german_reinforcements_attack_and_move_the_turn_they_enter(scenario):
    """7.3 A reinforcement may attack and move in the player turn in which it enters."""
    g = Game(scenario, sandbox=True)
    g.do("moderator", O.Place("29tk", "B6"))
    g.do("moderator", O.SetPhase("german-supply"))  # turn 1: 11th and 14th Panzer enter at A6
    assert g.state.phase == "german-combat"
    g.do("german", A("B6", ("11pz", "14pz")), dice=[2])  # 15:2 -> 6:1, river S5 -> 4:1; 1 hit
    assert g.unit("11pz").attacked and g.unit("14pz").attacked
    g.do("soviet", L(("29tk",)))
    g.do("german", END)
    g.do("german", M("11pz", ("A5",)))
    assert g.unit("11pz").hex == "A5"


def test_7_3_soviet_reinforcement_attacks_and_moves_the_turn_it_enters(scenario):
    """7.3 A reinforcement may attack and move in the player turn in which it enters."""
    g = soviet_phase(scenario, {"389id": "C6"}, 2, ("18tk",))
    assert g.unit("18tk").hex == "D7"
    g.do("soviet", A("C6", ("18tk",)), dice=[1])  # 6:2 = 3:1, die 1: no hit
    assert g.unit("18tk").attacked
    g.do("soviet", END)
    g.do("soviet", M("18tk", ("E7", "F7")))
    assert g.unit("18tk").hex == "F7"


# -- 7.4 / 7.5 enemy in the entry hex


def test_7_4_enemy_in_entry_hex_diverts_to_nearest_free_supply_hex(scenario):
    """7.4 If the entry hex contains an enemy unit, the reinforcement enters instead in the
    nearest friendly supply hex that contains no enemy unit (an empty hex or a hex with
    friendly units)."""
    g = soviet_phase(scenario, {"34id": "B1", "180rd": "C1"}, 2, ("5mc",))
    assert g.unit("5mc").hex == "C1"  # distance 1, holds a Soviet unit
    assert g.state.pending == []


def test_7_5_nearest_is_measured_by_distance_from_the_entry_hex(scenario):
    """7.5 Decision: "nearest" is measured by distance (rule 1.6) from the printed entry hex."""
    # B1 and C1 hold Germans: F1 (distance 4) is nearer than C7 or D7 (distance 7)
    g = soviet_phase(scenario, {"34id": "B1", "198id": "C1"}, 2, ("5mc",))
    assert g.unit("5mc").hex == "F1"


def test_7_4_equally_near_hexes_the_owner_chooses(scenario):
    """7.4 If several such hexes are equally near, the owner chooses."""
    g = soviet_phase(scenario, {"389id": "D7"}, 2, ("18tk", "5gcc"))
    assert g.unit("5gcc").hex == "C7"  # its own entry hex is free
    assert g.unit("18tk").box == "turn_track"
    assert g.state.phase == "soviet-supply"
    d = g.state.pending[0]
    assert (d.kind, d.side, d.data["unit"], d.data["options"]) == (
        "entry",
        "soviet",
        "18tk",
        ["C7", "E6"],
    )
    assert g.legal("soviet") == [O.Enter("18tk", "C7"), O.Enter("18tk", "E6")]
    rej = g.refuse("soviet", O.Enter("18tk", "F7"))  # distance 2: not among the nearest
    assert rej.rule == "7.4" and "C7 or E6" in rej.message
    rej = g.refuse("soviet", O.Enter("5mc", "C7"))
    assert rej.rule == "7.4" and "18tk" in rej.message
    assert g.refuse("soviet", END).rule == "7.4"
    assert g.refuse("german", END).code == "waiting"
    g.do("soviet", O.Enter("18tk", "E6"))
    assert g.unit("18tk").hex == "E6" and not g.unit("18tk").oos
    assert g.state.phase == "soviet-combat" and g.state.pending == []


def test_7_4_german_choices_for_each_unit_of_the_box(scenario):
    """7.4 If several such hexes are equally near, the owner chooses (one choice per unit)."""
    g = german_phase(scenario, {"47rc": "A4"}, 4, P4, trigger=True)
    assert g.unit("24pz").hex == "A6"
    assert sorted(d.data["unit"] for d in g.state.pending) == ["16pz", "17pz", "baeke"]
    assert all(d.data["options"] == ["A2", "A6"] for d in g.state.pending)
    g.do("german", O.Enter("17pz", "A2"))
    g.do("german", O.Enter("16pz", "A6"))
    assert g.state.phase == "german-supply"
    g.do("german", O.Enter("baeke", "A2"))
    assert (g.unit("16pz").hex, g.unit("17pz").hex, g.unit("baeke").hex) == ("A6", "A2", "A2")
    assert g.state.phase == "german-combat"


# -- 7.6 no free supply hex


def test_7_6_no_free_supply_hex_never_enters(scenario):
    """7.6 If no friendly supply hex is free of enemy units, the reinforcement does not enter the
    game. Decision: it never enters later; it goes to the never-entered box; it does not count as
    eliminated for victory points."""
    germans = dict(
        zip(
            ("34id", "198id", "88id", "kab", "72id", "57id", "389id"),
            ("B1", "C1", "F1", "C7", "D7", "E6", "F7"),
        )
    )
    g = soviet_phase(scenario, germans, 2, ("18tk", "5gcc", "5mc"))
    assert {g.unit(u).box for u in ("18tk", "5gcc", "5mc")} == {"never_entered"}
    lost = [e for e in g.events if e.kind == "ReinforcementLost"]
    assert len(lost) == 3 and "no friendly supply hex is free" in lost[0].text
    assert victory_points(scenario, g.state)["german"]["eliminated_steps"] == 0
    # the supply hexes are freed: the lost units still never enter
    for uid in germans:
        g.state.units[uid].box, g.state.units[uid].hex = "off", None
    track(g.state, 3, "104rc")
    g.do("soviet", END)
    g.do("soviet", END)
    g.do("german", END)
    g.do("german", END, dice=[6])
    assert g.state.turn == 3 and g.unit("104rc").hex == "B1"
    assert {g.unit(u).box for u in ("18tk", "5gcc", "5mc")} == {"never_entered"}


# -- 7.7 to 7.10 the 24th Panzer Division


def test_7_7_24th_panzer_never_enters_without_a_soviet_unit_in_a2_a6(scenario):
    """7.7 German 24th Panzer Division: it enters in the German supply and reinforcement phase of
    turn 4 only if the condition in 7.8 is met. Otherwise it never enters (never-entered box, no
    victory points)."""
    assert scenario.flags["german_24th_panzer"] == "24pz"
    assert scenario.units["24pz"].entry_turn == 4
    g = german_phase(scenario, {"47rc": "B4"}, 4, P4)
    assert g.unit("24pz").box == "never_entered"
    assert [g.unit(u).hex for u in ("16pz", "17pz", "baeke")] == ["A4", "A4", "A4"]
    lost = [e for e in g.events if e.kind == "ReinforcementLost"]
    assert [e.data["unit"] for e in lost] == ["24pz"] and "A2-A6" in lost[0].text
    assert victory_points(scenario, g.state)["soviet"]["total"] == 0


def test_7_8_24th_panzer_enters_when_the_condition_is_met(scenario):
    """7.8 Condition: at least one Soviet unit has entered at least one of the hexes A2, A3, A4,
    A5, A6 at any time before the German supply and reinforcement phase of turn 4."""
    g = german_phase(scenario, {"47rc": "B4"}, 4, P4, trigger=True)
    assert g.unit("24pz").hex == "A6"


def test_7_8_24th_panzer_diverted_when_a_soviet_unit_holds_a6(scenario):
    """7.7/7.4 The 24th Panzer enters under rule 7.4 like any reinforcement: a Soviet unit in its
    entry hex A6 sends it to the nearest free German supply hex (A4, distance 2; A2 is 4 away)."""
    state = track(empty_state(scenario, {"29tk": "B6"}, turn=4, phase="soviet-movement"), 4, "24pz")
    g = Game(scenario, state)
    g.do("soviet", M("29tk", ("A6",)))
    g.do("soviet", END)
    assert g.unit("24pz").hex == "A4"
    assert g.state.pending == []


def test_7_9_passing_through_in_a_2_hex_move_counts(scenario):
    """7.9 Decision: a Soviet unit "has entered" one of these hexes if it was ever in it, by
    movement (including passing through during a 2-hex move). It does not matter whether the
    unit is still there at the check."""
    state = track(empty_state(scenario, {"29tk": "B6"}, turn=4, phase="soviet-movement"), 4, *P4)
    g = Game(scenario, state)
    g.do("soviet", M("29tk", ("A6", "A7")))  # through A6, ending in A7
    assert g.state.soviet_entered_trigger
    g.do("soviet", END)
    assert g.unit("24pz").hex == "A6"


def test_7_9_a1_and_a7_do_not_count(scenario):
    """7.8 ... at least one of the hexes A2, A3, A4, A5, A6 (A1 and A7 are not among them)."""
    state = track(
        empty_state(scenario, {"29tk": "B7", "5gtk": "B1"}, turn=4, phase="soviet-movement"), 4, *P4
    )
    g = Game(scenario, state)
    g.do("soviet", M("29tk", ("A7",)))
    g.do("soviet", M("5gtk", ("A1",)))
    assert not g.state.soviet_entered_trigger
    g.do("soviet", END)
    assert g.unit("24pz").box == "never_entered"


def test_7_9_entry_by_retreat_counts(scenario):
    """7.9 Decision: a Soviet unit "has entered" one of these hexes if it was ever in it, by
    ... retreat."""
    state = track(
        empty_state(scenario, {"47rc": "B4", "16pz": "C4"}, turn=3, phase="german-combat"),
        4,
        "24pz",
    )
    g = Game(scenario, state)
    g.do("german", A("B4", ("16pz",)), dice=[3])  # 9:3 = 3:1, die 3: 1 hit
    g.do("soviet", L((), "A3"))
    assert g.state.soviet_entered_trigger
    g.do("german", END)
    g.do("german", END, dice=[6])  # turn 4
    g.do("soviet", END)
    g.do("soviet", END)  # German supply phase of turn 4
    assert g.unit("24pz").hex == "A6"


def test_7_9_setup_in_a2_a6_counts(scenario, tmp_path):
    """7.9 Decision: a Soviet unit "has entered" one of these hexes if it was ever in it, by ...
    setup. It does not matter whether the unit is still there at the check."""
    text = default_scenario_text()
    text, n = re.subn(r'(id = "337rd"(?:\n[^\n\[]*)*?\nsetup_hex = )"C1"', r'\1"A3"', text)
    assert n == 1
    path = tmp_path / "setup_a3.toml"
    path.write_text(text, encoding="utf-8")
    scen = load_scenario(path)
    state = new_game(scen, sandbox=True).state
    assert state.units["337rd"].hex == "A3" and state.soviet_entered_trigger
    g = Game(scen, state)
    g.do("moderator", O.Place("337rd", "C1"))  # gone from A3 before the check
    g.do("moderator", O.SetTurn(4))
    g.do("moderator", O.SetPhase("german-supply"))
    assert g.unit("24pz").hex == "A6"


def test_7_9_moderator_placement_is_no_entry(scenario):
    """7.9 (the setup of the scenario puts no Soviet unit in A2-A6; a sandbox placement is no
    entry): the 24th Panzer does not enter."""
    g = Game(scenario, sandbox=True)
    assert not g.state.soviet_entered_trigger
    g.do("moderator", O.Place("337rd", "A3"))
    g.do("moderator", O.SetTurn(4))
    g.do("moderator", O.SetPhase("german-supply"))
    assert g.unit("24pz").box == "never_entered"


def test_7_10_condition_judged_once_at_turn_4(scenario):
    """7.10 Decision: the condition is evaluated once, at the start of the German supply and
    reinforcement phase of turn 4. Soviet entries after that moment have no effect."""
    state = track(empty_state(scenario, {"47rc": "B3"}, turn=4, phase="soviet-movement"), 4, "24pz")
    g = Game(scenario, state)
    g.do("soviet", END)  # German supply phase of turn 4: no Soviet unit has been in A2-A6
    assert g.unit("24pz").box == "never_entered"
    g.do("german", END)
    g.do("german", END, dice=[6])  # turn 5
    g.do("soviet", END)
    g.do("soviet", M("47rc", ("A3",)))
    assert g.state.soviet_entered_trigger
    g.do("soviet", END)  # German supply phase of turn 5
    assert g.state.turn == 5 and g.state.phase == "german-combat"
    assert g.unit("24pz").box == "never_entered" and g.unit("24pz").hex is None

"""Section 8, procedure and restrictions (8.1-8.5, 8.4(a)-(h)).

Hand-built states on a quiet part of the map: C4 (clear, no river hexside, no supply hex) and the
turn-1 southern front around C6/B7 of the worked example. Turn 3 unless a turn rule is tested.
"""

from __future__ import annotations

from tests.hells_gate.helpers import END, A, Game, L, empty_state


def soviet_game(scenario, units, turn=3, **kw):
    return Game(scenario, empty_state(scenario, units, turn=turn, phase="soviet-combat", **kw))


# -- 8.1 / 8.2 / 8.3 ----------------------------------------------------------------------------


def test_8_1_attacking_is_voluntary(scenario):
    """8.1: "the phasing player may make any number of attacks. Attacking is voluntary." """
    g = soviet_game(scenario, {"48rc": "B4", "389id": "C4"})
    g.do("soviet", END)
    assert g.state.phase == "soviet-movement"
    assert g.state.attacked_hexes == []
    assert not g.unit("48rc").attacked


def test_8_1_any_number_of_attacks_one_after_another(scenario):
    """8.1/8.2: "any number of attacks"; "resolves attacks one at a time, in an order he chooses"."""
    g = soviet_game(
        scenario,
        {"48rc": "B4", "75rc": "B6", "21grc": "D6", "389id": "C4", "88id": "C5", "72id": "D5"},
    )
    for target, unit in (("D5", "21grc"), ("C5", "75rc"), ("C4", "48rc")):
        out = g.do("soviet", A(target, (unit,)), dice=[1])
        assert out.combat["hits"] == 0
    assert g.state.attacked_hexes == ["D5", "C5", "C4"]


def test_8_2_next_attack_waits_until_the_previous_is_fully_resolved(scenario):
    """8.2: "Each attack is fully resolved, including hits and retreats, before the next attack
    is declared." """
    g = soviet_game(
        scenario, {"29tk": "B4", "20tk": "B5", "389id": "C4", "48rc": "B6", "88id": "C5"}
    )
    g.do("soviet", A("C4", ("29tk", "20tk")), dice=[1])  # 8:1, 1 hit: the German chooses
    assert g.state.pending and g.state.pending[0].side == "german"
    rej = g.refuse("soviet", A("C5", ("48rc",)))
    assert rej.code == "waiting" and rej.rule == "8.23"
    assert "German" in rej.message
    assert g.refuse("soviet", END).rule == "8.23"  # nor may the phase end
    g.do("german", L(("389id",)))
    g.do("soviet", A("C5", ("48rc",)), dice=[1])
    assert "C5" in g.state.attacked_hexes


def test_8_3_a_hex_with_no_enemy_unit_may_not_be_attacked(scenario):
    """8.3 step 1: "the attacker names one enemy-occupied hex (the defending hex)"."""
    g = soviet_game(scenario, {"48rc": "B4", "75rc": "C3", "389id": "C4"})
    empty = g.refuse("soviet", A("B5", ("48rc",)))
    assert empty.rule == "8.3" and empty.code == "no-enemy-in-hex"
    assert "B5" in empty.message and "C4" in empty.message  # names the enemy-held hexes
    own = g.refuse("soviet", A("C3", ("48rc",)))
    assert own.rule == "8.3" and "C3" in own.message
    g.do("soviet", A("C4", ("48rc",)), dice=[1])  # the enemy hex is accepted


def test_8_3_at_least_one_attacking_unit_is_named(scenario):
    """8.3 step 1: "the attacker names ... the attacking units"."""
    g = soviet_game(scenario, {"48rc": "B4", "389id": "C4"})
    rej = g.refuse("soviet", A("C4", ()))
    assert rej.rule == "8.3"


def test_8_3_only_own_units_on_the_map_attack(scenario):
    """8.3 step 1 with 1.8: the attacker names his own units."""
    g = soviet_game(scenario, {"48rc": "B4", "389id": "C4", "88id": "B5"})
    enemy = g.refuse("soviet", A("C4", ("88id",)))
    assert enemy.rule == "4.6" and "88id" in enemy.message
    off_map = g.refuse("soviet", A("C4", ("75rc",)))  # 75rc is not on the map in this state
    assert "75rc" in off_map.message


# -- 8.4(a) / 8.5: each unit once per combat phase ---------------------------------------------


def test_8_4_a_a_unit_attacks_at_most_once_per_combat_phase(scenario):
    """8.4(a): "Each unit may attack at most once per combat phase." """
    g = soviet_game(scenario, {"48rc": "C5", "75rc": "B5", "389id": "C4", "88id": "B6"})
    g.do("soviet", A("C4", ("48rc",)), dice=[1])
    assert g.unit("48rc").attacked
    rej = g.refuse("soviet", A("B6", ("48rc",)))
    assert rej.rule == "8.4(a)" and "48rc" in rej.message
    g.do("soviet", A("B6", ("75rc",)), dice=[1])  # a unit that has not attacked may


def test_8_4_a_a_unit_named_twice_in_one_attack_is_refused(scenario):
    """8.4(a): "Each unit may attack at most once" - also within one attack."""
    g = soviet_game(scenario, {"48rc": "B4", "389id": "C4"})
    rej = g.refuse("soviet", A("C4", ("48rc", "48rc")))
    assert rej.rule == "8.4(a)"


def test_8_5_the_limits_are_per_combat_phase_and_start_again_next_turn(scenario):
    """8.5: "once per turn" for (a) and (b) is "the same as once per combat phase"."""
    g = soviet_game(scenario, {"48rc": "B4", "389id": "C4"})
    g.do("soviet", A("C4", ("48rc",)), dice=[1])
    assert g.refuse("soviet", A("C4", ("48rc",))).rule in ("8.4(a)", "8.4(b)")
    g.do("soviet", END)  # -> Soviet movement
    g.do("soviet", END)  # -> recovery, German supply, German combat
    assert g.state.phase == "german-combat"
    g.do("german", END)  # -> German movement
    g.do("german", END, dice=[6])  # -> recovery, joint (weather 6: Snow), turn 4 Soviet combat
    assert (g.state.turn, g.state.phase) == (4, "soviet-combat")
    assert not g.unit("48rc").attacked and g.state.attacked_hexes == []
    out = g.do("soviet", A("C4", ("48rc",)), dice=[1])
    assert out.combat["attackers"] == ["48rc"]


# -- 8.4(b): each hex once ----------------------------------------------------------------------


def test_8_4_b_a_hex_is_attacked_at_most_once_per_combat_phase(scenario):
    """8.4(b): "Each hex may be attacked at most once per combat phase." """
    g = soviet_game(
        scenario, {"48rc": "B4", "75rc": "B5", "389id": "C4", "88id": "C5", "21grc": "B6"}
    )
    g.do("soviet", A("C4", ("48rc",)), dice=[1])
    rej = g.refuse("soviet", A("C4", ("75rc",)))
    assert rej.rule == "8.4(b)" and "C4" in rej.message
    g.do("soviet", A("C5", ("75rc",)), dice=[1])  # another hex may still be attacked


# -- 8.4(c): adjacency --------------------------------------------------------------------------


def test_8_4_c_every_attacker_is_adjacent_to_the_defending_hex(scenario):
    """8.4(c): "Every attacking unit must be adjacent to the defending hex." """
    g = soviet_game(scenario, {"48rc": "B4", "75rc": "A4", "389id": "C4"})
    rej = g.refuse("soviet", A("C4", ("48rc", "75rc")))
    assert rej.rule == "8.4(c)"
    assert "75rc" in rej.message and "A4" in rej.message
    assert "B4" in rej.message and "D5" in rej.message  # lists the hexes adjacent to C4
    g.do("soviet", A("C4", ("48rc",)), dice=[1])


# -- 8.4(d) / (e): stacks split, several hexes combine -----------------------------------------


def test_8_4_d_units_of_one_hex_may_attack_different_hexes_or_not_at_all(scenario):
    """8.4(d): "Units in the same hex may attack different hexes; some may attack and others
    not." """
    g = soviet_game(
        scenario, {"48rc": "C7", "75rc": "C7", "29tk": "C7", "389id": "C6", "106id": "B7"}
    )
    g.do("soviet", A("B7", ("48rc",)), dice=[1])
    g.do("soviet", A("C6", ("75rc",)), dice=[1])
    assert g.unit("48rc").attacked and g.unit("75rc").attacked
    assert not g.unit("29tk").attacked
    assert g.state.attacked_hexes == ["B7", "C6"]


def test_8_4_e_one_attack_combines_units_from_several_hexes(scenario):
    """8.4(e): "One attack may combine units from several hexes adjacent to the defending
    hex." """
    g = soviet_game(scenario, {"48rc": "B4", "75rc": "B5", "21grc": "D5", "389id": "C4"})
    out = g.do("soviet", A("C4", ("48rc", "75rc", "21grc")), dice=[1])
    assert out.combat["attackers"] == ["48rc", "75rc", "21grc"]
    assert out.combat["attack_strength"] == 3 + 3 + 4
    assert all(g.unit(u).attacked for u in ("48rc", "75rc", "21grc"))


# -- 8.4(f): at most 2 units per hexside --------------------------------------------------------


def test_8_4_f_at_most_two_units_attack_across_one_hexside(scenario):
    """8.4(f): "At most 2 units may attack across any one hexside." """
    g = soviet_game(scenario, {"48rc": "C7", "75rc": "C7", "20tk": "C7", "389id": "C6"}, turn=1)
    rej = g.refuse("soviet", A("C6", ("48rc", "75rc", "20tk")))
    assert rej.rule == "8.4(f)" and rej.code == "hexside-limit"
    assert "C7–C6" in rej.message  # names the hexside
    assert all(u in rej.message for u in ("48rc", "75rc", "20tk"))
    out = g.do("soviet", A("C6", ("75rc", "20tk")), dice=[1])
    assert out.combat["attackers"] == ["75rc", "20tk"]


def test_8_4_f_two_units_from_each_of_two_hexes_may_join(scenario):
    """8.4(f): "at most 2 units from each adjacent hex may join one attack" (W3: C7 and D7)."""
    g = soviet_game(
        scenario,
        {"75rc": "C7", "20tk": "C7", "21grc": "D7", "20grc": "D7", "78rc": "D7", "389id": "C6"},
        turn=1,
    )
    rej = g.refuse("soviet", A("C6", ("75rc", "20tk", "21grc", "20grc", "78rc")))
    assert rej.rule == "8.4(f)" and "D7–C6" in rej.message
    out = g.do("soviet", A("C6", ("75rc", "20tk", "21grc", "20grc")), dice=[1])
    assert len(out.combat["attackers"]) == 4


def test_8_4_f_twelve_units_from_six_hexes_is_the_most(scenario):
    """8.4(f): "... and at most 12 units in total." """
    twelve = {
        "48rc": "B4",
        "75rc": "B4",
        "20grc": "B5",
        "21grc": "B5",
        "78rc": "C3",
        "47rc": "C3",
        "180rd": "C5",
        "337rd": "C5",
        "206rd": "D4",
        "373rd": "D4",
        "294rd": "D5",
        "254rd": "D5",
    }
    g = soviet_game(scenario, {**twelve, "104rc": "B4", "198id": "C4"})
    out = g.do("soviet", A("C4", tuple(twelve)), dice=[1])
    assert len(out.combat["attackers"]) == 12
    g2 = soviet_game(scenario, {**twelve, "104rc": "B4", "198id": "C4"})
    rej = g2.refuse("soviet", A("C4", (*twelve, "104rc")))
    assert rej.rule == "8.4(f)" and "B4–C4" in rej.message


# -- 8.4(g): Retreat markers --------------------------------------------------------------------


def test_8_4_g_a_unit_with_a_retreat_marker_may_not_attack(scenario):
    """8.4(g): "A unit with a Retreat marker may not attack." """
    g = soviet_game(scenario, {"48rc": "B4", "75rc": "B4", "389id": "C4"}, retreated=["75rc"])
    rej = g.refuse("soviet", A("C4", ("48rc", "75rc")))
    assert rej.rule == "8.4(g)" and "75rc" in rej.message
    g.do("soviet", A("C4", ("48rc",)), dice=[1])


def test_8_4_g_a_german_unit_with_a_retreat_marker_may_not_attack(scenario):
    """8.4(g) for the German side: "A unit with a Retreat marker may not attack." """
    state = empty_state(
        scenario,
        {"88id": "B4", "72id": "B4", "48rc": "C4"},
        turn=3,
        phase="german-combat",
        retreated=["72id"],
    )
    g = Game(scenario, state)
    rej = g.refuse("german", A("C4", ("72id",)))
    assert rej.rule == "8.4(g)"
    g.do("german", A("C4", ("88id",)), dice=[1])


# -- 8.4(h): the turn limits of section 12 ------------------------------------------------------


def test_8_4_h_turn_limits_apply_turn_1_german_infantry_may_not_attack(scenario):
    """8.4(h): "The turn-specific limits in section 12 apply" (12.4: on turn 1 only German armor
    attacks)."""
    state = empty_state(
        scenario, {"106id": "B7", "3pz": "B7", "48rc": "C7"}, turn=1, phase="german-combat"
    )
    g = Game(scenario, state)
    rej = g.refuse("german", A("C7", ("106id",)))
    assert rej.rule == "12.4" and "106id" in rej.message
    g.do("german", A("C7", ("3pz",)), dice=[1])
    # the same infantry attack is legal from turn 2
    state2 = empty_state(scenario, {"106id": "B7", "48rc": "C7"}, turn=2, phase="german-combat")
    Game(scenario, state2).do("german", A("C7", ("106id",)), dice=[1])


# -- phase -------------------------------------------------------------------------------------


def test_8_1_only_the_phasing_player_attacks_in_his_combat_phase(scenario):
    """8.1 with 4.6: "In his combat phase the phasing player may make any number of attacks." """
    g = soviet_game(scenario, {"48rc": "B4", "389id": "C4", "88id": "B5"})
    rej = g.refuse("german", A("B4", ("88id",)))
    assert rej.rule == "4.6"
    state = empty_state(scenario, {"48rc": "B4", "389id": "C4"}, turn=3, phase="soviet-movement")
    rej = Game(scenario, state).refuse("soviet", A("C4", ("48rc",)))
    assert rej.rule == "4.2" and "combat" in rej.message

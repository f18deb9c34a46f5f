"""Section 5: zones of control. ZOC is seen through supply (6.2) and retreats (8.32)."""

from __future__ import annotations

from adjudicator.hells_gate.supply import explain, passable
from adjudicator.hells_gate.zoc import ezoc, zoc_of
from tests.hells_gate.helpers import END, A, Game, L, M, empty_state


def german_supply_phase(scenario, units, **kw) -> Game:
    """Play the German supply phase of turn 3 on a hand-built state."""
    g = Game(scenario, empty_state(scenario, units, turn=3, phase="soviet-movement", **kw))
    g.do("soviet", END)
    assert g.state.phase == "german-combat"
    return g


def soviet_supply_phase(scenario, units, **kw) -> Game:
    """Play the Soviet supply phase of turn 4 on a hand-built state (weather roll 6: Snow)."""
    g = Game(scenario, empty_state(scenario, units, turn=3, phase="german-movement", **kw))
    g.do("german", END, dice=[6])
    assert (g.state.turn, g.state.phase) == (4, "soviet-combat")
    return g


# -- 5.1 / 5.2 / 5.7 where ZOC lies


def test_5_1_zoc_covers_the_six_adjacent_hexes(scenario):
    """5.1 Every unit exerts a zone of control (ZOC) into the 6 hexes adjacent to its hex."""
    state = empty_state(scenario, {"198id": "C4"}, turn=3)
    assert zoc_of(scenario, state, "german") == {"B4", "B5", "C3", "C5", "D4", "D5"}
    assert "C4" not in zoc_of(scenario, state, "german")
    assert zoc_of(scenario, state, "soviet") == set()


def test_5_2_zoc_ignores_terrain_and_rivers(scenario):
    """5.2 ZOC is not affected by terrain."""
    # the 389th in woods C5; the 34th in A6, behind river hexsides A6-B6 and A6-B7
    state = empty_state(scenario, {"389id": "C5", "34id": "A6"}, turn=3)
    assert scenario.hexes["C5"].terrain == "woods"
    assert scenario.is_river("A6", "B6") and scenario.is_river("A6", "B7")
    zoc = ezoc(scenario, state, "soviet")
    assert {"B5", "B6", "C4", "C6", "D5", "D6"} <= zoc
    assert {"A5", "A7", "B6", "B7"} <= zoc
    blocked = set(scenario.grid.hexes) - passable(scenario, state, "soviet")
    assert {"B6", "B7", "D6"} <= blocked


def test_5_7_ezoc_is_adjacency_to_an_enemy_unit(scenario):
    """5.7 A hex is in enemy ZOC (EZOC) for a player if it is adjacent to at least one enemy unit."""
    state = empty_state(scenario, {"198id": "C4", "47rc": "F1"}, turn=3)
    assert ezoc(scenario, state, "soviet") == set(scenario.grid.neighbours("C4"))
    assert ezoc(scenario, state, "german") == set(scenario.grid.neighbours("F1"))


def test_5_4_adjacent_enemy_units_exert_zoc_on_each_other(scenario):
    """5.4 Adjacent enemy units exert ZOC onto each other's hexes."""
    state = empty_state(scenario, {"47rc": "D6", "198id": "D5"}, turn=3)
    assert "D5" in zoc_of(scenario, state, "soviet")
    assert "D6" in zoc_of(scenario, state, "german")


def test_5_4_mutual_zoc_does_not_cut_the_units_own_hexes(scenario):
    """5.4 Adjacent enemy units exert ZOC onto each other's hexes (each hex holds a friendly unit,
    which meets the exception of 6.2(b))."""
    g = soviet_supply_phase(scenario, {"47rc": "D6", "198id": "D5"})
    assert not g.unit("47rc").oos  # D6 in German ZOC, next to the Soviet supply hex D7


# -- 5.3 units with markers still exert ZOC


def test_5_3_oos_unit_zoc_cuts_supply(scenario):
    """5.3 Every unit always exerts ZOC. Decision: this includes units with an OOS marker."""
    units = {"47rc": "A1", "198id": "B2"}
    g = soviet_supply_phase(scenario, units, oos=["198id"])
    assert g.unit("47rc").oos  # B1 and A2 are in the ZOC of the OOS 198th
    assert "enemy ZOC in A2, B1" in explain(scenario, g.state, "47rc").reason


def test_5_3_retreated_unit_zoc_cuts_supply(scenario):
    """5.3 Every unit always exerts ZOC. Decision: this includes units with a Retreat marker."""
    g = soviet_supply_phase(scenario, {"47rc": "A1", "198id": "B2"}, retreated=["198id"])
    assert g.unit("47rc").oos
    control = soviet_supply_phase(scenario, {"47rc": "A1", "198id": "C3"})
    assert not control.unit("47rc").oos  # with the 198th out of the way, B1 is reached


def test_5_3_zoc_of_marked_attacker_units_blocks_retreats(scenario):
    """5.3 Every unit always exerts ZOC, including units with an OOS marker and units with a
    Retreat marker (5.6: ZOC affects retreats)."""
    # German 198th in C4 attacked by the 29th Tank Corps from D5 (ZOC on C5 and D4).
    # The OOS 47th Rifle Corps in A3 covers B4; the retreated 48th Rifle Corps in B6 covers B5.
    units = {"198id": "C4", "29tk": "D5", "47rc": "A3", "48rc": "B6"}
    state = empty_state(
        scenario, units, turn=3, phase="soviet-combat", oos=["47rc"], retreated=["48rc"]
    )
    g = Game(scenario, state)
    g.do("soviet", A("C4", ("29tk",)), dice=[4])  # 6:3 = 2:1, die 4: 1 hit
    d = g.state.pending[0]
    assert (d.kind, d.side) == ("losses", "german")
    assert "retreat to C3" in d.prompt
    assert "B4" not in d.prompt and "B5" not in d.prompt
    for dest in ("B4", "B5"):
        rej = g.refuse("german", L((), dest))
        assert rej.rule == "8.32(c)"
        assert "ZOC" in rej.message
    g.do("german", L((), "C3"))
    assert g.unit("198id").hex == "C3"


# -- 5.5 no effect on movement


def test_5_5_zoc_has_no_effect_on_movement(scenario):
    """5.5 ZOC has no effect on movement (both sources)."""
    # The 29th Tank Corps goes C7-C6-B6 and the 48th Rifle Corps C6-B7: every hex they leave,
    # cross or enter is in German ZOC.
    units = {"29tk": "C7", "48rc": "C6", "389id": "C5", "3pz": "A7", "wiking": "D7"}
    g = Game(scenario, empty_state(scenario, units, turn=3, phase="soviet-movement"))
    zoc = ezoc(scenario, g.state, "soviet")
    assert {"C7", "C6", "B6", "B7"} <= zoc
    g.do("soviet", M("29tk", ("C6", "B6")))
    g.do("soviet", M("48rc", ("B7",)))
    assert (g.unit("29tk").hex, g.unit("48rc").hex) == ("B6", "B7")


# -- 5.6 ZOC and supply


def test_5_6_zoc_cuts_supply_only_where_no_friendly_unit_stands(scenario):
    """5.6 ZOC affects supply lines (rule 6.2)."""
    cut = german_supply_phase(scenario, {"198id": "B2", "47rc": "A1", "180rd": "C2"})
    assert cut.unit("198id").oos  # A2 and B1 in Soviet ZOC; B3 and C1 in Soviet ZOC too
    held = german_supply_phase(scenario, {"198id": "B2", "34id": "A2", "47rc": "A1", "180rd": "C2"})
    assert not held.unit("198id").oos  # A2 is in Soviet ZOC but holds the 34th

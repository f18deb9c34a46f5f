"""Section 1: general rules, the hex grid (1.4-1.6) and the phasing player (1.7)."""

from __future__ import annotations

import pytest

from adjudicator.core.dice import FixedDice
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.state import PHASES, phase_side
from tests.hells_gate.helpers import END, A, Game, M, empty_state

# The neighbour column of the hex table, hells-gate-scenario.md section 2 (the reference).
NEIGHBOURS = """
A1 A2 B1 B2
A2 A1 A3 B2 B3
A3 A2 A4 B3 B4
A4 A3 A5 B4 B5
A5 A4 A6 B5 B6
A6 A5 A7 B6 B7
A7 A6 B7
B1 A1 B2 C1
B2 A1 A2 B1 B3 C1 C2
B3 A2 A3 B2 B4 C2 C3
B4 A3 A4 B3 B5 C3 C4
B5 A4 A5 B4 B6 C4 C5
B6 A5 A6 B5 B7 C5 C6
B7 A6 A7 B6 C6 C7
C1 B1 B2 C2 D1 D2
C2 B2 B3 C1 C3 D2 D3
C3 B3 B4 C2 C4 D3 D4
C4 B4 B5 C3 C5 D4 D5
C5 B5 B6 C4 C6 D5 D6
C6 B6 B7 C5 C7 D6 D7
C7 B7 C6 D7
D1 C1 D2 E1
D2 C1 C2 D1 D3 E1 E2
D3 C2 C3 D2 D4 E2 E3
D4 C3 C4 D3 D5 E3 E4
D5 C4 C5 D4 D6 E4 E5
D6 C5 C6 D5 D7 E5 E6
D7 C6 C7 D6 E6 E7
E1 D1 D2 E2 F1 F2
E2 D2 D3 E1 E3 F2 F3
E3 D3 D4 E2 E4 F3 F4
E4 D4 D5 E3 E5 F4 F5
E5 D5 D6 E4 E6 F5 F6
E6 D6 D7 E5 E7 F6 F7
E7 D7 E6 F7
F1 E1 F2
F2 E1 E2 F1 F3
F3 E2 E3 F2 F4
F4 E3 E4 F3 F5
F5 E4 E5 F4 F6
F6 E5 E6 F5 F7
F7 E6 E7 F6
"""
TABLE = {line.split()[0]: set(line.split()[1:]) for line in NEIGHBOURS.strip().splitlines()}


def cube_distance(a: str, b: str) -> int:
    """An independent reference for 1.6: columns counted from A = 0, even ones (A, C, E) half a
    hex lower, converted to cube coordinates."""

    def cube(h: str) -> tuple[int, int, int]:
        q, r = ord(h[0]) - ord("A"), int(h[1:])
        x, z = q, r - (q + (q & 1)) // 2
        return x, -x - z, z

    return max(abs(i - j) for i, j in zip(cube(a), cube(b)))


# -- 1.1 to 1.3


def test_1_1_only_the_two_players_give_orders(scenario):
    """1.1 The game has two players: Soviet and German."""
    g = Game(scenario)
    rej = g.refuse("referee", END)
    assert rej.rule == "1.1"
    assert "Soviet and German" in rej.message
    g.do("soviet", END)  # the Soviet player, in his own combat phase, is heard
    assert g.state.phase == "soviet-movement"


def test_1_2_the_game_lasts_8_turns(scenario):
    """1.2 The game lasts 8 turns."""
    assert scenario.turns == 8
    g = Game(scenario, sandbox=True)
    g.do("moderator", O.SetTurn(8))
    assert g.refuse("moderator", O.SetTurn(9)).rule == "1.2"


def test_1_3_dice_are_d6_results_1_to_6(scenario):
    """1.3 Every die roll uses one six-sided die (d6), results 1 to 6."""
    g = Game(scenario, sandbox=True)
    rej = g.refuse("moderator", O.Dice((7,)))
    assert rej.rule == "1.3"
    assert "1 to 6" in rej.message
    with pytest.raises(ValueError):
        FixedDice([0]).roll("test")
    g.do("moderator", O.Dice((6,)))
    assert g.state.fixed_dice == [6]


# -- 1.4 hex ids


def test_1_4_hexes_are_a_column_letter_and_a_row_number(scenario):
    """1.4 A hex is named by a column letter followed by a row number, for example "B7"."""
    grid = scenario.grid
    assert len(grid.hexes) == 42
    assert set(grid.hexes) == {f"{c}{r}" for c in "ABCDEF" for r in range(1, 8)}
    assert "B7" in grid
    assert grid.coords("B7") == (2, 7)
    assert grid.coords("F1") == (6, 1)
    for outside in ("G1", "A0", "A8", "7B", "b7", ""):
        assert outside not in grid


# -- 1.5 adjacency


@pytest.mark.parametrize(
    "hex_id, expected",
    [
        ("C6", {"B6", "B7", "C5", "C7", "D6", "D7"}),
        ("B2", {"A1", "A2", "B1", "B3", "C1", "C2"}),
        ("B7", {"A6", "A7", "B6", "C6", "C7"}),
        ("F6", {"E5", "E6", "F5", "F7"}),
    ],
)
def test_1_5_worked_neighbour_lists_of_the_scenario(scenario, hex_id, expected):
    """1.5 Two hexes are adjacent if they share a hexside (scenario: C6 -> B6 B7 C5 C7 D6 D7 ...)."""
    assert set(scenario.grid.neighbours(hex_id)) == expected
    for other in scenario.grid.hexes:
        assert scenario.grid.adjacent(hex_id, other) == (other in expected)


def test_1_5_every_hex_has_the_neighbours_of_the_scenario_table(scenario):
    """1.5 Two hexes are adjacent if they share a hexside (scenario section 2 is the reference)."""
    assert set(TABLE) == set(scenario.grid.hexes)
    wrong = {
        h: set(scenario.grid.neighbours(h))
        for h in TABLE
        if set(scenario.grid.neighbours(h)) != TABLE[h]
    }
    assert wrong == {}


def test_1_5_adjacency_is_symmetric_and_never_reflexive(scenario):
    """1.5 Two hexes are adjacent if they share a hexside."""
    grid = scenario.grid
    for a in grid.hexes:
        assert a not in grid.neighbours(a)
        assert 2 <= len(grid.neighbours(a)) <= 6
        for b in grid.neighbours(a):
            assert grid.adjacent(b, a), f"{a}-{b} is one-way"
    interior = [h for h in grid.hexes if h[0] in "BCDE" and h[1] in "23456"]
    assert all(len(grid.neighbours(h)) == 6 for h in interior)


def test_1_5_off_map_neighbours_are_dropped(scenario):
    """1.5 (scenario section 1) Drop every neighbour outside columns A-F or rows 1-7."""
    grid = scenario.grid
    assert set(grid.neighbours("A1")) == {"A2", "B1", "B2"}
    assert set(grid.neighbours("F1")) == {"E1", "F2"}
    assert set(grid.neighbours("A7")) == {"A6", "B7"}
    assert set(grid.neighbours("F7")) == {"E6", "E7", "F6"}


# -- 1.6 distance


def test_1_6_distance_counts_hexes_on_the_shortest_chain(scenario):
    """1.6 The distance between two hexes is the number of hexes on the shortest chain of
    adjacent hexes between them. Adjacent hexes are at distance 1."""
    grid = scenario.grid
    assert grid.distance("C6", "C6") == 0
    assert grid.distance("C6", "B7") == 1
    assert grid.distance("C6", "B5") == 2  # B5 touches C5 and B6, not C6
    assert grid.distance("A1", "A7") == 6
    assert grid.distance("A1", "F1") == 5
    assert grid.distance("A1", "F7") == 8
    assert grid.distance("B1", "F1") == 4


def test_1_6_distance_matches_an_independent_reference_for_every_pair(scenario):
    """1.6 The distance between two hexes is the number of hexes on the shortest chain."""
    grid = scenario.grid
    for a in grid.hexes:
        for b in grid.hexes:
            assert grid.distance(a, b) == cube_distance(a, b), (a, b)
            assert grid.distance(a, b) == grid.distance(b, a)


def test_1_6_distance_ignores_units_and_zoc(scenario):
    """1.6 Terrain, units and ZOC are ignored."""
    # The entry hex B1 of the 5th Mechanized Corps and every hex on the chain B1-C1-D1-E1-F1
    # hold German units; F1 is still the nearest free Soviet supply hex (distance 4).
    state = empty_state(
        scenario,
        {"34id": "B1", "198id": "C1", "88id": "D1", "kab": "E1"},
        turn=1,
        phase="german-movement",
    )
    state.units["5mc"].box, state.units["5mc"].track_turn = "turn_track", 2
    g = Game(scenario, state)
    g.do("german", END, dice=[6])
    assert g.state.turn == 2
    assert g.unit("5mc").hex == "F1"
    assert scenario.grid.distance("B1", "F1") == 4 < scenario.grid.distance("B1", "C7")


def test_1_6_within_radius_uses_distance(scenario):
    """1.6 Adjacent hexes are at distance 1."""
    grid = scenario.grid
    assert set(grid.within("C6", 1)) == set(TABLE["C6"])
    ring2 = {h for h in grid.hexes if cube_distance("C6", h) == 2}
    assert set(grid.within("C6", 2)) == set(TABLE["C6"]) | ring2
    assert "C6" not in grid.within("C6", 2)


# -- 1.7 the phasing player


def test_1_7_phasing_player_by_phase():
    """1.7 The phasing player is the Soviet player in phases 1 to 4, the German player in
    phases 5 to 8."""
    assert [phase_side(p) for p in PHASES] == ["soviet"] * 4 + ["german"] * 4 + [None]


def test_1_7_german_order_in_soviet_phase_refused(scenario):
    """1.7 The phasing player is the Soviet player in phases 1 to 4."""
    g = Game(scenario)  # turn 1, Soviet combat phase
    rej = g.refuse("german", END)
    assert rej.rule == "4.6"
    assert "only the Soviet player acts now" in rej.message
    rej = g.refuse("german", A("C7", ("389id",)))
    assert rej.rule == "4.6"
    assert g.state.active_side == "soviet"


def test_1_7_soviet_orders_in_german_phases_refused(scenario):
    """1.7 ... the German player in phases 5 to 8."""
    state = empty_state(scenario, {"29tk": "B6", "11pz": "A6"}, turn=3, phase="german-combat")
    g = Game(scenario, state)
    rej = g.refuse("soviet", A("A6", ("29tk",)))
    assert rej.rule == "4.6"
    assert "only the German player acts now" in rej.message
    g.do("german", END)
    assert g.state.phase == "german-movement"
    rej = g.refuse("soviet", M("29tk", ("B5",)))
    assert rej.rule == "4.6"
    assert g.state.active_side == "german"
    g.do("german", M("11pz", ("A5",)))
    assert g.unit("11pz").hex == "A5"


def test_1_8_a_player_moves_only_his_own_units(scenario):
    """1.8 The "owner" of a unit is the player who controls its side."""
    state = empty_state(scenario, {"29tk": "B6", "11pz": "A6"}, turn=3, phase="soviet-movement")
    g = Game(scenario, state)
    rej = g.refuse("soviet", M("11pz", ("A5",)))
    assert rej.code == "not-your-unit"
    assert "11pz is a German unit" in rej.message
    g.do("soviet", M("29tk", ("B5",)))
    assert g.unit("29tk").hex == "B5"

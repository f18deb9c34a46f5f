"""Section 16: the data file. 16.10 (a)-(g) on the loaded scenario, then validation on load."""

from __future__ import annotations

from fractions import Fraction

import pytest

from adjudicator.core.scenario import ScenarioError
from adjudicator.hells_gate.loader import default_scenario_text, load_scenario
from adjudicator.hells_gate.setup import initial_state

# -- 16.10 checks


def test_16_10_a_crt_columns(scenario):
    """16.10 (a) The column list contains 1:1, 3:2, 2:1, 3:1, 4:1, 6:1 and 8:1; 8:1 is the
    highest column; no column lies between 6:1 and 8:1."""
    labels = [c.label for c in scenario.columns]
    assert {"1:1", "3:2", "2:1", "3:1", "4:1", "6:1", "8:1"} <= set(labels)
    assert labels[-1] == "8:1"
    assert labels.index("8:1") == labels.index("6:1") + 1
    odds = [Fraction(c.a, c.b) for c in scenario.columns]
    assert odds == sorted(odds) and len(set(odds)) == len(odds)


@pytest.mark.parametrize(
    "column, die, right_hand, hits",
    [
        ("2:1", 5, False, 1),  # W2, W7
        ("8:1", 3, True, 2),  # W3
        ("3:2", 4, True, 0),  # W4
        ("3:1", 2, True, 1),  # W6
        ("4:1", 2, True, 1),  # W10b
    ],
)
def test_16_10_b_crt_cells_of_the_worked_example(scenario, column, die, right_hand, hits):
    """16.10 (b) CRT(2:1, 5) left = 1; CRT(8:1, 3) right = 2; CRT(3:2, 4) right = 0;
    CRT(3:1, 2) right = 1; CRT(4:1, 2) right = 1."""
    assert scenario.hits(column, die, right_hand) == hits


def test_16_10_c_crt_at_8_to_1(scenario):
    """16.10 (c) At 8:1, exactly 4 of the 6 left-hand values are 1; exactly 4 of the 6
    right-hand values are 2 and the other 2 are at least 3."""
    left = [scenario.hits("8:1", d, False) for d in range(1, 7)]
    right = [scenario.hits("8:1", d, True) for d in range(1, 7)]
    assert left.count(1) == 4
    assert right.count(2) == 4
    others = [v for v in right if v != 2]
    assert len(others) == 2 and all(v >= 3 for v in others)


def test_16_6_crt_cells_are_non_negative_and_complete(scenario):
    """16.6 for each column and each die result 1 to 6, the left-hand and right-hand number of
    hits, as non-negative integers."""
    for col in scenario.columns:
        cells = scenario.cells[col.label]
        assert len(cells) == 6
        assert all(left >= 0 and right >= 0 for left, right in cells)


def test_16_10_d_terrain(scenario):
    """16.10 (d) B2, B6 and B7 are clear; C2, C5 and C7 are woods."""
    assert [scenario.hexes[h].terrain for h in ("B2", "B6", "B7")] == ["clear"] * 3
    assert [scenario.hexes[h].terrain for h in ("C2", "C5", "C7")] == ["woods"] * 3
    assert scenario.hexes["F6"].terrain == "cherkassy"  # 16.2


def test_16_10_e_river_hexsides(scenario):
    """16.10 (e) River hexsides separate B7 from A6, C1 from B2, and B6 from the hexes of the
    11th and 14th Panzer Divisions' attack. The hexsides B1-B2 and C7-C6 are not river hexsides."""
    assert scenario.is_river("B7", "A6") and scenario.is_river("A6", "B7")
    assert scenario.is_river("C1", "B2")
    panzer_hexes = {scenario.units[u].entry_hex for u in ("11pz", "14pz")}
    assert panzer_hexes == {"A6"}
    assert all(scenario.is_river("B6", h) for h in panzer_hexes)
    assert not scenario.is_river("B1", "B2")
    assert not scenario.is_river("C7", "C6")


def test_16_3_every_river_hexside_joins_adjacent_hexes(scenario):
    """16.3 River hexsides, as unordered pairs of adjacent hexes."""
    assert scenario.river_hexsides
    for side in scenario.river_hexsides:
        a, b = sorted(side)
        assert scenario.grid.adjacent(a, b)


def test_16_10_f_a6_and_a2_german(scenario):
    """16.10 (f) A6 and A2 are German supply hexes or contain German units at the start."""
    start = initial_state(scenario)
    for h in ("A6", "A2"):
        german_start = any(u.hex == h and u.side == "german" for u in start.units.values())
        assert scenario.hexes[h].supply == "german" or german_start, h


def test_16_10_g_start_positions_of_the_worked_example(scenario):
    """16.10 (g) Start positions stated in the example."""
    state = initial_state(scenario)

    def side_units(hex_id, side):
        return [u.id for u in state.units_in(hex_id) if u.side == side]

    assert state.units["389id"].hex == "C6"
    assert state.units["198id"].hex == "B2"
    assert state.units["88id"].hex == "D2"
    assert len(side_units("B7", "german")) == 2
    c2 = side_units("C2", "german")
    assert len(c2) == 1 and scenario.units[c2[0]].steps == 1
    assert side_units("A1", "german")
    assert state.units["5gtk"].hex == "B1"
    assert state.units["20tk"].hex == "C7"
    assert state.units["20grc"].hex == "D7"
    assert side_units("C1", "soviet") and side_units("E6", "soviet")
    # W2: one infantry division and one armor unit in B7
    assert sorted(scenario.units[u].type for u in side_units("B7", "german")) == [
        "armor",
        "infantry",
    ]


def test_16_5_named_hexes(scenario):
    """16.5 Named hexes: Cherkassy F6, Tychinovka B3, Korsun airfield E3, Yanovka E2,
    Shenderovka D3, Smela, and the 24th Panzer trigger hexes A2 to A6."""
    named = scenario.named
    assert (
        named["cherkassy"],
        named["tychinovka"],
        named["korsun_airfield"],
        named["yanovka"],
        named["shenderovka"],
    ) == ("F6", "B3", "E3", "E2", "D3")
    assert named["smela"] in scenario.grid
    assert named["panzer24_trigger"] == ["A2", "A3", "A4", "A5", "A6"]


def test_16_8_flags(scenario):
    """16.8 Flags: the three Soviet armor units for rule 12.2; which German armor units start on
    the map (rule 12.4); the id of the German 24th Panzer Division; the red marks on turns 5 and 7.
    16.9 Initial weather: Snow."""
    f = scenario.flags
    armor = f["turn1_soviet_armor"]
    assert len(armor) == 3
    assert all(
        scenario.units[u].type == "armor"
        and scenario.units[u].side == "soviet"
        and scenario.units[u].setup_hex
        for u in armor
    )
    on_map_armor = sorted(
        u
        for u, s in scenario.units.items()
        if s.side == "soviet" and s.type == "armor" and s.setup_hex
    )
    assert sorted(armor) == on_map_armor  # 12.2: exactly the Soviet armor on the map
    assert all(
        scenario.units[u].side == "german"
        and scenario.units[u].type == "armor"
        and scenario.units[u].setup_hex
        for u in f["german_armor_at_start"]
    )
    assert f["german_24th_panzer"] == "24pz"
    assert f["red_turns"] == [5, 7]
    assert f["initial_weather"] == "snow"


# -- validation on load: broken copies


def write_broken(tmp_path, old: str, new: str, count: int = 1):
    text = default_scenario_text()
    assert text.count(old) >= count, old
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return path


def load_error(path) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    err = info.value
    assert err.source == str(path)
    assert str(err).startswith(f"{path}: ")  # the message names the file
    return err


def test_16_the_unchanged_file_loads(tmp_path):
    """16 The data file must contain ... (the shipped file passes validation from any path)."""
    path = tmp_path / "copy.toml"
    path.write_text(default_scenario_text(), encoding="utf-8")
    scen = load_scenario(path)
    assert scen.source == str(path) and len(scen.units) == 42


def test_16_7_unit_with_an_unknown_hex(tmp_path):
    """16.7 Every counter with the attributes of rule 2.1 (its hex must be on the map)."""
    path = write_broken(tmp_path, 'setup_hex = "B1"', 'setup_hex = "Z9"')
    err = load_error(path)
    assert "5gtk" in err.entry and "[[units]]" in err.entry
    assert "Z9" in err.problem and "not a hex" in err.problem


def test_16_7_unit_with_an_unknown_entry_hex(tmp_path):
    """16.7 Every counter with the attributes of rule 2.1 (entry_hex on the map)."""
    path = write_broken(tmp_path, 'entry_hex = "D7"', 'entry_hex = "D8"')
    err = load_error(path)
    assert "18tk" in err.entry
    assert "entry_hex 'D8'" in err.problem


def test_16_7_duplicate_unit_id(tmp_path):
    """2.1 `id`: unique identifier."""
    path = write_broken(tmp_path, 'id = "47rc"', 'id = "5gtk"')
    err = load_error(path)
    assert "#2" in err.entry and "5gtk" in err.entry
    assert "duplicate unit id '5gtk'" in err.problem


def test_16_7_two_step_unit_without_reduced_strength(tmp_path):
    """2.1 `strength_reduced`: the strength printed on the reduced side (two-step units only)."""
    path = write_broken(
        tmp_path,
        'strength_full = 2\nstrength_reduced = 1\nbracketed = true\nsetup_hex = "B1"',
        'strength_full = 2\nbracketed = true\nsetup_hex = "B1"',
    )
    err = load_error(path)
    assert "5gtk" in err.entry
    assert "two-step unit needs" in err.problem and "strength_reduced" in err.problem


def test_16_6_crt_row_with_5_cells(tmp_path):
    """16.6 for each column and each die result 1 to 6 ..."""
    path = write_broken(
        tmp_path,
        '"2:1" = [[0, 0], [0, 0], [0, 1], [1, 1], [1, 1], [1, 2]]',
        '"2:1" = [[0, 0], [0, 0], [0, 1], [1, 1], [1, 1]]',
    )
    err = load_error(path)
    assert err.entry == "[crt.cells] 2:1"
    assert "6 cells" in err.problem


def test_16_6_crt_cell_with_negative_hits(tmp_path):
    """16.6 ... the number of hits, as non-negative integers."""
    path = write_broken(
        tmp_path,
        '"1:2" = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 1]]',
        '"1:2" = [[0, 0], [0, 0], [0, -1], [0, 0], [0, 0], [0, 1]]',
    )
    err = load_error(path)
    assert err.entry == "[crt.cells] 1:2 die 3"
    assert ">= 0" in err.problem


def test_16_3_river_between_non_adjacent_hexes(tmp_path):
    """16.3 River hexsides, as unordered pairs of adjacent hexes."""
    path = write_broken(tmp_path, '[["B1", "C1"], ["B2", "C1"]', '[["B1", "C3"], ["B2", "C1"]')
    err = load_error(path)
    assert err.entry == "[map.rivers] Gniloy Tikich[0]"
    assert "B1 and C3 are not adjacent" in err.problem


def test_16_2_bad_terrain(tmp_path):
    """16.2 Terrain of each hex for combat and movement: clear, woods, or Cherkassy (F6)."""
    path = write_broken(tmp_path, 'A1 = { terrain = "clear" }', 'A1 = { terrain = "swamp" }')
    err = load_error(path)
    assert err.entry == "[map.hexes] A1"
    assert "'swamp'" in err.problem and "clear, woods, cherkassy" in err.problem


def test_16_1_missing_hex(tmp_path):
    """16.1 Map geometry: every hex by name."""
    path = write_broken(tmp_path, 'A3 = { terrain = "clear" }\n', "")
    err = load_error(path)
    assert err.entry == "[map.hexes] A3"
    assert "missing" in err.problem


def test_16_toml_syntax_error(tmp_path):
    """16 The data file (must be readable: a syntax error is reported with the file)."""
    path = write_broken(tmp_path, "turns = 8", "turns = = 8")
    err = load_error(path)
    assert err.entry == "file"
    assert "not valid TOML" in err.problem


def test_16_8_flag_naming_a_missing_unit(tmp_path):
    """16.8 Flags: the three Soviet armor units for rule 12.2."""
    path = write_broken(
        tmp_path,
        'turn1_soviet_armor = ["5gtk", "20tk", "29tk"]',
        'turn1_soviet_armor = ["5gtk", "20tk", "99tk"]',
    )
    err = load_error(path)
    assert err.entry == "[flags] turn1_soviet_armor"
    assert "'99tk' is not a soviet unit" in err.problem


def test_16_8_24th_panzer_flag_naming_a_missing_unit(tmp_path):
    """16.8 Flags: the id of the German 24th Panzer Division."""
    path = write_broken(tmp_path, 'german_24th_panzer = "24pz"', 'german_24th_panzer = "25pz"')
    err = load_error(path)
    assert err.entry == "[flags] german_24th_panzer"
    assert "'25pz'" in err.problem

"""Section 10 (recovery phase) and section 11 (weather), on hand-built states.

The automatic phases (recovery, supply, joint) run when the phase before them ends, so each
test ends a player phase with `end` and looks at the state of the next player phase.
"""

from __future__ import annotations

import pytest

from tests.hells_gate.helpers import END, A, Game, L, M, empty_state


def game(scenario, units, **kw) -> Game:
    return Game(scenario, empty_state(scenario, units, **kw))


# -- 10 recovery


def test_10_1_soviet_recovery_removes_only_soviet_retreat_markers(scenario):
    """10.1: "the phasing player removes all Retreat markers from his own units.\""""
    g = game(
        scenario,
        {"47rc": "C4", "48rc": "C5", "34id": "A2", "88id": "A4"},
        turn=3,
        phase="soviet-movement",
        retreated=["47rc", "48rc", "34id"],
    )
    g.do("soviet", END)  # Soviet recovery, German supply, then German combat
    assert g.state.phase == "german-combat"
    assert not g.unit("47rc").retreated and not g.unit("48rc").retreated
    assert g.unit("34id").retreated  # German marker stays through the Soviet recovery
    removed = [e.data["unit"] for e in g.events if e.kind == "RetreatMarkerRemoved"]
    assert sorted(removed) == ["47rc", "48rc"]


def test_10_1_german_recovery_removes_only_german_retreat_markers(scenario):
    """10.1: "In his recovery phase (phase 4 Soviet, phase 8 German) the phasing player removes
    all Retreat markers from his own units.\""""
    g = game(
        scenario,
        {"47rc": "C4", "34id": "B4"},
        turn=3,
        phase="german-movement",
        retreated=["47rc", "34id"],
    )
    g.do("german", END, dice=[6])  # German recovery, joint (Snow stays), Soviet supply
    assert (g.state.turn, g.state.phase) == (4, "soviet-combat")
    assert not g.unit("34id").retreated
    assert g.unit("47rc").retreated  # still marked in the Soviet combat phase of turn 4
    rejection = g.refuse("soviet", A("B4", ("47rc",)))
    assert rejection.rule == "8.4(g)"
    removed = [e.data["unit"] for e in g.events if e.kind == "RetreatMarkerRemoved"]
    assert removed == ["34id"]


def test_10_1_markers_are_not_removed_in_combat_or_movement_phases(scenario):
    """10.1: Retreat markers go in the recovery phase - not when combat or movement ends."""
    g = game(
        scenario,
        {"47rc": "C4", "34id": "A2"},
        turn=3,
        phase="soviet-combat",
        retreated=["47rc", "34id"],
    )
    g.do("soviet", END)
    assert g.state.phase == "soviet-movement"
    assert g.unit("47rc").retreated and g.unit("34id").retreated


def test_10_2_german_unit_retreated_in_phase_2_keeps_marker_until_phase_8(scenario):
    """10.2: "A German unit that retreats in phase 2 loses the marker in phase 8 of the same turn.\""""
    # 21grc (4) against 34id (2) in B4: 2:1, die 5 = 1 hit; the German player retreats to A3.
    g = game(scenario, {"21grc": "C4", "34id": "B4", "88id": "A1"}, turn=3, phase="soviet-combat")
    g.do("soviet", A("B4", ("21grc",)), dice=[5])
    g.do("german", L((), "A3"))
    assert (g.unit("34id").hex, g.unit("34id").retreated) == ("A3", True)
    g.do("soviet", END)
    g.do("soviet", END)  # Soviet recovery does not touch German markers
    assert g.state.phase == "german-combat" and g.unit("34id").retreated
    g.do("german", END)
    rejection = g.refuse("german", M("34id", ("A2",)))  # still marked in German movement
    assert rejection.rule == "8.36"
    g.do("german", END, dice=[6])  # German recovery (phase 8)
    assert (g.state.turn, g.unit("34id").retreated) == (4, False)


def test_10_2_soviet_unit_retreated_in_phase_6_keeps_marker_until_next_phase_4(scenario):
    """10.2: "A Soviet unit that retreats in phase 6 loses the marker in phase 4 of the next turn.\""""
    # 3pz [2] x3 against 48rc (3) in C4: 6:3 = 2:1, die 5 = 1 hit; the Soviet player retreats.
    g = game(scenario, {"3pz": "B4", "48rc": "C4", "47rc": "D2"}, turn=3, phase="german-combat")
    g.do("german", A("C4", ("3pz",)), dice=[5])
    g.do("soviet", L((), "D5"))
    assert (g.unit("48rc").hex, g.unit("48rc").retreated) == ("D5", True)
    g.do("german", END)
    g.do("german", END, dice=[6])  # German recovery, joint, turn 4 Soviet supply
    assert (g.state.turn, g.state.phase) == (4, "soviet-combat")
    assert g.unit("48rc").retreated
    g.do("soviet", END)
    rejection = g.refuse("soviet", M("48rc", ("D4",)))
    assert rejection.rule == "8.36"
    g.do("soviet", END)  # Soviet recovery (phase 4 of turn 4)
    assert not g.unit("48rc").retreated


# -- 11 weather


def test_11_2_turn_1_is_snow(scenario):
    """11.2: "Turn 1 is Snow.\""""
    g = Game(scenario)
    assert (g.state.turn, g.state.weather) == (1, "snow")


@pytest.mark.parametrize(
    "die, weather", [(1, "mud"), (2, "mud"), (3, "snow"), (4, "snow"), (5, "snow"), (6, "snow")]
)
def test_11_3_weather_roll_1_or_2_turns_mud(scenario, die, weather):
    """11.3: "On 1 or 2 the marker is flipped to Mud. On 3, 4, 5 or 6 it stays Snow.\""""
    g = game(scenario, {"47rc": "C4"}, turn=3, phase="german-movement")
    out = g.do("german", END, dice=[die])
    assert [(r.purpose, r.value) for r in out.rolls] == [("weather", die)]
    assert (g.state.turn, g.state.weather) == (4, weather)


@pytest.mark.parametrize("turn", range(1, 8))
def test_11_3_weather_is_rolled_in_the_joint_phase_of_turns_1_to_7(scenario, turn):
    """11.3: "In phase 9 of turns 1 to 7, if the weather is Snow, the German player rolls one die.\""""
    g = game(scenario, {"47rc": "C4"}, turn=turn, phase="german-movement")
    out = g.do("german", END, dice=[1])
    assert [r.purpose for r in out.rolls] == ["weather"]
    assert (g.state.turn, g.state.weather) == (turn + 1, "mud")
    phases = [e.data["phase"] for e in out.events if e.kind == "PhaseBegan"]
    assert phases.index("joint") < phases.index("soviet-supply")


def test_11_3_no_weather_roll_after_turn_8(scenario):
    """11.3: "In phase 9 of turns 1 to 7" - turn 8 has no phase 9 (4.8), so no roll."""
    g = game(scenario, {"47rc": "C1"}, turn=8, phase="german-movement")
    out = g.do("german", END, dice=[])
    assert out.rolls == []
    assert g.state.weather == "snow" and g.state.result is not None
    assert "joint" not in [e.data.get("phase") for e in out.events if e.kind == "PhaseBegan"]


def test_11_3_the_roll_sets_the_weather_of_the_next_turn(scenario):
    """11.3: "The result is the weather of the next turn" - Mud limits turn-4 moves to 1 hex."""
    g = game(scenario, {"29tk": "C4"}, turn=3, phase="german-movement")
    g.do("german", END, dice=[2])
    g.do("soviet", END)
    assert (g.state.turn, g.state.phase, g.state.weather) == (4, "soviet-movement", "mud")
    rejection = g.refuse("soviet", M("29tk", ("C3", "B3")))
    assert rejection.rule == "9.10"


def test_11_4_once_mud_it_stays_mud_and_no_roll_is_made(scenario):
    """11.4: "Once the weather is Mud it stays Mud until the end of the game. No further weather
    rolls are made.\""""
    g = game(scenario, {"47rc": "C4"}, turn=3, phase="german-movement", weather="mud")
    out = g.do("german", END, dice=[])  # no die available: a roll would fail
    assert out.rolls == [] and not [e for e in out.events if e.kind.startswith("Weather")]
    assert (g.state.turn, g.state.weather) == (4, "mud")
    g.do("soviet", END)  # and the next turn: still no roll
    g.do("soviet", END)
    g.do("german", END)
    out = g.do("german", END, dice=[])
    assert out.rolls == [] and (g.state.turn, g.state.weather) == (5, "mud")


def test_11_4_mud_is_never_flipped_back_by_a_high_roll(scenario):
    """11.4: "Once the weather is Mud it stays Mud until the end of the game.\""""
    g = game(scenario, {"47rc": "C4"}, turn=2, phase="german-movement")
    g.do("german", END, dice=[1])
    assert g.state.weather == "mud"
    g.do("soviet", END)
    g.do("soviet", END)
    g.do("german", END)
    g.do("german", END, dice=[6, 6])  # offered dice are not used
    assert (g.state.turn, g.state.weather) == (4, "mud")


def test_11_5_the_roll_at_the_end_of_turn_1_can_make_turn_2_mud(scenario):
    """11.5: "The phase 9 that ends turn 1 begins turn 2, so turn 2 can already be Mud.\""""
    g = game(scenario, {"47rc": "C4"}, turn=1, phase="german-movement")
    out = g.do("german", END, dice=[2])
    assert [r.purpose for r in out.rolls] == ["weather"]
    assert (g.state.turn, g.state.weather) == (2, "mud")


def test_11_7_mud_shifts_every_attack_one_column_left(scenario):
    """11.7: "Mud effects: rule 9.10 and column shift S3 (1 left) on every attack.\""""
    # 21grc (4) + 47rc (3) against 34id (2) in B4 (clear, no river from C4/C3): 7:2 = 3:1.
    units = {"21grc": "C4", "47rc": "C3", "34id": "B4"}
    snow = game(scenario, units, turn=3, phase="soviet-combat")
    snow.do("soviet", A("B4", ("21grc", "47rc")), dice=[1])
    assert (snow.last.combat["raw_column"], snow.last.combat["final_column"]) == ("3:1", "3:1")
    assert snow.last.combat["shifts"] == []
    mud = game(scenario, units, turn=3, phase="soviet-combat", weather="mud")
    mud.do("soviet", A("B4", ("21grc", "47rc")), dice=[1])
    c = mud.last.combat
    assert (c["raw_column"], c["final_column"]) == ("3:1", "2:1")
    assert [(s["code"], s["columns"]) for s in c["shifts"]] == [("S3", -1)]


def test_11_7_mud_shift_applies_to_german_attacks_too(scenario):
    """11.7: "column shift S3 (1 left) on every attack" - German attacks included."""
    g = game(scenario, {"3pz": "B4", "48rc": "C4"}, turn=3, phase="german-combat", weather="mud")
    doc = g.preview("german", A("C4", ("3pz",)))
    assert (doc["raw_column"], doc["final_column"]) == ("2:1", "3:2")
    assert [s["code"] for s in doc["shifts"]] == ["S3"]


@pytest.mark.parametrize("unit", ["29tk", "5mc", "5gcc", "47rc"])
def test_11_7_mud_every_unit_moves_one_hex(scenario, unit):
    """11.7: "Mud effects: rule 9.10" - at most 1 hex for every unit."""
    g = game(scenario, {unit: "C4"}, turn=3, phase="soviet-movement", weather="mud")
    rejection = g.refuse("soviet", M(unit, ("C3", "B3")))
    assert rejection.rule in ("9.10", "9.3") and "at most 1 hex" in rejection.message
    g.do("soviet", M(unit, ("C3",)))
    assert g.unit(unit).hex == "C3"

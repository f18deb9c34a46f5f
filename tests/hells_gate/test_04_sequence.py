"""Section 4: the sequence of play."""

from __future__ import annotations

import pytest

from adjudicator.core.dice import DiceExhausted
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.state import AUTOMATIC_PHASES, PHASES
from tests.hells_gate.helpers import END, A, Game, L, M, empty_state, new_game


def began(g: Game, since: int = 0) -> list[str]:
    return [e.data["phase"] for e in g.events[since:] if e.kind == "PhaseBegan"]


def sandbox_turn(scenario, turn: int, phase: str | None = None) -> Game:
    g = Game(scenario, sandbox=True)
    g.do("moderator", O.SetTurn(turn))
    if phase:
        g.do("moderator", O.SetPhase(phase))
    g.events.clear()
    return g


def test_4_1_nine_phases_in_order():
    """4.1 Each turn consists of these 9 phases, in this order."""
    assert PHASES == (
        "soviet-supply",
        "soviet-combat",
        "soviet-movement",
        "soviet-recovery",
        "german-supply",
        "german-combat",
        "german-movement",
        "german-recovery",
        "joint",
    )


def test_4_1_a_whole_turn_runs_through_the_nine_phases(scenario):
    """4.1 Each turn consists of these 9 phases, in this order."""
    g = sandbox_turn(scenario, 3)  # turn 3, Soviet combat phase
    g.do("soviet", END)
    g.do("soviet", END)
    g.do("german", END)
    g.do("german", END, dice=[4])
    assert began(g) == [
        "soviet-movement",
        "soviet-recovery",
        "german-supply",
        "german-combat",
        "german-movement",
        "german-recovery",
        "joint",
        "soviet-supply",
        "soviet-combat",
    ]
    assert (g.state.turn, g.state.phase) == (4, "soviet-combat")


def test_4_2_4_3_automatic_phases_advance_by_themselves(scenario):
    """4.2/4.3 Phase 4 Soviet recovery and phase 5 German supply need no player: after the
    Soviet movement phase the game waits in the German combat phase."""
    assert AUTOMATIC_PHASES == {
        "soviet-supply",
        "soviet-recovery",
        "german-supply",
        "german-recovery",
        "joint",
    }
    g = sandbox_turn(scenario, 3, "soviet-movement")
    g.do("soviet", END)
    assert began(g) == ["soviet-recovery", "german-supply", "german-combat"]
    assert g.state.phase == "german-combat" and g.state.active_side == "german"
    assert g.refuse("soviet", END).rule == "4.6"


def test_4_2_soviet_player_turn_comes_first(scenario):
    """4.2 Soviet player turn: phase 1 supply, 2 combat, 3 movement, 4 recovery."""
    g = Game(scenario)  # a new game: the Soviet supply phase has been played
    assert [e.data["phase"] for e in new_game(scenario).events if e.kind == "PhaseBegan"] == [
        "soviet-supply",
        "soviet-combat",
    ]
    assert (g.state.turn, g.state.phase, g.state.active_side) == (1, "soviet-combat", "soviet")


def test_4_4_joint_phase_advances_the_turn_and_rolls_weather(scenario):
    """4.4 Phase 9: advance the turn marker one box and make the weather roll (section 11)."""
    g = sandbox_turn(scenario, 3, "german-movement")
    out = g.do("german", END, dice=[2])
    assert [r.purpose for r in out.rolls] == ["weather"]
    assert (g.state.turn, g.state.weather, g.state.phase) == (4, "mud", "soviet-combat")
    g2 = sandbox_turn(scenario, 3, "german-movement")
    g2.do("german", END, dice=[3])
    assert (g2.state.turn, g2.state.weather) == (4, "snow")


def test_4_5_move_in_combat_phase_refused(scenario):
    """4.5 Combat comes before movement in each player turn."""
    state = empty_state(scenario, {"47rc": "B1", "198id": "B2"}, turn=3, phase="soviet-combat")
    g = Game(scenario, state)
    rej = g.refuse("soviet", M("47rc", ("C1",)))
    assert rej.rule == "4.5"
    assert "combat comes first" in rej.message
    g.do("soviet", END)
    g.do("soviet", M("47rc", ("C1",)))
    assert g.unit("47rc").hex == "C1"


def test_4_5_attack_in_movement_phase_refused(scenario):
    """4.5 Combat comes before movement in each player turn (no attack once combat is over)."""
    state = empty_state(scenario, {"47rc": "B1", "198id": "B2"}, turn=3, phase="soviet-combat")
    g = Game(scenario, state)
    g.do("soviet", END)
    assert g.state.phase == "soviet-movement"
    rej = g.refuse("soviet", A("B2", ("47rc",)))
    assert rej.rule in ("4.2", "4.5")
    assert "combat phase" in rej.message and "soviet-movement" in rej.message


def test_4_5_no_advance_after_combat(scenario):
    """4.5 There is no advance after combat."""
    state = empty_state(
        scenario,
        {"29tk": "B7", "48rc": "B7", "389id": "C6"},
        turn=3,
        phase="soviet-combat",
        reduced=["389id"],
    )
    g = Game(scenario, state)
    g.do("soviet", A("C6", ("29tk", "48rc")), dice=[6])  # 9:1 -> 8:1, die 6: 2 hits
    assert g.unit("389id").box == "eliminated"  # C6 is empty now
    assert (g.unit("29tk").hex, g.unit("48rc").hex) == ("B7", "B7")
    assert g.refuse("soviet", M("29tk", ("C6",))).rule == "4.5"
    assert g.state.pending == []


def test_4_6_only_the_phasing_player_attacks(scenario):
    """4.6 Only the phasing player attacks and moves."""
    state = empty_state(scenario, {"47rc": "B1", "198id": "B2"}, turn=3, phase="soviet-combat")
    g = Game(scenario, state)
    rej = g.refuse("german", A("B1", ("198id",)))
    assert rej.rule == "4.6"
    assert "only the Soviet player acts now" in rej.message
    assert g.legal("german") == []
    assert A("B2", ("47rc",)) in g.legal("soviet")


def test_4_6_only_the_phasing_player_moves(scenario):
    """4.6 Only the phasing player attacks and moves."""
    state = empty_state(scenario, {"47rc": "B1", "198id": "B3"}, turn=3, phase="soviet-movement")
    g = Game(scenario, state)
    assert g.refuse("german", M("198id", ("B4",))).rule == "4.6"
    rej = g.refuse("soviet", M("198id", ("B4",)))  # the Soviet player moving a German unit
    assert rej.rule == "4.6" and rej.code == "not-your-unit"
    g.do("soviet", M("47rc", ("B2",)))
    assert g.unit("47rc").hex == "B2"


def test_4_6_non_phasing_units_move_only_by_retreating(scenario):
    """4.6 The non-phasing player's units move only by retreating (rule 8.31)."""
    state = empty_state(scenario, {"47rc": "B4", "16pz": "C4"}, turn=3, phase="german-combat")
    g = Game(scenario, state)
    g.do("german", A("B4", ("16pz",)), dice=[3])  # 9:3 = 3:1, die 3: 1 hit
    assert g.state.pending[0].side == "soviet"
    g.do("soviet", L((), "A3"))  # answered by the non-phasing player in the German phase
    assert g.unit("47rc").hex == "A3" and g.unit("47rc").retreated
    assert g.state.phase == "german-combat"


def test_4_7_game_ends_after_phase_8_of_turn_8(scenario):
    """4.7 After phase 8 of turn 8 the game ends: apply end-of-game supply attrition (section
    13), then count victory points (section 14)."""
    g = sandbox_turn(scenario, 8, "german-movement")
    g.do("german", END)  # no die given: no weather roll may be asked for
    assert g.state.result is not None and g.state.vp is not None
    assert g.state.result["winner"] in ("soviet", "german", "draw")
    kinds = g.kinds()
    assert kinds.index("GameEnding") < kinds.index("GameEnded")
    assert began(g) == ["german-recovery"]
    assert g.state.active_side is None
    rej = g.refuse("soviet", END)
    assert rej.rule == "4.7"


def test_4_7_attrition_before_victory_points(scenario):
    """4.7 apply end-of-game supply attrition (section 13), then count victory points."""
    state = empty_state(
        scenario,
        {"47rc": "B4", "16pz": "A4", "17pz": "C3", "1pz": "C5", "5gtk": "B1"},
        turn=8,
        phase="german-movement",
    )
    g = Game(scenario, state)
    g.do("german", END)
    assert g.unit("47rc").box == "eliminated"  # surrounded: no supply line at the end
    assert g.state.vp["german"]["eliminated_steps"] == 2


def test_4_8_no_joint_phase_after_turn_8(scenario):
    """4.8 Phase 9 is not played in turn 8."""
    g = sandbox_turn(scenario, 8, "german-movement")
    out = g.do("german", END)
    assert out.rolls == []
    assert "joint" not in began(g)
    assert g.state.turn == 8
    assert "WeatherStays" not in g.kinds() and "WeatherChanged" not in g.kinds()


def test_4_8_joint_phase_is_played_in_turn_7(scenario):
    """4.8 Phase 9 is not played in turn 8 (it is in turns 1 to 7)."""
    g = sandbox_turn(scenario, 7, "german-movement")
    with pytest.raises(DiceExhausted):
        g.do("german", END)  # the weather roll of phase 9 needs a die
    g.do("german", END, dice=[5])
    assert "joint" in began(g)
    assert (g.state.turn, g.state.phase, g.state.result) == (8, "soviet-combat", None)

"""The block game's heuristic for the built-in opponent (adjudicator/northern_war/heuristic.py):
battles to come judged by their odds, garrisons by the enemy stacks that can reach them, the
coalition's royal blocks at risk (N3, N5, N11, 4.4)."""

from __future__ import annotations

from adjudicator.core.dice import HashDice
from adjudicator.northern_war import heuristic
from adjudicator.northern_war.state import ON_MAP, POOL, NWState
from tests.northern_war.helpers import sample

SYSTEM = sample()
SC = SYSTEM.scenario


def setup() -> NWState:
    return SYSTEM.initial(False, HashDice("heuristic")).state


def placed(state: NWState, moves: dict[str, tuple[str, int]]) -> NWState:
    """`state` with these blocks at these territories and strengths (on the map)."""
    out = state.clone()
    for block, (area, strength) in moves.items():
        out.at[block], out.strength[block], out.status[block] = area, strength, ON_MAP
    return out


def value(state: NWState, side: str) -> float:
    return heuristic.evaluate(SC, state, side)


def test_the_setup_is_judged_the_same_from_both_sides_with_opposite_signs():
    state = setup()
    assert value(state, "sweden") == -value(state, "coalition")


def test_an_overwhelming_attack_on_an_open_victory_territory_counts_it_as_nearly_taken():
    """N3 f, N5: Courland (no fortress) passes to the side left alone there after the battle
    phase; two strong Swedish armies against Flemming alone should win it, two weak ones
    not."""
    state = setup()
    strong = placed(state, {"charles": ("courland", 4), "rehnskiold": ("courland", 4)})
    strong.holders["courland"] = "coalition"
    weak = placed(state, {"charles": ("courland", 1), "rehnskiold": ("courland", 1)})
    weak.holders["courland"] = "coalition"
    assert value(strong, "sweden") > value(weak, "sweden") + heuristic.CONTROL
    fight = heuristic._fight(((3.0, 1.0, 2),), ((4.0, 2.0, 0), (4.0, 2.0, 1)))
    assert fight[0] > 0.9 and fight[1] < 0.1  # the defender wiped out, the attacker not
    hopeless = heuristic._fight(((4.0, 2.0, 0), (4.0, 2.0, 1)), ((1.0, 1.0, 2),))
    assert hopeless[0] < 0.05 and hopeless[1] > 0.9


def test_a_stronger_garrison_of_an_open_victory_territory_is_less_exposed():
    """A victory territory the enemy can reach counts as partly lost: all of it (no fortress,
    N5) when nobody holds it, less the stronger its garrison against the strongest Swedish
    stack in reach (Charles and Rehnskiold in Livonia, next to Courland)."""
    two = {"charles": ("livonia", 4), "rehnskiold": ("livonia", 4)}
    state = placed(setup(), {**two, "lewenhaupt": ("stockholm", 3)})
    empty = state.clone()
    empty.at["flemming"], empty.status["flemming"] = None, POOL
    thin = placed(state, {"flemming": ("courland", 1)})
    thick = placed(state, {"flemming": ("courland", 4), "menshikov": ("courland", 4)})

    def exposed(s: NWState) -> float:
        stacks = heuristic._stacks(SC, s)
        return heuristic._exposed(
            SC, s, "coalition", stacks, heuristic._reach(SC, stacks, "coalition")
        )

    assert exposed(empty) > exposed(thin) + 0.9  # Lithuania too is in reach through Courland
    assert exposed(thin) - exposed(thick) > 0.5
    far = placed(thick, {"charles": ("stockholm", 4), "rehnskiold": ("stockholm", 4)})
    assert exposed(far) < exposed(thick)  # out of reach


def test_a_coalition_royal_block_in_a_lost_battle_weighs_for_sweden():
    """4.4, N11: a royal block wiped out takes its nation out of the war."""
    state = setup()
    safe = placed(state, {"augustus": ("warsaw", 3)})
    risky = placed(state, {"augustus": ("pomerania", 1)})
    risky.holders["pomerania"] = "sweden"
    gone = state.clone()
    gone.status["augustus"], gone.at["augustus"] = POOL, None
    assert value(gone, "sweden") > value(risky, "sweden") > value(safe, "sweden")


def test_a_coalition_royal_block_in_reach_of_a_stronger_swedish_stack_is_partly_lost():
    """4.4, N11: Augustus alone next to Charles and Rehnskiold is at risk; stacked with a
    strong army, or out of reach, he is safer."""
    state = placed(setup(), {"charles": ("pomerania", 4), "rehnskiold": ("pomerania", 4)})
    alone = placed(state, {"augustus": ("warsaw", 2)})
    guarded = placed(alone, {"menshikov": ("warsaw", 4), "sheremetev": ("warsaw", 4)})
    away = placed(state, {"augustus": ("moscow", 2)})
    assert (
        value(alone, "coalition")
        < value(away, "coalition") - heuristic.ROYAL * heuristic.ROYAL_THREAT / 2
    )
    assert (
        value(alone, "coalition")
        < value(guarded, "coalition") - heuristic.ROYAL * heuristic.ROYAL_THREAT / 4
    )

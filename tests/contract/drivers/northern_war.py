"""The contract driver of the block game (adjudicator/northern_war): what a viewer may know of
its hidden values at a point of the game, as the system prints them."""

from __future__ import annotations

from functools import cache
from typing import Any

from tests.contract.drivers import Driver, Masks


def northern_war_masks(state: Any, side: str | None) -> Masks:
    """The only values drawn from the hidden seed are siege dice (N4 c): their owner knows them
    (the private siege report, his `blocks` list); everyone knows each siege's result. Block
    strengths come from the scenario and public battle dice, so they never differ between two
    games that differ only in the hidden seed; what a view may show of them is checked by the
    engine-level scan (tests/northern_war/test_hidden.py)."""
    names = _names()
    masks: Masks = {}
    for owner, records in state.sieges_seen.items():
        for _count, _when, area, dice, hits, _won in records:
            name = names.get(area, area)
            masks[f"the garrison surrenders; {name} passes to {owner}"] = "<siege result>"
            masks["the garrison holds"] = "<siege result>"
            if owner == side:
                rolled = " ".join(map(str, dice))
                masks[f"your blocks roll {rolled}: {hits} hit(s)"] = "your blocks roll <dice>"
                masks[f"dice {rolled}, {hits} hit{'' if hits == 1 else 's'}"] = "<dice>"
    return masks


@cache
def _names() -> dict[str, str]:
    from adjudicator.core import registry
    from app import games

    system = games.bind("northern-war", *games.default_scenario(registry.get("northern-war")))
    return {t: terr.name for t, terr in system.scenario.territories.items()}


DRIVERS = (
    Driver("northern-war", None, {"sweden": 2, "coalition": 3}, 400, 40, 4,
           masks=northern_war_masks),
)  # fmt: skip

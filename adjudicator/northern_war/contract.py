"""The contract driver of the block game (entry point `pbem.contract`): what a viewer may know
of its hidden values at a point of the game, as the system prints them."""

from __future__ import annotations

from typing import Any, cast

from adjudicator.core.driver import Driver, Masks
from adjudicator.core.system import GameSystem
from adjudicator.northern_war.system import NorthernWar


def northern_war_masks(system: GameSystem, state: Any, side: str | None) -> Masks:
    """The only values drawn from the hidden seed are siege dice (N4 c): their owner knows them
    (the private siege report, his `blocks` list); everyone knows each siege's result. Block
    strengths come from the scenario and public battle dice, so they never differ between two
    games that differ only in the hidden seed; what a view may show of them is checked by the
    engine-level scan (tests/northern_war/test_hidden.py)."""
    territories = cast(NorthernWar, system).scenario.territories
    masks: Masks = {}
    for owner, records in state.sieges_seen.items():
        for _count, _when, area, dice, hits, _won in records:
            name = territories[area].name if area in territories else area
            masks[f"the garrison surrenders; {name} passes to {owner}"] = "<siege result>"
            masks["the garrison holds"] = "<siege result>"
            if owner == side:
                rolled = " ".join(map(str, dice))
                masks[f"your blocks roll {rolled}: {hits} hit(s)"] = "your blocks roll <dice>"
                counted = f"{hits} hit{'' if hits == 1 else 's'}"  # the wording of rules 2
                masks[f"your blocks roll {rolled}: {counted}"] = "your blocks roll <dice>"
                masks[f"dice {rolled}, {hits} hit{'' if hits == 1 else 's'}"] = "<dice>"
    return masks


DRIVER = Driver(
    "northern-war",
    {"sweden": 2, "coalition": 3},
    bound=400,
    chat_orders=40,
    ask_every=4,
    masks=northern_war_masks,
    # The hidden-seed comparison needs a siege in the chat run (its dice are the only hidden
    # draws): the random chat game of the sample, under rules 2, has one when its players skip
    # `policy`, which has no effect in the sample scenario (N10).
    script_order=lambda text: not text.startswith("policy "),
)

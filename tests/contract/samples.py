"""The contract drivers of the two test systems (tests/systems/): a dice race and a hidden duel.
The installed systems declare theirs in the entry-point group `pbem.contract`."""

from __future__ import annotations

from typing import Any

from adjudicator.core.driver import Driver, Masks
from tests.systems import duel, race


def duel_masks(system: Any, state: duel.DuelState, side: str | None) -> Masks:
    """What a viewer may know of the duel's hidden values: every card played and the scores
    (everyone), and his own card in hand (its side), as the duel prints them."""
    masks = {}
    for who, plays in state.plays.items():
        for n, (card, die, total) in enumerate(plays, 1):
            masks[f"the {card}: {card} + {die} = {total}"] = f"<{who}'s card {n}> + {die}"
            masks[f"the {card}"] = f"<{who}'s card {n}>"
        masks[f"{who} {state.score[who]}"] = f"{who} <score>"
    card = state.hands.get(side) if side is not None else None
    if card is not None:
        masks[f"the {card}"] = f"<{side}'s card {state.turn}>"
    return masks


RACE = Driver("dice-race", {"red": 2, "blue": 3}, bound=20)
DUEL = Driver("hidden-duel", {"north": 2, "south": 3}, 20, 18, 2, masks=duel_masks)
DRIVERS = ((RACE, race.SYSTEM), (DUEL, duel.SYSTEM))

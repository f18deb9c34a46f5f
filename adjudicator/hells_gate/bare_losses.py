"""A bare `losses` (rules version 2): it stands for the one legal answer to the defender's
hits when exactly one is legal, and is refused with the legal answers otherwise (8.25, 8.29,
8.31). Rules 1 (every stored game) reads it as before (sequence.py)."""

from __future__ import annotations

from adjudicator.core.decisions import Decision
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from adjudicator.core.text import plural
from adjudicator.hells_gate.losses import answers_for
from adjudicator.hells_gate.order_text import said_order
from adjudicator.hells_gate.orders import Losses
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState
from adjudicator.hells_gate.texts import or_list

EXAMPLES = 6  # the legal answers a refused bare `losses` lists at most


def bare_answer(scen: Scenario, state: GameState, d: Decision) -> Losses:
    """Rules 2: a bare `losses` names neither the units that take the hits (8.25) nor whether
    the last hit is a retreat of every unit (8.29, 8.31): it stands for the one legal answer
    when exactly one is legal, and is refused, with the legal answers, otherwise."""
    answers = answers_for(scen, state, d)
    if len(answers) <= 1:  # none: refused by check_losses as naming no unit (8.23)
        return answers[0] if answers else Losses()
    shown = or_list([said_order(a) for a in answers[:EXAMPLES]])
    if len(answers) > EXAMPLES:
        shown = t(
            "{answers}, or {n} more (`options` lists them)",
            answers=shown,
            n=len(answers) - EXAMPLES,
        )
    args = {"hits": plural(d.data["hits"], "hit"), "hex": d.data["hex"], "answers": shown}
    if any(a.retreat is not None for a in answers):
        raise Rejection(
            "losses-choice",
            t(
                "{hits} in {hex}: 'losses' alone does not say which answer you choose, and more "
                "than one is legal (the units that take step losses, 8.25; the last hit as a "
                "retreat, 8.29, in which every unit without a Retreat marker leaves the hex, "
                "8.31); write {answers}",
                **args,
            ),
            "8.29",
        )
    raise Rejection(
        "losses-choice",
        t(
            "{hits} in {hex}: 'losses' alone does not say which units take the hits, and more "
            "than one way is legal (8.25, 8.27); write {answers}",
            **args,
        ),
        "8.25",
    )

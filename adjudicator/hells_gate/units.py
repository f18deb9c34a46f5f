"""Unit facts derived from the scenario and the state: strength and steps (rules 2.2-2.6)."""

from __future__ import annotations

from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import UnitState


def strength(scen: Scenario, u: UnitState) -> int:
    """2.2: the one strength number printed on the side that is up."""
    spec = scen.units[u.id]
    if not u.reduced:
        return spec.strength_full
    if spec.strength_reduced is None:  # the state's invariant: only two-step units are reduced
        raise ValueError(f"{u.id} is a one-step unit and has no reduced side (2.6)")
    return spec.strength_reduced


def steps_left(scen: Scenario, u: UnitState) -> int:
    """2.6: 2 for a two-step unit on its full side, else 1."""
    return 2 if scen.units[u.id].steps == 2 and not u.reduced else 1


def is_full_two_step(scen: Scenario, u: UnitState) -> bool:
    return scen.units[u.id].steps == 2 and not u.reduced


def printed(scen: Scenario, u: UnitState) -> str:
    """The strength as printed, in brackets where the counter's is bracketed."""
    s = str(strength(scen, u))
    return f"[{s}]" if scen.units[u.id].bracketed else s

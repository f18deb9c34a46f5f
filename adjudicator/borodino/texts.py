"""Texts of the refusals and deadline defaults that several orders share: what is under way
now, how a turn goes on, what a default does; what a moderator's `dice` tells. Pure."""

from __future__ import annotations

from adjudicator.borodino import orders as O
from adjudicator.borodino.board import phase_name
from adjudicator.borodino.state import State
from adjudicator.core.i18n import Msg, t


def busy(state: State) -> Msg:
    """What is under way now (the refusal of an order that must wait)."""
    phase, active = state.phase, state.active
    if active and phase == "activation":
        return t("the activation phase of {group} is open", group=active)
    if active and phase == "rally":
        return t("the rally phase of {group} is open", group=active)
    if active:  # only these two phases have an active group
        return t("the {phase} phase of {group} is open", phase=phase_name(phase), group=active)
    return {
        "activations": t("the activations phase is under way"),
        "recovery": t("the recovery phase is under way"),
        "placement": t("the placement phase is under way"),
    }.get(phase) or t("the {phase} phase is under way", phase=phase_name(phase))


def open_hint() -> Msg:
    return t("`activate <AG>` opens an Activation Phase, `morale` and `recovery` end the turn")


def default_text(order: object) -> Msg:
    """A deadline default, said (rules.apply_default)."""
    if isinstance(order, O.Return):
        return t(
            "return {unit} {hex} (the legal hex nearest its group, 4.2-4.4)",
            unit=order.unit,
            hex=order.hex,
        )
    if isinstance(order, O.End):
        return t("end (no optional rally is made)")
    return t("recovery (the Recovery Phase is run)")


def dice_fixed(values: tuple[int, ...]) -> Msg:
    """A sandbox moderator's `dice`, as Borodino's log has always told it (system.fix_dice)."""
    return t("Moderator fixes the next die results: {dice}.", dice=" ".join(map(str, values)))

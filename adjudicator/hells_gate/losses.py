"""Applying hits and retreats (8.23-8.38): the defender's pending decision and its answers."""

from __future__ import annotations

from itertools import product

from adjudicator.core.decisions import Decision
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, t
from adjudicator.core.text import plural
from adjudicator.hells_gate import turn_rules
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.orders import Losses
from adjudicator.hells_gate.retreats import illegal_rule, retreat_hexes, why_illegal
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState
from adjudicator.hells_gate.texts import or_list
from adjudicator.hells_gate.units import steps_left, strength


def active_defenders(state: GameState, hex_id: str) -> list[UnitState]:
    return [u for u in state.units_in(hex_id) if not u.retreated]


def open_decision(ctx: Ctx, hex_id: str, hits: int) -> None:
    """8.23: the defender applies the hits. Forced results are applied at once; otherwise the
    defender is asked (a pending decision addressed to his side)."""
    state, scen = ctx.state, ctx.scen
    present = active_defenders(state, hex_id)
    if hits <= 0:
        return
    if not present:  # 8.28, 8.38
        _destroy_retreated(ctx, hex_id, t("no unit without a Retreat marker is left (8.28/8.38)"))
        return
    side = present[0].side
    decision = Decision("losses", side, _apply_hits(hits, hex_id), {"hex": hex_id, "hits": hits})
    answers = answers_for(scen, state, decision)
    if len(answers) == 1:
        ctx.emit(
            "LossesForced",
            t("Only one way to take the hits in {hex}: applied.", hex=hex_id),
            hex=hex_id,
        )
        apply_losses(ctx, decision, answers[0])
        return
    decision.prompt = loss_prompt(scen, state, decision)
    state.pending.append(decision)
    ctx.emit(
        "DecisionPending",
        t("Soviet must {prompt}.", prompt=decision.prompt)
        if side == "soviet"
        else t("German must {prompt}.", prompt=decision.prompt),
        side=side,
        hex=hex_id,
    )


def _apply_hits(hits: int, hex_id: str) -> Msg:
    return t("apply {hits} in {hex}", hits=plural(hits, "hit"), hex=hex_id)


def loss_prompt(scen: Scenario, state: GameState, d: Decision) -> Msg:
    """8.23: what the defender is asked: the hits, and whether the last may be a retreat."""
    return t(
        "{prompt} ({choice})",
        prompt=_apply_hits(d.data["hits"], d.data["hex"]),
        choice=describe_choice(scen, state, d),
    )


def describe_choice(scen: Scenario, state: GameState, d: Decision) -> Msg:
    hexes = or_list(retreat_hexes(scen, state, d.data["hex"], d.side))
    mandatory = _retreat_mandatory(scen, state, d)
    if not _retreat_possible(scen, state, d):
        return t("step losses only: no legal retreat (8.34)")
    if mandatory:
        return t("the last hit must be a retreat to {hexes}", hexes=hexes)
    return t("the last hit may be a retreat to {hexes}", hexes=hexes)


def _total_steps(scen: Scenario, state: GameState, hex_id: str) -> int:
    return sum(steps_left(scen, u) for u in active_defenders(state, hex_id))


def _retreat_possible(scen: Scenario, state: GameState, d: Decision) -> bool:
    """8.29: a unit must remain after all but the last hit, and a legal retreat must exist."""
    remains = _total_steps(scen, state, d.data["hex"]) > d.data["hits"] - 1
    return remains and bool(retreat_hexes(scen, state, d.data["hex"], d.side))


def _retreat_mandatory(scen: Scenario, state: GameState, d: Decision) -> bool:
    """8.30: a Soviet defender facing 2 or more hits must retreat with the last if he can."""
    return d.side == "soviet" and d.data["hits"] >= 2 and _retreat_possible(scen, state, d)


def answers_for(scen: Scenario, state: GameState, d: Decision) -> list[Losses]:
    """Every distinct answer (retreats to one hex; split retreats are also accepted)."""
    hex_id, hits = d.data["hex"], d.data["hits"]
    total = _total_steps(scen, state, hex_id)
    answers: list[Losses] = []
    if not _retreat_mandatory(scen, state, d):
        for seq in _hit_sequences(scen, state, hex_id, min(hits, total)):
            answers.append(Losses(seq))
    if _retreat_possible(scen, state, d):
        for seq in _hit_sequences(scen, state, hex_id, hits - 1):
            for dest in retreat_hexes(scen, state, hex_id, d.side):
                answers.append(Losses(seq, dest))
    return answers


def _hit_sequences(scen: Scenario, state: GameState, hex_id: str, n: int) -> list[tuple[str, ...]]:
    """Distinct ways to take n step losses under the priority of 8.27 (one per outcome)."""
    units = active_defenders(state, hex_id)
    steps = {u.id: steps_left(scen, u) for u in units}
    seen, out = set(), []
    for seq in product([u.id for u in units], repeat=n):
        left = dict(steps)
        if all(_take(left, uid) for uid in seq):
            key = tuple(sorted(left.items()))
            if key not in seen:
                seen.add(key)
                out.append(seq)
    return out


def _take(left: dict[str, int], uid: str) -> bool:
    """One hit on uid if 8.27 allows it (full-strength units first)."""
    if left.get(uid, 0) <= 0:
        return False
    if left[uid] == 1 and any(v == 2 for v in left.values()):
        return False
    left[uid] -= 1
    return True


def check_losses(scen: Scenario, state: GameState, d: Decision, answer: Losses) -> None:
    """Raises Rejection unless `answer` is a legal way to take the hits of `d`."""
    hex_id, hits = d.data["hex"], d.data["hits"]
    units = {u.id: u for u in active_defenders(state, hex_id)}
    left = {uid: steps_left(scen, u) for uid, u in units.items()}
    retreat = answer.retreat is not None
    expected = hits - 1 if retreat else min(hits, sum(left.values()))
    if retreat and not _retreat_possible(scen, state, d):
        raise Rejection(
            "no-legal-retreat",
            t(
                "no retreat is possible from {hex}: {why}; take {steps} instead",
                hex=hex_id,
                why=_why_no_retreat(scen, state, d),
                steps=plural(expected + 1, "step loss"),
            ),
            "8.34",
        )
    if not retreat and _retreat_mandatory(scen, state, d):
        raise Rejection(
            "retreat-mandatory",
            t(
                "with {n} hits the Soviet player must take the last hit as a retreat (to {hexes})",
                n=hits,
                hexes=or_list(retreat_hexes(scen, state, hex_id, d.side)),
            ),
            "8.30",
        )
    if len(answer.units) != expected:
        raise Rejection(
            "wrong-number-of-losses",
            _wrong_number(hits, hex_id, expected, retreat, len(answer.units), list(units)),
            "8.23",
        )
    for uid in answer.units:
        if uid not in units:
            raise Rejection(
                "loss-not-in-hex",
                t(
                    "{unit} is not a unit without a Retreat marker in {hex}; hits go to {units}",
                    unit=uid,
                    hex=hex_id,
                    units=", ".join(units),
                ),
                "8.24",
            )
        if not _take(left, uid):
            full = [k for k, v in left.items() if v == 2]
            why = (
                t("{unit} has no step left", unit=uid)
                if left[uid] <= 0
                else t("full-strength units take hits first: {units}", units=", ".join(full))
            )
            raise Rejection("hit-priority", why, "8.27")
    if answer.retreat is not None:
        _check_retreat(scen, state, d, answer.retreat, [k for k, v in left.items() if v > 0])


def _wrong_number(
    hits: int, hex_id: str, expected: int, retreat: bool, named: int, units: list[str]
) -> Msg:
    """8.23: the answer names a wrong number of step losses."""
    args = {
        "hits": plural(hits, "hit"),
        "hex": hex_id,
        "steps": plural(expected, "step loss"),
        "named": named,
        "units": ", ".join(units),
    }
    if retreat:
        return t(
            "{hits} in {hex}: name exactly {steps} before the retreat; you named {named}. "
            "Units there: {units}",
            **args,
        )
    return t(
        "{hits} in {hex}: name exactly {steps}; you named {named}. Units there: {units}", **args
    )


def _why_no_retreat(scen: Scenario, state: GameState, d: Decision) -> Msg:
    if not retreat_hexes(scen, state, d.data["hex"], d.side):
        return t("no adjacent hex is a legal destination (8.32)")
    return t("no unit would be left after the other hits (8.29)")


def _check_retreat(
    scen: Scenario,
    state: GameState,
    d: Decision,
    retreat: str | tuple[tuple[str, str], ...],
    movers: list[str],
) -> None:
    legal = retreat_hexes(scen, state, d.data["hex"], d.side)
    if isinstance(retreat, str):
        plan = {uid: retreat for uid in movers}
    else:
        plan = dict(retreat)
        named = [uid for uid, _ in retreat]
        twice = sorted({uid for uid in named if named.count(uid) > 1})
        if twice:
            raise Rejection(
                "retreat-named-twice",
                t(
                    "{units} named twice: each retreating unit goes to one hex",
                    units=", ".join(twice),
                ),
                "8.31",
            )
        if sorted(plan) != sorted(movers):
            raise Rejection(
                "retreat-all-units",
                t(
                    "every remaining unit without a Retreat marker must retreat: name each of "
                    "{units} once",
                    units=", ".join(movers),
                ),
                "8.31",
            )
    for uid, dest in plan.items():
        if dest not in legal:
            raise Rejection(
                "illegal-retreat",
                t(
                    "{unit} may not retreat to {hex}: {why}; legal: {legal}",
                    unit=uid,
                    hex=dest,
                    why=why_illegal(scen, state, d.data["hex"], d.side, dest),
                    legal=", ".join(legal),
                ),
                illegal_rule(scen, state, d.data["hex"], d.side, dest),
            )


def apply_losses(ctx: Ctx, d: Decision, answer: Losses) -> None:
    scen, state = ctx.scen, ctx.state
    check_losses(scen, state, d, answer)
    hex_id = d.data["hex"]
    plan = {}
    for uid in answer.units:
        _step_loss(ctx, state.units[uid])
    movers = [u for u in active_defenders(state, hex_id)]
    if answer.retreat is not None:
        plan = (
            {u.id: answer.retreat for u in movers}
            if isinstance(answer.retreat, str)
            else dict(answer.retreat)
        )
    for u in movers:
        if u.id in plan:
            _retreat(ctx, u, plan[u.id])
    if not active_defenders(state, hex_id):  # 8.37
        _destroy_retreated(ctx, hex_id, t("no unit without a Retreat marker is left (8.37)"))


def _step_loss(ctx: Ctx, u: UnitState) -> None:
    """8.26: flip a full two-step unit; destroy a reduced or one-step unit."""
    if steps_left(ctx.scen, u) == 2:
        u.reduced = True
        ctx.emit(
            "UnitFlipped",
            t("{unit} takes a hit and is reduced.", unit=ctx.name(u.id)),
            unit=u.id,
            hex=u.hex,
        )
    else:
        eliminate(ctx, u, t("takes a hit and is destroyed"))


def eliminate(ctx: Ctx, u: UnitState, why: Msg) -> None:
    """The unit goes to the eliminated box; `why` is what happens to it ("takes a hit and is
    destroyed"), a phrase after the unit's name."""
    hex_id = u.hex
    u.box, u.hex, u.oos, u.retreated = "eliminated", None, False, False
    ctx.emit(
        "UnitEliminated", t("{unit} {why}.", unit=ctx.name(u.id), why=why), unit=u.id, hex=hex_id
    )


def _retreat(ctx: Ctx, u: UnitState, dest: str) -> None:
    """8.31/8.35: one hex, then a Retreat marker."""
    origin = u.hex
    u.hex, u.retreated = dest, True
    turn_rules.note_soviet_presence(ctx.scen, ctx.state, u.side, [dest])
    ctx.emit(
        "UnitRetreated",
        t("{unit} retreats {origin} → {hex}.", unit=ctx.name(u.id), origin=origin, hex=dest),
        unit=u.id,
        origin=origin,
        hex=dest,
    )


def _destroy_retreated(ctx: Ctx, hex_id: str, why: Msg) -> None:
    for u in [u for u in ctx.state.units_in(hex_id) if u.retreated]:
        eliminate(ctx, u, t("is destroyed: {why}", why=why))


def default_losses(scen: Scenario, state: GameState, d: Decision) -> Losses:
    """The deadline default: step losses in the order that keeps the most strength; a retreat
    only where 8.30 makes it mandatory, to a hex with friendly units, else the first in order."""
    answers = answers_for(scen, state, d)
    mandatory = _retreat_mandatory(scen, state, d)
    pool = [a for a in answers if (a.retreat is not None) == mandatory] or answers
    best = max(
        pool, key=lambda a: (_kept_strength(scen, state, d, a), _friendly_dest(state, a, d.side))
    )
    return best


def _kept_strength(scen: Scenario, state: GameState, d: Decision, a: Losses) -> int:
    left = {u.id: steps_left(scen, u) for u in active_defenders(state, d.data["hex"])}
    for uid in a.units:
        left[uid] -= 1
    total = 0
    for uid, n in left.items():
        u = state.units[uid]
        if n == 2 or (n == 1 and steps_left(scen, u) == 1):
            total += strength(scen, u)
        elif n == 1:
            total += scen.units[uid].strength_reduced or 0
    return total


def _friendly_dest(state: GameState, a: Losses, side: str) -> int:
    return 1 if isinstance(a.retreat, str) and state.side_in(a.retreat) == side else 0

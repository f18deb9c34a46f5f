"""An order in the sequence of play (section 4): who may act (1.1, 4.6, 4.7), the order of the
phase (an attack, 4.5 and section 8; a move, section 9; the end of a phase), the answer to a
pending decision (8.23, 7.4, 12.16, 12.17), the moderator's edits (sandbox games) and the
deadline default, applied to a copy of the state.

Invariants: `apply` never changes the state it is given; a Rejection leaves nothing changed;
every die is asked of the injected dice source with a purpose and returned in Outcome.rolls.
Pure.
"""

from __future__ import annotations

from adjudicator.core.decisions import Decision
from adjudicator.core.dice import DiceMethods, DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.fixed_dice import fixed_source
from adjudicator.core.i18n import Msg, t
from adjudicator.core.system import SYSTEM_ACTOR, Outcome
from adjudicator.core.text import plural
from adjudicator.hells_gate import bare_losses, combat, legal, losses, moderator, movement, phases
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.grammar import format_order
from adjudicator.hells_gate.reinforcements import answer_entry
from adjudicator.hells_gate.scenario import SIDES, Scenario
from adjudicator.hells_gate.state import GameState, phase_kind, phase_side
from adjudicator.hells_gate.texts import phase_name


def apply(
    scen: Scenario, state: GameState, actor: str, order: object, dice: DiceSource | None
) -> Outcome:
    """The order applied to a copy of `state` (`dice`: a moderator's fixed values first)."""
    ctx = Ctx(scen, state.clone(), fixed_source(state, dice))
    legal.restore_prompts(scen, ctx.state)  # a state read back from storage
    applied = _dispatch(ctx, actor, order)
    ctx.state.fixed_dice = list(ctx.dice.fixed)
    return Outcome(ctx.state, ctx.events, ctx.dice.rolls, ctx.combat, applied)


def check(scen: Scenario, state: GameState, side: str, order: object) -> None:
    """Refuse (Rejection) exactly what `apply` would refuse for `order`, rolling nothing and
    changing nothing: what a preview checks first (4.6, 8.x), so a preview is refused
    whenever the attack itself would be."""
    try:
        apply(scen, state, side, order, _StopAtRoll())
    except _Rolled:
        pass  # every check before the die passed


def _dispatch(ctx: Ctx, actor: str, order: object) -> object:
    """The order as applied (a path, a flip filled in)."""
    if isinstance(order, moderator.EDITS):
        moderator.check_moderator(ctx.state, actor)
        moderator.apply(ctx, order)
        return order
    if isinstance(order, O.Default):
        if actor != SYSTEM_ACTOR:
            moderator.check_moderator(ctx.state, actor)
        return _default(ctx)
    if isinstance(order, O.QUERIES):
        raise Rejection("query", t("a query changes nothing; ask it with `answer`"), None)
    if actor not in SIDES:
        raise Rejection(
            "not-a-player",
            t(
                "{actor} does not play a side; only the Soviet and German players give "
                "orders (1.1)",
                actor=actor,
            ),
            "1.1",
        )
    return _player_order(ctx, actor, order)


def _player_order(ctx: Ctx, side: str, order: object) -> object:
    state = ctx.state
    if state.result is not None:
        raise Rejection("game-over", t("the game is over; no more orders are taken"), "4.7")
    mine = [d for d in state.pending if d.side == side]
    if mine:
        return _answer(ctx, side, mine[0], order)
    if state.pending:
        d = state.pending[0]
        raise Rejection(
            "waiting",
            t("waiting for Soviet to {prompt}", prompt=d.prompt)
            if d.side == "soviet"
            else t("waiting for German to {prompt}", prompt=d.prompt),
            legal.DECISION_RULES[d.kind],
        )
    if phase_side(state.phase) != side:
        who = phase_side(state.phase)
        now = {
            "soviet": t("only the Soviet player acts now"),
            "german": t("only the German player acts now"),
        }.get(who or "", t("no player acts now"))
        raise Rejection(
            "not-your-phase",
            t(
                "it is the {phase} phase of turn {turn}: {now}",
                phase=phase_name(state.phase),
                turn=state.turn,
                now=now,
            ),
            "4.6",
        )
    kind = phase_kind(state.phase)
    if isinstance(order, O.Attack) and kind == "combat":
        return _attack(ctx, side, order)
    if isinstance(order, O.Move) and kind == "movement":
        order = movement.complete_path(ctx.scen, state, side, order)
        movement.apply_move(ctx, side, order)
        return order
    if isinstance(order, O.End):
        _end_phase(ctx, side)
        return order
    raise _out_of_phase(state, order)


def _attack(ctx: Ctx, side: str, order: O.Attack) -> O.Attack:
    state, scen = ctx.state, ctx.scen
    calc = combat.calculate(scen, state, side, order)
    if order.flip and not order.decisive:
        raise Rejection(
            "flip-without-decisive",
            t(
                "a unit is flipped only for a decisive attack: write `... decisive flip {unit}`",
                unit=order.flip,
            ),
            "8.18",
        )
    flip = combat.choose_flip(scen, state, calc, order) if order.decisive else None
    if flip:  # 8.18: flipped before the roll; the odds are not recomputed
        state.units[flip].reduced = True
        ctx.emit(
            "UnitFlipped",
            t("{unit} is flipped for a decisive attack (8.18).", unit=ctx.name(flip)),
            unit=flip,
            hex=state.units[flip].hex,
        )
    die = ctx.roll(f"combat {order.hex}")
    hits = scen.hits(calc.final_column, die, order.decisive or calc.overstack)
    for uid in calc.attackers:
        state.units[uid].attacked = True
    state.attacked_hexes.append(order.hex)
    ctx.combat = calc.to_json(order.decisive, die, hits)
    origins = {uid: state.units[uid].hex for uid in calc.attackers}
    ctx.emit(
        "AttackResolved",
        attack_line(calc, order.decisive, die, hits),
        origins=origins,
        **ctx.combat,
    )
    losses.open_decision(ctx, order.hex, hits)
    return O.Attack(order.hex, order.units, order.decisive, flip)


def attack_line(calc: combat.AttackCalc, decisive: bool, die: int, hits: int) -> str:
    """What the log says of a resolved attack (8.5-8.22)."""
    shifts = ", ".join(f"{s['code']} {s['columns']:+d}" for s in calc.shifts) or t("no shifts")
    args = {
        "hex": calc.hex,
        "units": ", ".join(calc.attackers),
        "attack": calc.attack_strength,
        "defense": calc.defense_strength,
        "raw": calc.raw_column,
        "shifts": shifts,
        "final": calc.final_column,
        "die": die,
        "hits": plural(hits, "hit"),
    }
    if decisive:
        return t(
            "Decisive attack on {hex} by {units}: {attack}:{defense}, raw {raw}, {shifts}, "
            "final {final}; die {die}: {hits}.",
            **args,
        )
    if calc.overstack:
        return t(
            "Overstack on {hex} by {units}: {attack}:{defense}, raw {raw}, {shifts}, "
            "final {final}; die {die}: {hits}.",
            **args,
        )
    return t(
        "Attack on {hex} by {units}: {attack}:{defense}, raw {raw}, {shifts}, "
        "final {final}; die {die}: {hits}.",
        **args,
    )


def _end_phase(ctx: Ctx, side: str) -> None:
    state = ctx.state
    if phase_kind(state.phase) == "movement":
        legal.check_turn1_moves_done(ctx.scen, state)
        ctx.emit("PhaseEnded", _ends(side, state.phase), phase=state.phase)
        if phases.offer_breakouts(ctx):
            return
    else:
        ctx.emit("PhaseEnded", _ends(side, state.phase), phase=state.phase)
    phases.next_phase(ctx)


def _answer(ctx: Ctx, side: str, d: Decision, order: object) -> object:
    state = ctx.state
    if d.kind == "losses" and isinstance(order, O.Losses):
        order = _only_answer(ctx.scen, state, d, order)
        state.pending.remove(d)
        losses.apply_losses(ctx, d, order)
        return order
    if d.kind == "entry" and isinstance(order, O.Enter):
        answer_entry(ctx, side, order.unit, order.hex)
        if not [p for p in state.pending if p.kind == "entry"]:
            phases.after_reinforcements(ctx)
        return order
    if d.kind == "rebuild" and isinstance(order, (O.Rebuild, O.End)):
        phases.answer_rebuild(ctx, d, order)
        return order
    if d.kind == "breakout" and isinstance(order, (O.Breakout, O.End)):
        phases.answer_breakout(ctx, d, order)
        return order
    raise Rejection(
        "decision-pending",
        t("first {prompt}; e.g. {example}", prompt=d.prompt, example=legal.example_answer(d)),
        legal.DECISION_RULES[d.kind],
    )


def _only_answer(scen: Scenario, state: GameState, d: Decision, order: O.Losses) -> O.Losses:
    """A bare `losses`, as the rules version of the game reads it.

    Rules 2: the one legal answer when exactly one is legal; otherwise refused, with the legal
    answers (bare_losses.bare_answer: 8.25, 8.29, 8.31). Rules 1 (every stored game): the hits as
    step losses, no retreat, when exactly one such answer is legal (8.23-8.27: one unit can
    take the hit, or the steps to take are forced), even where a retreat was legal too;
    otherwise the order as given (and refused with what is expected)."""
    if order != O.Losses():
        return order
    if state.rules >= 2:
        return bare_losses.bare_answer(scen, state, d)
    steps = [a for a in losses.answers_for(scen, state, d) if a.retreat is None]
    return steps[0] if len(steps) == 1 else order


def _default(ctx: Ctx) -> O.Default:
    """The deadline default: default orders (legal.default_order) for the side on the clock
    until it is done for now (a decision answered or the phase ended), each one told."""
    state = ctx.state
    if state.result is not None:
        raise Rejection("game-over", t("the game is over; no deadline is running"), "4.7")
    while True:
        side, order = legal.default_order(ctx.scen, state)
        text = format_order(order)
        ctx.emit(
            "DefaultApplied",
            t("Deadline default for Soviet: {order}.", order=text)
            if side == "soviet"
            else t("Deadline default for German: {order}.", order=text),
            side=side,
        )
        _player_order(ctx, side, order)
        if not isinstance(order, O.Move):
            return O.Default()


class _Rolled(Exception):
    """The order got as far as its first die: every check before it has passed."""


class _StopAtRoll(DiceMethods):
    """Dice for `check`: the first die stops the order (nothing is rolled)."""

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        raise _Rolled(purpose)


def _out_of_phase(state: GameState, order: object) -> Rejection:
    kind = phase_kind(state.phase)
    if isinstance(order, O.Attack):
        return Rejection(
            "not-combat-phase",
            t(
                "attacks are made in your combat phase; it is now the {phase} phase (combat "
                "comes before movement, 4.5)",
                phase=phase_name(state.phase),
            ),
            "4.2" if phase_side(state.phase) == "soviet" else "4.3",
        )
    if isinstance(order, O.Move):
        return Rejection(
            "not-movement-phase",
            t(
                "moves are made in your movement phase; it is now the {phase} phase (combat "
                "comes first, 4.5)",
                phase=phase_name(state.phase),
            )
            if kind == "combat"
            else t(
                "moves are made in your movement phase; it is now the {phase} phase",
                phase=phase_name(state.phase),
            ),
            "4.5",
        )
    rule = {O.Losses: "8.23", O.Enter: "7.4", O.Rebuild: "12.16", O.Breakout: "12.17"}.get(
        type(order)
    )
    return Rejection(
        "nothing-to-answer",
        t("there is no pending decision for `{order}` now", order=type(order).__name__.lower()),
        rule,
    )


def _ends(side: str, phase: str) -> Msg:
    if side == "soviet":
        return t("Soviet ends the {phase} phase.", phase=phase_name(phase))
    return t("German ends the {phase} phase.", phase=phase_name(phase))


__all__ = ["apply", "attack_line", "check"]

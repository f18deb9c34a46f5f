"""HellsGate: the one entry point of the rules. State + order + dice in, new state + events out.

Invariants: `apply` never changes the state it is given; a Rejection leaves nothing changed;
every die is asked of the injected dice source with a purpose and returned in Outcome.rolls.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.decisions import Decision
from adjudicator.core.dice import DiceMethods, DiceSource, RecordingDice
from adjudicator.core.errors import Rejection
from adjudicator.core.fixed_dice import fixed_source
from adjudicator.core.i18n import Msg, t
from adjudicator.core.system import Outcome
from adjudicator.hells_gate import combat, legal, losses, moderator, movement, phases, views
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState, phase_kind, phase_side
from adjudicator.hells_gate.texts import local, phase_name, weather_name

SIDES = ("soviet", "german")


class HellsGate:
    game = "hells-gate"

    def __init__(self, scenario: Scenario):
        self.scen = scenario

    # -- setup (section 3)
    def initial_state(self, sandbox: bool = False) -> GameState:
        units: dict[str, UnitState] = {}
        for spec in self.scen.units.values():
            if spec.setup_hex:  # 3.1
                units[spec.id] = UnitState(spec.id, spec.side, "map", spec.setup_hex)
            else:  # 3.2
                units[spec.id] = UnitState(
                    spec.id, spec.side, "turn_track", track_turn=spec.entry_turn
                )
        state = GameState(
            1, "soviet-supply", str(self.scen.flags["initial_weather"]), units, sandbox
        )
        soviet_hexes = [u.hex for u in state.on_map("soviet")]
        if set(soviet_hexes) & set(self.scen.named["panzer24_trigger"]):  # 7.9 setup counts
            state.soviet_entered_trigger = True
        return state

    def new_game(self, sandbox: bool = False, dice: DiceSource | None = None) -> Outcome:
        ctx = Ctx(self.scen, self.initial_state(sandbox), RecordingDice(dice))
        ctx.emit(
            "GameStarted",
            t(
                "{title}: turn 1, weather {weather}.",
                title=local(self.scen.title, self.scen.name_ru),
                weather=weather_name(ctx.state.weather),
            ),
        )
        phases.enter_phase(ctx, "soviet-supply")
        return Outcome(ctx.state, ctx.events, ctx.dice.rolls)

    # -- orders
    def apply(
        self, state: GameState, actor: str, order: object, dice: DiceSource | None
    ) -> Outcome:
        ctx = Ctx(self.scen, state.clone(), fixed_source(state, dice))  # `dice`: fixed first
        legal.restore_prompts(self.scen, ctx.state)  # a state read back from storage
        applied = self._dispatch(ctx, actor, order)
        ctx.state.fixed_dice = list(ctx.dice.fixed)
        return Outcome(ctx.state, ctx.events, ctx.dice.rolls, ctx.combat, applied)

    def _dispatch(self, ctx: Ctx, actor: str, order: object) -> object:
        """The order as applied (a path, a flip filled in)."""
        if isinstance(order, O.MODERATOR_ORDERS) and not isinstance(order, O.Default):
            _check_moderator(ctx.state, actor)
            moderator.apply(ctx, order)
            return order
        if isinstance(order, O.Default):
            if actor != "system":
                _check_moderator(ctx.state, actor)
            return self._default(ctx)
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
        return self._player_order(ctx, actor, order)

    def _player_order(self, ctx: Ctx, side: str, order: object) -> object:
        state = ctx.state
        if state.result is not None:
            raise Rejection("game-over", t("the game is over; no more orders are taken"), "4.7")
        mine = [d for d in state.pending if d.side == side]
        if mine:
            return self._answer(ctx, side, mine[0], order)
        if state.pending:
            d = state.pending[0]
            raise Rejection(
                "waiting",
                t("waiting for Soviet to {prompt}", prompt=d.prompt)
                if d.side == "soviet"
                else t("waiting for German to {prompt}", prompt=d.prompt),
                views.DECISION_RULES[d.kind],
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
            return self._attack(ctx, side, order)
        if isinstance(order, O.Move) and kind == "movement":
            order = movement.complete_path(self.scen, state, side, order)
            movement.apply_move(ctx, side, order)
            return order
        if isinstance(order, O.End):
            self._end_phase(ctx, side)
            return order
        raise _out_of_phase(state, order)

    def _attack(self, ctx: Ctx, side: str, order: O.Attack) -> O.Attack:
        state, scen = ctx.state, self.scen
        calc = combat.calculate(scen, state, side, order)
        if order.flip and not order.decisive:
            raise Rejection(
                "flip-without-decisive",
                t(
                    "a unit is flipped only for a decisive attack: write `... decisive flip "
                    "{unit}`",
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
            views.attack_line(calc, order.decisive, die, hits),
            origins=origins,
            **ctx.combat,
        )
        losses.open_decision(ctx, order.hex, hits)
        return O.Attack(order.hex, order.units, order.decisive, flip)

    def _end_phase(self, ctx: Ctx, side: str) -> None:
        state = ctx.state
        if phase_kind(state.phase) == "movement":
            legal.check_turn1_moves_done(self.scen, state)
            ctx.emit("PhaseEnded", _ends(side, state.phase), phase=state.phase)
            if phases.offer_breakouts(ctx):
                return
        else:
            ctx.emit("PhaseEnded", _ends(side, state.phase), phase=state.phase)
        phases.next_phase(ctx)

    def _answer(self, ctx: Ctx, side: str, d: Decision, order: object) -> object:
        state = ctx.state
        if d.kind == "losses" and isinstance(order, O.Losses):
            order = self._only_answer(state, d, order)
            state.pending.remove(d)
            losses.apply_losses(ctx, d, order)
            return order
        if d.kind == "entry" and isinstance(order, O.Enter):
            from adjudicator.hells_gate.reinforcements import answer_entry

            answer_entry(ctx, side, order.unit, order.hex)
            if not [p for p in state.pending if p.kind == "entry"]:
                phases.after_reinforcements(ctx)
            return order
        if d.kind == "rebuild" and isinstance(order, (O.Rebuild, O.End)):
            self._rebuild(ctx, d, order)
            return order
        if d.kind == "breakout" and isinstance(order, (O.Breakout, O.End)):
            self._breakout(ctx, d, order)
            return order
        raise Rejection(
            "decision-pending",
            t("first {prompt}; e.g. {example}", prompt=d.prompt, example=views.example_answer(d)),
            views.DECISION_RULES[d.kind],
        )

    def _only_answer(self, state: GameState, d: Decision, order: O.Losses) -> O.Losses:
        """A bare `losses` (the hits as step losses, no retreat) when exactly one such answer is
        legal (8.23-8.27: one unit can take the hit, or the steps to take are forced): that
        answer; otherwise the order as given (and refused with what is expected)."""
        if order != O.Losses():
            return order
        steps = [a for a in losses.answers_for(self.scen, state, d) if a.retreat is None]
        return steps[0] if len(steps) == 1 else order

    def check(self, state: GameState, side: str, order: object) -> None:
        """Refuse (Rejection) exactly what `apply` would refuse for `order`, rolling nothing and
        changing nothing: what `preview` checks first (4.6, 8.x), so a preview is refused
        whenever the attack itself would be."""
        try:
            self.apply(state, side, order, _StopAtRoll())
        except _Rolled:
            pass  # every check before the die passed

    def _rebuild(self, ctx: Ctx, d: Decision, order: O.Rebuild | O.End) -> None:
        state = ctx.state
        if isinstance(order, O.Rebuild):
            if order.unit not in d.data["options"]:
                raise Rejection(
                    "bad-rebuild",
                    t(
                        "{unit} cannot be rebuilt: only a reduced Soviet corps on the map "
                        "without an OOS marker; choose {units}",
                        unit=order.unit,
                        units=", ".join(d.data["options"]),
                    ),
                    "12.16",
                )
            state.units[order.unit].reduced = False
            ctx.emit(
                "UnitRebuilt",
                t("{unit} is rebuilt to full strength (12.16).", unit=ctx.name(order.unit)),
                unit=order.unit,
            )
        state.pending.remove(d)
        phases.next_phase(ctx)

    def _breakout(self, ctx: Ctx, d: Decision, order: O.Breakout | O.End) -> None:
        state = ctx.state
        if isinstance(order, O.Breakout):
            options = phases.breakout_candidates(ctx)
            if order.unit not in options:
                raise Rejection(
                    "bad-breakout",
                    t(
                        "{unit} may not attempt a breakout: it needs an OOS marker, no move this "
                        "phase, no Retreat marker and a refuge within 2 hexes; candidates: "
                        "{units}",
                        unit=order.unit,
                        units=", ".join(options) or t("none"),
                    ),
                    "12.17",
                )
            phases.attempt_breakout(ctx, order.unit)
            remaining = phases.breakout_candidates(ctx)
            d.data["options"] = remaining
            if remaining:
                return
        state.pending.remove(d)
        phases.next_phase(ctx)

    # -- the deadline default
    def _default(self, ctx: Ctx) -> O.Default:
        return legal.apply_default(self, ctx)

    # -- queries and views
    def legal_orders(self, state: GameState, side: str) -> list[O.PlayerOrder]:
        return legal.legal_orders(self.scen, state, side)

    def preview(self, state: GameState, side: str, attack: O.Attack) -> dict[str, Any]:
        return views.preview(self.scen, state, side, attack)

    def answer(self, state: GameState, actor: str, query: object) -> str:
        return views.answer(self, state, actor, query)

    def show(self, state: GameState) -> dict[str, Any]:
        return views.show(self.scen, state)


class _Rolled(Exception):
    """The order got as far as its first die: every check before it has passed."""


class _StopAtRoll(DiceMethods):
    """Dice for `check`: the first die stops the order (nothing is rolled)."""

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        raise _Rolled(purpose)


def _check_moderator(state: GameState, actor: str) -> None:
    if actor not in ("moderator", "system"):
        raise Rejection("moderator-only", t("only a moderator may give this command"), None)
    if not state.sandbox:
        raise Rejection(
            "sandbox-only",
            t(
                "moderator commands that change the game are allowed only in sandbox games (no "
                "rule of the game covers them)"
            ),
            None,
        )


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


__all__ = ["HellsGate", "Outcome"]

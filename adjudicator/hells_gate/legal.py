"""The gate: legal_orders(state, side), the one list that options, hints, defaults and the fuzzer
use; what a pending decision asks and accepts (8.23, 7.4, 12.16, 12.17); the deadline's default
order. The rules refuse what is not legal as they apply an order, citing the rule (sequence);
`legal_orders` lists no attack of three or more units (a template in system.py does). Pure."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from adjudicator.core.decisions import Decision
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, name, t
from adjudicator.core.text import plural
from adjudicator.hells_gate import combat, losses, movement, phases, reinforcements
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.grammar import format_order
from adjudicator.hells_gate.order_text import russian_order
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, other, phase_kind, phase_side, phasing_side
from adjudicator.hells_gate.units import strength

DECISION_RULES = {"losses": "8.23", "entry": "7.4", "rebuild": "12.16", "breakout": "12.17"}


def legal_orders(scen: Scenario, state: GameState, side: str) -> list[O.PlayerOrder]:
    if state.result is not None:
        return []
    mine = [d for d in state.pending if d.side == side]
    if mine:
        return decision_answers(scen, state, mine[0])
    if state.pending or phase_side(state.phase) != side:
        return []
    kind = phase_kind(state.phase)
    if kind == "combat":
        return [*attack_orders(scen, state, side), O.End()]
    if kind == "movement":
        moves = move_orders(scen, state, side)
        return [*moves, *([O.End()] if not turn1_obligations(scen, state) else [])]
    return []


def decision_answers(scen: Scenario, state: GameState, d: Decision) -> list[O.PlayerOrder]:
    if d.kind == "losses":
        return [*losses.answers_for(scen, state, d)]
    if d.kind == "entry":
        return [O.Enter(d.data["unit"], h) for h in d.data["options"]]
    if d.kind == "rebuild":
        return [*(O.Rebuild(u) for u in d.data["options"]), O.End()]
    if d.kind == "breakout":
        return [*(O.Breakout(u) for u in d.data["options"]), O.End()]
    return []


def example_answer(d: Decision) -> str:
    """An answer to a pending decision, as a refusal suggests it."""
    if d.kind == "losses":
        return t(
            "`losses <UNIT> ...` or `losses retreat <HEX>` for the {hits}",
            hits=plural(d.data["hits"], "hit"),
        )
    if d.kind == "entry":
        canonical = format_order(O.Enter(d.data["unit"], d.data["options"][0]))
        return name(canonical, ru=russian_order(canonical))
    if d.kind == "rebuild":
        return t("`rebuild {unit}` or `end`", unit=d.data["options"][0])
    return t("`breakout {unit}` or `end`", unit=d.data["options"][0])


def restore_prompts(scen: Scenario, state: GameState) -> None:
    """Give the pending decisions of a state read back from storage (whose prompts are plain
    English) their prompts as Msg again, so that they are said in every language; a prompt is
    replaced only by one with the very same English text."""
    for d in state.pending:
        if isinstance(d.prompt, Msg):
            continue
        said = decision_prompt(scen, state, d)
        if said is not None and str(said) == d.prompt:
            d.prompt = said


def decision_prompt(scen: Scenario, state: GameState, d: Decision) -> Msg | None:
    """What a pending decision asks (8.23, 7.4, 12.16, 12.17), made again from its data."""
    if d.kind == "losses":
        return losses.loss_prompt(scen, state, d)
    if d.kind == "entry":
        return reinforcements.entry_prompt(d.data["unit"], d.data["options"])
    if d.kind == "rebuild":
        return phases.rebuild_prompt(d.data["options"])
    if d.kind == "breakout":
        return phases.breakout_prompt(d.data["options"])
    return None


def eligible_attackers(scen: Scenario, state: GameState, side: str, target: str) -> list[str]:
    return [
        u.id
        for u in state.on_map(side)
        if not u.retreated and not u.attacked and scen.grid.adjacent(u.map_hex, target)
    ]


def attack_orders(scen: Scenario, state: GameState, side: str) -> list[O.Attack]:
    """Per enemy hex: every legal single and pair of attackers, the strongest full attack, and
    their decisive variants (all subsets would be exponential; any other group is checked by
    the same functions when ordered)."""
    out = []
    targets = scen.grid.sort({u.map_hex for u in state.on_map(other(side))})
    for target in targets:
        if target in state.attacked_hexes:
            continue
        ids = eligible_attackers(scen, state, side, target)
        groups = [c for n in range(1, min(2, len(ids)) + 1) for c in combinations(ids, n)]
        full = _strongest_group(scen, state, ids)
        if full and full not in groups:
            groups.append(full)
        for group in groups:
            out.extend(_valid_attacks(scen, state, side, target, group))
    return out


def _strongest_group(scen: Scenario, state: GameState, ids: list[str]) -> tuple[str, ...]:
    per_hex: dict[str, list[str]] = {}
    for uid in sorted(ids, key=lambda i: -strength(scen, state.units[i])):
        per_hex.setdefault(state.units[uid].map_hex, []).append(uid)
    return tuple(uid for group in per_hex.values() for uid in group[: combat.MAX_PER_HEXSIDE])


def _valid_attacks(
    scen: Scenario, state: GameState, side: str, target: str, group: Sequence[str]
) -> list[O.Attack]:
    try:
        calc = combat.calculate(scen, state, side, O.Attack(target, tuple(group)))
    except Rejection:
        return []
    found = [O.Attack(target, tuple(group))]
    if calc.decisive_allowed:
        found += [O.Attack(target, tuple(group), True, f) for f in calc.flip_choices]
    return found


def move_orders(scen: Scenario, state: GameState, side: str) -> list[O.Move]:
    return [
        O.Move(u.id, p)
        for u in sorted(state.on_map(side), key=lambda u: u.id)
        for p in movement.legal_paths(scen, state, u)
    ]


def turn1_obligations(scen: Scenario, state: GameState) -> list[str]:
    """12.2: Soviet armor that must still move (unless retreated or with no legal move)."""
    if not (state.turn == 1 and state.phase == "soviet-movement"):
        return []
    due = []
    for uid in scen.flags["turn1_soviet_armor"]:
        u = state.units[uid]
        if u.on_map and not u.moved and not u.retreated and movement.legal_paths(scen, state, u):
            due.append(uid)
    return due


def check_turn1_moves_done(scen: Scenario, state: GameState) -> None:
    due = turn1_obligations(scen, state)
    if due:
        first = movement.legal_paths(scen, state, state.units[due[0]])[0]
        raise Rejection(
            "turn1-armor-must-move",
            t(
                "on turn 1 each Soviet armor unit must move before the phase ends; still to "
                "move: {units} (e.g. `move {unit} {path}`)",
                units=", ".join(due),
                unit=due[0],
                path=" ".join(first),
            ),
            "12.2",
        )


def default_order(scen: Scenario, state: GameState) -> tuple[str, O.PlayerOrder]:
    """What a passed deadline does, one step at a time (documented in the README)."""
    if state.pending:
        d = state.pending[0]
        if d.kind == "losses":
            return d.side, losses.default_losses(scen, state, d)
        if d.kind == "entry":
            return d.side, O.Enter(d.data["unit"], d.data["options"][0])
        return d.side, O.End()  # rebuild and breakout are optional: none
    side = phasing_side(state.phase)
    due = turn1_obligations(scen, state)
    if due:
        return side, O.Move(due[0], movement.legal_paths(scen, state, state.units[due[0]])[0])
    return side, O.End()

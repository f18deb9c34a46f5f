"""Combat (section 8): restrictions, strengths, odds, column shifts, the decisive attack.

Applying hits and retreats is in losses.py. Turn limits of section 12 are in turn_rules.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, t
from adjudicator.hells_gate import turn_rules
from adjudicator.hells_gate.orders import Attack
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState, other
from adjudicator.hells_gate.texts import box_name, none_if_empty, terrain_name
from adjudicator.hells_gate.units import is_full_two_step, strength

MAX_PER_HEXSIDE = 2  # 8.4(f)


class Shift(TypedDict):
    """A column shift of 8.11 (S1-S7)."""

    code: str  # "S1" ... "S7"
    columns: int  # right (> 0) or left (< 0)
    reason: str  # a core.i18n Msg


@dataclass
class AttackCalc:
    hex: str
    attackers: list[str]
    defender_side: str
    attack_strength: int
    defense_strength: int
    raw_column: str
    shifts: list[Shift] = field(default_factory=list)
    final_column: str = ""
    overstack: bool = False
    decisive_allowed: bool = False
    decisive_refusal: Rejection | None = None
    flip_choices: list[str] = field(default_factory=list)

    def to_json(self, decisive: bool, die: int | None, hits: int | None) -> dict[str, Any]:
        return {
            "hex": self.hex,
            "attackers": list(self.attackers),
            "attack_strength": self.attack_strength,
            "defense_strength": self.defense_strength,
            "raw_column": self.raw_column,
            "shifts": [dict(s) for s in self.shifts],
            "final_column": self.final_column,
            "decisive": decisive,
            "overstack": self.overstack,
            "die": die,
            "hits": hits,
        }


def check_attackers(scen: Scenario, state: GameState, side: str, order: Attack) -> list[UnitState]:
    """8.3 step 1 and the restrictions of 8.4, in the order a player would trip over them."""
    defenders = state.units_in(order.hex)
    if not defenders or defenders[0].side == side:
        enemy = [h for h in scen.grid.sort(state.occupied()) if state.side_in(h) == other(side)]
        raise Rejection(
            "no-enemy-in-hex",
            _no_enemy(side, order.hex, none_if_empty(enemy)),
            "8.3",
        )
    if order.hex in state.attacked_hexes:
        raise Rejection(
            "hex-already-attacked",
            t("{hex} was already attacked in this combat phase", hex=order.hex),
            "8.4(b)",
        )
    if not order.units:
        raise Rejection("no-attackers", t("name at least one attacking unit"), "8.3")
    if len(set(order.units)) != len(order.units):
        raise Rejection("duplicate-attacker", t("a unit is named twice in the attack"), "8.4(a)")
    units = [_own_unit(scen, state, side, uid) for uid in order.units]
    for u in units:
        _check_attacker(scen, state, u, order.hex)
    _check_hexsides(state, units, order.hex)
    turn_rules.check_attack_limits(scen, state, side, units)
    return units


def _own_unit(scen: Scenario, state: GameState, side: str, uid: str) -> UnitState:
    u = state.units.get(uid)
    if u is None:
        raise Rejection("unknown-unit", t("there is no unit {unit}", unit=repr(uid)), None)
    if u.side != side:
        raise Rejection(
            "not-your-unit",
            t("{unit} is a Soviet unit; only the phasing player's units attack", unit=uid)
            if u.side == "soviet"
            else t("{unit} is a German unit; only the phasing player's units attack", unit=uid),
            "4.6",
        )
    if not u.on_map:
        raise Rejection(
            "unit-not-on-map",
            t("{unit} is not on the map ({box})", unit=uid, box=box_name(u.box)),
            "2.7",
        )
    return u


def _check_attacker(scen: Scenario, state: GameState, u: UnitState, target: str) -> None:
    if u.retreated:
        raise Rejection(
            "retreated-unit-attacks",
            t("{unit} has a Retreat marker and may not attack", unit=u.id),
            "8.4(g)",
        )
    if u.attacked:
        raise Rejection(
            "unit-already-attacked",
            t("{unit} has already attacked in this combat phase", unit=u.id),
            "8.4(a)",
        )
    if not scen.grid.adjacent(u.map_hex, target):
        near = ", ".join(scen.grid.neighbours(target))
        raise Rejection(
            "not-adjacent",
            t(
                "{unit} in {hex} is not adjacent to {target}; attackers must stand in {near}",
                unit=u.id,
                hex=u.map_hex,
                target=target,
                near=near,
            ),
            "8.4(c)",
        )


def _check_hexsides(state: GameState, units: list[UnitState], target: str) -> None:
    per_hex: dict[str, list[str]] = {}
    for u in units:
        per_hex.setdefault(u.map_hex, []).append(u.id)
    for h, ids in per_hex.items():
        if len(ids) > MAX_PER_HEXSIDE:
            raise Rejection(
                "hexside-limit",
                t(
                    "at most {limit} units may attack across the {hex}–{target} hexside; "
                    "you named {n} ({units})",
                    limit=MAX_PER_HEXSIDE,
                    hex=h,
                    target=target,
                    n=len(ids),
                    units=", ".join(ids),
                ),
                "8.4(f)",
            )


def attack_strength(scen: Scenario, units: list[UnitState], target: str) -> int:
    """8.6: bracketed units x3 against clear, x2 against woods or Cherkassy."""
    factor = 2 if scen.is_woods_for_combat(target) else 3
    return sum(strength(scen, u) * (factor if scen.units[u.id].bracketed else 1) for u in units)


def defense_strength(scen: Scenario, state: GameState, target: str) -> int:
    """8.7/8.8: the 2 (Soviet) or 3 (German) highest strengths without a Retreat marker."""
    present = [u for u in state.units_in(target) if not u.retreated]
    if not present:
        return 0
    best = sorted((strength(scen, u) for u in present), reverse=True)
    return sum(best[: 2 if present[0].side == "soviet" else 3])


def raw_column(scen: Scenario, attack: int, defense: int) -> str | None:
    """8.9/8.10: the highest column a:b with attack x b >= defense x a; None below the lowest."""
    if defense == 0:
        return scen.columns[-1].label
    best = None
    for col in scen.columns:
        if attack * col.b >= defense * col.a:
            best = col.label
    return best


def is_overstacked(scen: Scenario, state: GameState, target: str) -> bool:
    """8.20: 5 or more units, counting Retreat markers when the flag says so (Q2)."""
    units = state.units_in(target)
    if not scen.flags["overstack_counts_retreated"]:
        units = [u for u in units if not u.retreated]
    return len(units) >= 5


def column_shifts(
    scen: Scenario, state: GameState, units: list[UnitState], target: str
) -> list[Shift]:
    """8.11 shifts S1-S7 with the caps of 8.13, 12.5, 12.9 and 12.12."""
    shifts: list[Shift] = []

    def add(code: str, columns: int, reason: Msg) -> None:
        shifts.append({"code": code, "columns": columns, "reason": reason})

    defenders = [u for u in state.units_in(target) if not u.retreated]
    oos_def = [u for u in defenders if u.oos]
    if defenders and len(oos_def) == len(defenders):
        cap, why = turn_rules.oos_cap(scen, state, defenders[0].side, [target])
        add("S1", min(2, cap), t("every defender is out of supply{why}", why=why))
    elif oos_def:
        add("S2", 1, t("some defenders are out of supply"))
    if state.weather == "mud":
        add("S3", -1, t("the weather is Mud"))
    if scen.is_woods_for_combat(target):
        terrain = terrain_name(scen.hexes[target].terrain)
        add("S4", -1, t("{hex} is {terrain}", hex=target, terrain=terrain))
    across = [u for u in units if scen.is_river(u.map_hex, target)]
    if across and 2 * len(across) >= len(units):
        add(
            "S5",
            -1,
            t(
                "{n} of {total} attackers attack across a river hexside",
                n=len(across),
                total=len(units),
            ),
        )
    oos_att = [u for u in units if u.oos]
    if oos_att and len(oos_att) == len(units):
        cap, why = turn_rules.oos_cap(scen, state, units[0].side, [u.map_hex for u in oos_att])
        add("S7", -min(2, cap), t("every attacker is out of supply{why}", why=why))
    elif oos_att:
        add("S6", -1, t("some attackers are out of supply"))
    return shifts


def calculate(scen: Scenario, state: GameState, side: str, order: Attack) -> AttackCalc:
    units = check_attackers(scen, state, side, order)
    att = attack_strength(scen, units, order.hex)
    dfn = defense_strength(scen, state, order.hex)
    raw = raw_column(scen, att, dfn)
    if raw is None:
        lowest = scen.columns[0]
        raise Rejection(
            "odds-too-low",
            t(
                "odds {attack}:{defense} are below the lowest column {column}; you need an "
                "attack strength of at least {need}",
                attack=att,
                defense=dfn,
                column=lowest.label,
                need=-(-dfn * lowest.a // lowest.b),
            ),
            "8.10",
        )
    calc = AttackCalc(order.hex, [u.id for u in units], other(side), att, dfn, raw)
    calc.shifts = column_shifts(scen, state, units, order.hex)
    net = sum(s["columns"] for s in calc.shifts)
    index = min(max(scen.column_index(raw) + net, 0), len(scen.columns) - 1)  # 8.15
    calc.final_column = scen.columns[index].label
    calc.overstack = is_overstacked(scen, state, order.hex)
    _decisive_options(scen, calc, units)
    return calc


def _decisive_options(scen: Scenario, calc: AttackCalc, units: list[UnitState]) -> None:
    """8.17/8.18: who may be flipped for a decisive attack (armor first)."""
    full = [u for u in units if is_full_two_step(scen, u)]
    armor = [u for u in full if scen.units[u.id].is_armor]
    calc.flip_choices = [u.id for u in (armor or full)]
    if calc.overstack:
        calc.decisive_refusal = Rejection(
            "decisive-overstack",
            t(
                "{hex} is overstacked (5 or more units): the result is read from the "
                "right-hand value anyway and no decisive attack may be declared",
                hex=calc.hex,
            ),
            "8.20",
        )
    elif not full:
        calc.decisive_refusal = Rejection(
            "decisive-needs-full-two-step",
            t(
                "a decisive attack needs a full-strength two-step attacking unit to flip; "
                "none of the attackers is one"
            ),
            "8.17(a)",
        )
    calc.decisive_allowed = calc.decisive_refusal is None


def choose_flip(scen: Scenario, state: GameState, calc: AttackCalc, order: Attack) -> str:
    """8.18: the named unit, which must be armor if any full two-step armor attacks."""
    if calc.decisive_refusal is not None:
        raise calc.decisive_refusal
    if order.flip is None:
        return default_flip(scen, state, calc)
    if order.flip not in calc.flip_choices:
        raise Rejection(
            "bad-flip",
            t(
                "{unit} cannot be flipped for this decisive attack; choose one of: {units} "
                "(armor first)",
                unit=order.flip,
                units=", ".join(calc.flip_choices),
            )
            if _armor(scen, calc)
            else t(
                "{unit} cannot be flipped for this decisive attack; choose one of: {units}",
                unit=order.flip,
                units=", ".join(calc.flip_choices),
            ),
            "8.18",
        )
    return order.flip


def _armor(scen: Scenario, calc: AttackCalc) -> bool:
    return any(scen.units[uid].is_armor for uid in calc.flip_choices)


def default_flip(scen: Scenario, state: GameState, calc: AttackCalc) -> str:
    """Decision: with no unit named, flip the weakest eligible unit, ties by unit order."""
    return min(calc.flip_choices, key=lambda uid: strength(scen, state.units[uid]))


def hits_by_face(scen: Scenario, column: str, right_hand: bool) -> list[int]:
    return [scen.hits(column, die, right_hand) for die in range(1, 7)]


def _no_enemy(side: str, hex_id: str, enemy: Msg | str) -> Msg:
    """8.3: the target holds no unit of the other side."""
    if side == "soviet":
        return t("{hex} holds no German unit; enemy-held hexes: {enemy}", hex=hex_id, enemy=enemy)
    return t("{hex} holds no Soviet unit; enemy-held hexes: {enemy}", hex=hex_id, enemy=enemy)

"""Special rules by turn (section 12) that limit combat, movement and retreats."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, t
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, UnitState
from adjudicator.hells_gate.texts import none_if_empty, type_name


def check_attack_limits(
    scen: Scenario, state: GameState, side: str, units: list[UnitState]
) -> None:
    """12.4: on turn 1 only German armor attacks, at most 2 that started on the map and at most
    2 that entered this turn (counted over the whole combat phase; the German player chooses)."""
    if not (state.turn == 1 and side == "german"):
        return
    for u in units:
        if not scen.units[u.id].is_armor:
            raise Rejection(
                "turn1-german-armor-only",
                t(
                    "on turn 1 only German armor units may attack; {unit} is {type}",
                    unit=u.id,
                    type=type_name(scen.units[u.id].type),
                ),
                "12.4",
            )
    at_start = set(scen.flags["german_armor_at_start"])
    groups: dict[Msg, tuple[Callable[[UnitState], bool], int]] = {
        t("started the game on the map"): (
            lambda u: u.id in at_start,
            int(scen.flags["german_turn1_at_start_armor_limit"]),
        ),
        t("entered as reinforcements this turn"): (
            lambda u: u.entered_turn == state.turn,
            int(scen.flags["german_turn1_reinforcement_armor_limit"]),
        ),
    }
    for label, (member, limit) in groups.items():
        already = [u.id for u in state.on_map("german") if u.attacked and member(u)]
        new = [u.id for u in units if member(u)]
        if len(already) + len(new) > limit:
            raise Rejection(
                "turn1-german-armor-limit",
                t(
                    "on turn 1 at most {limit} German armor units that {label} may attack; "
                    "already attacked: {already}; named: {named}",
                    limit=limit,
                    label=label,
                    already=none_if_empty(already),
                    named=", ".join(new),
                ),
                "12.4",
            )
    for u in units:
        if not any(member(u) for member, _ in groups.values()):
            raise Rejection(
                "turn1-german-armor-only",
                t("{unit} neither started on the map nor entered this turn", unit=u.id),
                "12.4",
            )


def oos_cap(scen: Scenario, state: GameState, side: str, hexes: list[str]) -> tuple[int, Msg | str]:
    """The size of S1/S7 (8.13): 1 on turns 1-2 (12.5, 12.9); 1 for German units at the Korsun
    airfield hexes while a German unit holds E3, from turn 3 (12.12(a)-(c))."""
    if state.turn <= 2:
        return 1, t(" (capped at 1 column on turns 1-2, 8.13(a))")
    airfield = scen.flags["airfield_hex"]
    cap_hexes = set(scen.flags["airfield_cap_hexes"])
    held = state.side_in(airfield) == "german"
    if side == "german" and held and all(h in cap_hexes for h in hexes):
        return 1, t(" (capped at 1 column: Korsun airfield {hex} is held, 12.12)", hex=airfield)
    return 2, ""


def check_move_limits(
    scen: Scenario, state: GameState, u: UnitState, path: tuple[str, ...]
) -> None:
    """12.2, 12.6, 12.8 and 12.14."""
    if state.turn == 1 and u.side == "soviet":
        armor = scen.flags["turn1_soviet_armor"]
        if u.id not in armor:
            raise Rejection(
                "turn1-soviet-armor-only",
                t(
                    "on turn 1 only the three Soviet armor units ({units}) may move",
                    units=", ".join(armor),
                ),
                "12.2",
            )
        if path[-1] == u.hex:
            raise Rejection(
                "turn1-must-end-elsewhere",
                t(
                    "on turn 1 {unit} must end its move in a hex other than {hex}",
                    unit=u.id,
                    hex=u.hex,
                ),
                "12.2",
            )
    if state.turn == 1 and u.side == "german":
        if not scen.units[u.id].is_armor:
            raise Rejection(
                "turn1-german-armor-move",
                t(
                    "on turn 1 only one German armor unit may move; {unit} is {type}",
                    unit=u.id,
                    type=type_name(scen.units[u.id].type),
                ),
                "12.6",
            )
        moved = [m.id for m in state.on_map("german") if m.moved]
        if moved:
            raise Rejection(
                "turn1-german-one-move",
                t("on turn 1 only one German unit may move, and {unit} has moved", unit=moved[0]),
                "12.6",
            )
    tychinovka = scen.flags["tychinovka_marker_hex"]
    if state.turn == 2 and u.side == "german" and tychinovka in path:
        raise Rejection(
            "tychinovka",
            t("during turn 2 German units may not enter Tychinovka ({hex})", hex=tychinovka),
            "12.8",
        )
    if is_frozen(scen, state, u):
        raise Rejection(
            "airfield-freeze",
            t(
                "{unit} in {hex} may not move: the Korsun airfield freeze holds German units in "
                "and next to {airfield} until a Soviet unit comes next to it",
                unit=u.id,
                hex=u.hex,
                airfield=scen.flags["airfield_hex"],
            ),
            "12.14",
        )


def is_frozen(scen: Scenario, state: GameState, u: UnitState) -> bool:
    """12.14: German movement phases of turns 2 and 3, until the freeze is lifted."""
    if u.side != "german" or state.turn not in (2, 3) or state.airfield_freeze_lifted:
        return False
    airfield = scen.flags["airfield_hex"]
    return u.hex == airfield or scen.grid.adjacent(u.map_hex, airfield)


def note_soviet_presence(scen: Scenario, state: GameState, side: str, hexes: Iterable[str]) -> None:
    """7.9 and 12.14: remember Soviet entries that later rules look back on."""
    if side != "soviet":
        return
    hexes = list(hexes)
    trigger = set(scen.named["panzer24_trigger"])
    if any(h in trigger for h in hexes):
        state.soviet_entered_trigger = True
    airfield = scen.flags["airfield_hex"]
    if any(h == airfield or scen.grid.adjacent(h, airfield) for h in hexes):
        state.airfield_freeze_lifted = True


def retreat_limit(scen: Scenario, state: GameState, side: str, dest: str) -> str | None:
    """8.32(f): the turn-1 limits (12.3) and the turn-2 Tychinovka limit (12.8).
    Returns the rule that forbids `dest`, or None."""
    if side == "german" and state.turn == 1 and state.phase == "soviet-combat":
        holds = state.side_in(dest) == "german"
        supply_free = scen.hexes[dest].supply == "german" and not _in_soviet_zoc(scen, state, dest)
        if not (holds or supply_free) or dest in state.attacked_hexes:
            return "12.3"
    if side == "german" and state.turn == 2 and dest == scen.flags["tychinovka_marker_hex"]:
        return "12.8"
    return None


def _in_soviet_zoc(scen: Scenario, state: GameState, hex_id: str) -> bool:
    return any(state.side_in(n) == "soviet" for n in scen.grid.neighbours(hex_id))

"""What the players read: the status, the help with the deadline defaults and the jäger
note, the situation's label. Pure."""

from __future__ import annotations

from adjudicator.borodino import rally, recovery
from adjudicator.borodino.board import boxes_text, eliminated_text, losses_text, side_name
from adjudicator.borodino.data import SIDE_IDS, Scenario
from adjudicator.borodino.state import State

DEFAULTS = """Deadline defaults (what a passed deadline does for the side on the clock):
  between activations: `recovery` (the turn's activations end: the Morale Phase, then the Recovery Phase)
  an Activation Phase: `end` (its Rally phase begins)
  a Rally phase: `end` (an optional rally: none is made)
  the Recovery Phase: `recovery` (it is run)
  a placement: `return` to the legal hex nearest the unit's group (independent: its Army), ties in hex order"""

JAGERS = (
    "Jager rules (7.2-7.14: stacking, movement, squares, shock): use_jager_rules is {flag} for "
    "this game. The bot does not adjudicate movement, fire or shock: the players apply them on "
    "their board, and no jager rule is checked by the bot."
)


def help_footer(scen: Scenario) -> str:
    flag = "on" if scen.use_jager_rules else "off (rule 7.1: not used in Borodino)"
    return f"{DEFAULTS}\n{JAGERS.format(flag=flag)}"


def phase_id(state: State) -> str:
    if state.phase == "placement" and state.placing:
        return f"placement-{state.placing[0]}"
    return f"{state.phase}-{state.active}" if state.active else state.phase


def label(state: State) -> str:
    return f"turn {state.turn}, {phase_id(state)}"


def to_move(scen: Scenario, state: State) -> tuple[str, ...]:
    if state.result is not None:
        return ()
    if state.phase == "placement":
        return (state.placing[0],) if state.placing else ()
    if state.phase in ("activation", "rally") and state.active:
        side = (
            scen.groups[state.active].side
            if state.active in scen.groups
            else scen.units[state.active].side
        )
        return (side,)
    first = state.initiative
    return (first, SIDE_IDS[1] if first == SIDE_IDS[0] else SIDE_IDS[0])


def placement_prompt(scen: Scenario, state: State) -> str:
    side = state.placing[0]
    units = recovery.placeable(scen, state, side)
    return f"return the recovered unit(s) {', '.join(units)} to the map (`return <UNIT> <HEX>`, 4.2-4.4)"


def status(scen: Scenario, state: State, actor: str) -> str:
    head = f"{scen.title}\nTurn {state.turn}, {phase_id(state)}."
    if state.result is not None:
        head += f" Game over: {state.result['text']}."
    lines = [
        head,
        f"Die: d{scen.die_sides}. "
        + JAGERS.format(flag="on" if scen.use_jager_rules else "off (rule 7.1)"),
    ]
    if state.result is None:
        lines.append(_now(scen, state))
    for side in SIDE_IDS:
        lines.append(_on_map(scen, state, side))
    lines += [boxes_text(scen, state, s) for s in SIDE_IDS]
    lines += [eliminated_text(scen, state), losses_text(scen, state)]
    lines.append(f"Recovery Phases held: {state.recovery_phases} of {scen.ending.recovery_phases}.")
    if state.disputes:
        lines.append(f"Disputed reports: {len(state.disputes)} (sent to the moderators).")
    return "\n".join(lines)


def _now(scen: Scenario, state: State) -> str:
    moving = to_move(scen, state)
    who = " and ".join(side_name(s) for s in moving)
    if state.phase == "activations":
        return (f"Between activations: {who} may report and `activate` (next: "
                f"{side_name(state.initiative)}); `morale`, then `recovery`, end the turn.")  # fmt: skip
    if state.phase == "activation":
        return f"Activation Phase of {state.active} ({who}): report, `activated <UNIT> moved|fired|faced`, then `end`."
    if state.phase == "rally":
        can = ", ".join(rally.eligible(scen, state)) or "none"
        return f"Rally phase of {state.active} ({who}): may attempt: {can}; `end` when done."
    if state.phase == "recovery":
        return "The Morale Phase is held: `recovery` runs the Recovery Phase."
    return f"{who} must {placement_prompt(scen, state)}."


def _on_map(scen: Scenario, state: State, side: str) -> str:
    parts = []
    for uid, spot in state.units.items():
        if scen.units[uid].side == side and spot.on_map:
            parts.append(f"{uid} {spot.hex}{' D' if spot.disordered else ''}")
    later = [u for u, s in state.units.items() if scen.units[u].side == side and s.where == "later"]
    tail = f"; not yet entered: {', '.join(later)}" if later else ""
    return f"{side_name(side)} on the map (D: Disordered): {', '.join(parts) or '-'}{tail}."

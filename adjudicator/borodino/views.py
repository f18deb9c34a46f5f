"""What a viewer sees and what the players read: the state as a viewer may see it (a dispute's
text is the moderators'), the setup's news, the status, the help with the deadline defaults and
the jäger note, the situation's label. Pure."""

from __future__ import annotations

from adjudicator.borodino import rally, recovery
from adjudicator.borodino.board import (
    boxes_text,
    eliminated_text,
    ids,
    losses_text,
    none_or,
    phase_name,
    result_text,
    side_id,
    side_name,
)
from adjudicator.borodino.data import SIDE_IDS, Scenario
from adjudicator.borodino.state import State
from adjudicator.core.events import MODERATORS_ONLY, Event, Viewer
from adjudicator.core.i18n import Msg, cat, lines, name, t, tn

DEFAULTS = t(
    "Deadline defaults (what a passed deadline does for the side on the clock):\n"
    "  between activations: `recovery` (the turn's activations end: the Morale Phase, then the "
    "Recovery Phase)\n"
    "  an Activation Phase: `end` (its Rally phase begins)\n"
    "  a Rally phase: `end` (an optional rally: none is made)\n"
    "  the Recovery Phase: `recovery` (it is run)\n"
    "  a placement: `return` to the legal hex nearest the unit's group (independent: its Army), "
    "ties in hex order"
)


ON = name("on", ru="включены")  # the value of use_jager_rules, said


def jagers(flag: Msg) -> Msg:
    return t(
        "Jager rules (7.2-7.14: stacking, movement, squares, shock): use_jager_rules is {flag} "
        "for this game. The bot does not adjudicate movement, fire or shock: the players apply "
        "them on their board, and no jager rule is checked by the bot.",
        flag=flag,
    )


def help_footer(scen: Scenario) -> Msg:
    flag = ON if scen.use_jager_rules else t("off (rule 7.1: not used in Borodino)")
    return lines([DEFAULTS, jagers(flag)])


def view(state: State, viewer: Viewer) -> State:
    """The state as `viewer` may see it: a dispute's text is for the moderators (its event is
    theirs, reports.dispute), and for everyone once the game is over; who disputed which unit
    when is public (everyone is told)."""
    if not state.disputes or MODERATORS_ONLY.sees(viewer):
        return state
    seen = state.clone()
    seen.disputes = [{k: v for k, v in d.items() if k != "text"} for d in state.disputes]
    return seen


def started(scen: Scenario) -> Event:
    """The setup's news: the title, who goes first, the die, the jager flag (7.1)."""
    title, sides = name(scen.title, ru=scen.title_ru), scen.die_sides
    text = (
        t(
            "{title}: turn 1, Russian first. Die d{sides}; jager rules on (applied by the "
            "players on their board).",
            title=title,
            sides=sides,
        )
        if scen.use_jager_rules
        else t(
            "{title}: turn 1, Russian first. Die d{sides}; jager rules off (applied by the "
            "players on their board).",
            title=title,
            sides=sides,
        )
    )
    return Event("GameStarted", text)


def phase_id(state: State) -> str:
    if state.phase == "placement" and state.placing:
        return f"placement-{state.placing[0]}"
    return f"{state.phase}-{state.active}" if state.active else state.phase


def phase_said(state: State) -> Msg:
    """phase_id as a text: the phase's and the side's ids in the reader's language."""
    if state.phase == "placement" and state.placing:
        return t("{phase}-{side}", phase=phase_name(state.phase), side=side_id(state.placing[0]))
    if state.active:
        return t("{phase}-{group}", phase=phase_name(state.phase), group=state.active)
    return phase_name(state.phase)


def label(state: State) -> Msg:
    return t("turn {turn}, {phase}", turn=state.turn, phase=phase_said(state))


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


def placement_prompt(scen: Scenario, state: State) -> Msg:
    side = state.placing[0]
    units = recovery.placeable(scen, state, side)
    return tn(
        "return the recovered unit {units} to the map (`return <UNIT> <HEX>`, 4.2-4.4)",
        "return the recovered units {units} to the map (`return <UNIT> <HEX>`, 4.2-4.4)",
        len(units),
        units=cat(*units, sep=", "),
    )


def status(scen: Scenario, state: State, actor: str) -> Msg:
    title = name(scen.title, ru=scen.title_ru)
    head = t(
        "{title}\nTurn {turn}, {phase}.", title=title, turn=state.turn, phase=phase_said(state)
    )
    if state.result is not None:
        head = t("{head} Game over: {result}.", head=head, result=result_text(scen, state))
    flag = ON if scen.use_jager_rules else t("off (rule 7.1)")
    said = [head, t("Die: d{sides}. {jagers}", sides=scen.die_sides, jagers=jagers(flag))]
    if state.result is None:
        said.append(_now(scen, state))
    for side in SIDE_IDS:
        said.append(_on_map(scen, state, side))
    said += [boxes_text(scen, state, s) for s in SIDE_IDS]
    said += [eliminated_text(scen, state), losses_text(scen, state)]
    said.append(
        t(
            "Recovery Phases held: {held} of {of}.",
            held=state.recovery_phases,
            of=scen.ending.recovery_phases,
        )
    )
    if state.disputes:
        said.append(t("Disputed reports: {n} (sent to the moderators).", n=len(state.disputes)))
    return lines(said)


def _now(scen: Scenario, state: State) -> Msg:
    moving = to_move(scen, state)
    who = _and(*(side_name(s) for s in moving))
    if state.phase == "activations":
        return t(
            "Between activations: {who} may report and `activate` (next: {next}); "
            "`morale`, then `recovery`, end the turn.",
            who=who,
            next=side_name(state.initiative),
        )
    if state.phase == "activation":
        return t(
            "Activation Phase of {group} ({who}): report, `activated <UNIT> "
            "moved|fired|faced`, then `end`.",
            group=state.active,
            who=who,
        )
    if state.phase == "rally":
        units = none_or(rally.eligible(scen, state))
        return t(
            "Rally phase of {group} ({who}): may attempt: {units}; `end` when done.",
            group=state.active,
            who=who,
            units=units,
        )
    if state.phase == "recovery":
        return t("The Morale Phase is held: `recovery` runs the Recovery Phase.")
    return t("{who} must {prompt}.", who=who, prompt=placement_prompt(scen, state))


def _and(*sides: Msg) -> Msg:
    if len(sides) == 2:
        return t("{a} and {b}", a=sides[0], b=sides[1])
    return cat(*sides, sep="")


def _on_map(scen: Scenario, state: State, side: str) -> Msg:
    parts: list[Msg] = []
    for uid, spot in state.units.items():
        if scen.units[uid].side == side and spot.on_map:
            if spot.disordered:
                parts.append(t("{unit} {hex} D", unit=uid, hex=str(spot.hex)))
            else:
                parts.append(t("{unit} {hex}", unit=uid, hex=str(spot.hex)))
    later = [u for u, s in state.units.items() if scen.units[u].side == side and s.where == "later"]
    units = ids([]) if not parts else cat(*parts, sep=", ")
    if later:
        return t(
            "{side} on the map (D: Disordered): {units}; not yet entered: {later}.",
            side=side_name(side),
            units=units,
            later=cat(*later, sep=", "),
        )
    return t("{side} on the map (D: Disordered): {units}.", side=side_name(side), units=units)

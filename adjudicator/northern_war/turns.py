"""The sequence of play (rule 8.4, N14): the entry phase, the turns of a year with their action
rolls (5.1-5.15), action phases, battle phases (battles, then sieges) and foraging phases, the
Swedish winter campaign (section 6), the armistice (4.4, N11) and the end (N15).

`advance` carries the game on through every automatic step until a player must speak. Pure."""

from __future__ import annotations

from typing import Any

from adjudicator.core.dice import DiceSource
from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Event
from adjudicator.core.i18n import Msg, cat, t, tn
from adjudicator.northern_war import battle, board
from adjudicator.northern_war.board import SIDES, on_map, other
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import ON_MAP, REMOVED, NWState
from adjudicator.northern_war.texts import Side, side, then

EVENT = 6  # rule 5.8


def phase_began(sc: Scenario, state: NWState, what: Msg) -> Event:
    text = t("{when}: {what}.", when=board.label(sc, state), what=what)
    return Event(PHASE_BEGAN, text, {"turn": state.count, "phase": state.phase})


def action_roll(state: NWState, side: str, dice: DiceSource) -> tuple[int, list[int]]:
    """Rule 5.13: a side whose last roll was an event rolls again until it is not a 6."""
    rolled = [dice.roll(f"action {side}")]
    while rolled[-1] == EVENT and side in state.prev_event:
        rolled.append(dice.roll(f"action {side} again (5.13)"))
    return rolled[-1], rolled


def start_turn(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    state.phase, state.pending, state.battle = "action", None, None
    state.moved, state.move_open, state.move_group, state.free_sieges = [], None, [], []
    state.sieges, state.finished, state.last_kind = [], [], {}
    state.holders = {
        str(state.at[b]): sc.side_of(b) for b in sc.blocks if state.status[b] == ON_MAP
    }
    events = [phase_began(sc, state, t("action phase"))]
    while True:
        results = {s: action_roll(state, s, dice) for s in SIDES}
        rolls = {s: r for s, (r, _) in results.items()}
        tie = rolls[SIDES[0]] == rolls[SIDES[1]]
        if not (tie and state.prev_second is None):
            break  # rule 5.6: a tie in the first turn is rolled again, the new results count
        events.append(
            Event(
                "ActionRollTied",
                t("Both roll {roll}: roll again (5.6).", roll=rolls[SIDES[0]]),
                {"roll": rolls[SIDES[0]]},
            )
        )
    if tie:
        first = str(state.prev_second)  # rule 5.5
    else:
        first = max(SIDES, key=lambda s: rolls[s])  # rule 5.4
    second = other(first)
    state.rolls, state.first, state.prev_second = rolls, first, second
    state.prev_event = [s for s in SIDES if rolls[s] == EVENT]
    state.actions = {s: 0 if rolls[s] == EVENT else sc.action_table[rolls[s]] for s in SIDES}
    for s in SIDES:
        what = (
            t("an event")
            if rolls[s] == EVENT
            else tn("{n} action", "{n} actions", state.actions[s])
            if state.rules >= 2
            else tn("{n} action(s)", "{n} action(s)", state.actions[s])  # rules 1, as logged
        )
        rolled = t(
            "{side} rolls {rolls}: {what}.", side=Side(s), rolls=then(results[s][1]), what=what
        )
        events.append(
            Event(
                "ActionRolled",
                rolled,
                {"side": s, "rolls": results[s][1], "actions": state.actions[s]},
            )
        )
    events.append(
        Event("FirstPlayer", t("First player: {side}.", side=side(first)), {"side": first})
    )
    for s in (first, second):  # rule 5.10: events in first-player order
        if rolls[s] == EVENT:
            state.finished.append(s)
            events.append(
                Event(
                    "EventResolved",
                    t(
                        "{side} resolves an event: no effect in the sample scenario (N2).",
                        side=Side(s),
                    ),
                    {"side": s},
                )
            )
    state.to_move = first
    return events


def end_actions(state: NWState, side: str) -> None:
    if side not in state.finished:
        state.finished.append(side)
    state.move_open, state.move_group, state.free_sieges = None, [], []


def advance(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    """Every automatic step from here until a side must decide or the game is over."""
    events: list[Event] = []
    while state.result is None and state.pending is None:
        if state.phase == "action":
            if state.to_move in state.finished:
                state.to_move = other(str(state.to_move))
            if state.to_move not in state.finished:
                return events
            if len(state.prev_event) == 2:  # rule 5.9: straight to the foraging phase
                events += end_turn(sc, state, dice)
                continue
            state.phase, state.to_move = "battle", None
            events.append(phase_began(sc, state, t("battle phase")))
        elif state.phase == "battle":
            events += battle_step(sc, state, dice)
        elif state.phase in ("winter", "entry"):
            return events
    return events


def battle_step(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    if state.battle is not None:
        return battle.run(sc, state, dice)
    areas = board.contested(sc, state)
    if len(areas) > 1:  # N3 a: the first player orders the battles
        state.pending = {"kind": "battle", "side": state.first, "choices": areas}
        return []
    if areas:
        return battle.begin(sc, state, areas[0])
    events = battle.resolve_sieges(sc, state, dice)
    events += end_battle_phase(sc, state)
    if state.result is None:
        if state.winter_moved:
            events += end_year(sc, state, dice)
        else:
            events += end_turn(sc, state, dice)
    return events


def end_battle_phase(sc: Scenario, state: NWState) -> list[Event]:
    """N5 (control of territories without a fortress) and N11 (the armistice)."""
    events: list[Event] = []
    for x, terr in sc.territories.items():
        held = board.sides_in(sc, state, x)
        if terr.fortress == 0 and len(held) == 1:
            state.control[x] = held.pop()
    for nation in state.truce_due:
        state.armistice.append(nation)
        for b in sc.blocks:
            if sc.blocks[b].nation == nation and state.status[b] == ON_MAP:
                state.status[b], state.at[b] = REMOVED, None
        left = t("Armistice: {nation} leaves the war (4.4, N11).", nation=sc.nations[nation].named)
        events.append(Event("Armistice", left, {"nation": nation}))
    state.truce_due = []
    at_war = [
        n for n, nat in sc.nations.items() if nat.side == "coalition" and n not in state.armistice
    ]
    if not at_war:
        events += finish(state, {"winner": "sweden", "text": str.__str__(_said({}))})
    return events


def end_turn(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    """The foraging phase (no effect, N7), then the next turn or the winter campaign."""
    if state.turn < sc.turns_per_year:
        state.turn += 1
        state.count += 1
        return start_turn(sc, state, dice)
    if state.status["charles"] != ON_MAP:  # rule 6.7: no winter campaign without him
        return end_year(sc, state, dice)
    # at strength 1 he may not take part (6.10): only `winter none` is legal then, but the
    # phase is played all the same, so that whether there is one does not betray his strength
    state.phase, state.to_move, state.winter_moved = "winter", "sweden", False
    state.holders = {
        str(state.at[b]): sc.side_of(b) for b in sc.blocks if state.status[b] == ON_MAP
    }
    state.finished, state.free_sieges, state.sieges = [], [], []
    return [
        phase_began(
            sc, state, t("the Swedish winter campaign (winter <BLOCKS> <AREAS>, or winter none)")
        )
    ]


def end_winter(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    """Rule 6.11: the battles and sieges of the campaign at once, then the new year."""
    state.to_move, state.free_sieges = None, []
    if not state.winter_moved:
        return end_year(sc, state, dice)
    state.phase = "battle"
    return advance(sc, state, dice)


def end_year(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    state.winter_moved = False
    if state.year >= sc.years:
        return finish(state, victory(sc, state))
    state.year, state.turn, state.count = state.year + 1, 1, state.count + 1
    state.phase = "entry"
    return entry_phase(sc, state, dice)


def entry_phase(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    """N12: the return roll of Charles XII (4.7-4.11), the policy records cleared (5.31)."""
    state.policy_used = []
    events = [phase_began(sc, state, t("entry phase"))]
    if state.exile_attempts is None:
        return events + start_turn(sc, state, dice)
    attempt = state.exile_attempts + 1
    need = 7 - attempt
    text: Msg
    if attempt >= 6:  # rule 4.8: automatic
        ok = True
        text = t("Charles XII returns without a roll (attempt {attempt}, 4.8)", attempt=attempt)
    else:
        die = dice.roll("return of Charles XII")
        ok = die >= need
        text = t(
            "Return of Charles XII, attempt {attempt}: die {die}, needs {need}+: {outcome}",
            attempt=attempt,
            die=die,
            need=need,
            outcome=t("he returns") if ok else t("he stays in exile"),
        )
    state.exile_attempts = attempt
    free = [
        t
        for t, terr in sc.territories.items()
        if terr.group == "sweden" and not on_map(sc, state, t, "coalition")
    ]
    if ok and not free:
        text = t(
            "{text}; no territory in Sweden is free of enemy blocks: he stays in exile (4.10)",
            text=text,
        )
    events.append(Event("ReturnRolled", cat(text, "."), {"attempt": attempt, "success": ok}))
    if ok and free:
        state.pending = {"kind": "return", "side": "sweden", "choices": free}
    if state.pending is None:
        events += start_turn(sc, state, dice)
    return events


def return_charles(sc: Scenario, state: NWState, area: str, dice: DiceSource) -> list[Event]:
    state.pending, state.exile_attempts = None, None
    state.status["charles"], state.at["charles"] = ON_MAP, area
    state.strength["charles"] = sc.blocks["charles"].max_strength  # rule 4.9
    text = t(
        "Charles XII returns at full strength in {area} (4.9, N22).",
        area=sc.territories[area].named,
    )
    return [Event("CharlesReturned", text, {"area": area}), *start_turn(sc, state, dice)]


def victory(sc: Scenario, state: NWState) -> dict[str, Any]:
    """N15: the side controlling more victory territories wins; equal numbers draw."""
    held = {s: sum(1 for x in sc.victory if state.control[x] == s) for s in SIDES}
    a, b = held[SIDES[0]], held[SIDES[1]]
    winner = "draw" if a == b else SIDES[0] if a > b else SIDES[1]
    result: dict[str, Any] = {"winner": winner, "text": "", **held}
    result["text"] = str.__str__(_said(result))  # stored as plain English (the state is JSON)
    return result


def result_text(result: dict[str, Any]) -> str:
    """A result's text (its "text", kept in the state as English) said again from its fields,
    so that a stored game's result reads in every language (N11, N15)."""
    said = _said(result)
    return said if said == result.get("text") else str(result.get("text", ""))


def _said(result: dict[str, Any]) -> Msg:
    winner = result.get("winner")
    if all(isinstance(result.get(s), int) for s in SIDES):
        score = t("{a} to {b} victory territories", a=result[SIDES[0]], b=result[SIDES[1]])
        if winner == "draw":
            return t("a draw, {score}", score=score)
        return t("{side} wins, {score}", side=side(str(winner)), score=score)
    return t("Sweden wins: no coalition nation is left at war (N11)")


def finish(state: NWState, result: dict[str, Any]) -> list[Event]:
    state.result, state.phase, state.to_move, state.pending = result, "over", None, None
    return [Event(GAME_ENDED, t("Game over: {result}.", result=result_text(result)), result)]

"""Case files: rule tests written as data, one TOML file a case, read the same way for every
game system (the project's in tests/<package>/cases/*.toml, which tests/test_case_files.py runs;
a system outside the project runs its own with `run_case`, docs/writing-a-game-system.md).

A case is a position, then steps (one order each, by a side, the moderator or the deadline,
with the dice it draws), each with what must come of it, then what each viewer sees:

    name = "hits go to full-strength units first"
    rules = ["8.27"]                       # the rules the case checks (at least one)

    [position]                             # optional: the system's default scenario, not sandbox
    sandbox = false
    seed = 1                               # the setup's dice (hash dice of this seed)
    scenario = "data/small.toml"           # a scenario file by the cases, in a subfolder so it is
                                           # not read as a case (default: the system's)
    patch = { turn = 2 }                   # merged into the setup's state JSON (dicts key by key)

    [[position.play]]                      # orders played before the steps (hash dice of `seed`
    side = "north"                         # unless `dice` is given); they must be accepted
    order = "end"

    [[step]]
    side = "south"                         # a side id, "moderator" or "system" (the deadline)
    order = "attack C6 with 1gd"           # one line in the system's own order language
    dice = [3]                             # the dice it draws, in order; each must be used
    refused = "8.4"                        # it must be refused citing this rule ("": no rule)
    says = ["adjacent"]                    # texts in the refusal, or in the events' texts
    events = ["AttackResolved"]            # kinds that must come, in this order
    no_events = ["UnitEliminated"]         # kinds that must not
    state = { phase = "north-movement" }   # a part of the state JSON after the step
    situation = { to_move = ["north"] }    # turn, phase, to_move, over, pending (sides)
                                           # (both checked after a refusal too: it holds still)

    [[step.event]]                         # one event in detail: its kind, a part of its data,
    kind = "AttackResolved"                # texts in its text, its audience ("all",
    data = { result = "DR" }               # "side:<id>", "moderators"), and texts that must
    says = ["4:1"]                         # not be anywhere in it (`lacks`: its text, data and
    lacks = ["Tiger"]                      # how to say it; a public event keeps a secret)

    [[view]]                               # after the last step: what a viewer may see
    viewer = "north"                       # a side id, "public" or "moderator"
    has = { turn = 1 }                     # a part of `show(view)` (the machine-readable view)
    lacks = ["strength"]                   # texts that must not appear in it

Texts are compared in English (a Msg's English text). Unknown keys are errors, so a misspelt
expectation cannot pass unchecked. `run_case(system_id, load(path), path.parent)` plays a case
of an installed (or registered) system and is pure but for reading the scenario file: state,
orders and dice in, a list of failures out (empty: the case holds).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.core import registry
from adjudicator.core.dice import DiceExhausted, FixedDice, HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR, GameSystem, Outcome
from app import games

TOP = {"name", "rules", "position", "step", "view", "note"}
POSITION = {"sandbox", "seed", "scenario", "patch", "play"}
PLAY = {"side", "order", "dice"}
STEP = {
    "side",
    "order",
    "dice",
    "refused",
    "says",
    "events",
    "no_events",
    "state",
    "situation",
    "event",
    "note",
}
EVENT = {"kind", "data", "says", "audience", "lacks"}
VIEW = {"viewer", "has", "lacks"}
SITUATION = {"turn", "phase", "to_move", "over", "pending"}
ACTORS = {"moderator": MODERATOR_ACTOR, "system": SYSTEM_ACTOR}


class CaseError(ValueError):
    """A case file that does not say a case (an unknown key, no rule named, ...)."""


@dataclass
class Run:
    """One case being played: the system, the state, and the failures found so far."""

    system: GameSystem
    state: Any
    where: str = ""
    failures: list[str] = field(default_factory=list)

    def fail(self, text: str) -> None:
        self.failures.append(f"{self.where}: {text}" if self.where else text)


def load(path: Path) -> dict[str, Any]:
    """A case file read and checked for its shape (CaseError: what is wrong, where)."""
    doc = tomllib.loads(path.read_text("utf-8"))
    _keys(doc, TOP, path.name)
    if not doc.get("name") or not doc.get("rules"):
        raise CaseError(f"{path.name}: a case needs a name and the rules it checks")
    position = doc.get("position", {})
    _keys(position, POSITION, f"{path.name} [position]")
    for n, play in enumerate(position.get("play", []), 1):
        _keys(play, PLAY, f"{path.name} [position.play] {n}")
    steps = doc.get("step", [])
    for n, step in enumerate(steps, 1):
        _keys(step, STEP, f"{path.name} step {n}")
        _keys(step.get("situation", {}), SITUATION, f"{path.name} step {n} situation")
        for event in step.get("event", []):
            _keys(event, EVENT, f"{path.name} step {n} event")
        if "side" not in step or "order" not in step:
            raise CaseError(f"{path.name} step {n}: a step needs a side and an order")
    for n, view in enumerate(doc.get("view", []), 1):
        _keys(view, VIEW, f"{path.name} view {n}")
    if not any(_expects(s) for s in steps) and not doc.get("view"):
        raise CaseError(f"{path.name}: the case expects nothing (no step expectation, no view)")
    return doc


def _keys(doc: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(doc) - allowed)
    if unknown:
        raise CaseError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")


def _expects(step: Mapping[str, Any]) -> bool:
    return any(
        k in step for k in ("refused", "says", "events", "no_events", "state", "situation", "event")
    )


def run_case(system_id: str, doc: Mapping[str, Any], folder: Path) -> list[str]:
    """Play the case; every way it does not hold, as a line (empty: it holds)."""
    position = doc.get("position", {})
    system = _bind(system_id, position.get("scenario"), folder)
    seed = position.get("seed", 1)
    state = system.initial(bool(position.get("sandbox", False)), HashDice(seed)).state
    if "patch" in position:
        state = system.state_from_json(merge(system.state_to_json(state), position["patch"]))
    run = Run(system, state)
    setup_dice = HashDice(f"{seed}|play")
    for n, play in enumerate(position.get("play", []), 1):
        run.where = f"position.play {n} ({play['order']!r})"
        dice = FixedDice(play["dice"]) if "dice" in play else setup_dice
        try:
            run.state = _apply(run, play["side"], play["order"], dice).state
        except (Rejection, DiceExhausted, ValueError) as exc:
            run.fail(f"refused in the position: {exc}")
            return run.failures
    for n, step in enumerate(doc.get("step", []), 1):
        run.where = f"step {n} ({step['side']}: {step['order']!r})"
        _step(run, step)
    for n, view in enumerate(doc.get("view", []), 1):
        run.where = f"view {n} ({view['viewer']})"
        _view(run, view)
    return run.failures


def _bind(system_id: str, scenario: str | None, folder: Path) -> GameSystem:
    if scenario is None:
        return games.bind(system_id, *games.default_scenario(registry.get(system_id)))
    path = folder / scenario
    return games.bind(system_id, path.read_text("utf-8"), str(path.name))


def _apply(run: Run, side: str, text: str, dice: Any) -> Outcome:
    order = run.system.grammar.parse(text)
    return run.system.apply(run.state, ACTORS.get(side, side), order, dice)


def _step(run: Run, step: Mapping[str, Any]) -> None:
    dice = FixedDice(step.get("dice", []))
    before = run.system.state_to_json(run.state)
    try:
        outcome = _apply(run, step["side"], step["order"], dice)
    except Rejection as exc:
        _refused(run, step, exc, before)
        return
    except DiceExhausted as exc:
        run.fail(f"it needs more dice than given: {exc}")
        return
    if "refused" in step:
        run.fail(f"accepted, but it should be refused citing {step['refused']!r}")
        return
    if dice.used != len(step.get("dice", [])):
        run.fail(f"{len(step['dice']) - dice.used} of its dice were not used")
    run.state = outcome.state
    _events(run, step, [e.to_dict() for e in outcome.events])
    _state_and_situation(run, step)


def _refused(run: Run, step: Mapping[str, Any], exc: Rejection, before: Any) -> None:
    if "refused" not in step:
        run.fail(f"refused: {exc}")
        return
    if (exc.rule or "") != step["refused"]:
        run.fail(f"refused citing {exc.rule!r}, not {step['refused']!r}: {exc}")
    text = str(exc)
    for said in step.get("says", []):
        if said not in text:
            run.fail(f"the refusal does not say {said!r}: {text}")
    if run.system.state_to_json(run.state) != before:
        run.fail("a refusal changed the state")
    _state_and_situation(run, step)


def _events(run: Run, step: Mapping[str, Any], events: list[dict[str, Any]]) -> None:
    kinds = [e["kind"] for e in events]
    if not _in_order(step.get("events", []), kinds):
        run.fail(f"events {step['events']} do not come in this order in {kinds}")
    for kind in step.get("no_events", []):
        if kind in kinds:
            run.fail(f"an event {kind} came")
    texts = " | ".join(e["text"] for e in events)
    for said in step.get("says", []):
        if said not in texts:
            run.fail(f"no event says {said!r}: {texts}")
    for wanted in step.get("event", []):
        if not any(_event_matches(e, wanted) for e in events):
            run.fail(f"no event matches {wanted}; events: {events}")


def _in_order(wanted: list[str], kinds: list[str]) -> bool:
    rest = iter(kinds)
    return all(any(k == w for k in rest) for w in wanted)


def _event_matches(event: dict[str, Any], wanted: Mapping[str, Any]) -> bool:
    if event["kind"] != wanted["kind"]:
        return False
    if event.get("audience", "all") != wanted.get("audience", event.get("audience", "all")):
        return False
    data = {k: v for k, v in event.items() if k not in ("kind", "text", "audience", "i18n")}
    if not is_part(wanted.get("data", {}), data):
        return False
    if not all(said in event["text"] for said in wanted.get("says", [])):
        return False
    whole = json.dumps(event, ensure_ascii=False)
    return not any(secret in whole for secret in wanted.get("lacks", []))


def _state_and_situation(run: Run, step: Mapping[str, Any]) -> None:
    if "state" in step:
        now = run.system.state_to_json(run.state)
        if not is_part(step["state"], now):
            run.fail(f"the state is not {step['state']}: {_near(step['state'], now)}")
    wanted = step.get("situation")
    if wanted is None:
        return
    here = run.system.situation(run.state)
    seen = {
        "turn": here.turn,
        "phase": here.phase,
        "to_move": list(here.to_move),
        "over": here.over,
        "pending": [w.side for w in here.pending],
    }
    for key, value in wanted.items():
        if seen[key] != value:
            run.fail(f"the situation's {key} is {seen[key]!r}, not {value!r}")


def _view(run: Run, view: Mapping[str, Any]) -> None:
    who = view["viewer"]
    over = run.system.situation(run.state).over
    if who == "public":
        viewer = Viewer.of((), over=over)  # as app/games.py: the end reveals everything
    elif who == "moderator":
        viewer = Viewer.of((), moderator=True, over=over)
    else:
        viewer = Viewer.of((who,), over=over)
    shown = run.system.show(run.system.view(run.state, viewer))
    if not is_part(view.get("has", {}), shown):
        run.fail(f"the view has not {view['has']}: {_near(view['has'], shown)}")
    text = json.dumps(shown, ensure_ascii=False)
    for secret in view.get("lacks", []):
        if secret in text:
            run.fail(f"the view shows {secret!r}")


def merge(base: Any, patch: Any) -> Any:
    """`patch` laid over `base`: dicts merged key by key, anything else replaced."""
    if isinstance(base, dict) and isinstance(patch, dict):
        return {**base, **{k: merge(base.get(k), v) for k, v in patch.items()}}
    return patch


def is_part(part: Any, whole: Any) -> bool:
    """Whether `part` is in `whole`: dicts key by key (a subset), anything else equal."""
    if isinstance(part, dict):
        return isinstance(whole, dict) and all(
            k in whole and is_part(v, whole[k]) for k, v in part.items()
        )
    return bool(part == whole)


def _near(part: Any, whole: Any) -> Any:
    """The values of `whole` at the keys of `part` (for a failure's message)."""
    if isinstance(part, dict) and isinstance(whole, dict):
        return {k: _near(v, whole.get(k)) for k, v in part.items()}
    return whole

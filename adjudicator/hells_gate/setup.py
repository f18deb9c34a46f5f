"""Setup (section 3): the units in their hexes and turn-track boxes, turn 1 in Snow, and the
game started in the first Soviet supply phase (which rolls no die), under a rules version
(state.RULES_VERSION: the newest for a new game, the one its setup row names for a stored game).
Pure."""

from __future__ import annotations

from adjudicator.core.dice import DiceSource, RecordingDice
from adjudicator.core.i18n import t
from adjudicator.core.system import Outcome
from adjudicator.hells_gate import phases
from adjudicator.hells_gate.context import Ctx
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import RULES_VERSION, GameState, UnitState
from adjudicator.hells_gate.texts import local, weather_name


def initial_state(scen: Scenario, sandbox: bool = False, rules: int = RULES_VERSION) -> GameState:
    """The counters as set up (3.1-3.4), before the first phase begins, under rules `rules`."""
    if not 1 <= rules <= RULES_VERSION:
        raise ValueError(f"Hell's Gate knows rules versions 1 to {RULES_VERSION}, not {rules}")
    units: dict[str, UnitState] = {}
    for spec in scen.units.values():
        if spec.setup_hex:  # 3.1
            units[spec.id] = UnitState(spec.id, spec.side, "map", spec.setup_hex)
        else:  # 3.2
            units[spec.id] = UnitState(spec.id, spec.side, "turn_track", track_turn=spec.entry_turn)
    state = GameState(1, "soviet-supply", str(scen.flags["initial_weather"]), units, sandbox)
    state.rules = rules
    soviet_hexes = [u.hex for u in state.on_map("soviet")]
    if set(soviet_hexes) & set(scen.named["panzer24_trigger"]):  # 7.9 setup counts
        state.soviet_entered_trigger = True
    return state


def new_game(
    scen: Scenario,
    sandbox: bool = False,
    dice: DiceSource | None = None,
    rules: int = RULES_VERSION,
) -> Outcome:
    """The game started under rules `rules`: its first events, up to the first order it waits
    for (the same events under every rules version)."""
    ctx = Ctx(scen, initial_state(scen, sandbox, rules), RecordingDice(dice))
    ctx.emit(
        "GameStarted",
        t(
            "{title}: turn 1, weather {weather}.",
            title=local(scen.title, scen.name_ru),
            weather=weather_name(ctx.state.weather),
        ),
    )
    phases.enter_phase(ctx, "soviet-supply")
    return Outcome(ctx.state, ctx.events, ctx.dice.rolls)


__all__ = ["initial_state", "new_game"]

"""GameService: the one path every front end (terminal, Discord, Telegram, demo) goes through.

message text -> grammar lines -> engine (legal? apply) -> storage (one transaction per accepted
order) -> replies. Front ends hold no game logic: they pass the actor and the text, and show the
replies. The state is the fold of the log; the stored snapshot is only a cache (see `replay`).
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator import grammar
from adjudicator.core.dice import DiceExhausted, DiceSource, FixedDice, HashDice
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.rules import HellsGate
from adjudicator.hells_gate.scenario import Scenario, parse_scenario
from adjudicator.hells_gate.state import GameState
from adjudicator.loader import default_scenario_text
from storage import Conflict, GameRecord, Store

log = logging.getLogger(__name__)

GAME_TYPE = "hells-gate"
DEFAULT_SCENARIO_SOURCE = "hells_gate/scenario.toml"


def random_dice() -> DiceSource:
    """A fresh secret seed per order. (Committed, verifiable dice are a later step.)"""
    return HashDice(secrets.token_hex(16))


@dataclass
class Reply:
    """The answer to one line of a message."""

    ok: bool
    reply: str
    error: dict | None = None  # {"code", "message", "rule"}
    events: list[dict] = field(default_factory=list)
    combat: dict | None = None
    line: str = ""  # the line this answers (not part of the JSON document)

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "reply": self.reply,
            "error": self.error,
            "events": self.events,
            "combat": self.combat,
        }


class ReplayMismatch(Exception):
    """Re-applying the log does not give the stored snapshot (or the logged events)."""


@dataclass(frozen=True)
class _Game:
    scenario: Scenario
    rules: HellsGate
    lexicon: grammar.Lexicon


class GameService:
    def __init__(self, store: Store, dice_factory: Callable[[], DiceSource] = random_dice):
        self.store = store
        self.dice_factory = dice_factory
        self._games: dict[str, _Game] = {}  # by scenario text: parsing is not free

    # -- setup
    def new_game(
        self, name: str, scenario_path: str | Path | None = None, sandbox: bool = False
    ) -> str:
        """Create a game; raises ScenarioError (bad file), OSError, storage.GameExists."""
        if scenario_path is None:
            text, source = default_scenario_text(), DEFAULT_SCENARIO_SOURCE
        else:
            text, source = Path(scenario_path).read_text("utf-8"), str(scenario_path)
        g = self._game(text, source)
        out = g.rules.new_game(sandbox=sandbox, dice=self.dice_factory())
        self.store.create_game(
            name,
            GAME_TYPE,
            text,
            sandbox,
            out.state.to_dict(),
            rolls=[r.to_dict() for r in out.rolls],
            events=[e.to_dict() for e in out.events],
        )
        lines = [
            f"Game {name!r} created: {g.scenario.title}" + (" (sandbox)" if sandbox else "") + "."
        ]
        lines += [e.text for e in out.events]
        lines.append(self._whose_move(out.state))
        return "\n".join(lines)

    def _game(self, text: str, source: str = "scenario") -> _Game:
        g = self._games.get(text)
        if g is None:
            scenario = parse_scenario(text, source)
            g = _Game(scenario, HellsGate(scenario), grammar.Lexicon.from_scenario(scenario))
            self._games[text] = g
        return g

    # -- reading
    def record(self, name: str) -> GameRecord:
        return self.store.load(name, with_log=False)

    def rules(self, name: str) -> HellsGate:
        return self._game(self.record(name).scenario_text).rules

    def state(self, name: str) -> GameState:
        return GameState.from_dict(self.record(name).snapshot)

    def show(self, name: str) -> dict:
        rec = self.record(name)
        return self._game(rec.scenario_text).rules.show(GameState.from_dict(rec.snapshot))

    def status(self, name: str) -> str:
        rec = self.record(name)
        state = GameState.from_dict(rec.snapshot)
        rules = self._game(rec.scenario_text).rules
        return rules.answer(state, state.active_side or "moderator", O.Status())

    # -- the order path
    def say(self, name: str, actor: str, text: str) -> list[Reply]:
        """Apply a message line by line as `actor`; stop at the first refusal."""
        rec = self.record(name)
        g = self._game(rec.scenario_text)
        state, index = GameState.from_dict(rec.snapshot), rec.snapshot_index
        parsed = grammar.parse_message(text, g.lexicon)
        replies: list[Reply] = []
        for n, (line, item) in enumerate(parsed):
            reply, new = self._one(name, g, state, index, actor, line, item)
            replies.append(reply)
            if not reply.ok:
                replies += _not_applied(reply, [ln for ln, _ in parsed[n + 1 :]])
                break
            if new is not None:
                state, index = new
        if not parsed:
            replies.append(
                _refused(
                    text, "empty", "the message has no orders; type 'help' for the commands.", None
                )
            )
        return replies

    def _one(self, name, g: _Game, state: GameState, index: int, actor: str, line: str, item):
        if isinstance(item, grammar.ParseError):
            return _refused(line, item.code, item.message, None), None
        if isinstance(item, O.QUERIES):
            return self._query(name, g, state, actor, item, line), None
        try:
            out = g.rules.apply(state, actor, item, self.dice_factory())
        except Rejection as rej:
            return _refused(line, rej.code, rej.message, rej.rule), None
        canonical = grammar.format_order(out.order or item)  # as applied: paths, flips filled in
        events = [e.to_dict() for e in out.events]
        try:
            new_index = self.store.append(
                name,
                actor,
                canonical,
                [r.to_dict() for r in out.rolls],
                events,
                out.state.to_dict(),
                after=index,
            )
        except Conflict as exc:
            return _refused(line, "conflict", f"{exc}; send the order again", None), None
        text = "\n".join(e.text for e in out.events) or f"OK: {canonical}"
        reply = Reply(True, text, None, events, out.combat, line)
        return reply, (out.state, new_index)

    def _query(self, name, g: _Game, state, actor, query, line) -> Reply:
        if isinstance(query, O.Log):
            return Reply(True, self.log_text(name, query.count), line=line)
        try:
            text = g.rules.answer(state, actor, query)
            combat = (
                g.rules.preview(state, actor, query.attack)
                if isinstance(query, O.Preview)
                else None
            )
        except Rejection as rej:
            return _refused(line, rej.code, rej.message, rej.rule)
        return Reply(True, text, combat=combat, line=line)

    def log_text(self, name: str, count: int | None = None) -> str:
        out = []
        for row in self.store.log(name, count):
            out.append(f"{row.index}. {row.actor}: {row.text}")
            out += [f"    {e.get('text', e.get('kind', ''))}" for e in row.events]
        return "\n".join(out)

    @staticmethod
    def _whose_move(state: GameState) -> str:
        if state.result is not None:
            return f"Game over: {state.result}"
        return f"Turn {state.turn}, {state.phase}: {state.active_side} to move."

    # -- the state as the fold of the log
    def replay(self, name: str, check_events: bool = False) -> GameState:
        """Rebuild the state by re-applying every logged order with its recorded dice."""
        rec = self.store.load(name)
        g = self._game(rec.scenario_text)
        setup, *rows = rec.log
        out = g.rules.new_game(sandbox=rec.sandbox, dice=FixedDice(_drawn(setup.rolls)))
        _check_events(check_events, setup, out)
        state = out.state
        for row in rows:
            try:
                order = grammar.parse(row.text, g.lexicon)
                out = g.rules.apply(state, row.actor, order, FixedDice(_drawn(row.rolls)))
            except (Rejection, DiceExhausted) as exc:
                raise ReplayMismatch(f"log row {row.index} ({row.text!r}): {exc}") from exc
            _check_events(check_events, row, out)
            state = out.state
        return state

    def verify(self, name: str) -> None:
        """Raise ReplayMismatch unless replaying the log gives the snapshot and the events."""
        state = self.replay(name, check_events=True)
        if _jsonish(state.to_dict()) != self.record(name).snapshot:
            raise ReplayMismatch(f"game {name!r}: replaying the log does not give the snapshot")


def _refused(line: str, code: str, message: str, rule: str | None) -> Reply:
    where = f" (rule {rule})" if rule else ""
    return Reply(
        False,
        f"Refused{where}: {message}",
        {"code": code, "message": message, "rule": rule},
        line=line,
    )


def _not_applied(refused: Reply, rest: list[str]) -> list[Reply]:
    if not rest:
        return []
    refused.reply += "\nNot applied: " + "; ".join(repr(r) for r in rest)
    msg = f"not applied: the earlier line {refused.line!r} was refused"
    return [
        Reply(
            False,
            f"Not applied: the earlier line {refused.line!r} was refused.",
            {"code": "not-applied", "message": msg, "rule": None},
            line=r,
        )
        for r in rest
    ]


def _drawn(rolls: list[dict]) -> list[int]:
    """The results that came from the dice source (fixed ones come from the state itself)."""
    return [r["value"] for r in rolls if not r.get("fixed", False)]


def _jsonish(value):
    return json.loads(json.dumps(value))


def _check_events(enabled: bool, row, out) -> None:
    if enabled and _jsonish([e.to_dict() for e in out.events]) != row.events:
        raise ReplayMismatch(f"log row {row.index} ({row.text!r}): events differ on replay")

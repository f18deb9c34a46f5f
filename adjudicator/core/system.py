"""The GameSystem protocol: everything above the rules talks to a game system through it.

A game system (Hell's Gate, a card dealer, a block game, a referee module) is one package under
`adjudicator/`. It registers a `SystemType` (id, title, sides, its data files) in the entry-point
group `pbem.games`; the application core loads a game's scenario text with it and gets a
`GameSystem`: the rules bound to that scenario. Nothing above the rules imports a system's
modules, reads its state's fields or names its sides: it asks the system.

A system is written on the kit (adjudicator/core/kit.py): `SYSTEM = SystemKind(id, title, name,
sides, data="package/file.toml", read, rules)` and `class MyGame(RulesSystem)`, which answers
the plain members (templates none, view the identity, kind_of/is_private/help from the grammar
verbs' flags) and applies an order one way: the acting side of a `Default` and of the `system`
actor, sandbox fixed dice (`dice 3 5`), the gate `check`, then the system's `resolve`.

Invariants (every system keeps them; the contract tests check them):
- `apply` never changes the state it is given; a Rejection leaves nothing changed; every die is
  asked of the injected dice source and comes back in `Outcome.rolls`.
- `state_from_json(state_to_json(s))` is equal to `s`, and the JSON is plain (str, int, float,
  bool, None, list, dict with str keys).
- `grammar.parse(grammar.format(o)) == o` for every order the grammar can parse.
- `situation(state)` is cheap and pure; its `key` changes whenever whose move it is, the phase,
  the turn or a pending decision changes (the deadline re-arms on a new key).
- Every order `legal_orders(state, side)` lists is accepted by `apply`.

Rules versions: a fix that changes an outcome is versioned with the game, so a stored game
replays as it was played. A system whose `rules_version` is above 1 takes
`initial(sandbox, dice, rules=N)` (N from 1 to `rules_version`; None: the newest) and keeps N in
its state; the app records N in the setup row of a new game (payload "rules", left out for 1)
and `start` sets a stored game up again under the N its setup row names (1 when it names none).
Images: a post after a change carries the system's image (the map) where
`post_image(before, after)` says so: `before` is the situation before the change that caused the
post (None for the game's first post and a post after a rewind or a confirmed edit: a position
set, not played), `after` the situation it leaves. A map game answers True for every post (the
kit's default); a system whose image is bookkeeping shows it where it tells something (Stalin's
War: once a turn; Borodino: after a Recovery Phase); `map` draws it on request at any time.
Pure: no I/O, no clock, no global random.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from adjudicator.core.dice import DiceSource, Roll
from adjudicator.core.events import Event, Viewer
from adjudicator.core.scenario import ScenarioError

SYSTEM_ACTOR = "system"  # the deadline scheduler: it gives the deadline default
MODERATOR_ACTOR = "moderator"  # a moderator's command runs as this actor


@dataclass(frozen=True)
class Side:
    """A side of the game: its id in orders and the log, the name players read, and the words a
    player may use for it in a chat (`join sov`)."""

    id: str
    name: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Waiting:
    """A decision the rules put to one side in the middle of a phase."""

    side: str
    prompt: str  # what is asked, for a player: "apply 1 hit in A1 ..."


@dataclass(frozen=True)
class Situation:
    """Where a game stands, in terms every layer above the rules understands."""

    turn: int | None  # the game turn (the dice epoch follows it), None where a system has none
    phase: str  # the phase id as the log and the JSON write it
    label: str  # "turn 3, combat": for titles and posts
    to_move: tuple[str, ...]  # the sides the game waits for (empty: nobody, or the game is over)
    pending: tuple[Waiting, ...] = ()  # decisions waiting, first one first
    result: Mapping[str, Any] | None = None  # None while the game runs; `text` says who won
    key: str = ""  # changes whenever the situation changes (the deadline's `armed_for`)
    phase_name: str = ""  # the phase as players read it (a core.i18n Msg); "": its id

    @property
    def phase_said(self) -> str:
        """The phase for a text: its name where the system gives one, else its id."""
        return self.phase_name or self.phase

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def deciding(self) -> bool:
        """Whether the game waits for a decision (a shorter deadline) rather than a phase."""
        return bool(self.pending)


@dataclass
class Outcome:
    """What applying an order (or the setup) gave: the new state, what happened, the dice."""

    state: Any
    events: list[Event] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    combat: dict[str, Any] | None = None  # a system's detail for the reply (odds, die, hits)
    order: object = None  # the order as applied (a path, a flip filled in); None: as given
    # lines for the reply alone, public (what an `end` left unused): not events, so not part of
    # what a replay of the game compares (the events of stored games stay as they were)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Answer:
    """The answer to a question about the game (status, units, options, preview)."""

    text: str
    detail: dict[str, Any] | None = None  # machine-readable detail (a preview's odds)


@runtime_checkable
class Grammar(Protocol):
    """A system's order language: the shared kit's commands plus the system's verbs."""

    def parse(self, text: str) -> object:
        """One line -> an order, a query or a shared command; raises grammar.ParseError."""
        ...

    def parse_message(self, text: str) -> list[tuple[str, object]]:
        """(line, parsed or ParseError) for every non-blank line of a message."""
        ...

    def format(self, order: object) -> str:
        """The canonical text of an order: parse(format(o)) == o."""
        ...

    def help(self, topic: str | None = None) -> str:
        """The commands of this game (`help`), or one of them (`help attack`)."""
        ...


class GameSystem(Protocol):
    """One game system bound to its scenario data (see the module doc). Its data members are
    read-only: a system may hold them as plain or class attributes of narrower types."""

    @property
    def id(self) -> str:
        """The system's id: "hells-gate"."""
        ...

    @property
    def title(self) -> str:
        """The scenario's title, e.g. "Hell's Gate: The Korsun Pocket 1944"."""
        ...

    @property
    def sides(self) -> tuple[Side, ...]: ...

    @property
    def grammar(self) -> Grammar: ...

    @property
    def drawer(self) -> str:
        """The module that draws the map: draw(system, state, events, view, title) -> PNG."""
        ...

    @property
    def headlines(self) -> frozenset[str]:
        """The event kinds an after-phase post tells (the others are details)."""
        ...

    @property
    def hidden_information(self) -> bool:
        """Whether a side's state holds what the other may not see."""
        ...

    @property
    def side_maps(self) -> bool:
        """Whether each seated side is sent its own map (drawn from its view) by a private
        message with every after-phase post, besides the group's public map. For a system whose
        map shows what a side may see of its own (a block game's fronts); not for one whose
        secret is text (a hand of cards, sent as private events)."""
        ...

    @property
    def rules_version(self) -> int:
        """The newest version of the system's rules (the module doc); 1 for a system that has
        never changed an outcome."""
        ...

    def post_image(self, before: Situation | None, after: Situation) -> bool:
        """Whether the post after a change from `before` to `after` carries the image (the
        module doc): True for every post of a map game; None for `before`: the game's first
        post, or one after a rewind or an edit (which should carry it)."""
        ...

    def initial(self, sandbox: bool, dice: DiceSource) -> Outcome:
        """The state after setup and the automatic phases that follow it. The setup may roll
        (a first player, a hand dealt face down): `dice` is the game's committed source, as an
        order's, and a private event here is sealed like any other (app/lifecycle.py)."""
        ...

    def apply(self, state: Any, actor: str, order: object, dice: DiceSource) -> Outcome:
        """New state + events + rolls, or raise Rejection; `state` is untouched."""
        ...

    def legal_orders(self, state: Any, side: str) -> Sequence[object]:
        """The one gate: every order `side` may give now."""
        ...

    def order_templates(self, state: Any, side: str) -> Sequence[str]:
        """Templates of legal orders with free text or numbers (`roll <N> for <PURPOSE>`) that
        `legal_orders` cannot list; empty where a system has none. (A tap builder's steps of a
        listed order are the words of its canonical text, `grammar.format(order).split()`:
        app/choices.py builds on those texts; the kit's `order_steps` says the same.)"""
        ...

    def situation(self, state: Any) -> Situation: ...

    def default_order(self, state: Any) -> object:
        """What a passed deadline does for the side on the clock (given as actor `system`)."""
        ...

    def kind_of(self, order: object) -> str:
        """'order' (a player's), 'edit' (a moderator's edit of the position: at once in a
        sandbox game, else a proposal others confirm), 'moderator' (a sandbox command) or
        'query'."""
        ...

    def is_private(self, query: object) -> bool:
        """Whether a query shows a side's possibilities (answered to its player only)."""
        ...

    def is_secret(self, order: object) -> bool:
        """Whether an edit sets a value hidden from a side (a hand, a block's strength): it is
        given in a private chat only and its text is sealed like a private order's."""
        ...

    def answer(self, state: Any, actor: str, query: object) -> Answer: ...

    def view(self, state: Any, viewer: Viewer) -> Any:
        """The state as `viewer` may see it (what the drawer, `status`, `show` and posts get):
        values hidden from him removed. The identity in a system without hidden information."""
        ...

    def show(self, state: Any) -> dict[str, Any]:
        """The machine-readable view of the state (`pbem show --json`)."""
        ...

    def state_to_json(self, state: Any) -> dict[str, Any]: ...

    def state_from_json(self, data: dict[str, Any]) -> Any: ...


class OpponentSupport(Protocol):
    """The OPTIONAL part of a GameSystem that lets the built-in opponent (adjudicator.opponent)
    play a side. A system that implements it sets `opponent_plays` True; the kit's RulesSystem
    defaults mean "not supported". Both hooks are pure and see only a side's view.

    - `evaluate(view, side)`: how good the position is for `side`, judged from what `side` sees
      (higher is better; a won game far above anything else, a lost one far below). Only
      differences between positions matter.
    - `determinise(view, side, dice)`: a full state whose view for `side` is `view`, every
      value hidden from `side` drawn from `dice` among the values consistent with what the view
      shows (the view itself in a system without hidden information). `dice` is the
      opponent's own source, never the game's."""

    @property
    def opponent_plays(self) -> bool:
        """Whether the system implements `evaluate` and `determinise`."""
        ...

    def evaluate(self, view: Any, side: str) -> float: ...

    def determinise(self, view: Any, side: str, dice: DiceSource) -> Any: ...


class SystemType(Protocol):
    """What a game system registers: its id, its names, and how to bind it to scenario data
    (read-only data members, like GameSystem's)."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str:
        """E.g. "Hell's Gate: The Korsun Pocket 1944"."""
        ...

    @property
    def name(self) -> str:
        """What players call it: "Hell's Gate"."""
        ...

    @property
    def sides(self) -> tuple[Side, ...]: ...

    @property
    def default_source(self) -> str:
        """The data file of the default scenario, "hells_gate/scenario.toml"."""
        ...

    @property
    def data_package(self) -> str:
        """The package holding the data files ("adjudicator.hells_gate")."""
        ...

    @property
    def data_file(self) -> str:
        """The default scenario's file name in it ("scenario.toml")."""
        ...

    def load(self, text: str, source: str) -> GameSystem:
        """Bind the rules to a scenario text; raises ScenarioError naming source and entry."""
        ...


def start(system: GameSystem, sandbox: bool, dice: DiceSource, rules: int | None) -> Outcome:
    """The setup under rules version `rules` (None: the newest; the module doc)."""
    newest = system.rules_version
    if rules is None or rules == newest:
        return system.initial(sandbox, dice)
    if not 1 <= rules <= newest:
        raise ValueError(
            f"the game was set up under rules version {rules}; this {system.id} knows 1 to {newest}"
        )
    setup: Any = system.initial  # a versioned system's initial takes rules= (the module doc)
    out: Outcome = setup(sandbox, dice, rules=rules)
    return out


def side_words(sides: Sequence[Side]) -> dict[str, str]:
    """Every word a chat user may write for a side (its id, name, aliases; lower case) -> id."""
    words: dict[str, str] = {}
    for side in sides:
        for word in (side.id, side.name, *side.aliases):
            words.setdefault(word.lower(), side.id)
    return words


__all__ = [
    "MODERATOR_ACTOR",
    "SYSTEM_ACTOR",
    "Answer",
    "GameSystem",
    "Grammar",
    "OpponentSupport",
    "Outcome",
    "ScenarioError",
    "Side",
    "Situation",
    "SystemType",
    "Waiting",
    "side_words",
    "start",
]

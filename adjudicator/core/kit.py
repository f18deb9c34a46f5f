"""The system kit: what every game system is written on (adjudicator.core.system's protocols).

    SYSTEM = SystemKind(
        id="my-game", title="My Game: a subtitle", name="My Game", sides=SIDES,
        data="my_package/scenario.toml", read=parse_scenario, rules=MyGame,
    )

    class MyGame(RulesSystem):
        id, sides, drawer, headlines = "my-game", SIDES, "my_package.drawer", HEADLINES
        def __init__(self, scenario): ...; self.grammar = GrammarKit(lexicon, SIDES, VERBS)
        def initial(self, sandbox, dice): ...
        def resolve(self, state, side, order, dice): ...   # an order the gate let through
        def legal_orders(self, state, side): ...
        def situation(self, state): ...
        def answer(self, state, actor, query): ...          # Help is the kit's
        def default_order(self, state): ...

- `SystemKind`: a SystemType from its id, names, sides, its default data file ("package/file")
  and one binding, `load(text, source) = rules(read(text, source))`; the data package and file
  and the default source are derived from `data`.
- `RulesSystem.apply`: a `Default` or the `system` actor acts for the side the game waits for
  (its first pending decision's side, else the first side to move): a moderator's `default`
  (sandbox games) and a passed deadline do the same; `dice` is the sandbox fixed dice of
  core.fixed_dice; then `check` (the gate: by default exactly what `legal_orders` lists; a
  system whose lists are too large overrides it with its own, rule-citing refusals), then
  `resolve` with the dice (fixed values first). A system whose `default_order` is `Default`
  itself applies its own defaults (several decisions in turn) and is handed the order as given.
- `options` (the grammar kit's shared question) is answered from `legal_orders` and
  `order_templates` (core/options.py); a system whose `answer` handles its own questions passes
  `Options` on to the kit's with `Help`.
- An edit (a verb of kind "edit": `set`, `place`) is the moderator's (or the `system` actor's)
  only, in any game (the app makes it a proposal outside a sandbox: app.edits), and goes to the
  system's `edit`, past the gate; `is_secret` (the verb's `secret` flag) marks an edit that sets
  a hidden value, whose events the system addresses to the moderators and the side concerned.
- `rules_version` (1): a system that versions a fix overrides it and takes
  `initial(sandbox, dice, rules=None)` (core.system's module doc).
- `post_image` (core.system's module doc): every post carries the image; a system whose image
  is bookkeeping overrides it (Stalin's War: once a turn).
- `kind_of`, `is_private`, `is_secret` and the side's `help` come from the grammar verbs' flags
  (grammar Verb: kind, private, secret, sides); `order_templates` (), `view` the identity, `hidden_information`
  and `side_maps` False, `show` the state's JSON, `order_steps` the canonical text's words.
- The built-in opponent's hooks (core.system.OpponentSupport): `opponent_plays` False, no
  `evaluate`, and `determinise` the view itself in a game without hidden information.

The state convention: a state is a mutable dataclass implementing the `State` protocol below.
`apply` never changes the state it is given: the rules take `state.clone()` (a deep copy of what
an order may change; immutable parts shared) and change the copy. `state_to_json` and
`state_from_json` are `to_json()` and `state_type.from_json()`; the JSON is plain and
`from_json(to_json(s)) == s`. Chosen over immutable dataclasses with `dataclasses.replace` by
bench/bench_state_copy.py (the largest state of a random game of each system): clone + to_json
+ from_json 210 us on average, replace + the same JSON 165 us: the copy is a small part of what
the JSON costs, far below an order's rules, while `replace` would mean rewriting every rules
module that changes a copy in place (all four do).
Pure: no I/O, no clock, no global random.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from adjudicator.core import commands as C
from adjudicator.core import fixed_dice
from adjudicator.core.dice import DiceSource
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.i18n import Msg, cat, t
from adjudicator.core.options import Options, options_text
from adjudicator.core.system import (
    MODERATOR_ACTOR,
    SYSTEM_ACTOR,
    Answer,
    GameSystem,
    Grammar,
    Outcome,
    Side,
    Situation,
)

SHOWN = 12  # at most this many legal orders are named in a refusal of the default gate


class State(Protocol):
    """The state convention of the kit (see the module doc)."""

    def clone(self) -> Any:
        """A copy `apply` may change; the original stays as it was."""
        ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any: ...


class KitGrammar(Grammar, Protocol):
    """A grammar of adjudicator.grammar (GrammarKit): its verbs carry their flags."""

    def kind_of(self, order: object) -> str: ...

    def is_private(self, order: object) -> bool: ...

    def is_secret(self, order: object) -> bool: ...

    def help(self, topic: str | None = None, side: str | None = None) -> str: ...


@dataclass(frozen=True)
class SystemKind:
    """A SystemType (adjudicator.core.system): what the registry holds."""

    id: str
    title: str
    name: str  # what players call it: "Hell's Gate"
    sides: tuple[Side, ...]
    data: str  # the default data file, "adjudicator.hells_gate/scenario.toml"
    read: Callable[[str, str], Any]  # (text, source) -> the scenario; ScenarioError if bad
    rules: Callable[[Any], GameSystem]  # the system bound to a scenario (a test's leaky one)

    @property
    def data_package(self) -> str:
        return self.data.rpartition("/")[0]

    @property
    def data_file(self) -> str:
        return self.data.rpartition("/")[2]

    @property
    def default_source(self) -> str:
        """The file as a game's source names it: its path from the project's top package
        ("hells_gate/scenario.toml"; "tests/systems/duel.toml" outside it)."""
        package = self.data_package.removeprefix("adjudicator.")
        return f"{package.replace('.', '/')}/{self.data_file}"

    def load(self, text: str, source: str) -> GameSystem:
        """Bind the rules to a scenario text; raises ScenarioError naming source and entry."""
        return self.rules(self.read(text, source))


class RulesSystem:
    """A GameSystem's plain defaults and the one way an order is applied (the module doc)."""

    id: ClassVar[str]
    title: str
    sides: ClassVar[tuple[Side, ...]]
    grammar: KitGrammar
    drawer: ClassVar[str]
    headlines: ClassVar[frozenset[str]] = frozenset()
    hidden_information: ClassVar[bool] = False
    side_maps: ClassVar[bool] = False
    state_type: ClassVar[Any] = None  # the State class (state_from_json)
    die_faces: ClassVar[int] = 6  # the faces of the die a moderator's `dice` fixes
    die_rule: ClassVar[str | None] = None  # the rule that says so ("1.3")
    rules_version: ClassVar[int] = 1  # the newest rules (core.system's module doc)
    opponent_plays: ClassVar[bool] = False  # core.system.OpponentSupport: not by default

    # -- applying an order
    def apply(self, state: Any, actor: str, order: object, dice: DiceSource) -> Outcome:
        """New state + events + rolls, or Rejection; `state` is never changed."""
        side, order = self.acting(state, actor, order)
        source = fixed_dice.fixed_source(state, dice)
        if isinstance(order, C.Dice):
            return self.fix_dice(state, side, order, source)
        if self.kind_of(order) == "edit":
            self.editor_may(actor)
            return self.edit(state, order)
        self.check(state, side, order)
        out = self.resolve(state, side, order, source)
        out.rolls = list(source.rolls)  # the same draws, a fixed one marked as such
        out.state = fixed_dice.with_fixed(out.state, source.fixed)
        return out

    def acting(self, state: Any, actor: str, order: object) -> tuple[str, object]:
        """Who acts and what: a `Default` (from the deadline's `system` actor, or a moderator
        in a sandbox game) is the default order of the side the game waits for; the `system`
        actor gives any other order for that side too. A player's `default` is the default
        order given as his own (refused as such when the game does not wait for him)."""
        if isinstance(order, C.Default):
            default = self.default_order(state)
            if isinstance(default, C.Default):  # the rules apply their own defaults
                return actor, default
            if actor not in (SYSTEM_ACTOR, MODERATOR_ACTOR):
                return actor, default  # a player's own: checked as he had said it
            if actor == MODERATOR_ACTOR:
                self.moderator_may(state, actor)
            return self.waiting_side(state) or actor, default
        if actor == SYSTEM_ACTOR and not isinstance(order, C.Dice):
            return self.waiting_side(state) or actor, order
        return actor, order

    def waiting_side(self, state: Any) -> str | None:
        """The side the game waits for: the first pending decision's, else the first to move."""
        here = self.situation(state)
        if here.pending:
            return here.pending[0].side
        return here.to_move[0] if here.to_move else None

    def moderator_may(self, state: Any, actor: str) -> None:
        """Refuse a moderator's command that changes the game outside a sandbox game."""
        if not getattr(state, "sandbox", False):
            raise Rejection(
                "sandbox-only",
                t(
                    "moderator commands that change the game are allowed only in sandbox games "
                    "(no rule of the game covers them)"
                ),
                None,
            )

    def editor_may(self, actor: str) -> None:
        """Refuse an edit of the position from anyone but a moderator (or the system)."""
        if actor not in (MODERATOR_ACTOR, SYSTEM_ACTOR):
            raise Rejection("moderator-only", t("only a moderator may edit the position"), None)

    def edit(self, state: Any, order: object) -> Outcome:
        """A moderator's edit of the position (`state` untouched: change its clone)."""
        raise Rejection("no-editor", t("this game has no position editor"), None)

    def fix_dice(
        self, state: Any, actor: str, order: C.Dice, dice: fixed_dice.FixedFirst
    ) -> Outcome:
        """`dice 3 5` (sandbox games): the next die results of the game are 3, then 5."""
        fixed_dice.check_fix(state, actor, order.values, self.die_faces, self.die_rule)
        new = fixed_dice.with_fixed(state, [*fixed_dice.fixed_of(state), *order.values])
        return Outcome(new, [fixed_dice.fixed_event(order.values)], order=order)

    def check(self, state: Any, side: str, order: object) -> None:
        """The gate: refuse what `legal_orders` does not list, naming what it lists."""
        legal = list(self.legal_orders(state, side))
        if order in legal:
            return
        said = [self.grammar.format(o) for o in legal[:SHOWN]]
        more = ", ..." if len(legal) > SHOWN else ""
        if not said:
            raise Rejection("not-legal", t("you have no order to give now"), None)
        orders = cat(*(f"`{s}`" for s in said), sep=", ")
        text = t("that is not a legal order now; legal: {orders}{more}", orders=orders, more=more)
        raise Rejection("not-legal", text, None)

    def resolve(self, state: Any, side: str, order: object, dice: DiceSource) -> Outcome:
        """Apply an order the gate let through (`state` untouched: change its clone)."""
        raise NotImplementedError

    # -- the protocol's other members
    def legal_orders(self, state: Any, side: str) -> Sequence[object]:
        raise NotImplementedError

    def situation(self, state: Any) -> Situation:
        raise NotImplementedError

    def order_templates(self, state: Any, side: str) -> Sequence[str]:
        return ()

    def default_order(self, state: Any) -> object:
        return C.Default()

    def post_image(self, before: Situation | None, after: Situation) -> bool:
        """Every post carries the image (a map game's; core.system's module doc)."""
        return True

    def kind_of(self, order: object) -> str:
        return self.grammar.kind_of(order)

    def is_private(self, query: object) -> bool:
        return self.grammar.is_private(query)

    def is_secret(self, order: object) -> bool:
        return self.grammar.is_secret(order)

    def help(self, actor: str, topic: str | None = None) -> str:
        """`help` as `actor` reads it: a side's player is shown the commands of his side."""
        side = actor if actor in {s.id for s in self.sides} else None
        return self.grammar.help(topic, side)

    def answer(self, state: Any, actor: str, query: object) -> Answer:
        if isinstance(query, C.Help):
            return Answer(self.help(actor, query.command))
        if isinstance(query, Options):
            return Answer(self.options(state, actor))
        raise NotImplementedError(f"no answer to {query!r}")

    def options(self, state: Any, actor: str) -> Msg:
        """`options` (core.options): a side's player is told his legal orders now; anyone
        else those of the side the game waits for."""
        sides = {s.id: s for s in self.sides}
        if self.hidden_information and actor not in sides:  # they name hidden pieces
            return t("Only a side's own player asks for its options.")
        side = actor if actor in sides else self.waiting_side(state)
        if side is None or side not in sides:
            return t("Nobody acts now.")
        said = [self.grammar.format(o) for o in self.legal_orders(state, side)]
        templates = self.order_templates(state, side)
        name = sides[side].name
        if not said and not templates:
            mine = side == actor
            return t("You have no order to give now.") if mine else t("{side} has none.", side=name)
        head = t("You may give") if side == actor else t("{side} may give", side=name)
        return options_text(head, said, templates)

    def view(self, state: Any, viewer: Viewer) -> Any:
        return state

    # -- the built-in opponent (core.system.OpponentSupport): not supported by default
    def evaluate(self, view: Any, side: str) -> float:
        raise NotImplementedError(f"{self.id} has no heuristic for the opponent")

    def determinise(self, view: Any, side: str, dice: DiceSource) -> Any:
        """The view itself where nothing is hidden; a system with hidden values draws them."""
        if self.hidden_information:
            raise NotImplementedError(f"{self.id} cannot sample what a side does not see")
        return view

    def show(self, state: Any) -> dict[str, Any]:
        return self.state_to_json(state)

    def order_steps(self, order: object) -> tuple[str, ...]:
        """The steps a tap builder offers for an order: the words of its canonical text."""
        return tuple(self.grammar.format(order).split())

    # -- the state (the convention of the module doc)
    def clone_state(self, state: Any) -> Any:
        return state.clone()

    def state_to_json(self, state: Any) -> dict[str, Any]:
        data: dict[str, Any] = state.to_json()
        return data

    def state_from_json(self, data: dict[str, Any]) -> Any:
        return self.state_type.from_json(data)


__all__ = ["SHOWN", "KitGrammar", "RulesSystem", "State", "SystemKind"]

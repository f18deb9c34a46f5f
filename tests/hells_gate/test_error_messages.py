"""Every refusal names a rule, or says why no rule of the game applies.

core/errors.py: "rule: the rule number ("8.4(f)"), or None with the message saying why none
applies." Refusals are collected from random illegal attempts (random units, hexes, actors and
order kinds) in the states of random games and in hand-built states of every player phase; the
grammar's refusals (ParseError) must carry the usage of the command.
"""

from __future__ import annotations

import random
import re

from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.grammar import ParseError
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.system import HellsGateSystem
from tests.hells_gate.helpers import END, A, Game, empty_state, grammar_of

RULE = re.compile(r"^\d+\.\d+(\([a-z]\))?$")
# The rules of hells-gate.md: the highest rule number of each section, and the lettered items.
LAST_RULE = {
    1: 8,
    2: 12,
    3: 4,
    4: 8,
    5: 7,
    6: 14,
    7: 10,
    8: 39,
    9: 12,
    10: 2,
    11: 7,
    12: 22,
    13: 3,
    14: 7,
    16: 10,
}
LETTERS = {
    "6.2": "ab",
    "6.12": "abc",
    "8.4": "abcdefgh",
    "8.13": "ab",
    "8.17": "ab",
    "8.32": "abcdef",
    "12.3": "abc",
    "12.12": "abc",
    "16.10": "abcdefg",
}
# Refusals outside the rules of the game (who may give an order, names, the API), with the words
# by which the message says so.
NO_RULE = {
    "moderator-only": "only a moderator",
    "sandbox-only": "no rule of the game",
    "query": "a query changes nothing",
    "unknown-unit": "there is no unit",
    "bad-place": "place a unit in a hex",
}
ACTORS = ("soviet", "german", "moderator", "system", "observer")
PLAYER_PHASES = ("soviet-combat", "soviet-movement", "german-combat", "german-movement")


def check_rejection(r: Rejection) -> None:
    assert r.message and r.message.strip(), r.code
    assert str(r)
    if r.rule is None:
        assert r.code in NO_RULE, f"{r.code}: no rule and no reason: {r.message!r}"
        assert NO_RULE[r.code] in r.message, (r.code, r.message)
        return
    assert RULE.match(r.rule), (r.code, r.rule)
    number, _, letter = r.rule.partition("(")
    section, item = (int(x) for x in number.split("."))
    assert 1 <= item <= LAST_RULE.get(section, 0), f"{r.code}: no rule {r.rule} in the spec"
    if letter:
        assert letter[0] in LETTERS.get(number, ""), f"{r.code}: no item {r.rule} in the spec"


def random_order(rng: random.Random, scen, state, side: str | None):
    """Mostly orders a player could plausibly type: his own units, enemy hexes nearby."""
    own = sorted(u.id for u in state.on_map(side)) if side else []
    units = own if own and rng.random() < 0.7 else sorted(scen.units) + ["zz9"]
    foes = sorted({u.hex for u in state.on_map() if u.side != side})
    hexes = foes if foes and rng.random() < 0.6 else list(scen.hexes) + ["Z9"]

    def u():
        return rng.choice(units)

    def h():
        return rng.choice(hexes)

    kind = rng.randrange(18)
    if kind < 6:
        return O.Attack(
            h(),
            tuple(u() for _ in range(rng.randint(0, 4))),
            rng.random() < 0.5,
            rng.choice([None, u()]),
        )
    if kind < 9:
        return O.Move(
            u(), tuple(rng.choice(list(scen.hexes) + ["Z9"]) for _ in range(rng.randint(0, 3)))
        )
    if kind < 11:
        retreat = rng.choice([None, h(), ((u(), h()),)])
        return O.Losses(tuple(u() for _ in range(rng.randint(0, 3))), retreat)
    simple = [
        O.Enter(u(), h()),
        O.Rebuild(u()),
        O.Breakout(u()),
        END,
        O.Default(),
        O.Place(u(), rng.choice([h(), "eliminated", "off", "turn 3", "turn 9", "moon"])),
        O.Flip(u()),
        O.SetTurn(rng.randint(0, 9)),
        O.SetPhase(rng.choice(["joint", "x"])),
        O.Dice(tuple(rng.randint(0, 7) for _ in range(rng.randint(0, 3)))),
        O.SetOOS(u(), True),
        O.SetRetreat(u(), False),
        O.Status(),
        O.Options(),
    ]
    return rng.choice(simple)


def attempts(rules, state, rng: random.Random, n: int, found: list[Rejection]) -> None:
    """n random orders, mostly by the player whose turn it is; refusals go to `found`."""
    for _ in range(n):
        active = state.active_side or "soviet"
        actor = active if rng.random() < 0.6 else rng.choice(ACTORS)
        side = actor if actor in ("soviet", "german") else None
        order = random_order(rng, rules.scenario, state, side)
        try:
            rules.apply(state, actor, order, HashDice(rng.random()))
        except Rejection as exc:
            found.append(exc)


def random_state(scen, rng: random.Random, turn: int, phase: str):
    """A few units of each side on random hexes (no hex shared by both sides)."""
    hexes = rng.sample(list(scen.hexes), 12)
    ids = {
        s: [u for u in sorted(scen.units) if scen.units[u].side == s] for s in ("soviet", "german")
    }
    units = {}
    for i, h in enumerate(hexes):
        side = "soviet" if i % 2 else "german"
        for uid in rng.sample(ids[side], 2):
            units.setdefault(uid, h)
    placed = list(units)
    return empty_state(
        scen,
        units,
        turn=turn,
        phase=phase,
        reduced=[u for u in rng.sample(placed, 4) if scen.units[u].steps == 2],
        oos=rng.sample(placed, 4),
        retreated=rng.sample(placed, 3),
        moved=rng.sample(placed, 3),
        attacked=rng.sample(placed, 3),
    )


def test_every_refusal_of_random_illegal_orders_names_a_rule_or_says_why_not(scenario):
    """core/errors.py: "rule: the rule number ("8.4(f)"), or None with the message saying why
    none applies.\""""
    found: list[Rejection] = []
    for seed in range(4):  # along random games, sandbox and not
        rng, dice = random.Random(seed), HashDice(f"errors-{seed}")
        rules = HellsGateSystem(scenario)
        state = rules.initial(seed % 2 == 1, dice).state
        while state.result is None:
            attempts(rules, state, rng, 6, found)
            legal = rules.legal_orders(state, state.active_side)
            ends = [o for o in legal if isinstance(o, O.End)]
            order = ends[0] if ends and rng.random() < 0.25 else rng.choice(legal)
            state = rules.apply(state, state.active_side, order, dice).state
    rng = random.Random(99)
    rules = HellsGateSystem(scenario)
    for turn in range(1, 9):  # hand-built states of every player phase and turn
        for phase in PLAYER_PHASES:
            attempts(rules, random_state(scenario, rng, turn, phase), rng, 40, found)
    codes = {r.code for r in found}
    assert len(found) > 3000 and len(codes) >= 40, (len(found), sorted(codes))
    for r in found:
        check_rejection(r)


def test_7_4_waiting_for_an_entry_choice_names_rule_7_4(scenario):
    """7.4: "If several such hexes are equally near, the owner chooses." - the other player,
    refused while the choice is pending, is told which rule he waits on."""
    state = empty_state(
        scenario, {"29tk": "A4", "20tk": "C7", "34id": "A1"}, turn=4, phase="soviet-movement"
    )
    state.units["16pz"].box, state.units["16pz"].track_turn = "turn_track", 4
    g = Game(scenario, state)
    g.do("soviet", END)
    assert [(d.kind, d.data["options"]) for d in g.state.pending] == [("entry", ["A2", "A6"])]
    rejection = g.refuse("soviet", END)
    assert rejection.rule == "7.4" and "German" in rejection.message
    check_rejection(rejection)


def test_12_16_waiting_for_the_rebuild_choice_names_rule_12_16(scenario):
    """12.16: "the Soviet player may flip one reduced Soviet corps (XXX) that has no OOS marker
    to its full-strength side" - the German player waits on rule 12.16."""
    state = empty_state(
        scenario, {"20tk": "C7", "34id": "A1"}, turn=4, phase="german-movement", reduced=["20tk"]
    )
    g = Game(scenario, state)
    g.do("german", END, dice=[6])
    assert (g.state.turn, [d.kind for d in g.state.pending]) == (5, ["rebuild"])
    rejection = g.refuse("german", END)
    assert rejection.rule == "12.16" and "Soviet" in rejection.message
    assert "to you may" not in rejection.message  # addressed to the waiting German player
    check_rejection(rejection)


def test_12_17_waiting_for_breakout_attempts_names_rule_12_17(scenario):
    """12.17: "each of the phasing player's units that (a) has an OOS marker, (b) did not move
    ... may attempt a breakout" - the other player waits on rule 12.17."""
    state = empty_state(
        scenario,
        {"57id": "F4", "72id": "F3", "20tk": "C7"},
        turn=8,
        phase="german-movement",
        oos=["57id"],
    )
    g = Game(scenario, state)
    g.do("german", END)
    assert [d.kind for d in g.state.pending] == ["breakout"]
    rejection = g.refuse("soviet", END)
    assert rejection.rule == "12.17" and "German" in rejection.message
    assert "to you may" not in rejection.message  # addressed to the waiting Soviet player
    check_rejection(rejection)


def test_8_23_waiting_for_losses_names_rule_8_23(scenario):
    """8.23: "The defender applies the hits one at a time" - the attacker waits on rule 8.23."""
    g = Game(scenario)
    g.do("soviet", A("B7", ("29tk", "48rc")), dice=[5])
    rejection = g.refuse("soviet", END)
    assert rejection.rule == "8.23" and "German" in rejection.message and "B7" in rejection.message


def test_1_1_unknown_unit_and_moderator_refusals_say_why_no_rule_applies(scenario):
    """1.1: "The game has two players" - orders from others and names that do not exist are
    refused outside the rules, and the message says so."""
    g = Game(scenario)
    for actor, order, code in (
        ("soviet", A("B7", ("zz9",)), "unknown-unit"),
        ("moderator", O.Dice((3,)), "sandbox-only"),
        ("soviet", O.Flip("20tk"), "moderator-only"),
    ):
        rejection = g.refuse(actor, order)
        assert (rejection.code, rejection.rule) == (code, None)
        check_rejection(rejection)
    rejection = g.refuse("observer", END)
    assert rejection.rule == "1.1" and "observer" in rejection.message


def test_grammar_parse_errors_carry_the_usage_of_the_command(scenario):
    """grammar.ParseError: "the message ends with the usage line of the command" (rule None:
    the grammar, not a rule of the game, refuses it)."""
    grammar = grammar_of(scenario)
    rng = random.Random(7)
    words = (
        [
            "attack",
            "a",
            "move",
            "m",
            "losses",
            "retreat",
            "enter",
            "rebuild",
            "breakout",
            "end",
            "place",
            "flip",
            "set",
            "turn",
            "phase",
            "oos",
            "dice",
            "log",
            "units",
            "help",
            "preview",
            "with",
            "decisive",
            "flip",
            "to",
            "on",
            "maybe",
            "frob",
            "Z9",
        ]
        + sorted(scenario.units)[:8]
        + list(scenario.hexes)[:8]
        + ["0", "3", "7", "12"]
    )
    usages = {usage for usage, _ in grammar.commands.values()}
    seen = 0
    for _ in range(1500):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
        try:
            grammar.parse(line)
        except ParseError as exc:
            seen += 1
            assert exc.rule is None and exc.message.strip()
            if exc.code == "unknown-command":
                assert "'help'" in exc.message and len(exc.message) < 200
                continue
            assert "Usage: " in exc.message, (line, exc.message)
            usage = exc.message.split("Usage: ", 1)[1]
            assert usage in usages or all(u in usages for u in usage.split(" | "))
            command_help = grammar.help(line.split()[0])
            assert all(part in command_help for part in usage.split(" | ")), (line, usage)
    assert seen > 500
    empty = None
    try:
        grammar.parse("   ")
    except ParseError as exc:
        empty = exc
    assert empty is not None and empty.code == "empty" and "help" in empty.message

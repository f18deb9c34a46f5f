"""The order language of Hell's Gate (adjudicator.hells_gate.grammar on the kit
adjudicator.grammar): text -> order -> canonical text."""

from __future__ import annotations

import ast
import importlib.util
import random
import re

import pytest

from adjudicator.core.commands import (
    Audit,
    Moderator,
    Pause,
    Resume,
    Rewind,
    Rolls,
    Salt,
    Seat,
    Undo,
    Unseat,
)
from adjudicator.core.errors import Rejection
from adjudicator.grammar import Lexicon, ParseError
from adjudicator.hells_gate.grammar import SIDES, HellsGateGrammar
from adjudicator.hells_gate.loader import load_scenario
from adjudicator.hells_gate.orders import (
    Attack,
    Breakout,
    Default,
    Dice,
    End,
    Enter,
    Flip,
    Help,
    Log,
    Losses,
    Move,
    Options,
    Place,
    Preview,
    Rebuild,
    SetOOS,
    SetPhase,
    SetRetreat,
    SetTurn,
    SetWeather,
    Status,
    Supply,
    Units,
)
from adjudicator.hells_gate.scenario import WEATHERS
from adjudicator.hells_gate.state import PHASES

GRAMMAR = HellsGateGrammar(load_scenario(), SIDES)
COMMANDS = GRAMMAR.commands


@pytest.fixture(scope="module")
def grammar() -> HellsGateGrammar:
    return GRAMMAR


@pytest.fixture(scope="module")
def lex(grammar) -> Lexicon:
    return grammar.lexicon


# -- canonical forms: one example of every order and query
CANONICAL = [
    ("attack C6 with 20tk 75rc", Attack("C6", ("20tk", "75rc"))),
    ("attack C6 with 20tk decisive", Attack("C6", ("20tk",), decisive=True)),
    (
        "attack C6 with 20tk 75rc decisive flip 20tk",
        Attack("C6", ("20tk", "75rc"), decisive=True, flip="20tk"),
    ),
    ("preview attack C6 with 20tk 75rc", Preview(Attack("C6", ("20tk", "75rc")))),
    ("losses", Losses()),
    ("losses 389id", Losses(("389id",))),
    ("losses 389id retreat D6", Losses(("389id",), "D6")),
    ("losses retreat B5", Losses(retreat="B5")),
    ("losses 20tk retreat 20tk=B5 75rc=B6", Losses(("20tk",), (("20tk", "B5"), ("75rc", "B6")))),
    ("move 20tk C5", Move("20tk", ("C5",))),
    ("move 20tk C6 C5", Move("20tk", ("C6", "C5"))),
    ("enter 11pz A6", Enter("11pz", "A6")),
    ("rebuild 20tk", Rebuild("20tk")),
    ("breakout 57id", Breakout("57id")),
    ("end", End()),
    ("default", Default()),
    ("place 20tk B5", Place("20tk", "B5")),
    ("place 20tk eliminated", Place("20tk", "eliminated")),
    ("place 20tk off", Place("20tk", "off")),
    ("place 24pz turn 3", Place("24pz", "turn 3")),
    ("flip 20tk", Flip("20tk")),
    ("set turn 3", SetTurn(3)),
    ("set phase german-combat", SetPhase("german-combat")),
    ("set weather mud", SetWeather("mud")),
    ("set oos 57id on", SetOOS("57id", True)),
    ("set retreat 29tk off", SetRetreat("29tk", False)),
    ("dice 3 5 6", Dice((3, 5, 6))),
    ("options", Options()),
    ("status", Status()),
    ("units", Units()),
    ("units C6", Units("C6")),
    ("units soviet", Units("soviet")),
    ("supply", Supply()),
    ("log", Log()),
    ("log 10", Log(10)),
    ("help", Help()),
    ("help attack", Help("attack")),
    ("help set turn", Help("set turn")),
    ("help set", Help("set")),
    # service commands: fair dice, audit, taking back, moderation (free text keeps its case)
    ("salt Rolling Thunder 42", Salt("Rolling Thunder 42")),
    ("rolls", Rolls()),
    ("rolls 5", Rolls(5)),
    ("audit", Audit()),
    ("undo", Undo()),
    (
        "rewind 12 the weather roll was entered twice",
        Rewind(12, "the weather roll was entered twice"),
    ),
    ("pause waiting for a ruling", Pause("waiting for a ruling")),
    ("resume Ruling given", Resume("Ruling given")),
    ("seat soviet Alice", Seat("soviet", "Alice")),
    ("seat german bob replaces Carl", Seat("german", "bob", "replaces Carl")),
    ("unseat german left the game", Unseat("german", "left the game")),
    ("moderator add carol", Moderator("add", "carol")),
    ("moderator remove carol stepped down", Moderator("remove", "carol", "stepped down")),
    ("help moderator add", Help("moderator add")),
]


@pytest.mark.parametrize(("text", "order"), CANONICAL)
def test_canonical_text_round_trips(grammar, text, order):
    assert grammar.parse(text) == order
    assert grammar.format(order) == text


def test_every_order_type_has_a_canonical_example():
    types = {type(order) for _, order in CANONICAL}
    assert len(types) == 33


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        # command aliases
        ("a C6 w 20tk 75rc", "attack C6 with 20tk 75rc"),
        ("att C6 with 20tk dec", "attack C6 with 20tk decisive"),
        ("attack C6 with 20tk d flip 20tk", "attack C6 with 20tk decisive flip 20tk"),
        ("attack C6 with 20tk flip 20tk decisive", "attack C6 with 20tk decisive flip 20tk"),
        ("attack C6 20tk 75rc", "attack C6 with 20tk 75rc"),
        ("preview C6 with 20tk", "preview attack C6 with 20tk"),
        ("pv a C6 20tk", "preview attack C6 with 20tk"),
        ("p att C6 w 20tk", "preview attack C6 with 20tk"),
        ("loss 389id r D6", "losses 389id retreat D6"),
        ("l ret D6", "losses retreat D6"),
        ("retreat B5", "losses retreat B5"),
        ("ret 20tk=B5 75rc = B6", "losses retreat 20tk=B5 75rc=B6"),
        ("losses retreat 20tk to B5", "losses retreat 20tk=B5"),
        ("losses retreat 20tk B5 75rc B6", "losses retreat 20tk=B5 75rc=B6"),
        ("m 20tk C5", "move 20tk C5"),
        ("mv 20tk to C5", "move 20tk C5"),
        ("move 20tk C6-C5", "move 20tk C6 C5"),
        ("move 20tk C6,C5", "move 20tk C6 C5"),
        ("move 20tk C6, C5", "move 20tk C6 C5"),
        ("move 20tk to C6 then C5", "move 20tk C6 C5"),
        ("enter 11pz at A6", "enter 11pz A6"),
        ("bo 57id", "breakout 57id"),
        ("end phase", "end"),
        ("done", "end"),
        ("pass", "end"),
        ("opt", "options"),
        ("o", "options"),
        ("st", "status"),
        ("s", "status"),
        ("u", "units"),
        ("u sov", "units soviet"),
        ("units ussr", "units soviet"),
        ("units ger", "units german"),
        ("units de", "units german"),
        ("sup", "supply"),
        ("h", "help"),
        ("?", "help"),
        ("? a", "help attack"),
        ("help bo", "help breakout"),
        ("help retreat", "help retreat"),
        ("help set ret", "help set retreat"),
        ("place 20tk elim", "place 20tk eliminated"),
        ("place 20tk in B5", "place 20tk B5"),
        ("place 24pz on turn 3", "place 24pz turn 3"),
        ("set phase soviet combat", "set phase soviet-combat"),
        ("set phase soviet_combat", "set phase soviet-combat"),
        ("set phase sov movement", "set phase soviet-movement"),
        ("set phase ger-recovery", "set phase german-recovery"),
        ("set phase joint", "set phase joint"),
        ("set ret 29tk on", "set retreat 29tk on"),
        ("set oos 57id yes", "set oos 57id on"),
        ("set oos 57id no", "set oos 57id off"),
        ("dice 3,5", "dice 3 5"),
        ("SALT  Hello   World", "salt Hello World"),
        ("Rewind 3  Wrong  CRT", "rewind 3 Wrong CRT"),
        ("seat SOV Alice", "seat soviet Alice"),
        ("seat de bob", "seat german bob"),
        ("unseat ussr gone", "unseat soviet gone"),
        ("mod add Dave", "moderator add Dave"),
        ("moderator rm Dave bye", "moderator remove Dave bye"),
        ("help mod rm", "help moderator remove"),
        ("attack C6 with 20tk and 75rc", "attack C6 with 20tk 75rc"),
        ("losses 20tk and 75rc retreat B5", "losses 20tk 75rc retreat B5"),
        # whitespace
        ("   attack   C6\twith 20tk  ", "attack C6 with 20tk"),
    ],
)
def test_aliases_give_the_canonical_form(grammar, text, canonical):
    assert grammar.format(grammar.parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (
            "ATTACK c6 WITH 20TK 75Rc DECISIVE FLIP 20tK",
            "attack C6 with 20tk 75rc decisive flip 20tk",
        ),
        ("Move 20Tk c6-c5", "move 20tk C6 C5"),
        ("LOSSES RETREAT 20TK=b5", "losses retreat 20tk=B5"),
        ("Set Phase German Combat", "set phase german-combat"),
        ("Set Weather SNOW", "set weather snow"),
        ("UNITS Soviet", "units soviet"),
        ("HELP Attack", "help attack"),
    ],
)
def test_case_does_not_matter(grammar, text, canonical):
    assert grammar.format(grammar.parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        # designations, multi-word and greedy inside a unit list
        ("attack B7 with 29th Tank Corps 48rc", "attack B7 with 29tk 48rc"),
        ("attack B7 with 29th tank corps 48th rifle corps", "attack B7 with 29tk 48rc"),
        (
            "attack Smela with 29th Tank Corps 48rc decisive flip 29th Tank Corps",
            "attack D6 with 29tk 48rc decisive flip 29tk",
        ),
        ("move 5th Guards Tank Corps to Steblev", "move 5gtk C3"),
        ("move 5th SS Panzer Battalion (Wiking) C5", "move 5ss C5"),
        ("move 5th SS Panzer Battalion C5", "move 5ss C5"),
        ("move 5th SS Panzer Division Wiking C5", "move wiking C5"),
        ("move Korps-Abteilung B C5", "move kab C5"),
        ("move korps abteilung b C5", "move kab C5"),
        ("move 1st SS Panzer Division Leibstandarte (battle group) A5", "move lah A5"),
        ("losses 389th Infantry Division retreat Smela", "losses 389id retreat D6"),
        # unique prefixes and abbreviations
        ("attack B7 with 29th Tank 48rc", "attack B7 with 29tk 48rc"),
        ("attack B7 with 29th 48rc", "attack B7 with 29tk 48rc"),
        ("move 29t B6", "move 29tk B6"),
        ("move wall C5", "move wallonien C5"),
        ("move heavy panzer C5", "move baeke C5"),
        # town names, with and without the parenthesised part
        ("attack Cherkassy with 5mc", "attack F6 with 5mc"),
        ("move 20tk Tychinovka", "move 20tk B3"),
        ("move 20tk Tikhonovka", "move 20tk B3"),
        ("move 20tk Tychinovka (Tikhonovka)", "move 20tk B3"),
        ("move 20tk Korsun-Shevchenkovsky (airfield)", "move 20tk E3"),
        ("move 20tk korsun shevchenkovsky", "move 20tk E3"),
        ("move 20tk korsun airfield", "move 20tk E3"),
        ("move 20tk korsun", "move 20tk E3"),
        ("move 20tk cherk", "move 20tk F6"),
        ("units zvenigorodka", "units B5"),
        ("retreat Lysyanka", "losses retreat A4"),
        ("losses retreat 389id=Smela", "losses retreat 389id=D6"),
    ],
)
def test_designations_and_town_names(grammar, text, canonical):
    assert grammar.format(grammar.parse(text)) == canonical


def test_hyphens_join_hex_ids_of_a_path_but_not_the_words_of_a_name(grammar):
    assert grammar.parse("move 20tk C6-D6") == Move("20tk", ("C6", "D6"))
    assert grammar.parse("move kab Korsun-Shevchenkovsky") == Move("kab", ("E3",))
    assert grammar.parse("move Korps-Abteilung B E3") == Move("kab", ("E3",))


# -- refusals: every one is a ParseError with a code, a message and no rule
ERRORS = [
    ("", "empty", "help"),
    ("   ", "empty", "help"),
    ("end\nend", "syntax", "one order per line"),
    ("end\rend", "syntax", "one order per line"),
    ("atack C6 with 20tk", "unknown-command", "did you mean attack?"),
    ("xyzzy", "unknown-command", "Say 'help' for the commands"),
    ("attack", "syntax", "a hex is missing"),
    ("attack C6", "syntax", "at least one attacking unit"),
    ("attack C6 with", "syntax", "at least one attacking unit"),
    ("attack C6 with decisive", "syntax", "at least one attacking unit"),
    ("attack C9 with 20tk", "unknown-hex", "unknown hex 'c9'"),
    ("attack smla with 20tk", "unknown-hex", "did you mean D6 (Smela)"),
    ("attack C6 with 29tj", "unknown-unit", "did you mean 29tk (29th Tank Corps)"),
    ("attack C6 with 2th Tank Corps", "unknown-unit", "29tk (29th Tank Corps)"),
    ("attack C6 with 5th guards", "ambiguous-unit", "5gcc (5th Guards Cavalry Corps) or 5gtk"),
    ("attack C6 with 20tk decisive decisive", "syntax", "once"),
    ("attack C6 with 20tk flip 20tk flip 20tk", "syntax", "once"),
    ("attack C6 with 20tk flip", "syntax", "a unit is missing"),
    ("move C6 20tk", "unknown-unit", "C6 (Kapitanovka) is a hex, but a unit is expected"),
    ("move 20tk 75rc", "unknown-hex", "75rc (75th Rifle Corps) is a unit, but a hex is expected"),
    ("move 20tk", "syntax", "a hex is missing"),
    ("move 20tk to", "syntax", "a hex is missing"),
    ("move 20tk C6 C5 C4", "syntax", "at most 2 hexes"),
    ("move 20tk B", "unknown-hex", "unknown hex 'b'"),
    ("losses 20tk B5", "unknown-unit", "B5 (Zvenigorodka) is a hex"),
    ("losses retreat", "syntax", "a retreat needs a hex"),
    ("losses retreat 20tk", "syntax", "a hex is missing"),
    ("losses retreat 20tk=B5 B6", "unknown-unit", "B6 is a hex"),
    ("retreat", "syntax", "a retreat needs a hex"),
    ("enter 11pz", "syntax", "a hex is missing"),
    ("rebuild", "syntax", "a unit is missing"),
    ("breakout C6", "unknown-unit", "is a hex"),
    ("flip", "syntax", "a unit is missing"),
    ("end now", "syntax", "unexpected 'now' at the end"),
    ("status please", "syntax", "unexpected 'please'"),
    ("set", "syntax", "turn, phase, weather, oos or retreat"),
    ("set speed 3", "syntax", "not 'speed'"),
    ("set turn", "bad-number", "from 1 to 8, missing"),
    ("set turn 0", "bad-number", "from 1 to 8"),
    ("set turn 9", "bad-number", "from 1 to 8"),
    ("set turn three", "bad-number", "whole number"),
    ("set turn -1", "bad-number", "whole number"),
    ("set turn 2.5", "bad-number", "whole number"),
    ("set phase", "syntax", "one of soviet-supply"),
    ("set phase sovet combat", "syntax", "did you mean soviet-combat"),
    ("set phase lunch", "syntax", "not 'lunch'"),
    ("set weather rain", "syntax", "snow or mud"),
    ("set oos 20tk maybe", "syntax", "on or off"),
    ("set retreat 20tk", "syntax", "on or off, missing"),
    ("dice", "bad-number", "from 1 to 6"),
    ("dice 0", "bad-number", "from 1 to 6"),
    ("dice 3 7", "bad-number", "a die must be a whole number from 1 to 6, not '7'"),
    ("dice 3 x", "bad-number", "from 1 to 6"),
    ("log 0", "bad-number", "at least 1"),
    ("log all", "bad-number", "at least 1"),
    ("place 20tk", "syntax", "a hex is missing"),
    ("place 20tk turn 9", "bad-number", "from 1 to 8"),
    ("place 20tk nowhere", "unknown-hex", "unknown hex 'nowhere'"),
    ("units C9", "unknown-hex", "unknown hex"),
    ("help nonsense", "unknown-command", "unknown command 'nonsense'"),
    ("help attack now", "syntax", "unexpected 'now'"),
    ("help set nonsense", "syntax", "unexpected 'nonsense'"),
    ("salt", "syntax", "the salt text is missing"),
    ("salt " + "x" * 201, "syntax", "at most 200"),
    ("rolls 0", "bad-number", "at least 1"),
    ("audit now", "syntax", "unexpected 'now'"),
    ("undo twice", "syntax", "unexpected 'twice'"),
    ("rewind", "bad-number", "the log row must be a whole number"),
    ("rewind 12", "syntax", "the reason (it goes into the log) is missing"),
    ("pause", "syntax", "the reason (it goes into the log) is missing"),
    ("resume", "syntax", "the reason (it goes into the log) is missing"),
    ("seat", "syntax", "the side must be soviet or german, missing"),
    ("seat finnish bob", "syntax", "not 'finnish'"),
    ("seat soviet", "syntax", "the user is missing"),
    ("unseat german", "syntax", "the reason (it goes into the log) is missing"),
    ("moderator", "syntax", "moderator add or remove? missing"),
    ("moderator promote bob", "syntax", "not 'promote'"),
    ("moderator add", "syntax", "the user is missing"),
]


@pytest.mark.parametrize(("text", "code", "says"), ERRORS)
def test_refusals_say_what_is_wrong(grammar, text, code, says):
    with pytest.raises(ParseError) as info:
        grammar.parse(text)
    err = info.value
    assert isinstance(err, Rejection)
    assert err.code == code
    assert err.rule is None
    assert says in err.message
    assert str(err) == err.message
    assert err.to_dict() == {"code": code, "message": err.message, "rule": None}


@pytest.mark.parametrize(("text", "code", "says"), ERRORS)
def test_refusals_say_what_would_be_legal(grammar, text, code, says):
    """After the command word, a refusal ends with the usage line of that command."""
    with pytest.raises(ParseError) as info:
        grammar.parse(text)
    message = info.value.message
    if code == "unknown-command":
        assert "'help'" in message and "Commands:" not in message  # no list of 30 commands
    elif code != "empty" and len(text.splitlines()) == 1:
        usage = message.split(" Usage: ")[1]
        assert usage in {u for u, _ in COMMANDS.values()} | {
            _group_usage("set"),
            _group_usage("moderator"),
        }


def _group_usage(group: str) -> str:
    return " | ".join(u for c, (u, _) in COMMANDS.items() if c.startswith(f"{group} "))


def _set_usage() -> str:
    return _group_usage("set")


def test_refusal_usage_is_that_of_the_command(grammar):
    with pytest.raises(ParseError, match=r"Usage: move <UNIT> \[to\] <HEX> \[<HEX>\]$"):
        grammar.parse("mv 20tk")
    with pytest.raises(ParseError, match=r"Usage: set weather snow\|mud$"):
        grammar.parse("set weather rain")


def test_did_you_mean_offers_at_most_three_close_names(grammar):
    with pytest.raises(ParseError) as info:
        grammar.parse("move 20tk shpla")
    assert "did you mean B7 (Shpola)" in info.value.message
    assert info.value.message.count(" or ") <= 2


def test_a_word_near_nothing_gets_no_suggestion(grammar):
    with pytest.raises(ParseError) as info:
        grammar.parse("attack C6 with qqqqqqqq")
    assert "did you mean" not in info.value.message


# -- messages of several lines
def test_parse_message_splits_lines_and_keeps_errors_in_place(grammar):
    message = "\n  attack C6 with 20tk  \n\n   \nmove 20tk C9\r\nend\n"
    results = grammar.parse_message(message)
    assert [line for line, _ in results] == ["attack C6 with 20tk", "move 20tk C9", "end"]
    assert results[0][1] == Attack("C6", ("20tk",))
    assert isinstance(results[1][1], ParseError) and results[1][1].code == "unknown-hex"
    assert results[2][1] == End()


def test_parse_message_of_nothing_is_empty(grammar):
    assert grammar.parse_message("") == []
    assert grammar.parse_message(" \n\t\n") == []


def test_parse_message_does_not_raise_on_unknown_commands(grammar):
    [(line, result)] = grammar.parse_message("hello there")
    assert line == "hello there"
    assert isinstance(result, ParseError) and result.code == "unknown-command"


# -- help
def test_help_text_lists_every_usage_line(grammar):
    text = grammar.help()
    assert grammar.help(None) == text
    for usage, _ in COMMANDS.values():
        assert usage in text


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_text_of_each_command_gives_usage_and_an_example(grammar, command):
    usage, paragraph = COMMANDS[command]
    text = grammar.help(command)
    assert text.startswith(f"Usage: {usage}\n")
    assert paragraph in text
    assert "Example: " in paragraph


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_help_example_parses(grammar, command):
    example = COMMANDS[command][1].split("Example: ")[1]
    assert grammar.format(grammar.parse(example))


def test_help_text_accepts_aliases_and_lists_them(grammar):
    assert grammar.help("a") == grammar.help("attack")
    assert "Aliases: a, att" in grammar.help("attack")
    assert grammar.help("SET TURN") == grammar.help("set turn")
    assert grammar.help("set ret") == grammar.help("set retreat")


def test_help_text_of_set_lists_every_set_command(grammar):
    text = grammar.help("set")
    for command in ("set turn", "set phase", "set weather", "set oos", "set retreat"):
        assert COMMANDS[command][0] in text


def test_help_text_of_an_unknown_command_suggests(grammar):
    assert "did you mean attack?" in grammar.help("atack")


def test_help_query_names_a_command_help_text_knows(grammar):
    for command in [*COMMANDS, "set", "moderator"]:
        order = grammar.parse(f"help {command}")
        assert order == Help(command)
        assert grammar.help(order.command)


def test_format_order_refuses_what_is_not_an_order(grammar):
    with pytest.raises(TypeError):
        grammar.format("attack C6 with 20tk")


# -- lexicon
def test_lexicon_from_scenario_knows_every_unit_and_hex(grammar):
    scenario = load_scenario()
    for unit in scenario.units.values():
        assert grammar.parse(f"flip {unit.id}") == Flip(unit.id)
        assert grammar.parse(f"flip {unit.designation}") == Flip(unit.id)
        assert grammar.parse(f"flip {unit.designation.upper()}") == Flip(unit.id)
    for hex_id, spec in scenario.hexes.items():
        assert grammar.parse(f"units {hex_id.lower()}") == Units(hex_id)
        if spec.name:
            assert grammar.parse(f"units {spec.name}") == Units(hex_id)


def test_a_units_parenthesised_qualifier_is_not_a_name(grammar):
    with pytest.raises(ParseError):
        grammar.parse("flip battle group")
    assert grammar.parse("flip wiking") == Flip("wiking")  # the id, not "(Wiking)" of 5ss


def test_lexicon_drops_a_name_shared_by_two_hexes():
    grammar = HellsGateGrammar.from_names(
        {"1a": "1st Army"}, {"A1": "Foo (Bar)", "A2": "Bar", "A3": None}, turns=3
    )
    assert grammar.parse("units foo") == Units("A1")
    assert grammar.parse("units foo bar") == Units("A1")
    assert grammar.parse("units bar") == Units("A2")  # the whole name wins over a part
    assert grammar.parse("move 1st army a3") == Move("1a", ("A3",))
    with pytest.raises(ParseError, match="from 1 to 3"):
        grammar.parse("set turn 4")


def test_lexicon_ambiguous_part_name_is_refused():
    grammar = HellsGateGrammar.from_names(
        {"1a": "1st Army"}, {"A1": "Bartow (Bar)", "A2": "Bartok (Bar)"}, turns=3
    )
    with pytest.raises(ParseError) as info:
        grammar.parse("units bar")
    assert info.value.code == "unknown-hex"
    with pytest.raises(ParseError) as info:
        grammar.parse("units bart")  # the start of two towns' names
    assert info.value.code == "ambiguous-hex"
    assert "'bart' could be A1 (Bartow (Bar)) or A2 (Bartok (Bar))" in info.value.message


# -- property: random orders round-trip through their text, in any spelling
ALIASES = {
    "attack": ["attack", "a", "att"],
    "preview": ["preview", "pv", "p"],
    "losses": ["losses", "loss", "l"],
    "move": ["move", "m", "mv"],
    "breakout": ["breakout", "bo"],
    "end": ["end", "done", "pass", "end phase"],
    "options": ["options", "opt", "o"],
    "status": ["status", "st", "s"],
    "units": ["units", "u"],
    "supply": ["supply", "sup"],
    "help": ["help", "h", "?"],
    "with": ["with", "w", ""],
    "decisive": ["decisive", "dec", "d"],
    "retreat": ["retreat", "r", "ret"],
    "eliminated": ["eliminated", "elim"],
    "soviet": ["soviet", "sov", "ussr"],
    "german": ["german", "ger", "de"],
}


class Pick:
    """Random parts of orders, from the lexicon's names."""

    def __init__(self, rng: random.Random, lex: Lexicon):
        self.rng, self.units, self.hexes = rng, sorted(lex.ids("unit")), list(lex.ids("hex"))

    def unit(self) -> str:
        return self.rng.choice(self.units)

    def hex(self) -> str:
        return self.rng.choice(self.hexes)

    def some(self, low: int, high: int) -> tuple[str, ...]:
        return tuple(self.unit() for _ in range(self.rng.randint(low, high)))

    def attack(self) -> Attack:
        rng = self.rng
        return Attack(
            self.hex(), self.some(1, 4), rng.random() < 0.5, rng.choice([None, self.unit()])
        )

    def retreat(self):
        pairs = tuple((self.unit(), self.hex()) for _ in range(self.rng.randint(1, 3)))
        return self.rng.choice([None, self.hex(), pairs])

    def place(self) -> str:
        return self.rng.choice([self.hex(), "eliminated", "off", f"turn {self.rng.randint(1, 8)}"])


def random_order(rng: random.Random, lex: Lexicon):
    pick, coin = Pick(rng, lex), lambda: rng.random() < 0.5
    makers = [
        pick.attack,
        lambda: Preview(pick.attack()),
        lambda: Losses(pick.some(0, 3), pick.retreat()),
        lambda: Move(pick.unit(), tuple(pick.hex() for _ in range(rng.randint(1, 2)))),
        lambda: Enter(pick.unit(), pick.hex()),
        lambda: Rebuild(pick.unit()),
        lambda: Breakout(pick.unit()),
        End,
        Default,
        lambda: Place(pick.unit(), pick.place()),
        lambda: Flip(pick.unit()),
        lambda: SetTurn(rng.randint(1, 8)),
        lambda: SetPhase(rng.choice(PHASES)),
        lambda: SetWeather(rng.choice(WEATHERS)),
        lambda: SetOOS(pick.unit(), coin()),
        lambda: SetRetreat(pick.unit(), coin()),
        lambda: Dice(tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 4)))),
        Options,
        Status,
        lambda: Units(rng.choice([None, pick.hex(), "soviet", "german"])),
        Supply,
        lambda: Log(rng.choice([None, rng.randint(1, 500)])),
        lambda: Help(rng.choice([None, "set", *COMMANDS])),
    ]
    return rng.choice(makers)()


def respell(text: str, rng: random.Random, lex: Lexicon) -> str:
    """Another spelling of a canonical text: aliases, designations, town names, any case."""
    words = []
    for i, word in enumerate(text.replace("=", " = ").split()):
        if word in lex.names("unit") and rng.random() < 0.5:
            word = lex.names("unit")[word]
        elif word in lex.names("hex") and rng.random() < 0.5:
            word = lex.names("hex")[word]
        elif word in ALIASES and (i == 0 or text.split()[0] not in ("help", "set")):
            word = rng.choice(ALIASES[word])
        words.append("".join(c.upper() if rng.random() < 0.3 else c.lower() for c in word))
    return rng.choice([" ", "  ", "\t"]).join(w for w in words if w)


def random_command(rng: random.Random):
    """A random service command, with free text in mixed case and odd spacing."""
    words = ["Alpha", "bravo", "CHARLIE", "d3lta", "échec", "x", "42", "o'clock", "a,b", "(c)"]
    text = lambda n: " ".join(rng.choice(words) for _ in range(n))
    maybe = lambda: rng.choice([None, text(rng.randint(1, 5))])
    user = lambda: rng.choice(["alice", "Bob", "@carol", "user#1234", "12345678901234567"])
    side = lambda: rng.choice(["soviet", "german"])
    makers = [
        lambda: Salt(text(rng.randint(1, 6))),
        lambda: Rolls(rng.choice([None, rng.randint(1, 99)])),
        Audit,
        Undo,
        lambda: Rewind(rng.randint(0, 999), text(rng.randint(1, 6))),
        lambda: Pause(text(rng.randint(1, 4))),
        lambda: Resume(text(rng.randint(1, 4))),
        lambda: Seat(side(), user(), maybe()),
        lambda: Unseat(side(), text(rng.randint(1, 4))),
        lambda: Moderator(rng.choice(["add", "remove"]), user(), maybe()),
    ]
    return rng.choice(makers)()


@pytest.mark.parametrize("seed", range(3))
def test_random_service_commands_round_trip_keeping_the_case_of_free_text(grammar, seed):
    rng = random.Random(seed)
    for _ in range(300):
        command = random_command(rng)
        text = grammar.format(command)
        assert grammar.parse(text) == command, text
        first, _, rest = text.partition(" ")
        spaced = f"  {first.upper()}   {'   '.join(rest.split(' '))}  " if rest else first.upper()
        assert grammar.parse(spaced) == command, spaced


@pytest.mark.parametrize("seed", range(5))
def test_random_orders_round_trip(grammar, lex, seed):
    rng = random.Random(seed)
    for _ in range(400):
        order = random_order(rng, lex)
        text = grammar.format(order)
        assert grammar.parse(text) == order, text
        assert text == text.strip() and "  " not in text
        spelled = respell(text, rng, lex)
        assert grammar.parse(spelled) == order, spelled
        assert grammar.format(grammar.parse(spelled)) == text


def test_canonical_text_uses_ids_and_uppercase_hexes(grammar, lex):
    rng = random.Random(99)
    for _ in range(300):
        text = grammar.format(random_order(rng, lex))
        for word in re.split(r"[\s=]+", text):
            assert word.lower() == word or re.fullmatch(r"[A-F][1-7]", word), text


# -- purity: the grammar imports no I/O, clock or randomness, directly or through the package
FORBIDDEN = {
    "asyncio",
    "datetime",
    "http",
    "importlib",
    "io",
    "logging",
    "os",
    "pathlib",
    "random",
    "secrets",
    "shutil",
    "socket",
    "sqlite3",
    "subprocess",
    "sys",
    "tempfile",
    "time",
    "urllib",
}


def _imports(module: str) -> set[str]:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    with open(spec.origin, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_grammar_imports_nothing_impure():
    seen, todo = set(), ["adjudicator.grammar", "adjudicator.hells_gate.grammar"]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for name in _imports(module):
            assert name.split(".")[0] not in FORBIDDEN, f"{module} imports {name}"
            if name.startswith("adjudicator"):
                parts = name.split(".")
                todo += [".".join(parts[:k]) for k in range(1, len(parts) + 1)]
    assert "adjudicator.hells_gate.loader" not in seen


def test_a_cursor_at_the_end_of_the_line_matches_nothing(lex):
    """A bare verb leaves the cursor past the last word: asking what it names there is an empty
    answer for every kind, not an IndexError (Borodino's bare `activate` crashed this way)."""
    from adjudicator.grammar.cursor import Cursor

    for words in (["attack"], ["attack", "C6"]):
        cursor = Cursor(words, "attack", lexicon=lex, usage=lambda c: c)
        cursor.i = len(words)
        assert cursor.matches("hex") == [] and cursor.matches("unit") == []

"""The rules' texts in Russian (issue 17): refusals with their rule numbers, events, the decisions
put to a side, what a deadline default did, the end of the game; and a scan of whole random games
(legal orders, refused orders, moderator commands) in which every text must be Russian.

The English texts are unchanged (test_legacy_games and the contract tests replay stored games and
compare them); here the same texts are said with language("ru").
"""

from __future__ import annotations

import json
import random

import pytest

from adjudicator.core.dice import FixedDice, HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import event_text
from adjudicator.core.i18n import Msg, say
from adjudicator.core.text import plural
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.state import GameState
from adjudicator.hells_gate.supply import explain
from adjudicator.hells_gate.system import HellsGateSystem
from app.i18n import language
from tests.hells_gate.helpers import A, Game, L, M, empty_state, new_game
from tests.hells_gate.test_08_hits_and_retreats import attack_c4
from tests.hells_gate.test_fuzz_random_games import pick, random_attack, random_losses, wrong_order
from tests.i18n_support import english_left


@pytest.fixture
def ru():
    lang = language("ru")
    lang.missing.clear()
    yield lang
    assert lang.missing == set()


def names_left_in_english(scenario) -> list[str]:
    """The names the scenario data gives no Russian form yet (said in English until it does)."""
    names = [spec.designation for spec in scenario.units.values() if spec.name_ru is None]
    if scenario.name_ru is None:
        names.append(scenario.title)
    return sorted(names, key=len, reverse=True)


def russian(text: object, lang, names=(), allowed=()) -> str:
    """The text said in Russian, checked for English left outside the names given."""
    said = say(text, lang)
    bare = said
    for name in names:
        bare = bare.replace(name, " ")
    assert english_left(bare, allowed=allowed) == [], said
    return said


# -- refusals with their rule numbers --------------------------------------------------------------


def test_8_27_hits_go_to_full_strength_units_first_in_russian(scenario, ru):
    g, _ = attack_c4(scenario, ["88id", "kg168"], 1)
    rej = g.refuse("german", L(("kg168",)))
    assert rej.rule == "8.27"
    assert say(rej.message, ru) == (
        "удары в первую очередь применяются к полноценным двухшаговым частям: 88id"
    )
    assert rej.message == "full-strength units take hits first: 88id"


def test_8_30_the_mandatory_soviet_retreat_is_put_and_refused_in_russian(scenario, ru):
    g, out = attack_c4(scenario, ["21grc", "48rc"], 2, side="german")
    pending = next(e for e in out.events if e.kind == "DecisionPending")
    assert say(pending.text, ru) == (
        "Советский игрок должен распределить 2 удара в C4 (последний удар обязательно "
        "применяется как отступление в D4 или D5)."
    )
    rej = g.refuse("soviet", L(("48rc", "21grc")))
    assert rej.rule == "8.30"
    assert say(rej.message, ru) == (
        "при 2 ударах советский игрок обязан применить последний удар как отступление (в D4 или D5)"
    )
    waiting = g.refuse("german", O.End())
    assert say(waiting.message, ru).startswith(
        "ждём советского игрока: он должен распределить 2 удара в C4"
    )


def test_8_23_a_decision_read_back_from_storage_is_still_said_in_russian(scenario, ru):
    g, _ = attack_c4(scenario, ["21grc", "48rc"], 2, side="german")
    stored = GameState.from_json(json.loads(json.dumps(g.state.to_json())))
    assert not isinstance(stored.pending[0].prompt, Msg)  # storage keeps the English text
    rej = Game(scenario, stored).refuse("german", O.End())
    assert rej.rule == "8.23"
    assert say(rej.message, ru) == (
        "ждём советского игрока: он должен распределить 2 удара в C4 (последний удар "
        "обязательно применяется как отступление в D4 или D5)"
    )
    assert rej.message == g.refuse("german", O.End()).message
    assert stored.pending[0].prompt == g.state.pending[0].prompt  # the given state is unchanged


def test_8_23_a_wrong_number_of_step_losses_is_refused_in_russian(scenario, ru):
    g, _ = attack_c4(scenario, ["88id", "kg168"], 2)
    rej = g.refuse("german", L(("88id",)))
    assert rej.rule == "8.23"
    said = say(rej.message, ru)
    assert said.startswith("2 удара в C4: укажите ровно 2 потери шага; указано: 1.")


def test_8_4_f_at_most_two_units_attack_across_one_hexside_in_russian(scenario, ru):
    units = {"29tk": "B4", "20tk": "B4", "5gtk": "B4", "88id": "C4"}
    g = Game(scenario, empty_state(scenario, units, turn=3, phase="soviet-combat"))
    rej = g.refuse("soviet", A("C4", ("29tk", "20tk", "5gtk")))
    assert rej.rule == "8.4(f)"
    assert say(rej.message, ru) == (
        "через границу гекса B4–C4 могут атаковать не более 2 частей; указано 3 (29tk, 20tk, 5gtk)"
    )


def test_8_17_a_decisive_attack_needs_a_full_two_step_unit_in_russian(scenario, ru):
    units = {"29tk": "B4", "88id": "C4"}
    g = Game(scenario, empty_state(scenario, units, turn=3, reduced=["29tk"]))
    rej = g.refuse("soviet", A("C4", ("29tk",), True))
    assert rej.rule == "8.17(a)"
    assert "Решительной атаки" in russian(rej.message, ru, allowed=scenario.units)


def test_9_6_the_movement_allowance_is_said_with_its_plural_in_russian(scenario, ru):
    g = Game(scenario, empty_state(scenario, {"29tk": "B4"}, turn=3, phase="soviet-movement"))
    rej = g.refuse("soviet", M("29tk", ("B5", "B6", "B7")))
    assert rej.rule == "9.6"
    assert say(rej.message, ru) == (
        "дальность движения 29tk сейчас — 2 гекса (в снег танковые и моторизованные части "
        "проходят до 2 гексов); указано гексов: 3"
    )


def test_12_8_no_german_unit_enters_tychinovka_on_turn_2_in_russian(scenario, ru):
    g = Game(scenario, empty_state(scenario, {"3pz": "B4"}, turn=2, phase="german-movement"))
    rej = g.refuse("german", M("3pz", ("B3",)))
    assert rej.rule == "12.8"
    assert say(rej.message, ru) == "во 2-й ход немецкие части не могут входить в Тычиновку (B3)"


def test_12_14_the_korsun_airfield_freeze_is_said_in_russian(scenario, ru):
    g = Game(scenario, empty_state(scenario, {"88id": "E3"}, turn=2, phase="german-movement"))
    rej = g.refuse("german", M("88id", ("D3",)))
    assert rej.rule == "12.14"
    assert say(rej.message, ru) == (
        "88id в E3 не может двигаться: немецкие части в гексе Корсуньского аэродрома E3 и рядом "
        "с ним стоят, пока к аэродрому не подойдёт советская часть"
    )


def test_4_6_it_is_not_your_phase_in_russian(scenario, ru):
    g = Game(scenario)
    rej = g.refuse("german", O.End())
    assert rej.rule == "4.6"
    assert say(rej.message, ru) == (
        "идёт советская фаза боя 1-го хода: сейчас ходит только советский игрок"
    )


# -- events, decisions, the deadline default, the end ---------------------------------------------


def test_4_1_a_new_game_says_its_phases_in_russian(scenario, ru):
    out = new_game(scenario)
    began = [say(e.text, ru) for e in out.events if e.kind == "PhaseBegan"]
    assert began[:2] == [
        "Ход 1, советская фаза снабжения.",
        "Ход 1, советская фаза боя.",
    ]
    names = names_left_in_english(scenario)
    for e in out.events:
        russian(e.text, ru, names, scenario.units)


def test_8_26_a_stored_event_is_said_in_russian_after_the_round_trip(scenario, ru):
    g, _ = attack_c4(scenario, ["88id", "kg168"], 1)
    out = g.do("german", L(("88id",)))
    stored = next(e.to_dict() for e in out.events if e.kind == "UnitFlipped")
    assert stored["text"] == "88id (88th Infantry Division) takes a hit and is reduced."
    said = say(event_text(stored), ru)
    assert said.startswith("88id (") and said.endswith(
        ") получает удар и переворачивается на ослабленную сторону."
    )


def test_4_8_the_deadline_default_says_what_it_did_in_russian(scenario, ru):
    g = Game(scenario)
    out = g.do("system", O.Default())
    applied = [say(e.text, ru) for e in out.events if e.kind == "DefaultApplied"]
    assert applied == ["Срок истёк, за советского игрока по умолчанию: `end`."]
    ended = [say(e.text, ru) for e in out.events if e.kind == "PhaseEnded"]
    assert ended == ["Советский игрок: советская фаза боя окончена."]


def test_6_2_a_cut_supply_line_is_explained_in_russian(scenario, ru):
    units = {"29tk": "C4", "88id": "B4", "kg168": "D4", "34id": "C3", "198id": "C5"}
    state = empty_state(scenario, units, turn=3, phase="soviet-supply")
    report = explain(scenario, state, "29tk")
    assert not report.traced
    said = russian(report.reason, ru, allowed=scenario.units)
    assert said.startswith("линии снабжения нет (6.2), мешают: ")


@pytest.mark.parametrize(
    ("n", "hits", "steps", "hexes"),
    [(1, "1 удар", "1 потерю шага", "1 гекс"), (2, "2 удара", "2 потери шага", "2 гекса"),
     (5, "5 ударов", "5 потерь шага", "5 гексов"), (11, "11 ударов", "11 потерь шага", "11 гексов"),
     (21, "21 удар", "21 потерю шага", "21 гекс"), (24, "24 удара", "24 потери шага", "24 гекса")],
)  # fmt: skip
def test_8_23_russian_plural_forms_of_hits_step_losses_and_hexes(n, hits, steps, hexes, ru):
    assert say(plural(n, "hit"), ru) == hits
    assert say(plural(n, "step loss"), ru) == steps
    assert say(plural(n, "hex"), ru) == hexes


# -- the scan: whole games, every text in Russian --------------------------------------------------


def moderator_orders(rng: random.Random, scen, state) -> list[object]:
    uid = rng.choice(sorted(state.units))
    hex_id = rng.choice(list(scen.hexes))
    return [
        O.Place(uid, hex_id),
        O.Place(uid, f"turn {rng.randint(0, 9)}"),
        O.Place(uid, rng.choice(["eliminated", "off"])),
        O.Place(uid, "nowhere"),
        O.Flip(uid),
        O.SetOOS(uid, rng.random() < 0.5),
        O.SetRetreat(uid, rng.random() < 0.5),
        O.SetWeather(rng.choice(["snow", "mud", "rain"])),
        O.SetTurn(rng.randint(0, 9)),
        O.Dice((rng.randint(1, 6),)),
        O.Dice((rng.choice([0, 7]),)),
        O.SetPhase("nowhen"),
    ]


def scan_game(scen, seed: int, lang, typed: set[str], sandbox: bool = False) -> dict[str, int]:
    """One random game; every event and refusal said in Russian must have no English left but
    unit ids, the names not yet translated and what was `typed`."""
    names, allowed = names_left_in_english(scen), set(scen.units) | typed
    rules, rng, dice = HellsGateSystem(scen), random.Random(seed), HashDice(seed)
    out = rules.initial(sandbox, dice)
    state, seen = out.state, {"events": 0, "refusals": 0}

    def check(events) -> None:
        for e in events:
            assert isinstance(e.text, Msg), e
            russian(e.text, lang, names, allowed)
            seen[e.kind] = seen.get(e.kind, 0) + 1
            seen["events"] += 1

    def refused(exc: Rejection) -> None:
        text = exc.message
        assert isinstance(text, Msg), exc.code
        russian(text, lang, names, allowed)
        seen[exc.code] = seen.get(exc.code, 0) + 1
        seen["refusals"] += 1

    check(out.events)
    for _ in range(6000):
        if state.result is not None:
            break
        side = state.active_side
        tries = [(side, random_attack(rng, scen, state, side)), wrong_order(rng, scen, state, side)]
        if state.pending and state.pending[0].kind == "losses":
            tries.append((side, random_losses(rng, scen, state)))
        if sandbox and rng.random() < 0.05:
            tries += [("moderator", o) for o in moderator_orders(rng, scen, state)]
        for actor, order in tries:
            try:
                done = rules.apply(state, actor, order, FixedDice([rng.randint(1, 6)] * 8))
            except Rejection as exc:
                refused(exc)
            else:
                check(done.events)
        legal = rules.legal_orders(state, side)
        order = pick(rng, legal) if legal and rng.random() > 0.03 else O.Default()
        out = rules.apply(state, "system" if isinstance(order, O.Default) else side, order, dice)
        check(out.events)
        state = out.state
    assert state.result is not None
    return seen


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_4_7_whole_games_and_their_refusals_are_said_in_russian(scenario, seed, ru):
    seen = scan_game(scenario, seed, ru, set())
    assert seen["events"] > 100 and seen["refusals"] > 100
    assert {"PhaseBegan", "DecisionPending", "UnitRetreated", "GameEnded"} <= set(seen)
    assert ru.missing == set()


def test_2_11_moderator_commands_of_a_sandbox_game_are_said_in_russian(scenario, ru):
    typed = {"nowhere", "nowhen", "rain"}  # what the moderator typed is quoted as typed
    seen = scan_game(scenario, 7, ru, typed, sandbox=True)
    assert seen["events"] > 100 and seen["refusals"] > 100
    assert {"UnitPlaced", "MarkerSet", "DiceFixed", "bad-place", "bad-dice", "bad-phase"} <= set(
        seen
    )
    assert ru.missing == set()

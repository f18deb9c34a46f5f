"""Borodino in Russian: the Russian command words and names parse to the orders the English ones
give (and are written back as the canonical English text), an unknown Cyrillic word gets
Cyrillic suggestions, the plural forms agree with their counts, and a scan of played games and
provoked refusals finds no text left in English."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from adjudicator.borodino import legal, views
from adjudicator.borodino import orders as O
from adjudicator.borodino.board import label, phases_held, result_msg
from adjudicator.borodino.drawer import draw
from adjudicator.borodino.recovery import why_not_hex
from adjudicator.borodino.system import SYSTEM, BorodinoSystem
from adjudicator.core.commands import Default, Dice
from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import EN, Msg, say, t
from adjudicator.core.scenario import ScenarioError
from adjudicator.core.system import MODERATOR_ACTOR, SYSTEM_ACTOR
from adjudicator.grammar import ParseError
from app.games import default_scenario
from app.i18n import language
from tests.borodino.helpers import Table, group, scenario, unit
from tests.borodino.test_fuzz import pick
from tests.i18n_support import english_left, russian_share

RU = language("ru")


@pytest.fixture(scope="module")
def system() -> BorodinoSystem:
    return SYSTEM.load(*default_scenario(SYSTEM))


def allowed(system: BorodinoSystem) -> set[str]:
    """The ids a Russian text may show as they are: units, groups (and the side ids of the
    situation's key, never in a text)."""
    scen = system.scenario
    return set(scen.units) | set(scen.groups)


def round_trip(system: BorodinoSystem, russian: str, english: str) -> None:
    grammar = system.grammar
    assert grammar.parse(russian) == grammar.parse(english)
    assert grammar.format(grammar.parse(russian)) == english


# -- the Russian words (the terms of the Russian rules) and the canonical English text
REPORTS = [
    ("позиция odessa 0604", "at odessa 0604"),  # 1.5: where a unit is
    ("поз одесский 0604", "at odessa 0604"),
    ("потеря строя odessa", "disorder odessa"),  # 1.3: Потеря строя
    ("потеря одесский пехотный полк", "disorder odessa"),
    ("бегство тарнопольский", "rout tarnopol"),  # 1.6: бежавшие части
    ("бежала 25е", "rout 25e"),  # a Cyrillic е in the id
    ("уничтожение vilna", "eliminate vilna"),  # 1.7
    ("уничтожена виленский", "eliminate vilna"),
    ("действовала odessa двигалась", "activated odessa moved"),  # 2.2
    ("действовала одесский стреляла", "activated odessa fired"),
    ("действовала казаки карпова развернулась", "activated karpov faced"),
    ("спор 25e она стояла рядом", "dispute 25e она стояла рядом"),
]
PHASES = [
    ("активация неверовский", "activate neverovsky"),  # 2.1: Фаза Активации
    ("активация компан", "activate compans"),
    ("активировать 27-я пехотная дивизия", "activate neverovsky"),
    ("активация казаки карпова", "activate karpov"),  # 2.8: an independent unit (Казаки Карпова)
    ("конец", "end"),
    ("сбор odessa", "rally odessa"),  # 2.6: Сбор
    ("сбор симбирский пехотный полк", "rally simbirsk"),
    ("мораль", "morale"),  # 6.2: Фаза Морали
    ("восстановление", "recovery"),  # 3.1: Фаза Восстановления
    ("возвращение odessa 0805", "return odessa 0805"),  # 4.1: Возвращение на карту
    ("вернуть смоленское ополчение 0805", "return smolop 0805"),
    ("кубики 3 5", "dice 3 5"),  # 1.10
]


@pytest.mark.parametrize(("russian", "english"), REPORTS)
def test_1_5_to_2_2_russian_reports_round_trip_to_the_canonical_english(system, russian, english):
    round_trip(system, russian, english)


@pytest.mark.parametrize(("russian", "english"), PHASES)
def test_2_1_to_6_2_russian_phase_orders_round_trip_to_the_canonical_english(
    system, russian, english
):
    round_trip(system, russian, english)


def test_every_verb_has_russian_command_words_and_its_help_examples_parse_in_russian(system):
    grammar = system.grammar
    for word in views_verbs():
        verb = grammar.table.verbs[word]
        assert any(russian_share(a) == 1.0 for a in verb.aliases), word
        usage, paragraph = grammar.commands[word]
        said = say(paragraph, RU)
        example = said.rpartition("Пример: ")[2]
        assert example != said, said
        order = grammar.parse(example)  # the Russian example is a Russian order
        english = str(paragraph).rpartition("Example: ")[2]
        if isinstance(order, O.Dispute):  # free text: the reason is the player's own words
            assert order.unit == grammar.parse(english).unit
        else:
            assert order == grammar.parse(english)
        assert russian_share(say(usage, RU).split(" ")[0]) == 1.0


def views_verbs() -> tuple[str, ...]:
    return ("at", "disorder", "rout", "eliminate", "activated", "dispute", "activate", "end",
            "rally", "morale", "recovery", "return", "dice")  # fmt: skip


def test_russian_names_are_typed_and_validated_on_load(system):
    scen = system.scenario
    assert scen.units["odessa"].name_ru == "Одесский пехотный полк"
    assert scen.groups["neverovsky"].name_ru == "27-я пехотная дивизия (Неверовский)"
    assert scen.units["karpov"].army_ru == "2-я Западная армия"
    assert scen.units["odessa"].army_ru == "2-я Западная армия"  # an AG unit: its AG's Army
    assert all(u.name_ru for u in scen.units.values())
    assert say(label(scen, "odessa"), RU) == "odessa (Одесский пехотный полк)"
    assert str(label(scen, "odessa")) == "odessa (Odessa Infantry Regiment)"
    for bad, why in (('name_ru = ""', "blank"), ('name_ru = "Odessa"', "no Cyrillic letter"),
                     ("name_ru = 5", "name_ru")):  # fmt: skip
        text = scenario(group("g", "russian"), unit("a1", "russian", "0101", "g") + "\n" + bad)
        with pytest.raises(ScenarioError, match=why):
            SYSTEM.load(text, "bad")


def test_an_unknown_cyrillic_command_word_gets_cyrillic_suggestions(system):
    with pytest.raises(ParseError) as caught:
        system.grammar.parse("сбр odessa")
    said = say(caught.value.message, RU)
    assert "сбор" in said and "rally" not in said
    assert said.startswith("неизвестная команда 'сбр'; может быть, сбор?")
    assert english_left(said) == []
    with pytest.raises(ParseError) as caught:
        system.grammar.parse("восстан")
    assert "восстановление" in caught.value.message
    with pytest.raises(ParseError) as caught:  # a mistyped Russian name: the unit suggested
        system.grammar.parse("сбор одеский")
    assert caught.value.code == "unknown-unit" and "odessa (" in caught.value.message
    with pytest.raises(ParseError) as caught:  # a Latin word: the kit's refusal, as before
        system.grammar.parse("raly odessa")
    assert "rally" in caught.value.message


# -- plural forms
@pytest.mark.parametrize(
    ("n", "form"),
    [(1, "проведена 1 Фаза"), (2, "проведены 2 Фазы"), (5, "проведено 5 Фаз"),
     (21, "проведена 21 Фаза"), (12, "проведено 12 Фаз")],
)  # fmt: skip
def test_recovery_phases_held_agree_with_their_count_in_russian(n, form):
    held = phases_held(n)
    assert str(held) == f"{n} Recovery Phases held"  # the English of the stored games
    assert say(held, RU) == f"{form} Восстановления"


def test_6_3_collapse_and_result_counts_take_russian_plural_forms():
    said = say(result_msg(t("{groups} collapsed", groups="g"), "french",
                          {"russian": 1, "french": 3}), RU)  # fmt: skip
    assert "Русские: 1 часть вне карты, Французы: 3 части вне карты" in said
    table = Table(scenario(group("g", "russian"), unit("g1", "russian", "0101", "g"),
                           unit("f1", "french", "0901"), phases=1))  # fmt: skip
    table.say("russian", "бегство g1")
    texts = table.say("russian", "мораль")
    collapse = next(e.text for e in table.events if e.kind == "GroupCollapsed")
    assert str(collapse) in texts
    assert "потеряно 1 из 1 части" in say(collapse, RU)
    assert "1 of 1 units lost" in collapse  # the English, unchanged


def test_4_3_distance_to_the_enemy_in_russian_hexes():
    table = Table(scenario(group("g", "russian"), unit("g1", "russian", "0101", "g"),
                           unit("g2", "russian", None, "g", start="recovery"),
                           unit("f1", "french", "0104")))  # fmt: skip
    scen, state = table.system.scenario, table.state
    rule, why = why_not_hex(scen, state, "g2", "0103")  # type: ignore[misc]
    assert rule == "4.3" and str(why) == "0103 is 1 hexes from the enemy f1 (at least 3)"
    assert say(why, RU) == "0103 в 1 гексе от вражеской части f1 (нужно не менее 3)"
    rule, why = why_not_hex(scen, state, "g2", "0102")  # type: ignore[misc]
    assert say(why, RU) == "0102 в 2 гексах от вражеской части f1 (нужно не менее 3)"


# -- the scan: every text of played games and of provoked refusals, said in Russian
def provoke(system: BorodinoSystem, state: Any, turn: int) -> list[Rejection]:
    """Orders of every kind, from both players and the moderator, refused or not (a third of
    the units, another third each time)."""
    scen, refused = system.scenario, []
    some = list(scen.units)[turn % 3 :: 3]
    held = [s.hex for s in state.units.values() if s.on_map]
    orders: list[object] = [O.End(), O.Morale(), O.Recovery(), Dice((9,)), Default()]
    orders += [O.Activate(g) for g in (*scen.groups, "karpov", "odessa")]
    for uid in some:
        orders += [O.At(uid, "0101"), O.At(uid, "9999"), O.Disorder(uid), O.Rout(uid),
                   O.Eliminate(uid), O.Rally(uid), O.Dispute(uid, "не так"),
                   O.Return(uid, "0101"), O.Return(uid, "9999"),
                   *(O.Activated(uid, a) for a in O.ACTIONS), *(O.At(uid, h) for h in held)]  # fmt: skip
    for actor in ("russian", "french", MODERATOR_ACTOR):
        for order in orders:
            try:
                system.apply(state, actor, order, HashDice(7))
            except Rejection as exc:
                refused.append(exc)
    return refused


def scan_texts(system: BorodinoSystem, seeds: range, orders: int) -> tuple[list[Any], set[str]]:
    texts: list[Any] = [system.title, *(e.text for e in system.initial(False, HashDice(0)).events)]
    texts += [provoke(system, system.initial(False, HashDice(0)).state, 0)[0].message]
    codes: set[str] = set()
    for seed in seeds:
        rng, dice = random.Random(seed), HashDice(seed)
        state = system.initial(seed % 2 == 1, dice).state  # a sandbox too: `dice`, `default`
        provoked: set[str] = set()
        for n in range(orders):
            here = system.situation(state)
            texts += [here.label, *(w.prompt for w in here.pending)]
            if here.key not in provoked or here.over:  # once in every phase of the game
                provoked.add(here.key)
                texts.append(views.status(system.scenario, state, "russian"))
                refused = provoke(system, state, n)
                texts += [r.message for r in refused]
                codes |= {f"{r.code}:{r.rule}" for r in refused}
            if here.over:
                back = system.state_from_json(json.loads(json.dumps(system.state_to_json(state))))
                texts.append(views.status(system.scenario, back, "french"))  # the result again
                break
            if n % 40 == 0:
                out = system.apply(state, SYSTEM_ACTOR, Default(), dice)  # the deadline
                texts += [e.text for e in out.events]
            side = rng.choice(here.to_move)
            moves = system.legal_orders(state, side) or system.legal_orders(state, here.to_move[0])
            side = side if system.legal_orders(state, side) else here.to_move[0]
            out = system.apply(state, side, pick(rng, moves), dice)
            texts += [e.text for e in out.events]
            state = out.state
    return texts, codes


def test_a_scan_of_played_games_and_refusals_says_every_text_in_russian(system):
    RU.missing.clear()
    texts, codes = scan_texts(system, range(4), 300)
    for word in views_verbs():  # the help of the system's own commands, and the footer
        texts += list(system.grammar.commands[word])
    texts += [system.grammar.commands["default"][1], system.grammar.footer]
    texts += [legal.default_order(system.scenario, system.initial(False, HashDice(1)).state)[0]]
    assert len(codes) >= 25, sorted(codes)  # refusals of many kinds, each with its rule
    left = {}
    for text in texts:
        said = say(text, RU)
        assert said == str(text) or isinstance(text, Msg), text
        assert say(text, EN) == str(text)  # the English is the text itself
        found = english_left(said, allowed=allowed(system) | {"russian", "french"})
        if found:
            left[said] = found
    assert left == {}
    assert RU.missing == set()


def test_a_d10_game_ending_at_a_collapse_is_said_in_russian():
    text, _ = default_scenario(SYSTEM)
    text = text.replace("die_sides = 6", "die_sides = 10").replace(
        "on_collapse = false", "on_collapse = true"
    )
    system = SYSTEM.load(text, "d10")
    RU.missing.clear()
    texts, _ = scan_texts(system, range(2), 600)
    ended = [x for x in texts if str(x).startswith("Game over: ")]
    assert ended and "collapsed" in ended[0]
    assert say(ended[0], RU).startswith("Игра окончена: судейство окончено: упадок духа: ")
    for x in texts:
        assert english_left(say(x, RU), allowed=allowed(system)) == [], say(x, RU)
    assert RU.missing == set()


# -- the drawer
def test_the_boxes_image_is_drawn_with_russian_labels(system):
    table = Table(default_scenario(SYSTEM)[0])
    table.say("russian", "бегство odessa")
    RU.missing.clear()
    russian = draw(table.system, table.state, language=RU)
    english = draw(table.system, table.state)
    assert russian.startswith(b"\x89PNG") and english.startswith(b"\x89PNG")
    assert russian != english
    assert english == draw(table.system, table.state, language=EN)
    assert RU.missing == set()


def refusal(table: Table, side: str, text: str) -> Rejection:
    with pytest.raises(Rejection) as caught:
        table.say(side, text)
    return caught.value


def test_2_2_2_3_2_7_rally_refusals_keep_their_rules_in_russian():
    table = Table(scenario(group("g", "russian"),
                           *(unit(f"g{i}", "russian", f"01{i:02d}", "g", disordered=True)
                             for i in (1, 2, 3, 5)),
                           unit("f1", "french", "0106")))  # fmt: skip
    table.say("russian", "активация g")
    table.say("russian", "действовала g3 двигалась")
    said = refusal(table, "russian", "действовала g3 двигалась")
    assert (said.code, said.rule) == ("already-reported", "2.2")
    assert say(said.message, RU) == "g3: «двигалась» уже доложено"
    table.say("russian", "конец")
    assert table.state.phase == "rally"
    cases = {"g3": ("2.2", "g3: двигалась в этой активации"),
             "g5": ("2.3", "g5 прилегает к части противника")}  # fmt: skip
    for uid, (rule, why) in cases.items():
        said = refusal(table, "russian", f"сбор {uid}")
        assert said.rule == rule
        assert say(said.message, RU) == f"{why}; могут попытаться: g1, g2"
    table.say("russian", "сбор g1", dice=[6])
    said = refusal(table, "russian", "сбор g1")
    assert said.rule == "2.7"
    assert say(said.message, RU).startswith("g1 уже пыталась Собраться в этой фазе Сбора")
    said = refusal(table, "french", "сбор g2")
    assert said.rule == "2.1" and english_left(say(said.message, RU), allowed={"g2"}) == []

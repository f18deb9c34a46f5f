"""Hell's Gate in Russian (issue 17): Russian orders parse to the orders of their English forms
and are written back in canonical English; Russian unit ids, designations and town names name
their things; the listings, the help and the map are said in Russian."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image, ImageChops

from adjudicator.core.i18n import say
from adjudicator.core.scenario import ScenarioError
from adjudicator.grammar import ParseError
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate import views
from adjudicator.hells_gate.grammar import VERBS
from adjudicator.hells_gate.grammar_help import ENTRIES
from adjudicator.hells_gate.grammar_sandbox import SET_ENTRIES
from adjudicator.hells_gate.listings import options_text, units_by_side
from adjudicator.hells_gate.loader import default_scenario_text
from adjudicator.hells_gate.order_text import COMMANDS, russian_order, said_order
from adjudicator.hells_gate.scenario import parse_scenario
from adjudicator.hells_gate.state import PHASES
from adjudicator.hells_gate.system import SYSTEM
from app.i18n import language
from render.text import font_for
from tests.hells_gate.helpers import Game, grammar_of
from tests.i18n_support import english_left

RU_EN = [  # (Russian, English) of every Hell's Gate command
    ("атака С6 силами 20тк 75ск", "attack C6 with 20tk 75rc"),
    (
        "атаковать Смела с 20-й танковый 75ск решительная переворот 20тк",
        "a D6 w 20tk 75rc d flip 20tk",
    ),
    ("ат C6 20тк реш", "attack C6 with 20tk decisive"),
    ("прогноз атака C6 силами 20тк 75ск", "preview attack C6 with 20tk 75rc"),
    ("оценка С6 с 20тк", "preview C6 with 20tk"),
    ("потери 389пд отход D6", "losses 389id retreat D6"),
    ("потери 389пд отступление 389пд=D6", "losses 389id retreat 389id=D6"),
    ("потери", "losses"),
    ("отход В5", "retreat B5"),
    ("отступление 389пд в D6", "retreat 389id to D6"),
    ("ход 20тк C6 C5", "move 20tk C6 C5"),
    ("ход 20тк С6-С5", "move 20tk C6-C5"),
    ("ход 20тк в Капитановка", "move 20tk to Kapitanovka"),
    ("ход 5-я танковая дивизия СС Викинг на C5", "move wiking C5"),
    ("ввод 11тд А6", "enter 11pz A6"),
    ("ввести 11-я танковая дивизия в A6", "enter 11pz at A6"),
    ("пополнить 20тк", "rebuild 20tk"),
    ("пополнение 20-й танковый корпус", "rebuild 20th Tank Corps"),
    ("прорыв 57пд", "breakout 57id"),
    ("конец", "end"),
    ("конец фазы", "end phase"),
    ("готово", "done"),
    ("пас", "pass"),
    ("варианты", "options"),
    ("варианты 20тк", "options 20tk"),
    ("части", "units"),
    ("части советские", "units soviet"),
    ("части немцы", "units german"),
    ("части Смела", "units Smela"),
    ("части Корсунь", "units Korsun"),
    ("снабжение", "supply"),
    ("поставить 20тк C5", "place 20tk C5"),
    ("разместить 20тк на C5", "place 20tk on C5"),
    ("поставить 20тк уничтожен", "place 20tk eliminated"),
    ("поставить 20тк вне-карты", "place 20tk off"),
    ("поставить 20тк ход 3", "place 20tk turn 3"),
    ("перевернуть 20тк", "flip 20tk"),
    ("уст ход 3", "set turn 3"),
    ("установить фаза немецкая бой", "set phase german-combat"),
    ("уст фаза советская фаза движения", "set phase soviet movement"),
    ("уст фаза общая", "set phase joint"),
    ("уст погода грязь", "set weather mud"),
    ("уст вне 57пд вкл", "set oos 57id on"),
    ("уст отступление 29тк выкл", "set retreat 29tk off"),
]


@pytest.fixture(scope="module")
def grammar(scenario):
    return grammar_of(scenario)


@pytest.fixture
def ru():
    lang = language("ru")
    lang.missing.clear()
    yield lang
    assert lang.missing == set()


@pytest.mark.parametrize(("russian", "english"), RU_EN)
def test_a_russian_order_is_its_english_order_and_is_written_in_english(grammar, russian, english):
    order = grammar.parse(russian)
    assert order == grammar.parse(english)
    canonical = grammar.format(order)
    assert canonical == grammar.format(grammar.parse(english))
    assert canonical.isascii() and grammar.parse(canonical) == order


def test_every_hells_gate_verb_has_a_russian_word():
    for verb in VERBS:
        assert any(not w.isascii() for w in verb.words), verb.word
    words = [w for v in VERBS for w in v.words]
    assert len(words) == len(set(words))  # a Russian word names one verb


def test_cyrillic_look_alike_letters_in_hex_ids_are_latin_ones(grammar):
    es = "\u0421"  # С, the Cyrillic Es
    assert grammar.parse(f"ход 20тк {es}6") == O.Move("20tk", ("C6",))
    for typed, hex_id in (("А6", "A6"), ("В5", "B5"), ("Е3", "E3"), ("С7", "C7")):
        assert not typed.isascii()
        assert grammar.parse(f"части {typed}") == O.Units(hex_id)


def test_2_1_every_unit_is_named_by_its_russian_id_and_designation(scenario, grammar):
    for uid, spec in scenario.units.items():
        assert spec.name_ru and spec.id_ru, uid
        assert grammar.parse(f"прорыв {spec.id_ru}") == O.Breakout(uid)
        typed = re.sub("[«»]", "", spec.name_ru)
        assert grammar.parse(f"прорыв {typed}") == O.Breakout(uid)
    assert scenario.units["389id"].name_ru == "389-я пехотная дивизия"
    assert scenario.units["wiking"].name_ru == "5-я танковая дивизия СС «Викинг»"
    assert scenario.units["20tk"].name_ru == "20-й танковый корпус"


def test_16_1_every_town_is_named_by_its_russian_name(scenario, grammar):
    towns = {h: spec for h, spec in scenario.hexes.items() if spec.name}
    assert all(spec.name_ru for spec in towns.values())
    for hex_id, spec in towns.items():
        assert grammar.parse(f"части {spec.name_ru.split(' (')[0]}") == O.Units(hex_id)
    expected = {"E3": "Корсунь", "D3": "Шендеровка", "B5": "Звенигородка", "D6": "Смела"}
    for hex_id, word in expected.items():
        assert scenario.hexes[hex_id].name_ru.startswith(word)
    assert scenario.hexes["F6"].name_ru == "Черкассы"


def test_a_misspelt_russian_command_is_answered_with_russian_words(grammar):
    for typed, meant in (("атакка", "атака"), ("потеря", "потери"), ("конецц", "конец")):
        with pytest.raises(ParseError) as err:
            grammar.parse(f"{typed} C6")
        assert err.value.code == "unknown-command"
        assert f"did you mean {meant}" in err.value.message
        assert "attack" not in err.value.message and "losses" not in err.value.message
    with pytest.raises(ParseError) as err:
        grammar.parse("atack C6")
    assert "did you mean attack" in err.value.message


def _with(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_16_1_the_russian_names_of_the_data_are_checked_on_load():
    text = default_scenario_text()
    for bad, said in (
        (_with(text, 'name_ru = "Смела"', 'name_ru = "Smela"'), "Russian name"),
        (_with(text, 'id_ru = "34пд"', 'id_ru = "198пд"'), "already names"),
        (_with(text, 'id_ru = "34пд"', 'id_ru = "34 пд"'), "lowercase"),
        (
            _with(text, 'A1 = { terrain = "clear" }', 'A1 = { terrain = "clear", name_ru = "Х" }'),
            "name",
        ),
        (_with(text, 'name_ru = "Смела"', "name_ru = 5"), "must be str"),
    ):
        with pytest.raises(ScenarioError, match=said):
            parse_scenario(bad)


def _ids(scenario) -> set[str]:
    sizes = ("X", "XX", "XXX")  # 2.1: the size marks
    return {*scenario.units, *scenario.hexes, *PHASES, *sizes, "soviet", "german", "snow", "mud"}


def test_the_help_of_every_command_is_said_in_russian_and_its_example_parses(scenario, grammar, ru):
    entries = {**ENTRIES, **SET_ENTRIES, **{k: v for vb in VERBS for k, v in vb.entries.items()}}
    assert len(entries) == 19
    for name, (usage, paragraph) in entries.items():
        for text in (usage, paragraph):
            assert english_left(say(text, ru), allowed=_ids(scenario)) == [], name
        english, russian = paragraph.split("Example: ")[1], say(paragraph, ru).split("Пример: ")[1]
        assert grammar.parse(russian) == grammar.parse(english), name


@pytest.fixture
def played(scenario):
    """A game in its first Soviet combat phase after a decisive attack."""
    g = Game(scenario)
    g.do("soviet", O.Attack("C6", ("20tk", "29tk"), decisive=True, flip="20tk"), dice=[3])
    return g


def test_the_listings_are_said_in_russian(scenario, ru):
    g = Game(scenario)
    allowed = _ids(scenario)
    texts = [
        views.status_text(scenario, g.state),
        units_by_side(scenario, g.state),
        views.units_text(scenario, g.state, "soviet"),
        views.units_text(scenario, g.state, "C7"),
        views.units_text(scenario, g.state, "A3"),
        options_text(scenario, g.state, "soviet"),
        options_text(scenario, g.state, "soviet", "20tk"),
        options_text(scenario, g.state, "german", "20tk"),
    ]
    for text in texts:
        said = say(text, ru)
        assert english_left(said, allowed=allowed) == [], said
    assert say(texts[0], ru).startswith("Ход 1 из 8, советская фаза")
    assert "20-й танковый корпус" in say(texts[2], ru)
    assert "`units <HEX>`" in texts[1]  # the English text is as it always was


def test_8_attack_lines_previews_and_supply_are_said_in_russian(scenario, ru):
    g = Game(scenario)
    attack = O.Attack("C6", ("20tk", "29tk", "21grc"), decisive=True, flip="20tk")
    doc = views.preview(scenario, g.state, "soviet", attack)
    rules_words = {w for s in doc["shifts"] for w in english_left(say(s["reason"], ru))}
    preview = say(views.preview_text(doc), ru)
    assert english_left(preview, allowed=_ids(scenario) | rules_words) == [], preview
    assert "Решительная атака" in preview
    supply = g.system.answer(g.state, "soviet", O.Supply()).text
    from adjudicator.hells_gate import supply as rules_supply

    reasons = {
        w
        for u in g.state.on_map("soviet")
        for w in english_left(say(rules_supply.explain(scenario, g.state, u.id).reason, ru))
    }  # the rules' own texts (converted with the rules)
    assert english_left(say(supply, ru), allowed=_ids(scenario) | reasons) == []


def _png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_the_map_is_drawn_in_russian(scenario, played, ru):
    from adjudicator.hells_gate import drawer

    system = SYSTEM.load(default_scenario_text(), "hells_gate/scenario.toml")
    state, events = played.state, played.events
    english = drawer.draw(system, state, events)
    russian = drawer.draw(system, state, events, language=ru)
    en_img, ru_img = _png(english), _png(russian)
    assert en_img.size == ru_img.size
    diff = ImageChops.difference(en_img, ru_img).convert("L").point(lambda v: 255 if v else 0)
    assert diff.histogram()[255] > 10_000  # pixels of labels, panel and legend
    assert ImageChops.difference(en_img, ru_img).getbbox()[0] < en_img.width // 2  # the map too
    assert drawer.draw(system, state, events) == english  # the Russian layer is kept apart
    dbg = drawer.draw_debug(system.scenario, state, events, language=ru)
    labels = dbg["legend_labels"]
    assert labels["woods"] == "лес" and labels["cherkassy"] == "город (Черкассы)"
    assert all(english_left(label) == [] for label in labels.values()), labels
    assert any(line.startswith("АТАКИ, бой: СССР") for line in dbg["happened"])
    assert font_for("Смела", 20).getname()[0] == "DejaVu Sans"  # a font with Cyrillic letters
    focus_en = _png(drawer.draw_focus(system, state, events))
    focus_ru = _png(drawer.draw_focus(system, state, events, language=ru))
    assert focus_ru.tobytes() != focus_en.tobytes()


def test_an_order_shown_to_a_russian_reader_is_typed_back_as_the_same_order(scenario, grammar):
    g = Game(scenario, sandbox=True)
    orders = [grammar.parse(english) for _, english in RU_EN]
    orders += g.legal("soviet")
    for order in orders:
        canonical = grammar.format(order)
        assert grammar.parse(russian_order(canonical)) == order, canonical
        said = said_order(order)
        assert said == f"`{canonical}`"  # the English text as it always was
        assert say(said, language("ru")) == f"`{russian_order(canonical)}`"
    assert (
        russian_order("attack C6 with 20tk 75rc decisive")
        == "атака C6 силами 20tk 75rc решительная"
    )


def test_the_russian_words_of_the_canonical_texts_are_words_of_their_verbs():
    words = {w: v.word for v in VERBS for w in v.words}
    assert {en: words[ru] for en, ru in COMMANDS.items()} == {en: en for en in COMMANDS}

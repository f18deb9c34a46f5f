"""Texts in more than one language (adjudicator.core.i18n, app.i18n, app.i18n_catalogue)."""

from __future__ import annotations

import gettext
import io
import json
import pickle

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from adjudicator.core.events import Event, event_text
from adjudicator.core.i18n import Language, Msg, cat, from_json, name, say, t
from adjudicator.core.text import noun, plural
from adjudicator.grammar.words import fold_id, tokens, words
from app import i18n, i18n_catalogue


def russian(*pairs: tuple[object, object]) -> Language:
    catalogue = Catalog(locale="ru")
    for msgid, form in pairs:
        catalogue.add(msgid, form)  # type: ignore[arg-type]
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return Language("ru", gettext.GNUTranslations(buffer))


RU = russian(
    (("{n} hit", "{n} hits"), ("{n} удар", "{n} удара", "{n} ударов")),
    ("{unit} is Disordered.", "{unit} в расстройстве."),
    ("Turn {turn}: {what}", "Ход {turn}: {what}"),
)


def test_a_msg_is_its_english_text():
    m = t("{unit} is Disordered.", unit="odessa")
    assert m == "odessa is Disordered." and isinstance(m, str)
    assert json.dumps({"text": m}) == '{"text": "odessa is Disordered."}'
    assert t("no {{braces}} here") == "no {braces} here"


def test_a_msg_is_said_in_russian_with_its_arguments():
    m = t("Turn {turn}: {what}", turn=2, what=t("{unit} is Disordered.", unit="odessa"))
    assert m == "Turn 2: odessa is Disordered."
    assert m.say(RU) == "Ход 2: odessa в расстройстве."


@pytest.mark.parametrize(
    ("n", "said"),
    [(1, "1 удар"), (2, "2 удара"), (4, "4 удара"), (5, "5 ударов"), (11, "11 ударов"),
     (12, "12 ударов"), (21, "21 удар"), (22, "22 удара"), (25, "25 ударов"), (0, "0 ударов")],
)  # fmt: skip
def test_russian_plural_forms_follow_russian_rules(n, said):
    assert plural(n, "hit").say(RU) == said
    assert plural(n, "hit") == (f"{n} hit" if n == 1 else f"{n} hits")


def test_noun_and_plural_keep_their_english_forms():
    assert (
        noun(2, "hex") == "hexes" and plural(1, "hex") == "1 hex" and plural(3, "box") == "3 boxes"
    )


def test_a_missing_form_is_said_in_english_and_recorded():
    lang = russian()
    assert t("{unit} routs.", unit="vilna").say(lang) == "vilna routs."
    assert lang.missing == {"{unit} routs."}
    assert t("{a}, {b}", a="x", b="y").say(lang) == "x, y" and lang.missing == {"{unit} routs."}


def test_names_carry_their_forms_and_joins_say_each_part():
    korsun = name("Korsun", ru="Корсунь")
    joined = cat(korsun, t("{unit} is Disordered.", unit="odessa"), sep="; ")
    assert joined == "Korsun; odessa is Disordered."
    assert joined.say(RU) == "Корсунь; odessa в расстройстве."
    assert name("Smela", ru=None).say(RU) == "Smela"


def test_json_and_pickle_round_trips_say_the_same():
    m = t("Turn {turn}: {what}", turn=3, what=cat(plural(5, "hit"), name("Korsun", ru="Корсунь")))
    for back in (from_json(json.loads(json.dumps(m.to_json()))), pickle.loads(pickle.dumps(m))):
        assert isinstance(back, Msg) and back == m and back.say(RU) == m.say(RU)


def test_an_event_stores_its_msg_and_its_english_text_unchanged():
    plain = Event("X", "plain text").to_dict()
    assert plain == {"kind": "X", "text": "plain text"}
    e = Event("UnitDisordered", t("{unit} is Disordered.", unit="odessa")).to_dict()
    assert e["text"] == "odessa is Disordered." and type(e["text"]) is str
    stored = json.loads(json.dumps(e))
    assert say(event_text(stored), RU) == "odessa в расстройстве."
    stored["text"] = "changed"  # a text that is not its Msg's: the stored English is believed
    assert event_text(stored) == "changed"


def test_ids_typed_with_cyrillic_look_alikes_are_folded():
    assert words("атака С6 силами 20тк 75ск") == ("атака", "c6", "силами", "20tk", "75ck")
    assert tokens("ход 20тк С6-С5") == ["ход", "20tk", "c6", "c5"]
    assert fold_id("389пд") == "389пд" and fold_id("конец") == "конец"


def test_platform_locales_name_languages_the_bot_speaks():
    assert [i18n.normal_code(c) for c in ("ru", "ru-RU", "ru_UA", "en-GB", "de", None, "")] == [
        "ru", "ru", "ru", "en", None, None, None,
    ]  # fmt: skip
    assert i18n.language("de") is i18n.language("en")


def test_catalogues_of_one_language_never_disagree():
    assert i18n.conflicts("ru") == []


@pytest.mark.parametrize("owner", i18n_catalogue.owners(), ids=lambda p: p.name)
def test_every_text_has_a_russian_form(owner):
    """Every t/tn/plural/noun text of the package has a Russian form with the same fields."""
    assert i18n_catalogue.problems(owner, "ru") == []


def test_the_extractor_finds_every_kind_of_text(tmp_path, monkeypatch):
    src = tmp_path / "mod.py"
    src.write_text(
        'a = t("{x} moved.", x=1)\nb = tn("{n} hit", "{n} hits", 2)\n'
        'c = plural(n, "box")\nd = noun(n, "unit")\ne = t(f"{y}")\n'
    )
    monkeypatch.setattr(i18n_catalogue, "ROOT", tmp_path)
    found, bad = i18n_catalogue.extract(src)
    assert [(x.msgid, x.plural) for x in found] == [
        ("{x} moved.", None), ("{n} hit", "{n} hits"), ("{n} box", "{n} boxes"),
        ("unit", "units"),
    ]  # fmt: skip
    assert bad == ["mod.py:5: t() wants a literal string template"]


# The calls that carry a text for players, and the position of that text among their arguments.
TEXT_CALLS = {"Rejection": 1, "ParseError": 1, "Event": 1, "ChatRefused": 0}


def _plain_texts(path):
    """Texts for players built as plain strings (a literal, an f-string, a concatenation): they
    have no form in any other language."""
    import ast

    tree = ast.parse(path.read_text("utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        at = TEXT_CALLS.get(fn or "")
        if at is None or len(node.args) <= at:
            continue
        arg = node.args[at]
        plain = (isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value) or (
            isinstance(arg, (ast.JoinedStr, ast.BinOp))
        )
        if plain:
            yield f"{path.relative_to(i18n_catalogue.ROOT)}:{node.lineno}: {fn}"


@pytest.mark.parametrize("owner", i18n_catalogue.owners(), ids=lambda p: p.name)
def test_refusals_and_events_are_texts_with_a_russian_form(owner):
    """Every refusal (Rejection, ParseError, ChatRefused) and every event is given a t()/tn()
    text, never a plain string, so that no refusal or event is English only."""
    found = [x for p in i18n_catalogue.sources(owner) for x in _plain_texts(p)]
    assert found == []

"""Russian side and game names in the case their place in a sentence wants, and the words around
them agreeing with them: every Russian template that takes a side or game name, said with every
such name, against the forms tables kept beside the catalogues (`locale/ru/forms.toml`)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from string import Formatter

import pytest

from adjudicator.core.i18n import Msg, name, say, t
from adjudicator.core.registry import systems
from adjudicator.core.system import Side, Situation, Waiting
from app.i18n import catalogue_files, forms, forms_files, language, read_catalogue
from app.summary import whose_move_line
from texts.forms import CASES, GENDERS, QUOTED, Forms, Said

ROOT = Path(__file__).resolve().parent.parent
RU = language("ru")
TABLE = forms("ru")
# the placeholders that carry a side's or a game's name (or a list of them, or "side (user)")
NAMES = {"side", "sides", "who", "winner", "system", "waiting", "asked", "nation", "name", "free"}
GAME_NAMES = {"system", "name"}  # those that hold a game system's name; the others a side's
# a preposition right before a name: the cases it may govern
GOVERNS = (
    (("в", "во", "на"), ("pre", "acc")),
    (("за", "под"), ("acc", "ins")),
    (("с", "со"), ("ins", "gen")),
    (("над", "перед", "между"), ("ins",)),
    (("к", "ко", "по"), ("dat",)),
    (("о", "об", "обо", "при"), ("pre",)),
    (("через", "про"), ("acc",)),
    (("у", "для", "от", "до", "из", "без", "против", "после", "кроме", "около", "среди"), ("gen",)),
)
PREPOSITIONS = {word: set(cases) for words, cases in GOVERNS for word in words}
# words after a name that agree with its gender or number (a short adjective, a past tense)
AGREEING = re.compile(
    r"(долж|свобод|занят|готов|обязан|вышл?)\w*$|\w+(л|ла|ло|ли)(ся|сь)?$", re.IGNORECASE
)
PRESENT = re.compile(r"\w+(ет|ёт|ит|ют|ят|ут|ат)(ся)?$", re.IGNORECASE)  # a present-tense verb
NOT_AGREEING = {"или", "сила"}  # words that end like a past tense and are none
# templates whose placeholder named like a side holds something else (a user, a die's sides), or
# whose words after it are not about it
NOT_A_SIDE = {
    "{name}, open a private chat with me to see your choices: {link}": "a user's name",
    "Note: private messages to {name} cannot be delivered yet ({how}); hidden information and "
    "private answers will wait until they can.": "a user's name",
    "Linked with {who}: one player.": "the linked accounts",
    "die results are 1 to {sides} (the die of this game)": "a die's number of sides",
    "Moderator: free a side's seat. Example: unseat {side} left the game": (
        "the reason after the side's id in the command is about its player"
    ),
    "Moderator, sandbox games: fix the next die results, each 1 to {sides}. Example: dice 3 5": (
        "a die's number of sides"
    ),
}


def ru_templates() -> list[tuple[Path, str, str | None, tuple[str, ...]]]:
    """(catalogue, msgid, its plural, the Russian forms) of every Russian translation."""
    out = []
    for path in catalogue_files("ru"):
        for m in read_catalogue(path):
            if not m.id or not m.string:
                continue
            ids = (m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1])
            said = (m.string,) if isinstance(m.string, str) else tuple(m.string)
            out.append((path, ids[0], ids[1], said))
    return out


def fields(template: str) -> list[tuple[str, str]]:
    """(field, format spec) of each placeholder, in order."""
    return [(f, spec or "") for _, f, spec, _ in Formatter().parse(template) if f is not None]


def with_names() -> list[tuple[Path, str, str | None, tuple[str, ...]]]:
    return [
        x
        for x in ru_templates()
        if x[1] not in NOT_A_SIDE and any(f in NAMES for f, _ in fields(x[1]))
    ]


def package_names(path: Path) -> dict[str, str]:
    """The names a catalogue's templates are given, each with what it names (side, game,
    nation): a game system's own (its forms table), the platform's every name of every system."""
    own = (
        [path.parent / "forms.toml"]
        if (path.parent / "forms.toml").is_file()
        else forms_files("ru")
    )
    return {
        n: e["of"] for p in own for n, e in tomllib.loads(p.read_text("utf-8"))["names"].items()
    }


def takes(field: str, of: str) -> bool:
    """Whether a placeholder may hold a name of that kind ({system} a game's, {side} a side's)."""
    return (of == "game") == (field in GAME_NAMES)


def expected(form: str, values: dict[str, str], count: int | None) -> str:
    """A Russian form with the names put in as the table says its placeholders ask for them."""
    out = []
    for literal, field, spec, _ in Formatter().parse(form):
        out.append(literal)
        if field is None:
            continue
        value = str(count) if field == "n" and count is not None else values.get(field, "X")
        entry = TABLE.names.get(value, {"gender": "m"})  # not a name: as it is, masculine
        if not spec:
            out.append(value)
        elif spec in CASES:
            out.append(entry.get(spec, value))
        elif spec == QUOTED:
            out.append("«" + value.replace("«", "„").replace("»", "“") + "»")
        else:
            out.append(spec.split("/")[GENDERS.index(entry["gender"])])
    return "".join(out)


def is_plural(nominative: str) -> bool:
    return TABLE.names[nominative]["gender"] == "pl"


# the table: every side and game name of every system, each with its cases and gender


def test_the_forms_table_has_every_side_and_game_name_of_every_registered_system() -> None:
    missing = [
        f"{kind.id}: {said!r}"
        for kind in systems()
        for said in [say(kind.name, RU), *(say(s.name, RU) for s in kind.sides)]
        if said not in TABLE.names
    ]
    assert not missing, f"no Russian forms (locale/ru/forms.toml) for {missing}"


def test_the_forms_table_has_the_names_the_systems_own_texts_give_their_sides() -> None:
    from adjudicator.borodino.board import SIDE_NAMES as BORODINO
    from adjudicator.hells_gate.texts import SIDE_NAMES as HELLS_GATE

    names = [say(n, RU) for n in (*BORODINO.values(), *HELLS_GATE.values())]
    assert [n for n in names if n not in TABLE.names] == []


def test_every_name_has_every_case_and_a_gender() -> None:
    bad = [
        f"{nom}: {sorted(set(CASES) - set(entry))}, gender {entry.get('gender')!r}"
        for nom, entry in TABLE.names.items()
        if set(CASES) - set(entry) or entry.get("gender") not in GENDERS
    ]
    assert not bad


def test_each_forms_table_is_a_systems_or_the_platforms_and_two_agree_on_a_name() -> None:
    files = forms_files("ru")
    assert {p.relative_to(ROOT).parts[:2] for p in files} >= {
        ("adjudicator", "borodino"),
        ("adjudicator", "hells_gate"),
        ("adjudicator", "northern_war"),
        ("adjudicator", "stalins_war"),
    }
    seen: dict[str, tuple[dict[str, str], Path]] = {}
    differ = []
    for path in files:
        for nom, table in tomllib.loads(path.read_text("utf-8"))["names"].items():
            assert table.get("of") in ("side", "game", "nation"), f"{path}: what {nom} names"
            entry = {k: v for k, v in table.items() if k != "of"}  # a side here, a nation there
            if nom in seen and seen[nom][0] != entry:
                differ.append(f"{nom}: {seen[nom][1]} / {path}")
            seen.setdefault(nom, (entry, path))
    assert not differ


# the templates: each said with every name, and the case and agreement its words want


def test_every_template_with_a_side_or_game_name_says_each_name_as_the_table_gives_it() -> None:
    wrong = []
    for path, msgid, plural, said in with_names():
        for nominative, of in package_names(path).items():
            values = {
                f: nominative if f in NAMES and takes(f, of) else "X" for f, _ in fields(msgid)
            }
            cases = (
                [(None, said[0])] if plural is None else list(zip((1, 2, 5), said, strict=False))
            )
            for count, form in cases:
                args: dict[str, object] = {**values, **({"n": count} if count else {})}
                msg = Msg(msgid, args, plural_template=plural, count="n" if plural else None)
                if msg.say(RU) != expected(form, values, count):
                    wrong.append(
                        f"{path.name}: {msg.say(RU)!r} != {expected(form, values, count)!r}"
                    )
    assert not wrong, "\n".join(wrong[:20])


def test_every_spec_on_a_name_is_a_case_an_agreement_or_quotes() -> None:
    """A mistyped spec ("{side:akk}", three words for four genders) would say the name as it is:
    refused here instead."""
    wrong = [
        f"{path.relative_to(ROOT)}: {{{field}:{spec}}} in {form!r}"
        for path, _, _, said in ru_templates()
        for form in said
        for field, spec in fields(form)
        if field in NAMES
        and spec
        and spec not in (*CASES, QUOTED)
        and len(spec.split("/")) != len(GENDERS)
    ]
    assert not wrong, "\n".join(wrong)


def test_a_name_after_a_preposition_asks_for_a_case_that_preposition_governs() -> None:
    wrong = []
    for path, msgid, _, said in ru_templates():
        if msgid in NOT_A_SIDE:
            continue
        for form in said:
            for m in re.finditer(r"(?<!\w)(\w+)\s+\*{0,2}\{(\w+)(?::([^{}]*))?\}", form):
                word, field, spec = m[1].lower(), m[2], m[3] or ""
                if word in PREPOSITIONS and field in NAMES and spec not in PREPOSITIONS[word]:
                    wrong.append(f"{path.relative_to(ROOT)}: {m[0]!r} in {form!r}")
    assert not wrong, "\n".join(wrong)


def test_a_word_that_agrees_with_a_name_after_it_is_chosen_by_the_names_gender() -> None:
    wrong = []
    for path, msgid, _, said in ru_templates():
        if msgid in NOT_A_SIDE:
            continue
        for form in said:
            for m in re.finditer(r"\{(\w+)\}\s+(\w+)", form):
                field, word = m[1], m[2]
                if field in NAMES and word.lower() not in NOT_AGREEING and AGREEING.match(word):
                    wrong.append(f"{path.relative_to(ROOT)}: {m[0]!r} in {form!r}")
    assert not wrong, "\n".join(wrong)


def test_a_verb_beside_a_name_agrees_in_number_where_the_package_has_a_plural_name() -> None:
    """ "{side} оспаривает" is wrong for Borodino's "Русские": a verb in the present tense right
    before or after a name asks for its number wherever one of the names it may be is plural."""
    wrong = []
    for path, msgid, _, said in ru_templates():
        names = package_names(path)
        if msgid in NOT_A_SIDE:
            continue
        for form in said:
            around = r"\{(\w+)\}\s+(\w+)|(?<!\w)(\w+)\s+\{(\w+)\}"
            for m in re.finditer(around, form):
                field, word = (m[1], m[2]) if m[1] else (m[4], m[3])
                plural = [n for n, of in names.items() if takes(field, of) and is_plural(n)]
                if field in NAMES and PRESENT.match(word) and plural:
                    wrong.append(f"{path.relative_to(ROOT)}: {m[0]!r} in {form!r}")
    assert not wrong, "\n".join(wrong)


# what players found


def _hells_gate_sides() -> tuple[Side, ...]:
    return next(k for k in systems() if k.id == "hells-gate").sides


def test_a_decision_waiting_for_germany_says_germany_must_in_the_feminine() -> None:
    s = Situation(turn=2, phase="combat", label="", to_move=(), pending=(Waiting("german", "x"),))
    line = whose_move_line(s, _hells_gate_sides(), {"german": "bob"})
    assert say(line, RU) == "Германия (bob) должна решить: x"
    assert str(line) == "German (bob) must decide: x"  # English as it was
    soviet = Situation(
        turn=2, phase="combat", label="", to_move=(), pending=(Waiting("soviet", "x"),)
    )
    assert say(whose_move_line(soviet, _hells_gate_sides(), {}), RU) == "СССР должен решить: x"


def test_you_play_germany_is_said_in_the_accusative() -> None:
    german = next(s for s in _hells_gate_sides() if s.id == "german")
    assert say(t("You play {sides}.", sides=german.name), RU) == "Вы играете за Германию."
    both = t("{a}, {b}", a=german.name, b=name("Soviet", ru="СССР"))
    assert say(t("you play {sides}", sides=both), RU) == "вы играете за Германию, СССР"


def test_taking_a_side_names_the_game_in_quotes_after_the_word_game() -> None:
    borodino = next(k for k in systems() if k.id == "borodino")
    text = t(
        "{joins} — take a side of {name} (each player in turn).", joins="`j`", name=borodino.name
    )
    assert (
        say(text, RU) == "`j` — занять сторону в игре «Судья „Бородино“» (каждый игрок по очереди)."
    )


def test_no_russian_text_says_khit_where_the_docs_promise_udar() -> None:
    texts = [p.read_text("utf-8") for p in catalogue_files("ru")]
    texts.append((ROOT / "docs" / "languages.md").read_text("utf-8"))
    assert not [x for x in texts if re.search(r"(?<!\w)хит", x, re.IGNORECASE)]
    assert "удар" in texts[-1]


# the mechanism (texts.forms)

FORMS = Forms(
    {
        "Германия": {"gender": "f", "acc": "Германию", "gen": "Германии"},
        "СССР": {"gender": "m", "acc": "СССР", "gen": "СССР"},
    }
)


@pytest.mark.parametrize(
    ("value", "spec", "said"),
    [
        ("Германия", "acc", "Германию"),
        ("Германия (bob)", "gen", "Германии (bob)"),
        ("Германия, СССР", "acc", "Германию, СССР"),
        ("bob", "acc", "bob"),  # a name the table does not know: as it is
        ("Германия (bob)", "должен/должна/должно/должны", "должна"),
        ("Германия, СССР", "должен/должна/должно/должны", "должны"),
        ("bob", "должен/должна/должно/должны", "должен"),
        ("Германиям", "acc", "Германиям"),  # a word that only begins with a name
        ("Германия", "q", "«Германия»"),
        ("Судья «Бородино»", "q", "«Судья „Бородино“»"),
        ("ab", ">4", "  ab"),  # str.format's own spec
        ("Германия", "akk", "Германия"),  # a mistyped spec: the value as it is
        ("Германия", "", "Германия"),
    ],
)
def test_a_placeholders_spec_gives_the_case_the_agreeing_word_or_the_value(
    value: str, spec: str, said: str
) -> None:
    assert format(Said(value, FORMS), spec) == said


def test_english_and_a_language_with_no_forms_say_the_value_as_it_is() -> None:
    text = t("You play {sides}.", sides=name("German", ru="Германия"))
    assert str(text) == "You play German."
    assert say(t("{side:>8}", side="ab"), RU) == "      ab"

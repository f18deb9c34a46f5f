"""The block game in Russian (issue 17): Russian order words and names parse to the English
orders and format back to the canonical English text; the scenario's Russian names are checked
on load; plural forms agree with their counts; and a scan of several random games, with refusals
provoked, says every text in Russian with no English left and no form missing, and no public
Russian text tells a value hidden from the public."""

from __future__ import annotations

import random

import pytest

from adjudicator.core import commands as C
from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.i18n import say
from adjudicator.core.scenario import ScenarioError
from adjudicator.grammar import ParseError
from adjudicator.northern_war import data, drawer
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.grammar import DECISIONS, GROUP, VERBS
from app import games
from app.i18n import language
from render import labels
from tests.i18n_support import english_left, russian_share
from tests.northern_war.helpers import hidden_from, perturbed, play, sample, viewers
from tests.northern_war.test_hidden import fixed_like, visible_events

SYSTEM = sample()
RU = language("ru")


def ids_and_names() -> set[str]:
    """What may stay Latin in a Russian text: ids (and their parts), ratings, Roman numerals."""
    sc = SYSTEM.scenario
    found = {*sc.blocks, *sc.territories, *sc.nations, "xii", "ii", "iv"}
    return found | {part for key in list(found) for part in key.split("_")}


@pytest.mark.parametrize(
    ("russian", "english"),
    [
        ("разведка новгород", "recon novgorod"),  # 5.20
        ("движение репнин,пётр ингерманландия", "move repnin,peter ingermanland"),  # 7.1
        ("ход Репнин Новгород Псков", "move repnin novgorod pskov"),  # 7.1
        ("осада эстляндия", "siege estonia"),  # 5.26
        ("политика россия", "policy russia"),  # 5.29
        ("политика саксония", "policy saxony"),  # 5.29: a name a territory shares
        ("пополнение репнин", "replace repnin"),  # 5.32
        ("зима карл,реншильд псков", "winter charles,rehnskiold pskov"),  # 6.2
        ("зима нет", "winter none"),  # 6.1
        ("конец", "end"),  # 5.19
        ("битва ингерманландия", "battle ingermanland"),  # N3 a
        ("попадание репнин", "hit repnin"),  # N3 e
        ("отступление репнин новгород", "retreat repnin novgorod"),  # N3 g
        ("возврат карла стокгольм", "return charles stockholm"),  # 4.9
        ("блоки", "blocks"),  # 2.19
    ],
)
def test_5_17_russian_order_words_parse_to_the_english_orders(russian, english):
    grammar = SYSTEM.grammar
    assert grammar.parse(russian) == grammar.parse(english)
    assert grammar.format(grammar.parse(russian)) == english


@pytest.mark.parametrize(
    ("typed", "block"),
    [
        ("Карл XII", "charles"),
        ("карл", "charles"),
        ("Пётр I", "peter"),
        ("Петр I", "peter"),
        ("Левенгаупт", "lewenhaupt"),
        ("Донские казаки", "cossacks"),
        ("Саксонская", "saxon_guard"),
    ],
)
def test_2_1_blocks_are_typed_by_their_russian_names(typed, block):
    assert SYSTEM.grammar.parse(f"пополнение {typed}") == O.Replace(block)


def test_1_5_territories_and_nations_have_russian_names_said_in_russian_texts():
    sc = SYSTEM.scenario
    assert say(sc.territories["ingermanland"].named, RU) == "Ингерманландия"
    assert say(sc.nations["sweden"].named, RU) == "Швеция"
    assert say(sc.blocks["lewenhaupt"].named, RU) == "Левенгаупт"
    assert sc.territories["ingermanland"].named == "Ingermanland"  # the English unchanged
    assert all(x.name_ru for x in [*sc.blocks.values(), *sc.territories.values()])


def scenario_text(old: str, new: str) -> str:
    text, _ = games.default_scenario(SYSTEM_KIND)
    assert old in text
    return text.replace(old, new, 1)


SYSTEM_KIND = __import__("adjudicator.northern_war.system", fromlist=["SYSTEM"]).SYSTEM


@pytest.mark.parametrize("bad", ["name_ru = 7", 'name_ru = "  "'])
def test_name_ru_is_checked_on_load(bad):
    text = scenario_text('name_ru = "Репнин"', bad)
    with pytest.raises(ScenarioError, match="name_ru"):
        data.load(text, "test.toml")


def test_name_ru_is_optional():
    sc = data.load(scenario_text('name_ru = "Репнин"\n', ""), "test.toml")
    assert sc.blocks["repnin"].name_ru is None and say(sc.blocks["repnin"].named, RU) == "Repnin"


def test_did_you_mean_a_misspelt_russian_territory_names_it():
    with pytest.raises(ParseError) as refused:
        SYSTEM.grammar.parse("разведка новгрод")
    assert refused.value.code == "unknown-territory" and "novgorod" in refused.value.message
    # the names the suggestion labels with carry their Russian forms
    assert say(SYSTEM.grammar.lexicon.names("territory")["novgorod"], RU) == "Новгород"


@pytest.mark.parametrize("typed", ["политика", "policy", "политика москва", "возврат"])
def test_5_29_a_policy_or_a_return_without_its_words_is_refused_by_the_grammar(typed):
    with pytest.raises(ParseError):
        SYSTEM.grammar.parse(typed)


def test_did_you_mean_a_misspelt_russian_command_suggests_it():
    with pytest.raises(ParseError) as refused:
        SYSTEM.grammar.parse("разветка новгород")
    message = refused.value.message
    assert refused.value.code == "unknown-command" and ("разведка" in message or "recon" in message)


@pytest.mark.parametrize(
    ("n", "said"),
    [
        (1, "1 блок перемещается"),
        (2, "2 блока перемещаются"),
        (5, "5 блоков перемещаются"),
        (21, "21 блок перемещается"),
    ],
)
def test_7_1_the_moved_blocks_agree_with_their_count_in_russian(n, said):
    from adjudicator.core.i18n import tn

    text = tn(
        "{nation}: {n} block(s) move from {origin} to {dest}{via}.",
        "{nation}: {n} block(s) move from {origin} to {dest}{via}.",
        n,
        nation="X",
        origin="A",
        dest="B",
        via="",
    )
    assert text == f"X: {n} block(s) move from A to B."  # the event's English, byte for byte
    assert said in say(text, RU)


def test_2_12_the_hits_of_a_roll_agree_with_their_count_in_russian():
    from adjudicator.core.i18n import tn

    forms = [tn("{n} action(s)", "{n} action(s)", n) for n in (1, 3, 5)]
    assert [say(f, RU) for f in forms] == ["1 действие", "3 действия", "5 действий"]
    assert forms[1] == "3 action(s)"


PROVOKE = [
    "move charles moscow",
    "recon stockholm",
    "siege stockholm",
    "policy sweden",
    "replace charles",
    "winter none",
    "battle moscow",
    "hit repnin",
    "return charles pskov",
    "retreat repnin novgorod",
    "end",
    "move repnin,charles novgorod",
]


def texts_of_games(seeds: range) -> tuple[list[str], list[tuple[str, str, str]]]:
    """Every text a chat could show in the games (events, refusals, status, blocks, help), and
    the public Russian texts with the public view they were said at (for the hidden check)."""
    said: list[str] = []
    public: list[tuple[str, str, str]] = []
    for seed in seeds:
        rng, dice = random.Random(seed), HashDice(seed + 100)
        for state, side, _order, out in play(SYSTEM, seed):
            for e in out.events:
                said.append(e.text)
                if e.audience.sees(Viewer.public()):
                    public.append((say(e.text, RU), str(e.text), e.kind))
            for text in rng.sample(PROVOKE, 3):
                for actor in ("sweden", "coalition"):
                    try:
                        tried = SYSTEM.apply(state, actor, SYSTEM.grammar.parse(text), dice)
                    except Rejection as refused:
                        said.append(refused.message)
                    else:  # a legal one: its texts too
                        said += [e.text for e in tried.events]
            for actor in ("sweden", "coalition"):
                seen = SYSTEM.view(out.state, Viewer.of([actor]))
                said += [SYSTEM.answer(seen, actor, q).text for q in (C.Status(), O.Blocks())]
            said.append(SYSTEM.situation(out.state).label)
    # the help entries of the block game's verbs (the kit's help around them is the kit's)
    said += [text for verb in VERBS for entry in verb.entries.values() for text in entry]
    said += [GROUP, DECISIONS]  # (the group "Questions" is the kit's)
    return said, public


def test_every_text_of_several_games_is_said_in_russian():
    RU.missing.clear()
    said, _ = texts_of_games(range(4))
    allowed = ids_and_names()
    left = {}
    for text in said:
        russian = say(text, RU)
        found = english_left(russian, allowed=allowed)
        if found:
            left.setdefault(str(text)[:60], (russian, found))
    assert left == {}
    assert RU.missing == set()
    assert len(said) > 500


def test_2_19_no_public_russian_text_tells_a_hidden_value():
    """A public event said in Russian says the numbers its English says, no more (no strength
    added by a translation), and the events the opponent and the public see, said in Russian,
    are the same for a state whose hidden values of the side giving the order differ."""
    _, public = texts_of_games(range(3))
    assert public
    for russian, english, kind in public:
        assert sorted(_numbers(russian)) == sorted(_numbers(english)), kind
        assert russian_share(russian) > 0.5, russian
    rng, compared = random.Random(3), 0
    for seed in range(12):
        for state, side, order, out in play(SYSTEM, seed):
            opponent = Viewer.of(["coalition" if side == "sweden" else "sweden"])
            other = perturbed(SYSTEM, state, opponent, rng, shuffle=False)
            try:
                again = SYSTEM.apply(other, side, order, fixed_like(out))
            except Rejection:
                continue
            for viewer in (opponent, Viewer.public()):
                mine = [say(x, RU) for x in visible_events(out.events, viewer)]
                theirs = [say(x, RU) for x in visible_events(again.events, viewer)]
                assert mine == theirs, f"game {seed}: {order}"
                compared += len(mine)
    assert compared > 200


def _numbers(text: str) -> list[str]:
    import re

    return re.findall(r"\d+", text)


def test_2_19_the_russian_status_and_blocks_of_a_viewer_ignore_his_hidden_values():
    rng = random.Random(5)
    checked = 0
    for state, _side, _order, _out in list(play(SYSTEM, 7))[::9]:
        for viewer in viewers()[:3]:
            if not hidden_from(SYSTEM, state, viewer):
                continue
            other = perturbed(SYSTEM, state, viewer, rng)
            actor = next(iter(viewer.sides), "moderator")
            for query in (C.Status(), O.Blocks()):
                a = SYSTEM.answer(SYSTEM.view(state, viewer), actor, query).text
                b = SYSTEM.answer(SYSTEM.view(other, viewer), actor, query).text
                assert say(a, RU) == say(b, RU)
                checked += 1
    assert checked > 10


@pytest.mark.parametrize("view", ["sweden", "coalition", None])
def test_the_maps_are_drawn_in_russian(view):
    RU.missing.clear()
    state = next(s for s, *_ in play(SYSTEM, 2) if s.phase == "action")
    seen = SYSTEM.view(state, Viewer.of([view]) if view else Viewer.public())
    russian = drawer.draw(SYSTEM, seen, (), view=view, language=RU)
    english = drawer.draw(SYSTEM, seen, (), view=view)
    assert russian[:8] == b"\x89PNG\r\n\x1a\n" and russian != english
    assert RU.missing == set()


def test_the_public_map_does_not_say_your_blocks_face_up():
    state = next(s for s, *_ in play(SYSTEM, 2) if s.phase == "action")
    with labels.recording() as found:
        drawer.draw(SYSTEM, SYSTEM.view(state, Viewer.public()), (), view=None, language=RU)
    public = " ".join(lab.text for lab in found)
    assert "ваш блок" not in public and "Ваши блоки" not in public
    assert "блок лицом вниз" in public
    with labels.recording() as found:
        drawer.draw(SYSTEM, SYSTEM.view(state, Viewer.of(["sweden"])), (), view="sweden")
    said = " ".join(lab.text for lab in found)
    assert "your block: its strength" in said and "Your blocks (sweden):" in said

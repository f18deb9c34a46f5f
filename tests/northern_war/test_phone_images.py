"""The block game's images on a phone: the public map, each side's own map and the image of a
battle, in English and in Russian, keep every label at least 7 px high once scaled to 390 px wide
and no label over another (render.labels.legibility); each has its legend; the battle image shows
the battle (N24: the blocks engaged, face up, with their strength; what happened); and a battle
image hides what its viewer may not see (2.19). Also the question `areas` (the list of the map's
territories by id, name and holder) and the hint to it in a refusal of an unknown territory."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest

from adjudicator.core.events import Viewer, event_text
from adjudicator.core.i18n import say, t
from adjudicator.grammar import ParseError
from adjudicator.northern_war import drawer
from adjudicator.northern_war.areas import Areas
from adjudicator.northern_war.board import on_map
from app.i18n import language
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds
from render import labels
from storage import Store
from tests.northern_war.helpers import perturbed, play, sample
from tests.test_chat_service import Chat

SYSTEM = sample()
RU = language("ru")
LANGUAGES = {"en": language("en"), "ru": RU}
VIEWS = (None, "sweden", "coalition")


@cache
def positions() -> dict[str, tuple[Any, list[dict[str, Any]]]]:
    """Situations of seeded games (2, then 3): moves since the last map, the battles to fight
    (N3 a), a battle waiting for a decision, and just after a battle (with the events of the
    whole battle, as an after-phase post)."""
    found: dict[str, tuple[Any, list[dict[str, Any]]]] = {}
    for seed in (2, 3):
        _situations(seed, found)
        if len(found) == 4:
            return found
    raise AssertionError(f"the seeded games reached only {sorted(found)}")


def _situations(seed: int, found: dict[str, tuple[Any, list[dict[str, Any]]]]) -> None:
    moves: list[dict[str, Any]] = []
    report: list[dict[str, Any]] = []
    for state, _side, _order, out in play(SYSTEM, seed):
        said = [e.to_dict() for e in out.events if e.audience.public]
        kinds = {e["kind"] for e in said}
        moves += [e for e in said if e["kind"] == "BlocksMoved"]
        if len(moves) >= 3:
            found.setdefault("moves", (out.state, list(moves)))
        if state.battle is not None:
            found.setdefault("battle", (state, []))
        if state.pending is not None and state.pending["kind"] == "battle":
            found.setdefault("choose", (state, []))
        if "BattleBegan" in kinds or report:
            report += said
        if "BattleEnded" in kinds:
            found.setdefault("after", (out.state, list(report)))
            report = []
        if len(found) == 4:
            return


def drawn(where: str, view: str | None, lang: str) -> tuple[list[labels.Label], int]:
    state, events = positions()[where]
    viewer = Viewer.of([view]) if view else Viewer.public()
    with labels.recording() as found:
        image = drawer.compose(
            SYSTEM, SYSTEM.view(state, viewer), events, view=view, language=LANGUAGES[lang]
        )
    return list(found), image.width


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("where", ["moves", "choose", "battle", "after"])
def test_every_label_is_legible_at_390_px_and_none_is_over_another(where, view, lang):
    found, width = drawn(where, view, lang)
    seen = labels.legibility(found, width)
    assert not seen.too_small, [(lab.text, lab.cap) for lab in seen.too_small]
    assert not seen.overlapping, [(a.text, b.text) for a, b in seen.overlapping]
    legend = [lab for lab in found if lab.kind == "legend"]
    names = {say(n.named, LANGUAGES[lang]) for n in SYSTEM.scenario.nations.values()}
    assert names <= {lab.text for lab in legend}  # the nations' colours, and what marks mean
    assert len(legend) >= len(names) + 3
    command = {"en": "'areas'", "ru": "'территории'"}[lang]  # where to find the ids to type
    assert any(command in lab.text for lab in legend)
    territories = {say(x.named, LANGUAGES[lang]) for x in SYSTEM.scenario.territories.values()}
    assert territories <= {lab.text for lab in found}  # every name on the map


def test_every_image_of_6_seeded_games_stays_legible_with_no_label_over_another():
    """A name beside crowded circles must not cover a neighbour's strengths (seed 4 once put
    "Pomerania" over a block's number)."""
    checked, bad = 0, []
    for seed in range(6):
        events: list[dict[str, Any]] = []
        for n, (_state, _side, _order, out) in enumerate(play(SYSTEM, seed)):
            events += [e.to_dict() for e in out.events if e.audience.public]
            if n % 7:
                continue
            for view in VIEWS:
                viewer = Viewer.of([view]) if view else Viewer.public()
                for lang in ("en", "ru"):
                    with labels.recording() as found:
                        image = drawer.compose(
                            SYSTEM,
                            SYSTEM.view(out.state, viewer),
                            events,
                            view=view,
                            language=LANGUAGES[lang],
                        )
                    seen = labels.legibility(found, image.width)
                    if seen.too_small or seen.overlapping:
                        bad.append((seed, n, view, lang, seen.overlapping[:2]))
                    checked += 1
            events = []
    assert not bad
    assert checked > 150


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("view", VIEWS)
def test_n24_the_battle_image_shows_the_blocks_engaged_with_their_strength(view, lang):
    sc = SYSTEM.scenario
    state, _ = positions()["battle"]
    found, _ = drawn("battle", view, lang)
    said = [lab.text for lab in found]
    area = say(sc.territories[state.battle["area"]].named, LANGUAGES[lang])
    assert any(area in text and "3" in text for text in said)  # "Battle in X, round 1 of 3"
    engaged = on_map(sc, state, state.battle["area"])
    assert {sc.side_of(b) for b in engaged} == {"sweden", "coalition"}
    for b in engaged:  # each by its id and rating, its strength on its square beside it
        rows = [lab for lab in found if lab.text.startswith(f"{b} {sc.blocks[b].rating}")]
        row = min(rows, key=lambda lab: lab.box[1])  # the battle's, above the map
        beside = [
            lab
            for lab in found
            if lab.text == str(state.strength[b])
            and abs((lab.box[1] + lab.box[3]) - (row.box[1] + row.box[3])) <= 4
            and lab.box[2] <= row.box[0]
        ]
        assert beside, b


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_n3_a_the_image_of_the_battle_phase_names_the_battles_to_fight(lang):
    sc = SYSTEM.scenario
    state, _ = positions()["choose"]
    found, _ = drawn("choose", None, lang)
    (band,) = [
        lab
        for lab in found
        if lab.text.startswith(
            say(t("Battles to fight: {areas}", areas=""), LANGUAGES[lang]).strip()
        )
    ]
    for x in state.pending["choices"]:
        assert say(sc.territories[x].named, LANGUAGES[lang]) in band.text


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_n24_the_image_after_a_battle_says_what_happened(lang):
    _, events = positions()["after"]
    found, _ = drawn("after", None, lang)
    said = " ".join(lab.text for lab in found)
    ended = next(e for e in events if e["kind"] == "BattleEnded")
    last_words = say(event_text(ended), LANGUAGES[lang]).split()[-3:]
    assert " ".join(last_words) in said
    assert any(e["kind"] == "BlockFired" for e in events)
    fired = [e for e in events if e["kind"] == "BlockFired"][-1]
    assert " ".join(str(d) for d in fired["dice"]) in said  # the dice of the last fire


@pytest.mark.parametrize("view", VIEWS)
def test_2_19_a_battle_image_hides_what_its_viewer_may_not_see(view):
    for where in ("battle", "after", "moves"):
        state, events = positions()[where]
        viewer = Viewer.of([view]) if view else Viewer.public()
        other = perturbed(SYSTEM, state, viewer, random.Random(5))
        images = [
            drawer.draw(SYSTEM, SYSTEM.view(s, viewer), events, view=view, language=RU)
            for s in (state, other)
        ]
        assert images[0] == images[1], where


def test_2_19_the_public_battle_image_names_no_block_outside_the_battle():
    sc = SYSTEM.scenario
    state, _ = positions()["battle"]
    found, _ = drawn("battle", None, "en")
    said = " ".join(lab.text for lab in found)
    engaged = set(on_map(sc, state, state.battle["area"]))
    for b, blk in sc.blocks.items():
        assert (f"{b} {blk.rating}" in said) == (b in engaged), b


# -- the question `areas`


@pytest.mark.parametrize("word", ["areas", "территории", "области", "районы"])
def test_areas_is_a_question_in_english_and_in_russian(word):
    order = SYSTEM.grammar.parse(word)
    assert order == Areas() and SYSTEM.grammar.format(order) == "areas"
    assert SYSTEM.kind_of(order) == "query" and not SYSTEM.is_private(order)


def test_n5_areas_lists_every_territory_with_its_id_name_and_holder():
    sc = SYSTEM.scenario
    state, _ = positions()["after"]
    before = state.to_json()
    answer = SYSTEM.answer(SYSTEM.view(state, Viewer.public()), "sweden", Areas()).text
    assert state.to_json() == before  # a question changes nothing
    english, russian = say(answer, language("en")), say(answer, RU)
    for x, terr in sc.territories.items():
        holder = state.control[x]
        assert f"{x} - {terr.name}: held by {holder}" in english
        side = {"sweden": "Швеция", "coalition": "Коалиция"}[holder]
        assert f"{x} - {terr.name_ru}: контроль: {side}" in russian
    assert "fortress 3" in english and "крепость 3" in russian
    assert "Территории карты" in russian


def test_areas_has_its_help_in_both_languages():
    english = say(SYSTEM.help("sweden", "areas"), language("en"))
    assert "Every area of the map" in english
    assert "Все территории карты" in say(SYSTEM.help("sweden", "areas"), RU)


@pytest.mark.parametrize(
    "line",
    ["recon narnia", "move charles narnia", "battle narnia", "place charles narnia", "recon"],
)
def test_an_unknown_territory_is_refused_with_the_hint_that_areas_lists_them(line):
    with pytest.raises(ParseError) as refused:
        SYSTEM.grammar.parse(line)
    assert refused.value.code == ("syntax" if line == "recon" else "unknown-territory")
    said = say(refused.value.message, language("en"))
    assert "Say 'areas' for the list of areas." in said
    assert ". Say 'areas'" in said  # a sentence of its own, after the usage line's full stop
    assert "команда 'территории'" in say(refused.value.message, RU)


def test_an_unknown_block_is_refused_without_the_hint():
    with pytest.raises(ParseError) as refused:
        SYSTEM.grammar.parse("move nobody estonia")
    assert "areas" not in str(refused.value.message)


def test_areas_is_answered_in_the_chat_and_writes_no_log_row():
    store = Store(":memory:")
    try:
        service = GameService(store, seeds=DemoSeeds(7))
        chat = Chat(ChatService(service, clock=FakeClock()), "telegram", "-100900")
        chat.say(1, "new northern-war")
        chat.say(2, "join sweden")
        chat.say(3, "join coalition")
        chat.say(1, "start")
        (game,) = [g.name for g in store.list_games()]
        head = store.load(game).head_index
        said = " ".join(out.text for out in chat.say(2, "areas"))
        assert "stockholm - Stockholm: held by sweden" in said
        assert "moscow - Moscow: held by coalition" in said
        assert store.load(game).head_index == head
        refused = " ".join(out.text for out in chat.say(2, "recon narnia"))
        assert "Say 'areas' for the list of areas." in refused
    finally:
        store.close()

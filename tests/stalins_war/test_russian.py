"""Stalin's War in Russian (issue 17): the Russian order words parse to the orders of the English
ones and format back to the canonical English text; did-you-mean in Russian; Russian plural
forms; the Russian card names of the sample deck; and scans of played games whose every text
(events, hands, answers, help, refusals) is said in Russian with no English left."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from importlib import resources

import pytest

from adjudicator.core import commands as C
from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import GAME_ENDED, Viewer, event_text
from adjudicator.core.i18n import EN, Msg, say
from adjudicator.core.scenario import ScenarioError
from adjudicator.grammar.cursor import ParseError
from adjudicator.stalins_war import drawer, texts
from adjudicator.stalins_war.data import load_deck
from adjudicator.stalins_war.grammar import ENTRIES
from adjudicator.stalins_war.orders import End
from adjudicator.stalins_war.system import StalinsWar
from app.i18n import language
from bots.demo import choose, legal_texts
from tests.i18n_support import english_left, russian_share
from tests.stalins_war.helpers import at, dealt, give, refused, system

RU = language("ru")
SAMPLE = (resources.files("adjudicator.stalins_war") / "sample_deck.toml").read_text("utf-8")
ALLOWED = {"stalin's", "war"}  # the game's title, which the Russian source keeps in English

ROUND_TRIP = [
    ("разыграть 7 опр", "play 7 ops"),  # 7.1
    ("разыграть #7 за опр", "play 7 ops"),
    ("сыграть 7 за оп", "play 7 rp"),  # 10.1
    ("играть 7 как событие", "play 7 event"),  # 11.1
    ("разыграть 5 оп+событие", "play 5 rp+event"),  # 10.2
    ("РАЗЫГРАТЬ 9 ОП+ОПР", "play 9 rp+ops"),  # 10.2
    ("пас0 движение", "pass0 move"),  # 9.3
    ("пас0 обнулить", "pass0 reset"),  # 9.7
    ("0опр обнулить заменить 8", "pass0 reset swap 8"),  # 9.9
    ("потратить выход z1 a1 b1 остаются c1", "spend leave z1 a1 b1 stays c1"),  # 8.3
    ("потратить стратегическое u1 и u2 из h3", "spend strategic u1 u2 from h3"),  # 8.9
    ("расход страт u1", "spend strategic u1"),
    ("потратить бой h1 h2", "spend combat h1 h2"),  # 8.15
    ("конец", "end"),  # 8.21
    ("сбросить 8 и 11", "discard 8 11"),  # 4.1
    ("сброс 8", "discard 8"),
    ("взять", "draw"),  # 4.2
    ("тотальная война", "totalwar"),  # 3.4
    ("тотальная", "totalwar"),
    ("бросок 2к6 атака на Киев", "roll 2d6 атака на Киев"),
    ("рука", "hand"),
    ("колода", "deck"),
    ("трек", "track"),
    ("варианты", "options"),
]


@pytest.mark.parametrize(("russian", "english"), ROUND_TRIP)
def test_russian_words_parse_to_the_english_order_and_format_to_the_canonical_text(
    russian, english
):
    g = system().grammar
    assert g.parse(russian) == g.parse(english)
    assert g.format(g.parse(russian)) == english


def test_5_5_a_card_played_in_russian_is_the_same_play_and_the_log_text_stays_english():
    sw, state, dice = dealt(3)
    card = min(state.players["axis"].hand)
    said = sw.apply(state, "axis", sw.grammar.parse(f"разыграть {card} за опр"), dice)
    told = sw.apply(state, "axis", sw.grammar.parse(f"play {card} ops"), dice)
    assert [e.text for e in said.events] == [e.text for e in told.events]
    assert said.state == told.state
    assert sw.grammar.format(sw.grammar.parse(f"разыграть {card} за опр")) == f"play {card} ops"


def test_a_cyrillic_command_word_gets_cyrillic_suggestions():
    g = system().grammar
    with pytest.raises(ParseError) as err:
        g.parse("разыграт 7 опр")
    said = say(err.value.message, RU)
    assert "разыграть" in said and "play" not in said and english_left(said) == []
    assert err.value.code == "unknown-command" and "did you mean" in err.value.message
    with pytest.raises(ParseError) as err:
        g.parse("колодаа")
    assert "колода" in say(err.value.message, RU)
    with pytest.raises(ParseError) as err:
        g.parse("ыыыы")
    assert "может быть" not in say(err.value.message, RU)
    with pytest.raises(ParseError) as err:  # a Latin word keeps the kit's English suggestions
        g.parse("plya 7 ops")
    assert "play" in err.value.message


@pytest.mark.parametrize(
    ("n", "form"),
    [(1, "1 карточку"), (2, "2 карточки"), (4, "4 карточки"), (5, "5 карточек"),
     (11, "11 карточек"), (21, "21 карточку"), (22, "22 карточки")],
)  # fmt: skip
def test_4_1_a_discard_is_told_with_the_russian_plural_and_the_english_unchanged(n, form):
    sw, state, _ = dealt()
    p = state.players["soviet"]
    state.phase, state.to_move = "draw", "soviet"
    p.hand = list(range(101, 101 + n))
    deck = replace(sw.deck, cards={**sw.deck.cards, "soviet": dict(sw.deck.cards["soviet"])})
    for k in p.hand:
        deck.cards["soviet"][k] = replace(deck.cards["soviet"][7], number=k)
    sw = StalinsWar(deck)
    order = " ".join(str(k) for k in p.hand)
    out = sw.apply(state, "soviet", sw.grammar.parse(f"сбросить {order}"), HashDice(0))
    public = out.events[0]
    cards = "1 card" if n == 1 else f"{n} cards"
    assert public.text == f"Soviet discards {cards} face down (4.1, 16.3); 0 in hand."
    assert say(public.text, RU) == (
        f"СССР сбрасывает {form} рубашкой вверх (4.1, 16.3); на руке: 0."
    )


def test_10_3_the_rp_limit_refusal_says_its_count_in_russian():
    sw, state, _ = dealt()
    state = give(at(state, "soviet", 3), "soviet", 7)
    state.players["soviet"].rp_plays, state.players["soviet"].last = 2, "ops"
    rej = refused(sw, state, "soviet", "разыграть 7 за оп")
    assert rej.rule == "10.3"
    assert "at most 2 times in turn 1" in rej.message  # a reply, not replayed: plain English
    assert "лишь 2 раза на ходу 1" in say(rej.message, RU)


@pytest.mark.parametrize(
    ("order", "english", "russian"),
    [
        (
            "потратить стратегическое u1",
            "strategic movement of 1 unit costs 1 OPS",
            "стратегическое движение 1 подразделения: цена 1 ОПР",
        ),
        (
            "потратить стратегическое u1 u2",
            "strategic movement of 2 units costs 2 OPS",
            "стратегическое движение 2 подразделений: цена 2 ОПР",
        ),
        (
            "потратить бой h1",
            "placing 1 Combat marker costs 1 OPS",
            "установка 1 маркера боя: цена 1 ОПР",
        ),
        (
            "потратить бой h1 h2 h3",
            "placing 3 Combat markers costs 3 OPS",
            "установка 3 маркеров боя: цена 3 ОПР",
        ),
        (
            "потратить бой h1 h2 h3 h4 h5",
            "placing 5 Combat markers",
            "установка 5 маркеров боя: цена 5 ОПР",
        ),
    ],
)
def test_8_9_8_15_a_spend_beyond_the_ops_left_is_refused_with_its_plural(order, english, russian):
    sw, state, dice = dealt(3)
    state = give(at(state, "axis"), "axis", 1)
    state = sw.apply(state, "axis", sw.grammar.parse("разыграть 1 опр"), dice).state
    assert state.open is not None
    state.open.ops = 0
    rej = refused(sw, state, "axis", order)
    assert rej.rule in ("8.9", "8.15") and english in rej.message
    assert russian in say(rej.message, RU)


def test_3_5_every_sample_card_has_a_russian_name_and_event_said_in_russian_texts():
    deck = load_deck(SAMPLE, "sample_deck.toml")
    cards = [c for owner in deck.cards.values() for c in owner.values()]
    assert cards and all(c.name_ru and c.event_ru for c in cards)
    centre = next(c for c in cards if c.name == "Army Group Centre")
    assert centre.label == f"#{centre.number} Army Group Centre"
    assert say(centre.label, RU) == f"#{centre.number} Группа армий «Центр»"
    assert say(deck.nation("Germany"), RU) == "Германия"
    assert english_left(say(centre.line(), RU)) == []
    assert "Stalin's War (SAMPLE deck" in deck.title and "ПРИМЕРНАЯ" in say(deck.title, RU)


@pytest.mark.parametrize(
    ("line", "bad", "entry"),
    [
        ("name_ru", 'name_ru = "  "', "name_ru"),
        ("event_ru", "event_ru = 3", "event_ru"),
        ("title_ru", 'title_ru = ""', "title_ru"),
        ("USSR = ", "Atlantis = 'Атлантида'", "nationalities_ru"),
    ],
)
def test_3_5_a_bad_russian_form_in_the_deck_is_refused_naming_the_entry(line, bad, entry):
    text = re.sub(f"^{re.escape(line)}.*$", bad, SAMPLE, count=1, flags=re.MULTILINE)
    assert text != SAMPLE
    with pytest.raises(ScenarioError) as err:
        load_deck(text, "my_deck.toml")
    assert entry in str(err.value)


def test_3_5_a_deck_without_russian_forms_is_said_with_its_english_names():
    text = "\n".join(
        line for line in SAMPLE.splitlines() if not line.startswith(("name_ru", "event_ru"))
    )
    deck = load_deck(text, "plain.toml")
    card = deck.card("axis", 1)
    assert say(card.label, RU) == "#1 Panzergruppe Advance"


def _refusals(sw: StalinsWar, state, side: str) -> list[Rejection]:
    """Orders the rules refuse now (each with its rule), by both sides."""
    found = []
    tries = [
        (side, "разыграть 99 опр"),
        (side, "пас0 обнулить заменить 99"),
        (side, "сбросить 99"),
        (side, "сбросить 7 7"),
        (side, "потратить бой h1 h1"),
        (side, "потратить стратегическое u1 u2 u3 u4 u5 u6 u7 u8 u9 u10 u11"),
        (side, "потратить выход z1 a1 остаются a1"),
        (side, "конец"),
        (side, "взять"),
        ("axis" if side == "soviet" else "soviet", "конец"),
        ("moderator", "конец"),
    ]
    for card in sorted(state.players[side].hand)[:3] if side in state.players else ():
        tries += [(side, f"разыграть {card} оп+опр"), (side, f"разыграть {card} оп+событие")]
        tries += [(side, f"разыграть {card} за оп")]
    for who, text in tries:
        try:
            sw.apply(state, who, sw.grammar.parse(text), HashDice(0))
        except ParseError:
            continue
        except Rejection as rej:
            found.append(rej)
    return found


SPENDS = ("потратить бой h{n}", "потратить стратегическое u{n}", "потратить выход z{n} a{n} b{n}",
          "потратить выход z{n} a{n} остаются b{n}", "потратить бой h{n} h{m}")  # fmt: skip


def _texts_of_a_game(seed: int) -> list[tuple[str, str]]:
    """Every text of one short game: events, answers, refusals (rule-numbered)."""
    sw = StalinsWar(replace(system().deck, turns=2))
    rng, dice = random.Random(seed), HashDice(seed)
    out = sw.initial(False, dice)
    state, said = out.state, [("event", e.text) for e in out.events]
    for n in range(2000):
        if sw.situation(state).over:
            break
        side = sw.situation(state).to_move[0]
        if n % 4 == 0:
            said += [(f"refusal {r.rule}", r.message) for r in _refusals(sw, state, side)]
        if n % 7 == 0:
            for who in ("axis", "soviet", "spectator"):
                for q in ("рука", "колода", "трек", "варианты", "status"):
                    said.append(("answer", sw.answer(state, who, sw.grammar.parse(q)).text))
            said.append(("situation", sw.situation(state).label))
        orders = legal_texts(sw, state, side)
        if state.open is not None and state.open.ops and rng.random() < 0.6:
            orders = [rng.choice(SPENDS).format(n=rng.randrange(9), m=rng.randrange(9))]
        elif rng.random() < 0.05:
            orders = ["тотальная война", f"бросок 2к6 атака {n}"]
        try:
            out = sw.apply(state, side, sw.grammar.parse(choose(rng, orders)), dice)
        except Rejection as rej:
            said.append((f"refusal {rej.rule}", rej.message))
            out = sw.apply(state, side, End() if state.open else C.Default(), dice)
        said += [("event", e.text) for e in out.events]
        said += [  # GameEnded's stored text is its data's "text" (the result), not the Msg's
            ("stored event", event_text(e.to_dict())) for e in out.events if e.kind != GAME_ENDED
        ]
        state = out.state
    assert sw.situation(state).over
    said += [(f"refusal {r.rule}", r.message) for r in _refusals(sw, state, "axis")]
    said += [("answer", sw.answer(state, "axis", sw.grammar.parse("трек")).text)]
    said.append(("situation", sw.situation(state).label))
    return said


def test_12_5_ten_games_say_every_event_answer_and_refusal_in_russian():
    RU.missing.clear()
    left, rules = [], set()
    for seed in range(10):
        for what, text in _texts_of_a_game(seed):
            assert isinstance(text, Msg), (what, text)
            russian = say(text, RU)
            if english_left(russian, allowed=ALLOWED):
                left.append((seed, what, russian, english_left(russian, allowed=ALLOWED)))
            if what.startswith("refusal"):
                rules.add(what.split()[1])
    assert left == []
    assert RU.missing == set()
    assert {
        "3.4",
        "3.10",
        "4.1",
        "4.2",
        "5.2",
        "5.4",
        "5.5",
        "8.3",
        "8.9",
        "8.16",
        "9.9",
        "10.2",
        "12.5",
    } <= rules, rules


def test_12_5_the_end_of_the_game_is_said_in_russian_from_the_stored_state():
    sw = StalinsWar(replace(system().deck, turns=1))
    dice = HashDice(2)
    state = sw.initial(False, dice).state
    while not sw.situation(state).over:
        side = sw.situation(state).to_move[0]
        state = sw.apply(state, side, C.Default(), dice).state
    stored = sw.state_from_json(sw.state_to_json(state))  # the result text is a plain str now
    where = texts.where(stored)
    assert where.startswith("Game over: the game ends after the end-of-turn phase of turn 1")
    assert say(where, RU).startswith("Игра окончена: игра заканчивается после фазы конца хода 1")
    rej = refused(sw, stored, "axis", "конец")
    assert rej.rule == "12.5" and "правило 12.5" in say(rej.message, RU)


def test_8_21_a_round_summary_from_a_stored_state_says_its_spends_in_russian():
    sw, state, dice = dealt(3)
    state = give(at(state, "axis"), "axis", 1)
    state = sw.apply(state, "axis", sw.grammar.parse("разыграть 1 опр"), dice).state
    for text in ("потратить выход z1 a1 остаются b1", "потратить стратегическое u1 из h2"):
        state = sw.state_from_json(sw.state_to_json(state))  # spends kept as English strings
        state = sw.apply(state, "axis", sw.grammar.parse(text), dice).state
    state = sw.state_from_json(sw.state_to_json(state))
    out = sw.apply(state, "axis", sw.grammar.parse("конец"), dice)
    summary = out.events[0].text
    assert "a1 leave z1 (enemy ZOC); b1 stay, 0 OPS (8.4)" in summary
    russian = say(summary, RU)
    assert "a1 покидают z1 (вражеская ЗК); b1 остаются, 0 ОПР (8.4)" in russian
    assert "стратегическое движение u1 за 1 ОПР (8.9)" in russian
    assert english_left(russian) == []


def test_help_of_every_command_is_said_in_russian():
    RU.missing.clear()
    for usage, paragraph in ENTRIES.values():
        for text in (usage, paragraph):
            said = say(text, RU)
            assert english_left(said, allowed={"kiev"}) == [] and russian_share(said) > 0.5
    assert RU.missing == set()


def _labels(monkeypatch, lang) -> list[str]:
    seen: list[str] = []
    real = drawer.text.text

    def spy(image, xy, said, *args, **kwargs):
        seen.append(said)
        return real(image, xy, said, *args, **kwargs)

    monkeypatch.setattr(drawer.text, "text", spy)
    sw, state, dice = dealt(3)
    state = give(at(state, "axis"), "axis", 3)
    state = sw.apply(state, "axis", sw.grammar.parse("разыграть 3 за оп"), dice).state
    png = drawer.draw(sw, sw.view(state, Viewer.of([])), language=lang)
    monkeypatch.setattr(drawer.text, "text", real)
    return [png, *seen]


def test_the_drawer_says_every_label_in_the_language_it_is_given(monkeypatch, tmp_path):
    RU.missing.clear()
    png_en, *english = _labels(monkeypatch, EN)
    png_ru, *russian = _labels(monkeypatch, RU)
    assert png_en != png_ru and png_ru.startswith(b"\x89PNG")
    assert "Consecutive OPS" in english and "Последоват. ОПР" in russian
    assert [w for s in russian for w in english_left(s, allowed=ALLOWED)] == []
    assert RU.missing == set()


def test_a_roll_in_russian_is_posted_with_its_dice_in_the_russian_way_and_the_english_kept():
    sw, state, _ = dealt()
    out = sw.apply(state, "soviet", sw.grammar.parse("бросок 2к6 атака на Киев"), HashDice(5))
    (event,) = out.events
    assert event.text.startswith("Soviet rolls 2d6 for атака на Киев: ")
    assert say(event.text, RU).startswith("СССР: бросок 2к6, цель — атака на Киев: ")

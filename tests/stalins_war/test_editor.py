"""The moderator's position editor of Stalin's War (issue 26): every noun of `place` and `set`,
their refusals (each names what is legal and the rule), which edits are secret (16.1), who may
give them; the sandbox fixed dice (the results of the next `roll`, never of a shuffle, 16.7);
rules version 2 (`spend leave` names the units that stay, 8.4 and 8.6) beside version 1."""

from __future__ import annotations

import pytest

from adjudicator.core import commands as C
from adjudicator.core.dice import FixedDice, HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.i18n import EN, say
from adjudicator.core.system import MODERATOR_ACTOR, start
from adjudicator.stalins_war import orders as O
from adjudicator.stalins_war.state import SwState
from app.i18n import language
from tests.i18n_support import english_left, russian_share
from tests.stalins_war.helpers import at, dealt, give, system

RU = language("ru")


@pytest.fixture
def game():
    sw, state, dice = dealt(5)
    state.sandbox = True
    return sw, state, dice


def edit(sw, state, text):
    out = sw.apply(state, MODERATOR_ACTOR, sw.grammar.parse(text), HashDice(0))
    return out.state, out.events


def edit_refused(sw, state, text) -> Rejection:
    with pytest.raises(Rejection) as exc:
        sw.apply(state, MODERATOR_ACTOR, sw.grammar.parse(text), HashDice(0))
    return exc.value


def parse_refused(sw, text) -> Rejection:
    with pytest.raises(Rejection) as exc:
        sw.grammar.parse(text)
    return exc.value


# -- the grammar: canonical texts, kinds, secrets
EDITS = {
    "place axis 7 hand": (O.PlaceHidden("axis", 7, "hand"), True),
    "place axis 7 deck top": (O.PlaceHidden("axis", 7, "top"), True),
    "place axis 7 deck bottom": (O.PlaceHidden("axis", 7, "bottom"), True),
    "place axis 7 discard": (O.PlaceOpen("axis", 7, "discard"), False),
    "place axis 7 removed": (O.PlaceOpen("axis", 7, "removed"), False),
    "place soviet 3 aside": (O.PlaceOpen("soviet", 3, "aside"), False),
    "set deck axis 4,5,8": (O.SetDeck("axis", (4, 5, 8)), True),
    "set count axis 3": (O.SetNumber("count", "axis", 3), False),
    "set banked axis 2": (O.SetNumber("banked", "axis", 2), False),
    "set handsize soviet 7": (O.SetNumber("handsize", "soviet", 7), False),
    "set rpplays soviet 1": (O.SetNumber("rpplays", "soviet", 1), False),
    "set rp axis germany 3": (O.SetRp("axis", "germany", 3), False),
    "set turn 7": (O.SetTurn(7), False),
    "set round 4 soviet": (O.SetRound(4, "soviet"), False),
    "set mud on": (O.SetMud(True), False),
}


@pytest.mark.parametrize("text", sorted(EDITS))
def test_13_every_noun_of_the_editor_is_an_edit_its_secret_flag_and_canonical_text(text):
    sw = system()
    order, secret = EDITS[text]
    assert sw.grammar.parse(text) == order
    assert sw.grammar.format(order) == text
    assert sw.kind_of(order) == "edit"
    assert sw.is_secret(order) is secret


@pytest.mark.parametrize(
    ("russian", "english"),
    [
        ("поставить ось 7 руку", "place axis 7 hand"),
        ("поставить советы 3 отложена", "place soviet 3 aside"),
        ("положить ось 7 колода верх", "place axis 7 deck top"),
        ("установить колода ось 4,5", "set deck axis 4,5"),
        ("уст счет ось 2", "set count axis 2"),
        ("уст отложенные ось 2", "set banked axis 2"),
        ("уст величина советы 7", "set handsize soviet 7"),
        ("уст ход 7", "set turn 7"),
        ("уст раунд 4 советы", "set round 4 soviet"),
        ("уст распутица вкл", "set mud on"),
    ],
)
def test_13_the_editor_in_russian_is_the_same_edit(russian, english):
    sw = system()
    assert sw.grammar.parse(russian) == sw.grammar.parse(english)


def test_13_the_help_of_the_editor_names_every_noun():
    help_text = say(system().help(MODERATOR_ACTOR), RU)
    assert "поставить" in help_text and "установить" in help_text
    english = system().help(MODERATOR_ACTOR)
    for noun in ("deck", "count", "banked", "handsize", "rpplays", "rp", "turn", "round", "mud"):
        assert f"set {noun} " in english
    assert "hidden seed (16.7)" in system().help(MODERATOR_ACTOR, "set deck")


@pytest.mark.parametrize(
    ("text", "rule", "says"),
    [
        ("set turn 40", "1.2", "from 1 to 18"),
        ("set round 6", "1.3", "from 1 to 5"),
        ("set rpplays axis 3", "10.3", "from 0 to 2"),
        ("set weather snow", "13.1", "deck, count, banked"),
        ("place germany 7 hand", "3.6", "axis or soviet"),
        ("place axis 7 table", "3.6", "hand | deck top | deck bottom"),
        ("set mud maybe", "7.12", "on or off"),
    ],
)
def test_13_a_text_that_is_no_edit_names_what_is_legal(text, rule, says):
    rej = parse_refused(system(), text)
    assert rej.rule == rule and says in rej.message


# -- applying each noun
def test_3_6_place_moves_a_card_from_wherever_it_is(game):
    sw, state, _ = game
    hand = sorted(state.players["axis"].hand)
    n = next(c for c in range(1, 13) if c not in hand)
    new, events = edit(sw, state, f"place axis {n} hand")
    assert n in new.players["axis"].hand and n not in new.players["axis"].deck
    assert state.players["axis"].hand == hand or sorted(state.players["axis"].hand) == hand
    kinds = [(e.kind, e.audience.to_json()) for e in events]
    assert kinds == [
        ("PositionEdited", "all"),
        ("HandShown", "side:axis"),
        ("CardsEdited", "side:axis"),
        ("CardsEdited", "moderators"),
    ]
    public = say(events[0].text, EN)
    assert f"#{n} " not in public and "hand 7" in public
    new, _ = edit(sw, new, f"place axis {n} deck top")
    assert new.players["axis"].deck[0] == n
    new, _ = edit(sw, new, f"place axis {n} deck bottom")
    assert new.players["axis"].deck[-1] == n
    new, events = edit(sw, new, f"place axis {n} discard")
    assert new.players["axis"].discard[-1] == [n, True]
    assert [e.audience.to_json() for e in events] == ["all"]  # face up: public (16.6)
    new, _ = edit(sw, new, f"place axis {n} removed")
    assert new.players["axis"].removed == [n] and new.players["axis"].discard == []
    new, _ = edit(sw, new, "place soviet 1 deck top")
    new, _ = edit(sw, new, "place soviet 1 aside")
    assert new.players["soviet"].set_aside == [1, 2, 3, 4, 5, 6]


def test_3_6_place_refusals_name_the_rule_and_what_is_legal(game):
    sw, state, _ = game
    n = state.players["axis"].hand[0]
    rej = edit_refused(sw, state, f"place axis {n} hand")
    assert rej.rule == "3.6" and "legal places: hand | deck top" in rej.message
    rej = edit_refused(sw, state, "place axis 99 hand")
    assert rej.rule == "3.5" and "#1 to #16" in rej.message
    rej = edit_refused(sw, state, "place axis 3 aside")
    assert rej.rule == "3.8" and "Soviet cards #1 to #6" in rej.message
    rej = edit_refused(sw, state, "place axis 13 hand")  # a Total War card (3.3)
    assert rej.rule == "3.3" and "`totalwar` first" in rej.message
    opened = sw.apply(
        give(at(state, "axis"), "axis", 7), "axis", sw.grammar.parse("play 7 ops"), HashDice(0)
    ).state
    rej = edit_refused(sw, opened, "place axis 7 discard")
    assert rej.rule == "6.4"


def test_3_6_set_deck_puts_the_cards_on_top_in_order_the_rest_below(game):
    sw, state, _ = game
    before = list(state.players["axis"].deck)
    top = before[-2:][::-1]
    new, events = edit(sw, state, f"set deck axis {','.join(map(str, top))}")
    assert new.players["axis"].deck == [*top, *[n for n in before if n not in top]]
    assert [e.audience.to_json() for e in events] == ["all", "side:axis", "moderators"]
    assert all(str(top[0]) not in str(v) for v in events[0].data.values())
    rej = edit_refused(sw, state, f"set deck axis {top[0]},{top[0]}")
    assert rej.rule == "3.6" and "named twice" in rej.message


def test_13_1_set_the_counts_banked_ops_hand_size_rp_and_rp_plays(game):
    sw, state, _ = game
    for text in (
        "set count axis 3",
        "set banked axis 2",
        "set handsize soviet 7",
        "set rpplays soviet 1",
        "set rp axis germany 3",
        "уст оп ось германия 4",
    ):
        state, events = edit(sw, state, text)
        assert [e.audience.to_json() for e in events] == ["all"]
    axis, soviet = state.players["axis"], state.players["soviet"]
    assert (axis.count, axis.banked, axis.rp["Germany"]) == (3, 2, 4)
    assert (soviet.hand_size, soviet.rp_plays) == (7, 1)
    rej = edit_refused(sw, state, "set rp soviet germany 1")
    assert rej.rule == "10.1" and "USSR" in rej.message


def test_13_2_set_turn_round_and_mud(game):
    sw, state, _ = game
    state.players["axis"].rp_plays, state.played = 1, [{"side": "axis"}]
    state, _ = edit(sw, state, "set turn 7")
    assert state.turn == 7 and state.players["axis"].rp_plays == 0 and state.played == []
    state, _ = edit(sw, state, "set round 4 soviet")
    assert (state.round, state.to_move, state.phase) == (4, "soviet", "action")
    assert sw.situation(state).phase == "soviet-round-4"
    state, _ = edit(sw, state, "set mud on")
    assert state.mud == [[7, 4, True]]
    # 7.12: in the mud round an RP round keeps the count
    state.players["soviet"].count = 2
    state = give(state, "soviet", 8)
    after = sw.apply(state, "soviet", sw.grammar.parse("play 8 rp"), HashDice(0)).state
    assert after.players["soviet"].count == 2
    state, _ = edit(sw, state, "set mud off")
    assert state.mud == [[7, 4, False]]
    after = sw.apply(state, "soviet", sw.grammar.parse("play 8 rp"), HashDice(0)).state
    assert after.players["soviet"].count == 0
    assert SwState.from_json(state.to_json()) == state


def test_5_2_the_turn_round_and_counts_are_not_edited_in_an_open_round(game):
    sw, state, _ = game
    opened = sw.apply(
        give(at(state, "axis"), "axis", 7), "axis", sw.grammar.parse("play 7 ops"), HashDice(0)
    ).state
    for text in ("set turn 3", "set round 2", "set count axis 1", "set mud on"):
        rej = edit_refused(sw, opened, text)
        assert rej.rule == "5.2" and "`end`" in rej.message


def test_3_10_the_turn_and_round_are_set_after_the_deal():
    sw = system()
    state = sw.initial(True, HashDice(1)).state
    for text in ("set turn 7", "set round 2"):
        rej = edit_refused(sw, state, text)
        assert rej.rule == "3.10" and "`draw`" in rej.message
    assert edit(sw, state, "set count axis 1")[0].players["axis"].count == 1


def test_12_5_no_edit_after_the_game_is_over(game):
    sw, state, _ = game
    state.result = {"winner": "none", "turn": 18, "text": "over"}
    assert edit_refused(sw, state, "set turn 3").rule == "12.5"


def test_only_a_moderator_edits_the_position_and_says_no_rule_covers_it(game):
    sw, state, _ = game
    for side in ("axis", "soviet"):
        with pytest.raises(Rejection) as exc:
            sw.apply(state, side, sw.grammar.parse("set count axis 1"), HashDice(0))
        assert exc.value.code == "moderator-only" and "no rule of the game" in exc.value.message


def test_16_1_views_of_the_other_side_and_the_public_lack_what_was_set(game):
    sw, state, _ = game
    hand = state.players["axis"].hand
    n = next(c for c in range(1, 13) if c not in hand)
    top = [c for c in range(1, 13) if c != n][:2]
    state, _ = edit(sw, state, f"place axis {n} hand")
    state, _ = edit(sw, state, f"set deck axis {top[0]},{top[1]}")
    for viewer in (Viewer.of(["soviet"]), Viewer.of([])):
        seen = sw.view(state, viewer).players["axis"]
        assert seen.hand == [] and seen.hidden == len(state.players["axis"].hand)
        assert set(seen.deck) == {None}
    assert n in sw.view(state, Viewer.of(["axis"])).players["axis"].hand


# -- fixed dice (sandbox) and the rules versions
def test_8_22_16_7_fixed_dice_are_the_next_roll_never_a_shuffle():
    sw = system()
    state = sw.initial(True, HashDice(1)).state
    assert state.rules == 2 and "rules" in state.to_json()
    state = sw.apply(state, MODERATOR_ACTOR, C.Dice((3, 50)), HashDice(1)).state
    dealt_ = sw.apply(state, "axis", sw.grammar.parse("draw"), HashDice(1))
    assert not any(r.fixed for r in dealt_.rolls) and dealt_.state.fixed_dice == [3, 50]
    free = sw.apply(
        sw.initial(True, HashDice(1)).state, "axis", sw.grammar.parse("draw"), HashDice(1)
    ).state
    assert dealt_.state.players["axis"].deck == free.players["axis"].deck  # the hidden seed's
    rolled = sw.apply(dealt_.state, "axis", sw.grammar.parse("roll 1d6 x"), HashDice(1))
    assert [r.value for r in rolled.rolls if r.fixed] == [3]
    rolled = sw.apply(rolled.state, "axis", sw.grammar.parse("roll 1d100 y"), HashDice(1))
    assert [r.value for r in rolled.rolls] == [50] and rolled.state.fixed_dice == []
    with pytest.raises(Rejection) as exc:
        sw.apply(state, MODERATOR_ACTOR, C.Dice((101,)), HashDice(1))
    assert exc.value.rule == "8.22" and "hidden seed" in exc.value.message


def test_rules_version_1_feeds_fixed_dice_to_a_shuffle_as_stored_games_did():
    sw = system()
    state = start(sw, True, HashDice(1), 1).state
    assert state.rules == 1 and "rules" not in state.to_json()
    state = sw.apply(state, MODERATOR_ACTOR, C.Dice((1,)), HashDice(1)).state
    out = sw.apply(state, "axis", sw.grammar.parse("draw"), HashDice(1))
    assert any(r.fixed for r in out.rolls) and out.state.fixed_dice == []


def test_a_stored_state_without_the_rules_key_reads_as_version_1():
    _sw, state, _ = dealt(2)
    data = state.to_json()
    data.pop("rules", None)
    assert SwState.from_json(data).rules == 1


def opened_for_leave(rules: int):
    sw = system()
    state = start(sw, False, HashDice(4), rules).state
    for side in ("axis", "soviet"):
        state = sw.apply(state, side, sw.grammar.parse("draw"), HashDice(4)).state
    state = give(at(state, "axis"), "axis", 7)
    return sw, sw.apply(state, "axis", sw.grammar.parse("play 7 ops"), HashDice(0)).state


def test_8_4_8_6_rules_2_the_first_leave_of_a_hex_names_who_stays():
    sw, state = opened_for_leave(2)
    with pytest.raises(Rejection) as exc:
        sw.apply(state, "axis", sw.grammar.parse("spend leave x a"), HashDice(0))
    assert exc.value.rule == "8.4" and "stays none" in exc.value.message
    assert state.open.ops == 4  # nothing charged
    state2 = sw.apply(state, "axis", sw.grammar.parse("spend leave x a stays b c"), HashDice(0))
    assert state2.state.open.ops == 4
    with pytest.raises(Rejection) as exc:  # d moved in during the round (8.5)
        sw.apply(state2.state, "axis", sw.grammar.parse("spend leave x d"), HashDice(0))
    assert exc.value.rule == "8.5" and "b, c" in exc.value.message
    with pytest.raises(Rejection) as exc:
        sw.apply(state2.state, "axis", sw.grammar.parse("spend leave x b stays none"), HashDice(0))
    assert exc.value.rule == "8.6" and "c are still there" in exc.value.message
    last = sw.apply(
        state2.state, "axis", sw.grammar.parse("spend leave x b c stays none"), HashDice(0)
    ).state
    assert last.open.ops == 3  # the last starters leave: 1 OPS (8.6)
    alone = sw.apply(state, "axis", sw.grammar.parse("spend leave y a stays none"), HashDice(0))
    assert alone.state.open.ops == 3


def test_8_4_rules_1_a_bare_leave_charges_at_once_as_stored_games_did():
    sw, state = opened_for_leave(1)
    out = sw.apply(state, "axis", sw.grammar.parse("spend leave x a"), HashDice(0))
    assert out.state.open.ops == 3


def test_8_21_an_end_with_ops_left_says_what_is_lost(game):
    sw, state, _ = game
    opened = sw.apply(
        give(at(state, "axis"), "axis", 7), "axis", sw.grammar.parse("play 7 ops"), HashDice(0)
    ).state
    out = sw.apply(opened, "axis", sw.grammar.parse("end"), FixedDice([]))
    assert "4 OPS unspent are lost (8.21)" in say(out.events[0].text, EN)


def test_13_every_edit_and_its_refusals_are_said_in_russian(game):
    sw, state, _ = game
    hand = state.players["axis"].hand
    n = next(c for c in range(1, 13) if c not in hand)
    lines = [
        f"place axis {n} hand",
        f"place axis {n} deck top",
        f"place axis {n} discard",
        f"place axis {n} removed",
        "place soviet 1 deck bottom",
        "place soviet 1 aside",
        "set deck axis 2,3",
        "set count axis 3",
        "set banked axis 2",
        "set handsize soviet 7",
        "set rpplays soviet 1",
        "set rp axis germany 3",
        "set turn 7",
        "set round 4 soviet",
        "set mud on",
    ]
    said = []
    for line in lines:
        state, events = edit(sw, state, line)
        said += [say(e.text, RU) for e in events]
    for line in ("place axis 99 hand", "place axis 3 aside", "set rp soviet germany 1"):
        said.append(say(edit_refused(sw, state, line).message, RU))
    for line in ("set turn 40", "set what", "place axis 7 table", "dice 101"):
        said.append(say(parse_refused(sw, line).message, RU))
    left = [(text, english_left(text, allowed={"germany", "what", "table"})) for text in said]
    bad = [x for x in left if x[1]]
    assert bad == [], "\n".join(map(str, bad))
    assert all(russian_share(text) > 0.5 for text in said)

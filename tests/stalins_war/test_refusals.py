"""Every refusal of Stalin's War cites its rule (issue 26): each verb of the system, with its
words dropped, replaced or added to at every position, in every kind of position of a game
(setup, an action round to choose, an open round, a round just ended, the draw phase, the game
over), by both players and the moderator. A refusal citing no rule must say why none applies."""

from __future__ import annotations

import pytest

from adjudicator.core.dice import HashDice
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import EN, say
from adjudicator.core.system import MODERATOR_ACTOR
from adjudicator.stalins_war.grammar import VERBS
from adjudicator.stalins_war.state import SwState
from bots import cli
from tests.stalins_war.helpers import at, dealt, give, refused, system
from tests.stalins_war.helpers import say as order

GOOD = {
    "play": "play 7 ops",
    "pass0": "pass0 reset swap 8",
    "spend": "spend leave x a stays b",
    "end": "end",
    "discard": "discard 8 11",
    "draw": "draw",
    "roll": "roll 2d6 attack on kiev",
    "totalwar": "totalwar",
    "hand": "hand",
    "options": "options",
    "deck": "deck",
    "track": "track",
    "place": "place axis 7 hand",
    "set": "set count axis 2",
    "dice": "dice 3 50",
}
MORE = (
    "place soviet 3 aside",
    "set deck axis 4,5",
    "set round 4 soviet",
    "set mud on",
    "spend strategic u1 u2 from h",
    "spend combat x y",
    "pass0 move",
    "play 9 rp+ops",
)
JUNK = ("zz", "#0", "-1", "99", "swap", "stays", "from", "and", "ops")
NO_RULE = "no rule of the game"


def texts() -> list[str]:
    """The good texts, each cut short, with a word replaced, and with a word added."""
    found: set[str] = set()
    for good in (*GOOD.values(), *MORE):
        words = good.split()
        for i in range(1, len(words) + 1):
            found.add(" ".join(words[:i]))
            for junk in JUNK:
                found.add(" ".join([*words[:i], junk, *words[i + 1 :]]))
                found.add(" ".join([*words[:i], junk, *words[i:]]))
    return sorted(found)


def positions() -> dict[str, SwState]:
    sw, state, _dice = dealt(3)
    setup = sw.initial(False, HashDice(3)).state
    chosen = give(at(state.clone(), "axis"), "axis", 7, 8, 9, 10, 11)
    opened = order(sw, chosen, "axis", "play 7 ops")
    ended = order(sw, chosen, "axis", "play 10 rp")
    draw = chosen.clone()
    draw.phase, draw.to_move = "draw", "soviet"
    over = chosen.clone()
    over.result = {"winner": "none", "turn": 18, "text": "over"}
    return {
        "setup": setup,
        "choose": chosen,
        "open": opened,
        "ended": ended,
        "draw": draw,
        "over": over,
    }


def _cites_or_says_why(rej: Rejection, text: str, where: str) -> None:
    message = say(rej.message, EN)
    assert rej.rule or NO_RULE in message, f"{where}: {text!r} refused citing no rule: {message}"


def test_every_verb_of_the_system_is_driven():
    assert {v.word for v in VERBS} == set(GOOD)


def test_1_1_5_5_every_refusal_of_every_verb_cites_its_rule_or_says_why_none_applies():
    sw = system()
    refusals = 0
    for where, state in positions().items():
        for text in texts():
            try:
                parsed = sw.grammar.parse(text)
            except Rejection as rej:
                refusals += 1
                _cites_or_says_why(rej, text, where)
                continue
            for actor in ("axis", "soviet", MODERATOR_ACTOR):
                try:
                    if sw.kind_of(parsed) == "query":
                        sw.answer(state, actor, parsed)
                    else:
                        sw.apply(state, actor, parsed, HashDice(0))
                except Rejection as rej:
                    refusals += 1
                    _cites_or_says_why(rej, f"{actor}: {text}", where)
    assert refusals > 1000  # the sweep reached the refusals, not only accepted orders


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("pass0 reset swap A B", "9.9"),
        ("pass0 move swap A", "9.7"),
        ("pass0", "9.2"),
        ("play 7", "5.5"),
        ("spend", "8.2"),
        ("spend leave x", "8.3"),
        ("spend strategic", "8.9"),
        ("spend combat", "8.15"),
        ("discard x", "4.1"),
        ("draw now", "4.2"),
        ("end now", "8.21"),
        ("roll 2d6", "8.22"),
        ("totalwar now", "3.4"),
        ("hand x", "16.1"),
        ("track x", "7.2"),
    ],
)
def test_9_9_a_text_that_is_no_order_cites_the_rule_of_its_verb(text, rule):
    sw, state, _dice = dealt()
    rej = refused(sw, state, "axis", text)
    assert rej.rule == rule and "Usage:" in rej.message


def test_5_5_options_with_words_after_it_says_why_no_rule_applies():
    sw, state, _dice = dealt()
    rej = refused(sw, state, "axis", "options now")
    assert rej.rule is None and NO_RULE in rej.message and "unexpected 'now'" in rej.message


def test_1_1_an_order_by_someone_who_is_no_player_cites_1_1():
    sw, state, _dice = dealt()
    with pytest.raises(Rejection) as info:
        sw.apply(state, MODERATOR_ACTOR, sw.grammar.parse("pass0 move"), HashDice(0))
    assert info.value.rule == "1.1"


def test_9_9_the_reply_to_a_text_that_is_no_order_names_its_rule(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    assert cli.main(["new", "a", "--game", "stalins-war", "--db", db]) == 0
    assert cli.main(["say", "a", "--as", "axis", "draw", "--db", db]) == 0
    capsys.readouterr()
    cli.main(["say", "a", "--as", "axis", "pass0 reset swap A B", "--db", db])
    assert "Refused (rule 9.9)" in capsys.readouterr().out

"""Every count a player reads goes through the plural machinery, and a post leaves a line out
rather than say "none" (issue 29, "Posts short"): a short game of each system played through the
chat service, in English and in Russian, every post and reply scanned for `(s)`-style brackets
and "none" lines; the Russian durations the bot itself writes are read back; Russian plural
forms of a few counts."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest

from adjudicator.core.i18n import tn
from app import post_queue
from app.durations import DeadlineError, parse_duration
from app.i18n import language
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import choose, legal_texts
from storage import Store
from tests.test_chat_service import Chat

GROUP = "-100777"
MODERATOR, FIRST, SECOND = 1, 2, 3
MOVES = 60  # orders per game: a few phases of each system, enough for its counting texts

SYSTEMS = {
    "hells-gate": ("soviet", "german"),
    "borodino": ("russian", "french"),
    "northern-war": ("sweden", "coalition"),
    "stalins-war": ("axis", "soviet"),
}

# `1 row(s)`, `2 hit(s)`, `блок(ов)`, `(ы)`: a word with a bracketed ending glued to it.
BRACKETS = re.compile(r"[A-Za-zА-Яа-яЁё]\((?:s|es|ies|а|ы|и|ов|ей|ях|ам)\)")
# "Salts received for epoch 1: none": a line saying there is nothing.
NONE_LINE = re.compile(r":\s*(?:none|нет|ничего)\.?\s*$", re.MULTILINE | re.IGNORECASE)


def play(system: str, lang: str) -> list[str]:
    """Every text the chats of a short game of `system` received (posts and replies)."""
    store = Store(":memory:")
    try:
        service = GameService(store)
        chat = ChatService(service, clock=FakeClock(), images=False)
        group = Chat(chat, "telegram", GROUP)
        private = {u: Chat(chat, "telegram", str(u), private=True) for u in (FIRST, SECOND)}
        said: list[str] = []

        def say(where: Chat, user: int, text: str) -> None:
            said.extend(o.text for o in where.say(user, text))

        if lang == "ru":
            say(group, MODERATOR, "language ru")
            for u, c in private.items():
                say(c, u, "language ru")
        say(group, MODERATOR, f"new {system}")
        one, two = SYSTEMS[system]
        say(group, FIRST, f"join {one}")
        say(group, SECOND, f"join {two}")
        say(group, MODERATOR, "start")
        (name,) = [g.name for g in store.list_games()]
        users = {one: FIRST, two: SECOND}
        rng = random.Random(7)
        for _ in range(MOVES):
            state = service.state(name)
            sys_ = service.system(name)
            here = sys_.situation(state)
            if here.over:
                break
            side = here.to_move[0]
            text = choose(rng, legal_texts(sys_, state, side))
            where = private[users[side]] if sys_.hidden_information else group
            say(where, users[side], text)
        for question in ("status", "log 30"):
            say(group, FIRST, question)
        said += [r.outgoing.text for r in post_queue.rows(store)]
        return said
    finally:
        store.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_no_post_or_reply_has_a_bracketed_plural_or_a_none_line(system, lang):
    said = play(system, lang)
    assert len(said) > 20, said
    brackets = [s for s in said if BRACKETS.search(s)]
    assert not brackets, brackets[:3]
    nones = [m.group(0) for s in said for m in [NONE_LINE.search(s)] if m]
    assert not nones, nones[:3]
    if lang == "ru":  # the game was really played in Russian
        assert sum(bool(re.search("[а-я]", s)) for s in said) > len(said) * 0.9


def test_a_moderator_extends_a_deadline_in_russian_units_in_a_chat():
    store = Store(":memory:")
    try:
        group = Chat(ChatService(GameService(store), clock=FakeClock()), "telegram", GROUP)
        for user, text in [
            (MODERATOR, "язык ru"),
            (MODERATOR, "новая hells-gate"),
            (FIRST, "вступить советские"),
            (SECOND, "вступить немецкие"),
            (MODERATOR, "начать"),
        ]:
            group.say(user, text)
        assert group.text(MODERATOR, "срок 12ч").startswith("Срок на каждую фазу: 12 ч.")
        assert group.text(MODERATOR, "продлить 6ч").startswith("Срок продлён на 6 ч:")
        assert group.text(MODERATOR, "продлить 1ч 30м").startswith("Срок продлён на 1 ч 30 мин:")
        assert group.text(MODERATOR, "продлить 6 ч").startswith("Срок продлён на 6 ч:")
        assert "не длительность" in group.text(MODERATOR, "продлить 6 часиков")
    finally:
        store.close()


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("6ч", timedelta(hours=6)),
        ("6 ч", timedelta(hours=6)),
        ("2д", timedelta(days=2)),
        ("30м", timedelta(minutes=30)),
        ("90 мин", timedelta(minutes=90)),
        ("1ч 30м", timedelta(hours=1, minutes=30)),
        ("1д12ч", timedelta(days=1, hours=12)),
        ("3 дн 4 ч", timedelta(days=3, hours=4)),  # as summary.in_words writes it
        ("3 ч 12 мин", timedelta(hours=3, minutes=12)),  # as format_duration writes it in Russian
        ("48h", timedelta(hours=48)),  # the English units as before
        ("1d 12h", timedelta(days=1, hours=12)),
    ],
)
def test_a_duration_is_read_in_russian_units_too(text, delta):
    assert parse_duration(text) == delta


@pytest.mark.parametrize("text", ["ч", "6 часиков", "6x", "0ч"])
def test_a_russian_duration_that_is_not_one_is_refused(text):
    with pytest.raises(DeadlineError):
        parse_duration(text)


def test_a_russian_duration_beyond_a_year_is_refused_before_any_arithmetic():
    with pytest.raises(DeadlineError, match="more than a year"):
        parse_duration("99999999999999999999ч")
    with pytest.raises(DeadlineError, match="more than a year"):
        parse_duration("366д")


@pytest.mark.parametrize(
    ("n", "rows", "hits"),
    [
        (1, "1 строка", "1 удар"),
        (2, "2 строки", "2 удара"),
        (5, "5 строк", "5 ударов"),
        (21, "21 строка", "21 удар"),
    ],
)
def test_russian_counts_take_the_form_of_their_number(n, rows, hits):
    ru = language("ru")
    said = tn(
        "**{game}**: {what}: {n} row, 0-{last}, head hash {head}.",
        "**{game}**: {what}: {n} rows, 0-{last}, head hash {head}.",
        n,
        game="g",
        what="w",
        last=n - 1,
        head="h",
    ).say(ru)
    assert f": {rows}, 0-" in said, said
    assert tn("{n} hit", "{n} hits", n).say(ru) == hits
    english = "1 row" if n == 1 else f"{n} rows"
    assert english in tn("{n} row, x", "{n} rows, x", n)

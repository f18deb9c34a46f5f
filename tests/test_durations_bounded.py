"""Durations are bounded before any arithmetic: a duration of more than a year is refused with
the message `extend` gives for one, however many digits it has (a number too large for a
timedelta never reaches one), in `deadline`, `extend` and every duration the parser reads, in
English and in Russian (`срок`, `продлить`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app import durations
from app.durations import MAX_DURATION, DeadlineError, parse_duration
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store, chat_store
from tests.test_chat_service import Chat, started

HUGE = "99999999999999999999"
YEAR = "a duration of more than a year is not a deadline"
YEAR_RU = "длительность больше года — это не срок"  # its Russian form (app/locale/ru)


@pytest.mark.parametrize(
    "text",
    [f"{HUGE}h", f"{HUGE}d", f"1d {HUGE}m", f"{HUGE}.5s", "1" + "0" * 400 + "h", "365d 1s",
     "8761h", "366d"],
)  # fmt: skip
def test_a_duration_above_a_year_is_refused_before_any_arithmetic(text):
    with pytest.raises(DeadlineError) as refused:
        parse_duration(text)
    assert str(refused.value) == YEAR


def test_a_year_itself_is_a_duration():
    assert parse_duration("365d") == MAX_DURATION == parse_duration("8760h")
    assert parse_duration("1d 12h") == timedelta(hours=36)
    assert parse_duration("1.5h") == timedelta(minutes=90)


def test_a_stored_length_beyond_a_year_counts_as_a_year():
    assert durations.hours(1e30) == MAX_DURATION
    assert durations.hours(-1e30) == -MAX_DURATION
    assert durations.hours(float("nan")) == MAX_DURATION
    assert durations.hours(-1) == timedelta(hours=-1)


@pytest.fixture
def tg(tmp_path):
    store = Store(str(tmp_path / "games.db"))
    clock = FakeClock(datetime(2030, 1, 1, tzinfo=UTC))
    yield Chat(ChatService(GameService(store), clock=clock, images=False), "telegram", "-100700")
    store.close()


@pytest.mark.parametrize(
    "line",
    [f"deadline {HUGE}h", f"extend {HUGE}h", f"deadline decisions {HUGE}h",
     f"deadline reminders {HUGE}", f"deadline reminders 1h {HUGE}h", "extend 400d"],
)  # fmt: skip
def test_deadline_and_extend_refuse_more_than_a_year_cleanly(tg, line):
    game = started(tg)
    before = chat_store.clock(tg.service.store, game)
    text = tg.text(1, line)
    assert text.startswith("Refused") and YEAR in text, text
    assert chat_store.clock(tg.service.store, game) == before  # nothing changed


@pytest.mark.parametrize(
    "line",
    [f"срок {HUGE}h", f"продлить {HUGE}h", f"срок решения {HUGE}h", f"срок напоминания {HUGE}h"],
)
def test_the_russian_commands_refuse_more_than_a_year_in_russian(tg, line):
    game = started(tg)
    assert "язык" in tg.text(1, "язык ru").lower()
    before = chat_store.clock(tg.service.store, game)
    text = tg.text(1, line)
    assert text.startswith("Отказано") and YEAR_RU in text, text
    assert chat_store.clock(tg.service.store, game) == before


def test_extends_that_would_carry_the_deadline_past_a_year_are_refused(tg):
    """Each `extend` is at most a year, but repeated ones must not add up past what a date can
    hold: the deadline a moved one leaves is at most a year away."""
    game = started(tg)
    assert "Deadline extended" in tg.text(1, "extend 300d")
    before = chat_store.clock(tg.service.store, game)
    text = tg.text(1, "extend 300d")
    assert text.startswith("Refused") and "more than a year away" in text, text
    assert chat_store.clock(tg.service.store, game) == before  # nothing changed
    assert "Deadline extended" in tg.text(1, "extend 1d")  # within the year: taken

"""Durations and times as the deadline commands read and write them.

parse_duration("48h" | "90m" | "2d" | "1d12h" | "1d 12h" | "1.5h" | "6ч" | "1ч 30м" | "2д") -> timedelta
format_duration(timedelta(hours=3, minutes=12)) -> "3 h 12 min"
format_deadline(at, now) -> "2030-01-03 00:00 UTC (in 47 h)"
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Protocol

from adjudicator.core.i18n import Msg, t
from adjudicator.grammar import quoted

MAX_DURATION = timedelta(days=365)

# The English units and the Russian ones the bot writes ("через 12 ч", "3 ч 12 мин"): д, ч, м
# (or мин), с, and дн (summary.in_words: "3 дн 4 ч"); the longer unit first, so that "мин" is
# not read as "м" and a stray "ин".
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(мин|дн|d|h|m|s|д|ч|м|с)")
_SECONDS = {
    "d": 86400.0,
    "h": 3600.0,
    "m": 60.0,
    "s": 1.0,
    "д": 86400.0,
    "ч": 3600.0,
    "м": 60.0,
    "мин": 60.0,
    "дн": 86400.0,
    "с": 1.0,
}


class DeadlineError(ValueError):
    """A refused deadline command: the message is for the user (str() gives its Msg)."""

    def __str__(self) -> str:
        said = self.args[0] if self.args else ""
        return said if isinstance(said, Msg) else super().__str__()


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


def now_of(when: datetime | Clock) -> datetime:
    """The instant meant: a datetime as it is, a clock's now()."""
    now = when if isinstance(when, datetime) else when.now()
    if now.utcoffset() is None:
        raise ValueError("deadline times are aware UTC datetimes")
    return now


def parse_duration(text: str) -> timedelta:
    """ "48h", "90m", "2d", "1d12h", "1d 12h", "1.5h" (or in Russian units: "48ч", "90м" or
    "90 мин", "2д", "1д 12ч") -> timedelta (positive, at most a year)."""
    s = text.strip().lower()
    pos, seconds, too_long = 0, 0.0, False
    for m in _DURATION.finditer(s):
        if s[pos : m.start()].strip():
            break
        seconds += float(m.group(1)) * _SECONDS[m.group(2)]  # a float: inf, never an error
        too_long = too_long or not seconds <= MAX_DURATION.total_seconds()
        pos = m.end()
    if not s or pos == 0 or s[pos:].strip():
        raise DeadlineError(
            t(
                "{text} is not a duration: write e.g. 48h, 90m, 2d or 1d12h",
                text=quoted(text.strip()),
            )
        )
    if too_long:  # checked before any timedelta is made (99999999999999999999h overflows one)
        raise too_long_error()
    if seconds <= 0:
        raise DeadlineError(t("a duration must be longer than zero"))
    return bounded(timedelta(seconds=seconds))


def too_long_error() -> DeadlineError:
    """The refusal of a duration, or a deadline moved, beyond a year."""
    return DeadlineError(t("a duration of more than a year is not a deadline"))


def bounded(delta: timedelta) -> timedelta:
    """delta, if it is at most a year (MAX_DURATION); else DeadlineError."""
    if delta > MAX_DURATION:
        raise too_long_error()
    return delta


def format_duration(delta: timedelta) -> str:
    """47 h, 3 h 12 min, 45 min, 20 s (rounded to the minute above an hour)."""
    seconds = round(delta.total_seconds())
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    if seconds < 60:
        return t("{sign}{s} s", sign=sign, s=seconds)
    minutes = (seconds + 30) // 60
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return t("{sign}{m} min", sign=sign, m=minutes)
    if minutes:
        return t("{sign}{h} h {m} min", sign=sign, h=hours, m=minutes)
    return t("{sign}{h} h", sign=sign, h=hours)


def format_deadline(at: datetime, now: datetime) -> str:
    """ "2030-01-03 00:00 UTC (in 47 h)": the absolute time and what is left."""
    left = at - now
    rel = (
        t("in {time}", time=format_duration(left))
        if left > timedelta()
        else t("{time} ago", time=format_duration(-left))
    )
    return t("{at} UTC ({left})", at=f"{at:%Y-%m-%d %H:%M}", left=rel)


def hours_of(delta: timedelta) -> float:
    return delta.total_seconds() / 3600


def hours(value: float) -> timedelta:
    """value hours; a stored value beyond a year either way (or no number) counts as a year, so
    that no arithmetic on it overflows."""
    h = float(value)
    limit = MAX_DURATION.total_seconds() / 3600
    if -limit <= h <= limit:
        return timedelta(hours=h)
    return -MAX_DURATION if h < 0 else MAX_DURATION


__all__ = [
    "MAX_DURATION",
    "Clock",
    "DeadlineError",
    "bounded",
    "format_deadline",
    "format_duration",
    "hours",
    "hours_of",
    "now_of",
    "parse_duration",
    "too_long_error",
]

"""Where "now" comes from: every deadline computation takes it from a `Clock`.

`SystemClock` is the wall clock (aware UTC). `FakeClock` is moved by hand, so tests drive
deadlines, reminders and outages without sleeping:

    clock = FakeClock()                 # 2030-01-01 00:00 UTC
    clock.advance(hours=23)             # or clock.advance(timedelta(...)), clock.set(when)
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware, in UTC."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def __repr__(self) -> str:
        return "SystemClock()"


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime | None = None):
        self._now = _aware(start or datetime(2030, 1, 1, tzinfo=UTC))

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = _aware(when)

    def advance(self, delta: timedelta | None = None, **parts: float) -> datetime:
        """Move forward by `delta` or by timedelta keyword parts (hours=3, minutes=5)."""
        self._now += (delta or timedelta()) + timedelta(**parts)
        return self._now

    def __repr__(self) -> str:
        return f"FakeClock({self._now.isoformat()})"


def _aware(when: datetime) -> datetime:
    if when.utcoffset() is None:
        raise ValueError("a clock gives timezone-aware times: pass an aware datetime")
    return when.astimezone(UTC)

"""A game's clock as the application reads it (`GameClock`), and its reads and writes on the
locked game row (the SQL is storage/clocks.py). The policy is app/clock.py."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Connection

from app.durations import Clock, hours
from storage import Store
from storage import clocks as sql

DEFAULT_PHASE_HOURS = 48.0
DEFAULT_DECISION_HOURS = 12.0
DEFAULT_REMINDERS = (24.0, 1.0)
KINDS = ("phase", "decision")
When = datetime | Clock
CLEARED: dict[str, Any] = {
    "deadline_at": None,
    "kind": None,
    "sent": [],
    "clock_paused": False,
    "remaining_s": None,
}
_COLUMNS = {  # GameClock field -> the column of the game row
    "deadline_at": "deadline_at",
    "kind": "deadline_kind",
    "phase_hours": "phase_hours",
    "decision_hours": "decision_hours",
    "reminder_hours": "reminder_hours",
    "sent": "reminders_sent",
    "clock_paused": "clock_paused",
    "remaining_s": "paused_remaining_s",
}


@dataclass
class GameClock:
    """A game's clock, as read from its row (and its memo)."""

    name: str
    paused: bool  # the moderators' pause of the game (the fairness layer)
    deadline_at: datetime | None
    kind: str | None  # "phase" | "decision"
    phase_hours: float
    decision_hours: float
    reminder_hours: list[float]
    sent: list[float]  # the reminders (hours before) already posted for this deadline
    clock_paused: bool
    remaining_s: int | None  # the time left while the clock is stopped
    memo: dict[str, Any] = field(default_factory=dict)  # {"for": situation key, "outage": iso}

    @property
    def armed_for(self) -> str | None:
        """The situation key the deadline was armed for (a default applies only there)."""
        return self.memo.get("for")

    def length(self, kind: str) -> timedelta:
        return hours(self.decision_hours if kind == "decision" else self.phase_hours)

    def running(self) -> bool:
        return self.deadline_at is not None and not self.clock_paused


def view(row: sql.ClockRow) -> GameClock:
    return GameClock(
        name=row.name,
        paused=row.paused,
        deadline_at=row.deadline_at,
        kind=row.deadline_kind,
        phase_hours=float(row.phase_hours or DEFAULT_PHASE_HOURS),
        decision_hours=float(row.decision_hours or DEFAULT_DECISION_HOURS),
        reminder_hours=[float(h) for h in row.reminder_hours],
        sent=[float(h) for h in row.reminders_sent],
        clock_paused=row.clock_paused,
        remaining_s=row.paused_remaining_s,
        memo=dict(row.memo),
    )


# -- reading and writing
def load(store: Store, name: str) -> GameClock:
    """One game's clock (GameNotFound if there is no such game)."""
    return view(sql.load(store, name))


def clocks(store: Store) -> list[GameClock]:
    """Every game whose clock runs, or is stopped with time left."""
    return [view(r) for r in sql.armed(store)]


@contextmanager
def locked(store: Store, name: str) -> Iterator[tuple[Connection, GameClock]]:
    """One transaction on the locked game row: (its connection, the clock as it is now)."""
    with store.engine.begin() as conn:
        yield conn, view(sql.read(conn, name, lock=True))


def save(
    conn: Connection,
    gc: GameClock,
    changes: dict[str, Any],
    *,
    memo: dict[str, Any] | None = None,
    now: datetime | None = None,
) -> None:
    """Write changed fields (and the memo, replaced whole) in the caller's transaction (on the
    locked row: `locked`, or the game's own transaction), and into `gc`."""
    columns = {_COLUMNS[k]: v for k, v in changes.items()}
    sql.write(conn, gc.name, memo=memo, now=now, **columns)
    for key, value in changes.items():
        setattr(gc, key, list(value) if isinstance(value, list) else value)
    if memo is not None:
        gc.memo = dict(memo)


__all__ = [
    "CLEARED",
    "DEFAULT_DECISION_HOURS",
    "DEFAULT_PHASE_HOURS",
    "DEFAULT_REMINDERS",
    "KINDS",
    "GameClock",
    "When",
    "clocks",
    "load",
    "locked",
    "save",
    "view",
]

"""The text of the post every chat of a game gets after a phase (or when a decision appears).

Plain text with a little Markdown (**bold**, `code`) that both adapters render. No I/O: the chat
service gathers what is needed (the state, the events since the last post, the names, the
deadline) and this module words it:

    **hg-telegram-42-1: turn 2, german-combat**
    What happened:
    - Attack on C6: 12 vs 4 at 3:1, die 5: 2 hits.
    - 11th Panzer retreats C6 → C7.
    Soviet (alice) must take the losses at C6 (8.23).
    Deadline: 2026-12-02 14:00 UTC (in 11 h 40 min).
    Log row 57, head hash 3f2a….
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from adjudicator.hells_gate.state import GameState, phase_side

# the events a summary tells (the others are details: moves, markers, dice)
TOLD = frozenset(
    {
        "AttackResolved",
        "UnitEliminated",
        "UnitRetreated",
        "UnitFlipped",
        "ReinforcementEntered",
        "ReinforcementLost",
        "OutOfSupply",
        "SupplyRestored",
        "UnitBrokeOut",
        "UnitRebuilt",
        "WeatherChanged",
        "WeatherStays",
        "DefaultApplied",
        "LossesForced",
        "GameEnded",
    }
)
MAX_LINES = 30


@dataclass
class Post:
    """What an after-phase post says."""

    game: str
    state: GameState
    events: list[dict] = field(default_factory=list)
    head_index: int = 0
    head_hash: str = ""
    deadline_at: datetime | None = None
    clock_paused: bool = False
    paused_why: str | None = None  # the game is paused by a moderator
    now: datetime | None = None
    note: str | None = None  # a line first (e.g. what a deadline did on a player's behalf)


def happened(events: Iterable[dict], limit: int = MAX_LINES) -> list[str]:
    """The lines telling what happened: attacks with results, eliminations, retreats,
    reinforcements, supply changes, weather, defaults, the end."""
    lines: list[str] = []
    for ev in events:
        if ev.get("kind") in TOLD:
            text = ev.get("text") or ev.get("kind", "")
            if not lines or lines[-1] != text:
                lines.append(text)
    if len(lines) > limit:
        rest = len(lines) - limit + 1
        lines = [*lines[: limit - 1], f"... and {rest} more (`log` shows everything)."]
    return lines


def movers(state: GameState) -> list[str]:
    """The sides whose move it is (none once the game is over)."""
    if state.result is not None:
        return []
    if state.pending:
        return [state.pending[0].side]
    side = phase_side(state.phase)
    return [side] if side else []


def in_words(delta: timedelta) -> str:
    """47 h, 3 h 12 min, 40 min, 2 d 4 h; "now" for no time left."""
    minutes = int(delta.total_seconds() // 60)
    if minutes <= 0:
        return "now"
    hours, mins = divmod(minutes, 60)
    if hours == 0:
        return f"{mins} min"
    if hours < 10:
        return f"{hours} h {mins} min" if mins else f"{hours} h"
    if hours < 72:
        return f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def when(deadline_at: datetime, now: datetime) -> str:
    """ "2026-12-02 14:00 UTC (in 47 h)"."""
    left = deadline_at - now
    rel = "passed" if left.total_seconds() <= 0 else f"in {in_words(left)}"
    return f"{deadline_at.strftime('%Y-%m-%d %H:%M')} UTC ({rel})"


def who(side: str, names: Mapping[str, str | None]) -> str:
    name = names.get(side)
    return f"{side.title()} ({name})" if name else side.title()


def whose_move_line(state: GameState, names: Mapping[str, str | None]) -> str:
    """ "German (bob) to move: german-combat." or the pending decision, or the result."""
    if state.result is not None:
        r = state.result
        if isinstance(r, dict) and "text" in r:
            return f"Game over: {r['text']}"
        return "Game over."
    if state.pending:
        d = state.pending[0]
        return f"{who(d.side, names)} must decide: {d.prompt}"
    side = phase_side(state.phase)
    if side is None:
        return f"Turn {state.turn}, {state.phase}: no player to move."
    return f"{who(side, names)} to move: turn {state.turn}, {state.phase}."


def post_text(post: Post, names: Mapping[str, str | None]) -> str:
    s = post.state
    lines: list[str] = []
    if post.note:
        lines.append(post.note)
    lines.append(f"**{post.game}: turn {s.turn}, {s.phase}**")
    told = [t for t in happened(post.events) if not (post.note and t in post.note)]
    if told:
        lines.append("What happened:")
        lines += [f"- {t}" for t in told]
    lines.append(whose_move_line(s, names))
    if post.paused_why:
        lines.append(f"The game is paused by a moderator: {post.paused_why}.")
    if s.result is None:
        if post.clock_paused:
            lines.append("Deadline: the clock is paused.")
        elif post.deadline_at is not None and post.now is not None:
            lines.append(f"Deadline: {when(post.deadline_at, post.now)}.")
    lines.append(f"Log row {post.head_index}, head hash {post.head_hash}.")
    return "\n".join(lines)


__all__ = ["Post", "happened", "in_words", "movers", "post_text", "when", "whose_move_line"]

"""The text of the post every chat of a game gets after a phase (or when a decision appears).

Plain text with a little Markdown (**bold**, `code`) that both adapters render. No I/O: the
caller gathers what is needed (the situation, the events since the last post, the names, the
deadline) and this module words it:

    **hg-telegram-42-1: turn 2, second-combat**
    What happened:
    - Attack on C6: 12 vs 4 at 3:1, die 5: 2 hits.
    - 11th Panzer retreats C6 → C7.
    First (alice) must take the losses at C6 (8.23).
    Deadline: 2026-12-02 14:00 UTC (in 11 h 40 min).
    Log row 57, head hash 3f2a9c01d4e87b6a5f10.

A hash shows its first 20 hex characters (app/hashes.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from adjudicator.core.events import event_text
from adjudicator.core.i18n import lines as text_lines
from adjudicator.core.i18n import t, tn
from adjudicator.core.system import Side, Situation
from adjudicator.grammar.lexicon import all_of
from app.hashes import short

MAX_LINES = 30


@dataclass
class Post:
    """What an after-phase post says."""

    game: str
    situation: Situation
    sides: Sequence[Side]
    headlines: frozenset[str]  # the event kinds the post tells
    events: list[dict[str, Any]] = field(default_factory=list)
    head_index: int = 0
    head_hash: str = ""
    deadline_at: datetime | None = None
    clock_paused: bool = False
    paused_why: str | None = None  # the game is paused by a moderator
    now: datetime | None = None
    note: str | None = None  # a line first (e.g. what a deadline did on a player's behalf)
    extra: list[str] = field(default_factory=list)  # lines before the head (seats, the dice)


def happened(
    events: Iterable[dict[str, Any]], headlines: frozenset[str], limit: int = MAX_LINES
) -> list[str]:
    """The lines telling what happened: the events of the system's headline kinds, each once."""
    lines: list[str] = []
    for ev in events:
        if ev.get("kind") in headlines:
            text = event_text(ev) or ev.get("kind", "")
            if not lines or lines[-1] != text:
                lines.append(text)
    if len(lines) > limit:
        rest = len(lines) - limit + 1
        more = t("... and {n} more (`log` shows everything).", n=rest)
        lines = [*lines[: limit - 1], more]
    return lines


def in_words(delta: timedelta) -> str:
    """47 h, 3 h 12 min, 40 min, 2 d 4 h; "now" for no time left."""
    minutes = int(delta.total_seconds() // 60)
    if minutes <= 0:
        return t("now")
    hours, mins = divmod(minutes, 60)
    if hours == 0:
        return t("{m} min", m=mins)
    if hours < 10:
        return t("{h} h {m} min", h=hours, m=mins) if mins else t("{h} h", h=hours)
    if hours < 72:
        return t("{h} h", h=hours)
    days, hours = divmod(hours, 24)
    return t("{d} d {h} h", d=days, h=hours) if hours else t("{d} d", d=days)


def when(deadline_at: datetime, now: datetime) -> str:
    """ "2026-12-02 14:00 UTC (in 47 h)"."""
    left = deadline_at - now
    rel = t("passed") if left.total_seconds() <= 0 else t("in {time}", time=in_words(left))
    return t("{at} UTC ({left})", at=deadline_at.strftime("%Y-%m-%d %H:%M"), left=rel)


def side_name(sides: Sequence[Side], side: str | None) -> str:
    """The name players read for a side id ("First")."""
    return next((s.name for s in sides if s.id == side), (side or "nobody").title())


def who(sides: Sequence[Side], side: str, names: Mapping[str, str | None]) -> str:
    name = names.get(side)
    return (
        t("{side} ({user})", side=side_name(sides, side), user=name)
        if name
        else side_name(sides, side)
    )


def whose_move_line(s: Situation, sides: Sequence[Side], names: Mapping[str, str | None]) -> str:
    """ "Second (bob) to move: turn 2, second-combat." or the pending decision, or the result."""
    if s.result is not None:
        if "text" in s.result:
            return t("Game over: {result}", result=s.result["text"])
        return t("Game over.")
    if s.pending:
        d = s.pending[0]
        return t("{who} must decide: {prompt}", who=who(sides, d.side, names), prompt=d.prompt)
    if not s.to_move:
        return t("Turn {turn}, {phase}: no player to move.", turn=s.turn, phase=s.phase_said)
    return t(
        "{who} to move: turn {turn}, {phase}.",
        who=who(sides, s.to_move[0], names),
        turn=s.turn,
        phase=s.phase_said,
    )


def post_text(post: Post, names: Mapping[str, str | None]) -> str:
    s = post.situation
    lines: list[str] = []
    if post.note:
        lines.append(post.note)
    lines.append(
        t("**{game}: turn {turn}, {phase}**", game=post.game, turn=s.turn, phase=s.phase_said)
    )
    told = happened(post.events, post.headlines)
    told = [x for x in told if not (post.note and x in post.note)]
    if told:
        lines.append(t("What happened:"))
        lines += [t("- {event}", event=x) for x in told]
    lines.append(whose_move_line(s, post.sides, names))
    if post.paused_why:
        lines.append(t("The game is paused by a moderator: {why}.", why=post.paused_why))
    if not s.over:
        if post.clock_paused:
            lines.append(t("Deadline: the clock is paused."))
        elif post.deadline_at is not None and post.now is not None:
            lines.append(t("Deadline: {when}.", when=when(post.deadline_at, post.now)))
    lines += post.extra
    lines.append(
        t("Log row {row}, head hash {hash}.", row=post.head_index, hash=short(post.head_hash))
    )
    return text_lines(lines)


def free_seats_line(system: Any, free: Sequence[str]) -> str:
    """ "Free seat: <SIDE> (nobody plays it; ...)": a started game's seats nobody holds."""
    names = all_of([s.name for s in system.sides if s.id in free])
    return tn(
        "Free seat: {names} (nobody plays it; after the start only a moderator fills a "
        "seat: `seat {side} @USER`).",
        "Free seats: {names} (nobody plays it; after the start only a moderator fills a "
        "seat: `seat {side} @USER`).",
        len(free),
        names=names,
        side=free[0],
    )


__all__ = [
    "Post",
    "free_seats_line",
    "happened",
    "in_words",
    "post_text",
    "side_name",
    "when",
    "who",
    "whose_move_line",
]

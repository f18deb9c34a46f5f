"""Map images of a game: the image after each phase, for `pbem render`, the demo and the bots.

A frame is the picture players get when a phase ends: the state right after the order that ended
it (the next player's phase, with any automatic phases in between already run), and every event
since the previous frame. Frames come from the one fold of the log (app.fold.walk); a phase's
end is where the system's situation changes turn or phase, or the game ends; the phases that
ended are told by the platform's PhaseBegan events (adjudicator.core.events).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.events import PHASE_BEGAN, Event
from adjudicator.core.i18n import cat, t
from adjudicator.core.system import GameSystem, Situation
from app import fold


@dataclass
class Frame:
    turn: int | None
    phase: str  # the phase the game rests in after the frame's order
    state: Any
    events: list[dict[str, Any]] = field(default_factory=list)
    ended: list[tuple[int | None, str]] = field(default_factory=list)  # the phases that ended
    index: int = 0  # the log row of the order that made the frame
    over: bool = False
    label: str = ""  # the system's label of the situation the frame shows ("turn 3, combat")


def frames(system: GameSystem, rows: list[dict[str, Any]]) -> list[Frame]:
    """The start of the game, then one frame per order that ended a phase or finished the game;
    the last frame is always the state now (with the events since the previous frame)."""
    out = fold.setup(system, rows)
    here = system.situation(out.state)
    result = [_frame(here, out.state, [e.to_dict() for e in out.events], [], 0)]
    events: list[dict[str, Any]] = []
    ended: list[tuple[int | None, str]] = []
    state, index = out.state, 0
    for step in fold.walk(system, rows, out.state):
        new = step.outcome
        after = system.situation(new.state)
        events += [e.to_dict() for e in new.events]
        ended += _ended(here, new.events)
        index = step.row["index"]
        if (after.turn, after.phase) != (here.turn, here.phase) or after.over:
            result.append(_frame(after, new.state, events, ended, index))
            events, ended = [], []
        state, here = new.state, after
    if events:
        result.append(_frame(here, state, events, ended, index))
    return result


def _frame(
    s: Situation,
    state: Any,
    events: list[dict[str, Any]],
    ended: list[tuple[int | None, str]],
    index: int,
) -> Frame:
    return Frame(s.turn, s.phase, state, events, ended, index, s.over, s.label)


def _ended(before: Situation, events: list[Event]) -> list[tuple[int | None, str]]:
    began: list[tuple[int | None, str]] = [
        (e.data["turn"], e.data["phase"]) for e in events if e.kind == PHASE_BEGAN
    ]
    if not began:
        return []
    return [(before.turn, before.phase), *began[:-1]]


def pick(all_frames: list[Frame], turn: int | None, phase: str | None) -> Frame:
    """The frame of the end of (turn, phase), or of now; LookupError names what exists."""
    if turn is None and phase is None:
        return all_frames[-1]
    wanted = None if phase is None else phase_key(phase)
    for frame in all_frames:
        for ended_turn, p in frame.ended:
            if (turn is None or ended_turn == turn) and (wanted is None or phase_key(p) == wanted):
                return frame
    last = all_frames[-1]
    if (turn is None or last.turn == turn) and (wanted is None or phase_key(last.phase) == wanted):
        return last
    ended = [f"{n} {p}" for f in all_frames for n, p in f.ended]
    done = cat(*ended, sep=", ") if ended else t("none yet")
    raise LookupError(
        t(
            "no image for turn {turn} {phase}: phases ended so far: {done}",
            turn=turn,
            phase=phase or "",
            done=done,
        )
    )


def phase_key(phase: str) -> str:
    """A phase name as compared: case, spaces, hyphens and underscores do not matter, so
    `side combat` (as the chat accepts a phase) finds `side-combat`."""
    return "-".join(re.split(r"[\s_-]+", phase.strip().lower()))


def file_name(n: int, frame: Frame) -> str:
    """`000-start.png`, `001-t1-combat.png` (the image at the end of that phase), ..."""
    if not frame.ended:
        return f"{n:03d}-start.png" if n == 0 else f"{n:03d}-t{frame.turn}-{frame.phase}-now.png"
    turn, phase = frame.ended[0]
    return f"{n:03d}-t{turn}-{phase}{'-final' if frame.over else ''}.png"


def heading(name: str, s: Situation) -> str:
    """The title of the image of a game in situation s: the same in a chat post, `pbem render`
    and the demo's frames ("g: turn 3, combat", "... (game over)")."""
    said = cat(name, s.label, sep=": ")
    return t("{title} (game over)", title=said) if s.over else said


def title(name: str, frame: Frame) -> str:
    """The title of a frame: heading() of the situation it shows."""
    said = cat(name, frame.label, sep=": ")
    return t("{title} (game over)", title=said) if frame.over else said


__all__ = ["Frame", "file_name", "frames", "heading", "phase_key", "pick", "title"]

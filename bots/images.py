"""Map images of a game: the image after each phase, for `pbem render`, the demo and the bots.

A frame is the picture players get when a phase ends: the state right after the order that ended
it (the next player's phase, with any automatic phases in between already run), and every event
since the previous frame (attacks, moves, retreats, eliminations, supply and reinforcements).
Frames are made by replaying the effective orders of the log; rendering is left to `render`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator import grammar
from adjudicator.core.dice import FixedDice
from adjudicator.hells_gate.state import GameState
from bots.fold import drawn
from storage.audit import effective_orders


@dataclass
class Frame:
    turn: int
    phase: str  # the phase the game rests in after the frame's order
    state: GameState
    events: list[dict] = field(default_factory=list)
    ended: list[tuple[int, str]] = field(default_factory=list)  # the phases that ended
    index: int = 0  # the log row of the order that made the frame


def frames(rules, lexicon, rows: list[dict]) -> list[Frame]:
    """The start of the game, then one frame per order that ended a phase or finished the game;
    the last frame is always the state now (with the events since the previous frame)."""
    setup = rows[0]
    out = rules.new_game(sandbox=bool(setup["payload"].get("sandbox")), dice=FixedDice([]))
    state = out.state
    result = [Frame(state.turn, state.phase, state, [e.to_dict() for e in out.events])]
    events: list[dict] = []
    ended: list[tuple[int, str]] = []
    index = 0
    for row in effective_orders(rows):
        order = grammar.parse(row["text"], lexicon)
        new = rules.apply(
            state, row["actor"], order, FixedDice(drawn(row["payload"].get("rolls", [])))
        )
        events += [e.to_dict() for e in new.events]
        ended += _ended(state, new.events)
        index = row["index"]
        if (new.state.turn, new.state.phase) != (state.turn, state.phase) or new.state.result:
            result.append(Frame(new.state.turn, new.state.phase, new.state, events, ended, index))
            events, ended = [], []
        state = new.state
    if events:
        result.append(Frame(state.turn, state.phase, state, events, ended, index))
    return result


def _ended(before: GameState, events) -> list[tuple[int, str]]:
    began = [(e.data["turn"], e.data["phase"]) for e in events if e.kind == "PhaseBegan"]
    if not began:
        return []
    return [(before.turn, before.phase), *began[:-1]]


def pick(all_frames: list[Frame], turn: int | None, phase: str | None) -> Frame:
    """The frame of the end of (turn, phase), or of now; LookupError names what exists."""
    if turn is None and phase is None:
        return all_frames[-1]
    for frame in all_frames:
        for t, p in frame.ended:
            if (turn is None or t == turn) and (phase is None or p == phase):
                return frame
    last = all_frames[-1]
    if (turn is None or last.turn == turn) and (phase is None or last.phase == phase):
        return last
    done = ", ".join(f"{t} {p}" for f in all_frames for t, p in f.ended) or "none yet"
    raise LookupError(f"no image for turn {turn} {phase or ''}: phases ended so far: {done}")


def file_name(n: int, frame: Frame) -> str:
    """`000-start.png`, `001-t1-soviet-combat.png` (the image at the end of that phase), ..."""
    if not frame.ended:
        return f"{n:03d}-start.png" if n == 0 else f"{n:03d}-t{frame.turn}-{frame.phase}-now.png"
    turn, phase = frame.ended[0]
    return f"{n:03d}-t{turn}-{phase}{'-final' if frame.state.result else ''}.png"


def title(name: str, frame: Frame) -> str:
    if not frame.ended:
        return f"{name}: turn {frame.turn}, {frame.phase}"
    turn, phase = frame.ended[0]
    return f"{name}: after turn {turn} {phase}" + (" (game over)" if frame.state.result else "")

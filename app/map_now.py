"""The map of now (`map` in a chat, `pbem render` without a turn) drawn without a replay.

The picture of now is the last of the game's frames (app/frames.py): the state now, with the
events since the order that ended the previous phase; or, when no order has told anything since
that order, the state now with the events of the phase it ended. Frames come from a replay of the
whole log, which grows with the game; this module draws the same picture from the snapshot and the
rows since the phase before last ended, so the cost of `map` does not grow with the game.

Where the last two phases ended is kept on the game row (`frame_row`, `frame_before`: the rows of
the orders that ended them; a new game's setup, row 0, is its first), written in the transaction
of the order that ended the phase (app/changes.next_epoch). These marks are not chained, so they
are never trusted alone: the picture is drawn from them only while the rows they name agree (an
order row where a phase ended, no undo or rewind since, which would change which orders count);
otherwise, and for a game made before the marks existed, `frame_now` answers None and the frames
are replayed as before. The state drawn is the snapshot, which every change checks.
"""

from __future__ import annotations

import json
from typing import Any

from adjudicator.core.system import GameSystem
from storage import Store
from storage.post_rows import frame_marks, rows_between

REMOVING = ("undo", "rewind")  # the rows that change which orders count (app/fold.py)


def frame_now(
    store: Store, system: GameSystem, game: str
) -> tuple[Any, list[dict[str, Any]]] | None:
    """(the state now, the events its picture tells), as the last frame of the replay would
    give them; None when the marks cannot say (then replay)."""
    marks = frame_marks(store, game)
    if marks is None:
        return None
    row, before, head, snapshot = marks
    if row is None or row > head or (before is not None and before >= row):
        return None
    low = before if before is not None else (row if row > 0 else -1)
    rows = rows_between(store, game, low, head)
    if any(r["kind"] in REMOVING for r in rows):
        return None
    events = _events(rows, row, before)
    if events is None:
        return None
    return system.state_from_json(json.loads(snapshot)), events


def _told(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for r in rows if r["kind"] == "order" for e in r["payload"].get("events", [])]


def _events(
    rows: list[dict[str, Any]], row: int, before: int | None
) -> list[dict[str, Any]] | None:
    """The events of the picture of now, from the rows in (low, head] (see frame_now)."""
    since = [r for r in rows if r["index"] > row]
    told = _told(since)
    if told:  # orders since the last phase ended: the frame of now tells them
        return told
    if any(r["kind"] == "order" for r in since):
        return None  # orders that told nothing: the replay shows the frame before; rare
    if row == 0:  # no phase has ended yet: the start of the game, told by the setup row
        setup = rows[0] if rows and rows[0]["index"] == 0 else None
        return (
            None
            if setup is None or setup["kind"] != "setup"
            else setup["payload"].get("events", [])
        )
    if before is None:
        return None
    ended = [r for r in rows if before < r["index"] <= row]
    if not ended or ended[-1]["index"] != row or ended[-1]["kind"] != "order":
        return None
    return _told(ended)


__all__ = ["frame_now"]

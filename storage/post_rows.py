"""The log rows a post's picture tells, read alone: a phase image drawn by the outbox sender reads
the rows of its events (index in (after, upto]; from row 0 when `after` is None), not the log.
The map of now (app/map_now.py) reads the game row's marks first (`frame_marks`).

One indexed statement on (game_id, index), in the reader's snapshot. Each row comes back as the
dict `app.fold.events_since` walks ({"index", "kind", "payload"}): the chained payload as stored,
its private events sealed as in the chain (no secret is read: a picture draws no private event).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select

from storage.models import Game, LogEntry
from storage.records import loads_column
from storage.store import Store

_LOG = LogEntry.__table__  # type: ignore[attr-defined]
_GAME = Game.__table__  # type: ignore[attr-defined]
_ROWS = (
    select(_LOG.c.index, _LOG.c.kind, _LOG.c.payload)
    .where(
        _LOG.c.game_id
        == select(_GAME.c.id).where(_GAME.c.name == bindparam("name")).scalar_subquery(),
        _LOG.c.index > bindparam("after"),
        _LOG.c.index <= bindparam("upto"),
    )
    .order_by(_LOG.c.index)
)


_MARKS = select(
    _GAME.c.frame_row, _GAME.c.frame_before, _GAME.c.head_index, _GAME.c.snapshot
).where(_GAME.c.name == bindparam("name"))


def frame_marks(store: Store, game: str) -> tuple[int | None, int | None, int, str] | None:
    """The game row's (frame_row, frame_before, head_index, snapshot) read at once (None: no
    such game): where its last two phases ended, and its head and state."""
    with store.reader.connect() as conn:
        row = conn.execute(_MARKS, {"name": game}).first()
    return None if row is None else (row[0], row[1], int(row[2]), str(row[3]))


def rows_between(store: Store, game: str, after: int | None, upto: int) -> list[dict[str, Any]]:
    """The rows of `game` with index in (after, upto] (after None: from row 0), oldest first,
    as {"index", "kind", "payload"}."""
    low = -1 if after is None else int(after)
    with store.reader.connect() as conn:
        found = conn.execute(_ROWS, {"name": game, "after": low, "upto": int(upto)}).all()
    return [{"index": i, "kind": k, "payload": loads_column(p)} for i, k, p in found]


__all__ = ["frame_marks", "rows_between"]

"""What a player is told privately when he takes a side: the setup's private events for it.

A system's `initial()` may emit private events (a side's hidden die, its secret card). They are
sealed in the setup row (app/sealing.py), but nobody is seated when a game is made, so nobody
could be sent them then. Whoever takes a side later (`join <SIDE>` in the chat, a moderator's
`seat <SIDE> <USER>`) is sent each of them privately, in his language, by outbox rows written in
the transaction that seats him: the seat and the message commit together, or neither does.

Once per side and user: a seat row that seats a user on a side he held before (he left and
joined again, a moderator gave it back) sends nothing; another user taking the side is sent
them. A user who cannot be written to privately (no chat of the game on his platform, the
command line's local names) reads them in his own view of the log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adjudicator.core.events import Audience, audience_of, event_text
from adjudicator.core.i18n import t
from app import post_queue
from app.messages import Outgoing
from storage import GameTx, LogRecord, chat_store


def dm(tx: GameTx, game: str, user: str, text: str) -> list[Outgoing]:
    """A private message to a chat user ("platform:id"), its notices to the game's chat there."""
    platform, _, user_id = user.partition(":")
    chats = [c for p, c in chat_store.bindings(tx.conn, game) if p == platform]
    if not user_id or not chats:
        return []  # no chat of the game on his platform: he reads it with `pbem show --view`
    return [
        Outgoing(
            platform,
            chats[0],
            t("**{game}** (only you see this): {text}", game=game, text=text),
            user_id=user_id,
            private=True,
        )
    ]


def setup_events(tx: GameTx, side: str) -> list[dict[str, Any]]:
    """The private events of the game's setup addressed to `side`, in order (opened)."""
    found = []
    for row in tx.rows_of_kind("setup"):
        for entry in row.secret or []:
            event = entry.get("value") if isinstance(entry, dict) else None
            if not isinstance(event, dict) or "kind" not in event:
                continue  # a hidden die, not an event
            if audience_of(event) == Audience.of_side(side):
                found.append(event)
    return found


def held_before(tx: GameTx, seat: LogRecord) -> bool:
    """Whether a row before `seat` seated the same user on the same side."""
    side, user = seat.payload.get("side"), seat.payload.get("user")
    return any(
        r.index < seat.index
        and r.payload.get("action") == "seat"
        and (r.payload.get("side"), r.payload.get("user")) == (side, user)
        for r in tx.rows_of_kind("moderation")
    )


def tell_seated(tx: GameTx, seat: LogRecord, *, now: datetime) -> list[int]:
    """After the seat row `seat` (just written in `tx`): each private setup event of its side
    by a private message to the user it seats, unless he held the side before. The outbox ids
    written (dedupe keys from the seat row's key: a redelivery adds nothing)."""
    side, user = str(seat.payload.get("side")), str(seat.payload.get("user") or "")
    if seat.payload.get("action") != "seat" or not user:
        return []
    events = setup_events(tx, side)  # most systems emit none: one row read, nothing more
    if not events or held_before(tx, seat):
        return []
    outs = [out for e in events for out in dm(tx, tx.name, user, event_text(e))]
    if not outs:
        return []
    key = None if seat.key is None else f"{seat.key}:setup"
    return post_queue.write_in(
        tx.conn, tx.name, outs, key=key, now=now, fallback_chat_id=outs[0].chat_id
    )


__all__ = ["dm", "held_before", "setup_events", "tell_seated"]

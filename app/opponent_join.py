"""`join <SIDE> ai [easy|normal]`: the game's creator gives a free side to the built-in
opponent before the start (who it is and where it may sit: app/opponent_seat.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from app import games, lifecycle
from app.context import Core
from app.opponent_seat import check_seat, level_of, user_of
from storage import GameTx
from storage import outbox as outbox_rows


def join(
    core: Core, game: str, user: str, side: str, level: str | None, key: str | None, now: datetime
) -> dict[str, Any]:
    """`join <SIDE> ai [<LEVEL>]`: the creator seats the opponent on a free side before the
    start (the row is the creator's, its text the canonical `seat <SIDE> ai <LEVEL>`)."""
    system = games.system_of(core.store, game)
    ai = user_of(level)
    check_seat(system, ai)

    def take(tx: GameTx) -> dict[str, Any]:
        done = tx.find_key(key) if key else None
        if done:
            return done[0].payload
        _check_join(tx, user, side)
        tx.set_seat(side, ai)
        payload = {"action": "seat", "side": side, "user": ai, "previous": None}
        payload["why"] = "joined in the chat"
        text = f"seat {side} ai {level_of(ai)}"
        tx.append("moderation", "system", text, payload, user=user, key=key)
        return payload

    payload = lifecycle.transact(core.store, game, take, system)
    outbox_rows.notify()  # the opponent's runner looks at the game
    return payload


def _check_join(tx: GameTx, user: str, side: str) -> None:
    creator = next((r.payload.get("creator") for r in tx.rows_of_kind("setup")), None)
    if user != creator:
        raise Rejection(
            "opponent-creator-only",
            t(
                "only the game's creator ({creator}) seats the opponent with `join {side} ai`; "
                "a moderator may say `seat {side} ai`",
                creator=creator or t("none"),
                side=side,
            ),
            None,
        )
    if tx.clock().started_at is not None:
        raise Rejection(
            "started",
            t(
                "the game has started: a moderator seats the opponent with `seat {side} ai`",
                side=side,
            ),
            None,
        )
    holder = tx.seats().get(side)
    if holder is not None:
        raise Rejection("seat-taken", t("{side} is played by {user}", side=side, user=holder), None)


__all__ = ["join"]

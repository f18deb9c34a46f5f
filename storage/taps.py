"""The tokens behind buttons, select menus and callbacks (table `tap_token`, migration 0006).

A button carries only a short random token; what it stands for (the game, the situation key it
was offered in, the side, an order's text or a builder's state) stays here, on SQLite and
PostgreSQL alike, so a press is understood after a restart and nothing a platform carries can be
forged into an order.

Invariants:
- a token is 16 characters of `secrets.token_urlsafe` (96 bits): never guessed, and short enough
  for Telegram's 64-byte callback data and Discord's 100-character custom ids;
- `use` marks a token used once: of two presses of one token, exactly one gets True;
- tokens offered in a situation the game has left are dropped when the next ones are issued
  for the game (`issue` with the game's current key), so the table holds only live tokens.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update

from storage.chat_models import TapToken
from storage.chat_store import reading
from storage.models import Game, Seat, table
from storage.store import Store

TOKENS = table(TapToken)
GAMES = table(Game)
SEATS = table(Seat)
TOKEN_BYTES = 12  # 16 characters of URL-safe base64


@dataclass(frozen=True)
class Tap:
    """One token's meaning."""

    token: str
    game: str
    situation: str
    side: str
    kind: str
    payload: dict[str, Any]
    used: bool


@dataclass(frozen=True)
class Offer:
    """A token to issue: its kind and payload (the game, key and side are the issue's)."""

    kind: str
    payload: dict[str, Any]


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def issue(
    store: Store, game: str, situation: str, side: str, offers: list[Offer], *, now: datetime
) -> list[str]:
    """Store one token per offer (in one transaction) and return them in order; the game's
    tokens of other situations are dropped first (they can no longer be used)."""
    tokens = [new_token() for _ in offers]
    rows = [
        {
            "token": token,
            "game": game,
            "situation": situation,
            "side": side,
            "kind": offer.kind,
            "payload": json.dumps(offer.payload, ensure_ascii=False, sort_keys=True),
            "created_at": now,
        }
        for token, offer in zip(tokens, offers, strict=True)
    ]
    with store.engine.begin() as conn:
        stale = (TOKENS.c.game == game) & (TOKENS.c.situation != situation)
        conn.execute(delete(TOKENS).where(stale))
        if rows:
            conn.execute(insert(TOKENS), rows)
    return tokens


def find(store: Store, token: str) -> Tap | None:
    """The token's meaning, or None for a token never issued (or dropped)."""
    if not token or len(token) > 64:
        return None
    with reading(store) as conn:
        row = conn.execute(select(TOKENS).where(TOKENS.c.token == token)).first()
    return None if row is None else _tap(row._mapping)


def use(store: Store, token: str, *, now: datetime) -> bool:
    """Mark the token used; True for the one press that did it, False if it was used already."""
    with store.engine.begin() as conn:
        done = conn.execute(
            update(TOKENS)
            .where(TOKENS.c.token == token, TOKENS.c.used_at.is_(None))
            .values(used_at=now)
        ).rowcount
    return bool(done)


def remember_prompt(store: Store, token: str, prompt: str) -> None:
    """The message that asked for a line of free text (a Telegram reply prompt), so that the
    answer to it finds its builder: "<platform>:<chat>:<message id>"."""
    with store.engine.begin() as conn:
        conn.execute(update(TOKENS).where(TOKENS.c.token == token).values(prompt=prompt))


def by_prompt(store: Store, prompt: str) -> Tap | None:
    with reading(store) as conn:
        row = conn.execute(select(TOKENS).where(TOKENS.c.prompt == prompt)).first()
    return None if row is None else _tap(row._mapping)


def head(store: Store, game: str) -> tuple[int, dict[str, str | None]] | None:
    """The game's log head and its seats, in one cheap read (no snapshot): what a completion
    checks before it uses the legal orders it has cached for that head. None: no such game."""
    q = (
        select(GAMES.c.head_index, SEATS.c.side, SEATS.c.user)
        .select_from(GAMES.outerjoin(SEATS, SEATS.c.game_id == GAMES.c.id))
        .where(GAMES.c.name == game)
    )
    with reading(store) as conn:
        rows = conn.execute(q).all()
    if not rows:
        return None
    return rows[0].head_index, {r.side: r.user for r in rows if r.side is not None}


def count(store: Store, game: str) -> int:
    """How many tokens the game holds (tests: the table stays small)."""
    with reading(store) as conn:
        return len(conn.execute(select(TOKENS.c.token).where(TOKENS.c.game == game)).all())


def _tap(row: Any) -> Tap:
    return Tap(
        row["token"],
        row["game"],
        row["situation"],
        row["side"],
        row["kind"],
        json.loads(row["payload"] or "{}"),
        row["used_at"] is not None,
    )


__all__ = [
    "Offer",
    "Tap",
    "by_prompt",
    "count",
    "find",
    "issue",
    "new_token",
    "remember_prompt",
    "use",
]

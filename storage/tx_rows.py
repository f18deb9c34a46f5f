"""The statements every change runs (storage/game_tx.py), built once: no construction and no
cache key per message; and the LogEntry of a row being appended."""

from __future__ import annotations

from typing import Any, NamedTuple

from sqlalchemy import (
    BindParameter,
    CompoundSelect,
    bindparam,
    literal_column,
    null,
    select,
    union_all,
)

from storage.chat_models import ChatBinding
from storage.engine import dump
from storage.models import DiceSecret, LogEntry, Moderator, Seat, table

GAME_ID: BindParameter[int] = bindparam("g")
_SEAT, _MOD, _LOG = table(Seat), table(Moderator), table(LogEntry)
_SECRET = table(DiceSecret)
OF_KIND = (
    select(_LOG).where(_LOG.c.game_id == GAME_ID, _LOG.c.kind == bindparam("kind"))
).order_by(_LOG.c.index)
ROWS_FROM = (
    select(_LOG).where(_LOG.c.game_id == GAME_ID, _LOG.c.index >= bindparam("start"))
).order_by(_LOG.c.index)
KEYED = select(_LOG.c.index).where(_LOG.c.game_id == GAME_ID, _LOG.c.key == bindparam("key"))
UNREVEALED = select(_SECRET.c.kind, _SECRET.c.epoch, _SECRET.c.seed).where(
    _SECRET.c.game_id == GAME_ID, ~_SECRET.c.revealed
)


def _roles_and_secrets() -> CompoundSelect[*tuple[Any, ...]]:
    """The seats, the moderators and the unrevealed seeds of a game in one statement (what the
    checks before every write read): rows (what, n, a, b, c), ordered by what and n."""
    secret = _SECRET
    seats = select(
        literal_column("'seat'").label("what"),
        _SEAT.c.id.label("n"),
        _SEAT.c.side.label("a"),
        _SEAT.c.user.label("b"),
        _SEAT.c.row_hash.label("c"),
    ).where(_SEAT.c.game_id == GAME_ID)
    mods = select(
        literal_column("'moderator'"), _MOD.c.id, null(), _MOD.c.user, _MOD.c.row_hash
    ).where(_MOD.c.game_id == GAME_ID)
    seeds = select(
        literal_column("'secret'"), secret.c.epoch, secret.c.kind, secret.c.seed, null()
    ).where(secret.c.game_id == GAME_ID, ~secret.c.revealed)
    both = union_all(seats, mods, seeds)
    return both.order_by(both.selected_columns.what, both.selected_columns.n)


ROLES_AND_SECRETS = _roles_and_secrets()


class Role(NamedTuple):
    """A seat or a moderator as the checks read it (a moderator has no side)."""

    side: str | None
    user: str | None
    row_hash: str | None


_CHATS = table(ChatBinding)
CHAT_GAME = select(_CHATS.c.game).where(
    _CHATS.c.platform == bindparam("platform"), _CHATS.c.chat_id == bindparam("chat_id")
)  # the game a chat hosts: every message asks it
GAME_CHATS = (
    select(_CHATS.c.platform, _CHATS.c.chat_id)
    .where(_CHATS.c.game == bindparam("game"))
    .order_by(_CHATS.c.id)
)


TX = "pbem_tx"  # Session.info: the GameTx of the session's transaction


def entry_values(
    game_id: int,
    row: dict[str, Any],
    payload_text: str,
    prev: str,
    digest: str,
    epoch: int | None,
    secret: object,
) -> dict[str, Any]:
    """The columns of a row being appended: its chained fields as hashed, the payload as text."""
    return {
        "game_id": game_id,
        "index": row["index"],
        "kind": row["kind"],
        "actor": row["actor"],
        "user": row["user"],
        "text": row["text"],
        "payload": payload_text,
        "key": row["key"],
        "created_at": row["created_at"],
        "prev_hash": prev,
        "hash": digest,
        "epoch": epoch,
        "secret": None if secret is None else dump(secret),
    }

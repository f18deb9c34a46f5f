"""The statements every change runs (storage/game_tx.py), built once: no construction and no
cache key per message; and the LogEntry of a row being appended."""

from __future__ import annotations

from sqlalchemy import bindparam
from sqlmodel import col, select

from storage.chat_models import ChatBinding
from storage.engine import dump
from storage.models import DiceSecret, LogEntry, Moderator, Seat

GAME_ID = bindparam("g")
_SEAT, _MOD, _LOG = Seat.__table__, Moderator.__table__, LogEntry.__table__
SEATS = select(_SEAT).where(_SEAT.c.game_id == GAME_ID).order_by(_SEAT.c.id)  # Core rows: read
MODS = select(_MOD).where(_MOD.c.game_id == GAME_ID).order_by(_MOD.c.id)  # only, no ORM objects
OF_KIND = (
    select(_LOG).where(_LOG.c.game_id == GAME_ID, _LOG.c.kind == bindparam("kind"))
).order_by(_LOG.c.index)
ROWS_FROM = (
    select(_LOG).where(_LOG.c.game_id == GAME_ID, _LOG.c.index >= bindparam("start"))
).order_by(_LOG.c.index)
KEYED = select(LogEntry.index).where(LogEntry.game_id == GAME_ID, LogEntry.key == bindparam("key"))
UNREVEALED = select(DiceSecret.kind, DiceSecret.epoch, DiceSecret.seed).where(
    DiceSecret.game_id == GAME_ID, ~col(DiceSecret.revealed)
)

_CHATS = ChatBinding.__table__
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
    game_id: int, row: dict, payload_text: str, prev: str, digest: str, epoch: int | None, secret
) -> dict:
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

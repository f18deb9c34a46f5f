"""A game read whole for its audit (app/audit.py): in one snapshot, each row once.

`read(store, name)` reads, in one read transaction, the game row, every log row through one Core
statement (no ORM instance), and the game's dice seeds; it decodes each row's payload and secret
once, hashes the chain once, and runs on those same rows what `Store.verify` checks (the chain,
every epoch column and cache table: storage/caches.py `full_failure`; the anchors:
storage/watch.py), so that the audit's chain check and the store's are one. Nothing is checked
less: a row whose payload is no JSON is read as `Store.load` reads it for the audit (its text
kept) and as the whole-log check reads it (unreadable), each check hashing its own form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlmodel import Session, col, select

from storage import caches, watch
from storage.chain import chain_failure
from storage.errors import GameNotFound
from storage.models import DiceSecret, Game
from storage.records import loads_column
from storage.trust_rows import WHOLE, entries

if TYPE_CHECKING:
    from storage.store import Store

UNREADABLE = "its payload is not JSON"  # the whole-log check's word for it (trust_rows.entry_row)


@dataclass(frozen=True)
class WholeGame:
    """A game as its audit reads it (see the module doc)."""

    game: Game  # the game row
    snapshot: Any  # its snapshot, decoded
    rows: list[dict[str, Any]]  # every log row as chained (storage.LogRecord.to_dict)
    secrets: list[Any]  # each row's off-chain secret, decoded (None: none)
    chain: dict[str, Any] | None  # chain_failure(rows)
    failure: dict[str, Any] | None  # what Store.verify finds: the first failure, or None
    seeds: list[dict[str, Any]]  # the dice seeds, as Store.dice_secrets gives them


def read(store: Store, name: str) -> WholeGame:
    """The game `name` read whole (GameNotFound when there is none)."""
    with Session(store.reader, expire_on_commit=False) as s:
        g = s.exec(select(Game).where(Game.name == name)).first()
        if g is None:
            raise GameNotFound(name)
        rows: list[dict[str, Any]] = []
        whole: list[dict[str, Any]] = []  # the rows as the whole-log check reads them
        secrets: list[Any] = []
        unreadable = False
        for e in entries(s, WHOLE, {"g": g.id}):
            row = {
                "index": e.index,
                "kind": e.kind,
                "actor": e.actor,
                "user": e.user,
                "text": e.text,
                "payload": None,
                "key": e.key,
                "created_at": e.created_at,
                "prev_hash": e.prev_hash,
                "hash": e.hash,
            }
            try:
                row["payload"] = json.loads(e.payload)
                whole.append(row | {"epoch": e.epoch})
            except ValueError:  # kept as its text, as Store.load keeps it (and says so)
                row["payload"] = loads_column(e.payload)
                whole.append(row | {"epoch": e.epoch, "_error": UNREADABLE})
                unreadable = True
            rows.append(row)
            secrets.append(loads_column(e.secret))
        chain = chain_failure(rows)
        failure = caches.full_failure(
            s, g, (whole, chain_failure(whole) if unreadable else chain)
        ) or watch.anchor_failure(s, g, store.anchors)
        q = select(DiceSecret).where(DiceSecret.game_id == g.id).order_by(col(DiceSecret.id))
        seeds = [
            {"kind": d.kind, "epoch": d.epoch, "seed": d.seed, "revealed": d.revealed}
            for d in s.exec(q)
        ]
        snapshot = json.loads(g.snapshot)
    return WholeGame(g, snapshot, rows, secrets, chain, failure, seeds)


__all__ = ["WholeGame", "read"]

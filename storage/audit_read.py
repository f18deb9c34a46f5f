"""A game read whole for its audit (app/audit.py): in one snapshot, each row once.

`replayed(store, name)` reads what a replay needs (`pbem replay`, app/stored_replay.py): the
game's system, scenario, snapshot and head, and its log rows with their secrets, through two Core statements in one
read transaction, each row decoded as `Store.load` decodes it.

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

from sqlalchemy import bindparam
from sqlalchemy import select as core
from sqlmodel import Session, col, select

from storage import caches, watch
from storage.chain import CHAINED_FIELDS, chain_failure
from storage.errors import GameNotFound
from storage.models import DiceSecret, Game, table
from storage.records import loads_column
from storage.trust_rows import LOG

if TYPE_CHECKING:
    from storage.store import Store

UNREADABLE = "its payload is not JSON"  # the whole-log check's word for it (trust_rows.entry_row)


_COLUMNS = (*CHAINED_FIELDS, "prev_hash", "hash")
_WHOLE = (  # every column of the log but its ids, in this order
    core(*(LOG.c[f] for f in (*_COLUMNS, "epoch", "secret")))
    .where(LOG.c.game_id == bindparam("g"))
    .order_by(LOG.c.index)
)
_GAME = table(Game)
_HEAD = core(
    _GAME.c.id, _GAME.c.game, _GAME.c.scenario_text, _GAME.c.snapshot, _GAME.c.head_index
).where(_GAME.c.name == bindparam("name"))
_ROWS = (
    core(*(LOG.c[f] for f in (*_COLUMNS, "secret")))
    .where(LOG.c.game_id == bindparam("g"))
    .order_by(LOG.c.index)
)


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
        found = s.connection().execute(_WHOLE, {"g": g.id}).all()
        for (
            index,
            kind,
            actor,
            user,
            text,
            payload,
            key,
            created,
            prev,
            digest,
            epoch,
            secret,
        ) in found:
            row = {
                "index": index,
                "kind": kind,
                "actor": actor,
                "user": user,
                "text": text,
                "payload": None,
                "key": key,
                "created_at": created,
                "prev_hash": prev,
                "hash": digest,
            }
            try:
                row["payload"] = json.loads(payload)
                whole.append(row | {"epoch": epoch})
            except ValueError:  # kept as its text, as Store.load keeps it (and says so)
                row["payload"] = loads_column(payload)
                whole.append(row | {"epoch": epoch, "_error": UNREADABLE})
                unreadable = True
            rows.append(row)
            secrets.append(loads_column(secret))
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


@dataclass(frozen=True)
class Replayed:
    """A game as its replay reads it (see the module doc)."""

    game: str  # the game system's id
    scenario_text: str
    snapshot: Any  # the game's snapshot, decoded
    head_index: int
    rows: list[dict[str, Any]]  # every log row as chained, with "secret" where it has one


def replayed(store: Store, name: str) -> Replayed:
    """The game `name` as a replay reads it (GameNotFound when there is none)."""
    with store.reader.connect() as conn:
        head = conn.execute(_HEAD, {"name": name}).first()
        if head is None:
            raise GameNotFound(name)
        found = conn.execute(_ROWS, {"g": head.id}).all()
    rows = []
    for index, kind, actor, user, text, payload, key, created_at, prev, digest, secret in found:
        row = {
            "index": index,
            "kind": kind,
            "actor": actor,
            "user": user,
            "text": text,
            "payload": loads_column(payload),
            "key": key,
            "created_at": created_at,
            "prev_hash": prev,
            "hash": digest,
        }
        opened = loads_column(secret)
        if opened:
            row["secret"] = opened
        rows.append(row)
    snapshot = json.loads(head.snapshot)
    return Replayed(head.game, head.scenario_text, snapshot, head.head_index, rows)


__all__ = ["Replayed", "WholeGame", "read", "replayed"]

"""The caches of the chain: what the seat, moderator and dice bookkeeping tables must hold.

`derive` reads it off the chained rows (the migration of old games uses it too), `table_failure`
names the first table row that disagrees (the audit's table check), `fill_caches` rewrites the
tables from the chain (`pbem repair`). `full_failure` checks a whole game (once per process and by
the audit): the chain, every row's epoch column, then every cache table against what the chain
derives and every seed against its commitment, then the head (and the pause flag,
storage/pause_cache.py), and last the database's append-only guards (storage/append_only.py);
with it the service's identity chain is checked whole again (storage/identity_chain.py: a
broken one is logged for the host and its links are not honoured; the game is not frozen).
See storage/trust.py.
"""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from storage import append_only, identity_chain
from storage.chain import chain_failure
from storage.models import DiceSecret, GameColumns, Moderator, Seat, stored_id
from storage.pause_cache import derive_pause
from storage.trust import Failure, _fail, check_head, check_seed, epoch_column_problem
from storage.trust_rows import WHOLE, entries, entry_row
from texts.i18n import t


def derive(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """What the caches must hold, from the chained rows: seats {side: (user, hash)},
    moderators {user: hash}, the dice bookkeeping's source row hash."""
    seats: dict[str, tuple[str | None, str]] = {}
    mods: dict[str, str] = {}
    dice_src: str | None = None
    open_epoch = 0
    for row in rows:
        p = row.get("payload")
        if not isinstance(p, dict):
            continue
        kind = row["kind"]
        if kind == "setup" and p.get("creator"):
            mods[p["creator"]] = row["hash"]
        elif kind == "moderation":
            action = p.get("action")
            if action in ("seat", "unseat") and p.get("side"):
                seats[p["side"]] = (p.get("user") if action == "seat" else None, row["hash"])
            elif action == "moderator-add":
                mods[p["user"]] = row["hash"]
            elif action == "moderator-remove" and isinstance(p.get("user"), str):
                mods.pop(p["user"], None)
        elif kind in ("epoch", "salt", "reveal"):
            dice_src = row["hash"]
            open_epoch = p.get("epoch", 0) if kind == "epoch" else open_epoch
        elif kind == "order" and any(
            r.get("n") is not None and r.get("epoch") == open_epoch for r in p.get("rolls", [])
        ):
            dice_src = row["hash"]
    return {"seats": seats, "moderators": mods, "dice": dice_src}


def table_failure(s: Session, g: GameColumns, rows: list[dict[str, Any]]) -> Failure | None:
    """A cache table row that disagrees with what the chain derives."""
    want = derive(rows)
    by_hash = {r["hash"]: r["index"] for r in rows}
    seats = list(s.exec(select(Seat).where(Seat.game_id == g.id).order_by(col(Seat.id))))
    for seat in seats:
        user, digest = want["seats"].get(seat.side, (None, rows[0]["hash"]))
        if seat.user != user or (user is not None and seat.row_hash != digest):
            return _fail(
                by_hash.get(digest, 0),
                t(
                    "seat table row {side} = {user} disagrees with the chain: row {get} gives it to {user2}",
                    side=seat.side,
                    user=repr(seat.user),
                    get=by_hash.get(digest, 0),
                    user2=repr(user),
                ),
            )
    mods = list(s.exec(select(Moderator).where(Moderator.game_id == g.id)))
    have = {m.user: m.row_hash for m in mods}
    for user, digest in have.items():
        if user not in want["moderators"] or want["moderators"][user] != digest:
            return _fail(
                by_hash.get(want["moderators"].get(user) or "", g.head_index),
                t(
                    "moderator table row {user} disagrees with the chain (no chained row makes him a moderator now)",
                    user=repr(user),
                ),
            )
    for user, digest in want["moderators"].items():
        if user not in have:
            return _fail(
                by_hash[digest],
                t(
                    "moderator {user} of row {value} is missing from the moderator table",
                    user=repr(user),
                    value=by_hash[digest],
                ),
            )
    if g.epoch_row_hash != want["dice"]:
        return _fail(
            by_hash.get(want["dice"] or "", g.head_index),
            "the game row's dice bookkeeping names another row than the chain's last dice row",
        )
    revealed = {
        (r["payload"].get("epoch")): r["payload"].get("seed") for r in rows if r["kind"] == "reveal"
    }
    q = select(DiceSecret).where(DiceSecret.game_id == g.id)
    for secret in s.exec(q.order_by(col(DiceSecret.id))):
        if secret.kind == "epoch" and secret.epoch in revealed:
            if revealed[secret.epoch] != secret.seed:
                return _fail(
                    g.head_index,
                    t(
                        "the stored seed of epoch {epoch} is not the one its reveal row published",
                        epoch=secret.epoch,
                    ),
                )
            continue
        fail = check_seed(s, g, secret.kind, secret.epoch, secret.seed)
        if fail:
            return fail
    return None


def fill_caches(s: Session, g: GameColumns, rows: list[dict[str, Any]]) -> None:
    """Rewrite the cache tables from the chain (the migration of old games, and repair)."""
    want = derive(rows)
    for seat in s.exec(select(Seat).where(Seat.game_id == g.id)):
        seat.user, seat.row_hash = want["seats"].get(seat.side, (None, rows[0]["hash"]))
        s.add(seat)
    for mod in list(s.exec(select(Moderator).where(Moderator.game_id == g.id))):
        if mod.user in want["moderators"]:
            mod.row_hash = want["moderators"].pop(mod.user)
            s.add(mod)
        else:
            s.delete(mod)
    for user, digest in want["moderators"].items():
        s.add(Moderator(game_id=stored_id(g), user=user, row_hash=digest))
    g.epoch_row_hash = want["dice"]
    g.paused, g.paused_why = derive_pause(rows)  # the last pause or resume row's


def full_failure(
    s: Session, g: GameColumns, read: tuple[list[dict[str, Any]], Any] | None = None
) -> Failure | None:
    """The whole log's chain, then every cache against the chain (the audit's table check).
    read: the whole log as entry_row gives it, read in this session already, and its
    chain_failure (the audit reads and hashes the log once: storage/audit_read.py)."""
    if read is None:
        rows = [entry_row(e) for e in entries(s, WHOLE, {"g": g.id})]
        fail = chain_failure(rows)
    else:
        rows, fail = read
    if fail:
        return _fail(fail["index"], fail["problem"])
    if not rows or rows[-1]["index"] != g.head_index or rows[-1]["hash"] != g.head_hash:
        return _fail(len(rows) - 1, "the game row's head is not the log's last row")
    for row in rows:
        problem = epoch_column_problem(row)
        if problem:
            return _fail(row["index"], problem)
    failure = table_failure(s, g, rows) or check_head(s, g)  # (check_head: the pause flag too)
    if failure is None:  # the log holds: is the database still keeping it append-only?
        failure = append_only.failure(append_only.problems(s.connection()), g.head_index)
    identity_chain.identity_failure(s.connection())  # the service's links: logged, not the game's
    return failure


__all__ = ["derive", "fill_caches", "full_failure", "table_failure"]

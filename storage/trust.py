"""Trust in a stored game: the checks before every write, and the derivation of every cache.

The chained log is the only authority. The tables a power is read from are caches of chained
rows, and each cache row carries the hash of the chained row it comes from:
- `Seat.row_hash`: the row that gave the side to its user (a `moderation` seat row), or row 0;
- `Moderator.row_hash`: the row that made him a moderator (row 0's creator, or `moderator add`);
- `Game.epoch_row_hash`: the last row that changed the dice bookkeeping (`epoch`, `salt`,
  `reveal`, or an `order` that drew): `epoch`, `epoch_turn`, `epoch_commitment`, `epoch_next_n`
  and `salt_digest` must be what that row (and the epoch's salts) say.

`check_head` (constant time, before every write): the head row is the game row's head, hashes to
its hash and links to its predecessor; the dice bookkeeping agrees with its row; the pause flag
with the last pause or resume row (storage/pause_cache.py). `check_roles`
(constant time per seat or moderator read): each cache row's source row is a chained row saying
what the cache says. The whole log's check (once per process and by the audit) is
storage/caches.py's `full_failure`. A failure is a dict {"index", "problem"}: the first bad row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlmodel import Session

from storage import chain, pause_cache
from storage import dice as committed
from storage.chain import at_row
from storage.errors import Tampered
from storage.models import GameColumns, LogEntry, Moderator, Seat
from storage.trust_rows import (
    EPOCH,
    SALTS,
    Entry,
    cache,
    entries,
    entry_at,
    entry_row,
    fetch,
    prefetch,
    tail,
)
from storage.tx_rows import Role
from texts.i18n import t, tn

_cache, _entry, _fetch = cache, entry_at, fetch  # the rows the checks read (trust_rows.py)

Failure = dict[str, Any]


_RIGHT: dict[tuple[Any, ...], dict[str, Any]] = {}  # stored values -> the row, hashing right
_RIGHT_MAX = 4096  # rows remembered (the heads and dice rows of the games being played)


def _checked(e: LogEntry | Entry) -> tuple[dict[str, Any], str | None]:
    """entry_row(e) and its own hash's problem (None: it hashes right). A row's hash is a pure
    function of its stored values, so a row found right is remembered by them: the checks
    before the next write (its head's predecessor, the dice rows) neither parse nor hash it
    again, and a row changed in any value is a new key, checked afresh. Read-only rows."""
    raw = (
        e.index,
        e.kind,
        e.actor,
        e.user,
        e.text,
        e.payload,
        e.key,
        e.created_at,
        e.prev_hash,
        e.hash,
        e.epoch,
    )
    row = _RIGHT.get(raw)
    if row is not None:
        return row, None
    row = entry_row(e)
    problem = _own_hash_problem(row)
    if problem is None:
        if len(_RIGHT) >= _RIGHT_MAX:
            _RIGHT.clear()
        _RIGHT[raw] = row
    return row, problem


def _own_hash_problem(row: dict[str, Any]) -> str | None:
    if "_error" in row:
        return at_row(row["index"], row["_error"])
    try:
        if chain.row_hash(row["prev_hash"], row) != row["hash"]:
            return at_row(row["index"], t("hash mismatch (its content was edited)"))
    except (TypeError, ValueError) as exc:
        return at_row(row["index"], t("fields are not plain JSON ({exc})", exc=exc))
    return None


def _fail(index: int, problem: str) -> Failure:
    return {"index": index, "problem": problem}


def check_head(
    s: Session, g: GameColumns, hashes: Iterable[str] = (), epochs: Iterable[int] = ()
) -> Failure | None:
    """Before a write: the head row and its link, and the dice bookkeeping (constant time).
    hashes, epochs: the source rows of the seats and moderators, and the epochs of the seeds,
    that the checks read next (prefetched with the head)."""
    prefetch(s, g, hashes, epochs)
    head = _entry(s, g, g.head_index)
    if head is None or head.hash != g.head_hash:
        values = {"row": g.head_index, "hash": g.head_hash[:12]}
        missing = (
            t(
                "the game's head is row {row} with hash {hash}..., the log's row {row} is "
                "missing (rows deleted, added or edited)",
                **values,
            )
            if head is None
            else t(
                "the game's head is row {row} with hash {hash}..., the log's row {row} is "
                "hash {found}... (rows deleted, added or edited)",
                found=head.hash[:12],
                **values,
            )
        )
        return _fail(g.head_index, missing)
    row, problem = _checked(head)
    if problem:
        return _fail(head.index, problem)
    prev = _entry(s, g, g.head_index - 1) if g.head_index else None
    expected_prev = chain.GENESIS if prev is None else prev.hash
    if g.head_index and prev is None:
        return _fail(
            g.head_index - 1, t("row {value} is missing (deleted)", value=g.head_index - 1)
        )
    if head.prev_hash != expected_prev:
        return _fail(head.index, at_row(head.index, t("prev_hash does not link to the row before")))
    if prev is not None:
        problem = _checked(prev)[1]
        if problem:
            return _fail(prev.index, problem)
    problem = epoch_column_problem(row)
    if problem:
        return _fail(head.index, problem)
    return check_dice(s, g) or pause_cache.pause_failure(s, g, _checked)  # (the pause flag)


def _by_hash(s: Session, g: GameColumns, digest: str | None) -> dict[str, Any] | None:
    """The chained row with this hash, when it hashes to it and the next row links to it."""
    if not digest:
        return None
    _fetch(s, g, [digest])
    e = _cache(s, g).get(digest)
    if e is None or e.index > g.head_index or e.hash != digest:
        return None
    row, problem = _checked(e)
    if problem:
        return None
    if e.index < g.head_index:
        nxt = _entry(s, g, e.index + 1)
        if nxt is None or nxt.prev_hash != e.hash:
            return None
    elif e.hash != g.head_hash:
        return None
    return row


chained_row = _by_hash  # the chained row with this hash, or None


def epoch_column_problem(row: dict[str, Any]) -> str | None:
    expected = row_epoch(row)
    if expected is not ANY and row["epoch"] != expected:
        return at_row(
            row["index"],
            t(
                "its epoch column says {epoch}, its chained payload {expected}",
                epoch=repr(row["epoch"]),
                expected=repr(expected),
            ),
        )
    return None


ANY = object()


def row_epoch(row: dict[str, Any]) -> Any:
    """The epoch column a row must carry, from its chained payload (ANY: not determined)."""
    p = row.get("payload")
    if not isinstance(p, dict):
        return ANY
    if row["kind"] in ("epoch", "salt", "reveal"):
        return p.get("epoch")
    if row["kind"] == "order":
        drawn = [r.get("epoch") for r in p.get("rolls", []) if r.get("n") is not None]
        return drawn[0] if drawn else ANY  # an order without draws keeps the open epoch's
    return None if row["kind"] in ("setup", "moderation", "undo", "rewind") else ANY


def salts_of(
    s: Session, g: GameColumns, epoch: int, *, prefetched: bool = False
) -> tuple[list[str], Failure | None]:
    """The epoch's salts in log order, each row checked against its chained payload.
    prefetched: as the checks before the write read them (no salt written since)."""
    found = _cache(s, g).get(("salts", epoch)) if prefetched else None
    if found is None:
        found = entries(s, SALTS, {"g": g.id, "epoch": epoch})
    salts = []
    for e in found:
        row, problem = _checked(e)
        problem = problem or epoch_column_problem(row)
        if problem:
            return [], _fail(e.index, problem)
        salts.append(row["payload"]["salt"])
    return salts, None


def epoch_row(
    s: Session, g: GameColumns, epoch: int
) -> tuple[dict[str, Any] | None, Failure | None]:
    cache = _cache(s, g)
    if ("epoch", epoch) not in cache:
        found = entries(s, EPOCH, {"g": g.id, "epoch": epoch})
        cache[("epoch", epoch)] = found[0] if found else None
    e = cache[("epoch", epoch)]
    if e is None:
        return None, _fail(
            g.head_index, t("no chained `epoch` row opens the open epoch {epoch}", epoch=epoch)
        )
    row, problem = _checked(e)
    problem = problem or epoch_column_problem(row)
    return (None, _fail(e.index, problem)) if problem else (row, None)


def check_dice(s: Session, g: GameColumns) -> Failure | None:
    """The game row's dice bookkeeping against the chained row it comes from."""
    src = _by_hash(s, g, g.epoch_row_hash)
    if src is None:
        return _fail(
            g.head_index,
            t(
                "the game row's dice bookkeeping names no chained row (epoch_row_hash {value}... is not in the log)",
                value=(g.epoch_row_hash or "")[:12],
            ),
        )
    at = src["index"]
    p = src["payload"]
    if src["kind"] == "reveal" or (src["kind"] == "order" and not g.epoch):
        if g.epoch or g.epoch_commitment or g.salt_digest:
            return _fail(
                at, t("row {at} ended the dice epochs but the game row has one open", at=at)
            )
        return None
    k = g.epoch
    # an order's draws, or those the setup made from epoch 1 (recorded in its epoch row)
    ns = [r["n"] for r in p.get("rolls", []) if r.get("n") is not None and r.get("epoch") == k]
    if not ns and src["kind"] not in ("epoch", "salt"):
        return _fail(at, t("row {at} drew nothing in the game row's epoch {k}", at=at, k=k))
    want_n = max(ns, default=0) + 1
    if src.get("epoch") != k:
        return _fail(
            at,
            t(
                "the game row's open epoch is {k}, its source row {at} is of epoch {get}",
                k=k,
                at=at,
                get=src.get("epoch"),
            ),
        )
    if g.epoch_next_n != want_n:
        return _fail(
            at,
            t(
                "the roll counter says draw {epoch_next_n} is next, row {at} says {want_n}",
                epoch_next_n=g.epoch_next_n,
                at=at,
                want_n=want_n,
            ),
        )
    opened, fail = epoch_row(s, g, k)
    if fail or opened is None:
        return fail
    op = opened["payload"]
    if g.epoch_commitment != op.get("commitment") or g.epoch_turn != op.get("turn"):
        return _fail(
            opened["index"],
            t(
                "the game row's commitment or turn of epoch {k} is not the one row {index} committed",
                k=k,
                index=opened["index"],
            ),
        )
    salts, fail = salts_of(s, g, k, prefetched=True)
    if fail:
        return fail
    if (g.salt_digest or committed.EMPTY_SALT_DIGEST) != committed.salt_digest(salts):
        return _fail(
            at,
            tn(
                "the stored salt digest of epoch {k} is not the digest of its {n} chained salt row",
                "the stored salt digest of epoch {k} is not the digest of its {n} chained salt rows",
                len(salts),
                k=k,
            ),
        )
    return None


def check_seed(s: Session, g: GameColumns, kind: str, epoch: int, seed: str) -> Failure | None:
    """A seed against the commitment its epoch row chained, before its first use."""
    opened, fail = epoch_row(s, g, epoch)
    if fail or opened is None:
        return fail
    field = "commitment" if kind == "epoch" else "hidden_commitment"
    if committed.commitment(seed) != opened["payload"].get(field):
        return _fail(
            opened["index"],
            (
                t(
                    "the stored hidden seed of epoch {epoch} does not match the commitment row {index} chained",
                    epoch=epoch,
                    index=opened["index"],
                )
                if kind == "hidden"
                else t(
                    "the stored seed of epoch {epoch} does not match the commitment row {index} chained",
                    epoch=epoch,
                    index=opened["index"],
                )
            ),
        )
    return None


def check_roles(
    s: Session, g: GameColumns, seats: Iterable[Seat | Role], mods: Iterable[Moderator | Role]
) -> Failure | None:
    """Each seat held and each moderator against the chained row it names (constant time each)."""
    seats, mods = list(seats), list(mods)
    _fetch(s, g, [x.row_hash or "" for x in [*seats, *mods]])
    for seat in seats:
        if seat.user is None:
            continue
        row = _by_hash(s, g, seat.row_hash)
        p = row["payload"] if row else {}
        if not (
            row
            and row["kind"] == "moderation"
            and p.get("action") == "seat"
            and (p.get("side"), p.get("user")) == (seat.side, seat.user)
        ):
            return _fail(
                row["index"] if row else g.head_index,
                t(
                    "the seat table gives {side} to {user}, and no chained row does (its row hash {value}...)",
                    side=seat.side,
                    user=seat.user,
                    value=(seat.row_hash or "none")[:12],
                ),
            )
    for mod in mods:
        row = _by_hash(s, g, mod.row_hash)
        p = row["payload"] if row else {}
        ok = row is not None and (
            (row["kind"] == "setup" and p.get("creator") == mod.user)
            or (
                row["kind"] == "moderation"
                and p.get("action") == "moderator-add"
                and p.get("user") == mod.user
            )
        )
        if not ok:
            return _fail(
                row["index"] if row else g.head_index,
                t(
                    "the moderator table names {user}, and no chained row made him one (its row hash {value}...)",
                    user=mod.user,
                    value=(mod.row_hash or "none")[:12],
                ),
            )
    return None


__all__ = [
    "ANY",
    "Entry",
    "Tampered",
    "chained_row",
    "check_dice",
    "check_head",
    "check_roles",
    "check_seed",
    "entry_row",
    "epoch_column_problem",
    "epoch_row",
    "prefetch",
    "salts_of",
    "tail",
]

"""The identity links of the service: one hash-chained table shared by every game.

A link joins two platform accounts (app/identities.py: asked for with `identity link`, which
sends a one-time code to the asker's private chat, and confirmed with `identity confirm CODE` by
his account on the other platform). Each link is a row of `identitylink` (storage/models.py),
numbered 0, 1, 2, ... with no gap, storing who linked whom (`user` confirmed the code `other`
asked for), how (`code`; `moved`: a link made before the chain, moved by migration 0009), when,
the previous row's hash and its own:

    hash(row) = SHA-256(prev_hash + canonical JSON of IDENTITY_FIELDS), row 0 chained to GENESIS

(storage/chain.py's hashing). The database refuses an UPDATE or DELETE of a row
(storage/append_only.py).

A link is trusted only when its row is genuine: its own hash holds and it links to the row
before it (`link_of`, one statement, on every use); and the whole chain is checked once per
process and database (the first use) and again with every game's whole-log check
(storage/caches.py `full_failure`): `identity_failure`. A broken chain is logged for the host
(logger `pbem.identity`) and no link is honoured until it is repaired: `repair` (run by the
host: `python -m storage.identity_repair --db URL`) drops the rows from the first bad one
on, inside one transaction that lifts and restores this table's guards, and names the accounts
whose links were dropped (they link again). A game records a link it honours in its own chained
log (an `identity` moderation row naming this row's index and hash).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import BindParameter, bindparam, delete, insert, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage import append_only, chain
from storage.models import IdentityLink, iso_now, table
from texts.i18n import t

log = logging.getLogger("pbem.identity")

IDENTITY_FIELDS = ("index", "action", "user", "other", "how", "created_at")
LINKS = table(IdentityLink)
TABLE = "identitylink"
REPAIR = "python -m storage.identity_repair --db DATABASE"

Row = dict[str, Any]
Failure = dict[str, Any]  # {"index": the first bad row, "problem": what is wrong there}

_USER: BindParameter[str] = bindparam("u")
_MINE = select(LINKS.c.index).where(or_(LINKS.c.user == _USER, LINKS.c.other == _USER))
# the user's rows and the row before each (its link): one statement
_WITH_PREV = (
    select(LINKS)
    .where(or_(LINKS.c.index.in_(_MINE), (LINKS.c.index + 1).in_(_MINE)))
    .order_by(LINKS.c.index)
)
_WHOLE = select(LINKS).order_by(LINKS.c.index)
_LAST = select(LINKS).order_by(LINKS.c.index.desc()).limit(1)

_CHECKED: dict[str, Failure | None] = {}  # database -> its whole chain's failure at the last check
_TOLD: set[tuple[str, str]] = set()  # (database, problem) logged already


def row_hash(prev_hash: str, row: Mapping[str, Any]) -> str:
    return hashlib.sha256(
        prev_hash.encode() + chain.canonical({f: row[f] for f in IDENTITY_FIELDS})
    ).hexdigest()


def _row(r: Any) -> Row:
    return {c: getattr(r, c) for c in (*IDENTITY_FIELDS, "prev_hash", "hash")}


def row_problem(row: Row, prev: Row | None) -> str | None:
    """Why a row is not a genuine row of the chain, given the row before it (None for row 0)."""
    i = row["index"]
    want = chain.GENESIS if i == 0 else (prev or {}).get("hash")
    if i != 0 and (prev is None or prev["index"] != i - 1):
        return t("identity row {i}: row {before} before it is missing", i=i, before=i - 1)
    if row["prev_hash"] != want:
        return t(
            "identity row {i}: it does not link to row {before} (inserted or re-chained)",
            i=i,
            before=i - 1,
        )
    try:
        if row_hash(row["prev_hash"], row) != row["hash"]:
            return t("identity row {i}: hash mismatch (its content was edited)", i=i)
    except (TypeError, ValueError) as exc:
        return t("identity row {i}: fields are not plain JSON ({exc})", i=i, exc=str(exc))
    if row["action"] != "link":
        return t("identity row {i}: unknown action {action}", i=i, action=repr(row["action"]))
    return None


def chain_failure(rows: Sequence[Row]) -> Failure | None:
    """The first row of the whole chain that does not fit, or None."""
    prev = None
    for pos, row in enumerate(rows):
        if row["index"] != pos:
            return {
                "index": pos,
                "problem": t("identity row {pos} is missing or out of place", pos=pos),
            }
        problem = row_problem(row, prev)
        if problem:
            return {"index": pos, "problem": problem}
        prev = row
    return None


def _database(conn: Connection) -> str:
    return conn.engine.url.render_as_string(hide_password=True)


def _reading(source: Any) -> contextlib.AbstractContextManager[Connection]:
    """The caller's connection (inside its transaction), or a store's reader."""
    if isinstance(source, Connection):
        return contextlib.nullcontext(source)
    reader = source.reader.connect()
    assert isinstance(reader, Connection)
    return reader


def _tell(conn: Connection, problem: str) -> None:
    """The host hears of each problem once per process, in the service's log."""
    key = (_database(conn), problem)
    if key not in _TOLD:
        _TOLD.add(key)
        log.error(
            "identity links: %s; links are not honoured until the host repairs it (%s: drops "
            "the rows from the first bad one on; those players say `identity link` again)",
            problem,
            REPAIR,
        )


def identity_failure(conn: Connection) -> Failure | None:
    """The whole identity chain's first bad row (logged for the host), or None; remembered for
    this process until the next whole check."""
    rows = [_row(r) for r in conn.execute(_WHOLE)]
    fail = chain_failure(rows)
    if fail is not None:
        _tell(conn, t("the identity chain is broken at {problem}", problem=fail["problem"]))
    _CHECKED[_database(conn)] = fail
    return fail


def whole_failure(conn: Connection) -> Failure | None:
    """The whole chain checked once per process and database; a broken one is checked again on
    every use (it may have been repaired since)."""
    key = _database(conn)
    if key in _CHECKED and _CHECKED[key] is None:
        return None
    return identity_failure(conn)


def broken(source: Any) -> str | None:
    """Why no link is honoured or made now (the chain is broken), or None."""
    with _reading(source) as conn:
        fail = whole_failure(conn)
    return None if fail is None else str(fail["problem"])


def link_of(source: Any, user: str) -> tuple[str | None, str | None]:
    """(the account linked with `user`, or None; why the link is not to be honoured, or None).
    source: a store, or the connection of the caller's transaction."""
    row, problem = link_row(source, user)
    if row is None:
        return None, None
    return (row["other"] if row["user"] == user else row["user"]), problem


def link_row(source: Any, user: str) -> tuple[Row | None, str | None]:
    """The chained row of `user`'s link (None: none), and why it is not to be honoured (a row
    that is not genuine, or a broken chain), or None."""
    with _reading(source) as conn:
        whole = whole_failure(conn)
        found = [_row(r) for r in conn.execute(_WITH_PREV, {"u": user})]
        by_index = {r["index"]: r for r in found}
        mine = [r for r in found if user in (r["user"], r["other"])]
        if not mine:
            return None, None
        if whole is not None:
            return mine[-1], t(
                "the identity chain is broken at {problem}", problem=whole["problem"]
            )
        for row in mine:
            problem = row_problem(row, by_index.get(row["index"] - 1))
            if problem:
                _tell(conn, f"the link of {row['user']} with {row['other']}: {problem}")
                return mine[-1], problem
    return mine[-1], None


class Broken(Exception):
    """The identity chain is broken: no link is made or honoured until the host repairs it."""


def append_link(engine: Any, user: str, other: str, *, how: str = "code") -> Row:
    """Chain a new link (its own transaction; a lost race for the next index is tried again)."""
    for attempt in range(3):
        try:
            with engine.begin() as conn:
                whole = whole_failure(conn)
                if whole is not None:
                    raise Broken(whole["problem"])
                last = conn.execute(_LAST).first()
                prev = _row(last) if last is not None else None
                problem = None if prev is None else row_problem(prev, _prev_of(conn, prev))
                if problem is not None:  # the last row, added since the whole check
                    raise Broken(problem)
                return insert_link(conn, prev, user, other, how, iso_now())
        except IntegrityError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _prev_of(conn: Connection, row: Row) -> Row | None:
    if row["index"] == 0:
        return None
    found = conn.execute(select(LINKS).where(LINKS.c.index == row["index"] - 1)).first()
    return None if found is None else _row(found)


def insert_link(
    conn: Connection, prev: Row | None, user: str, other: str, how: str, created_at: str
) -> Row:
    """Insert the row after `prev` (None: row 0) in the caller's transaction (and migration)."""
    row: Row = {
        "index": 0 if prev is None else prev["index"] + 1,
        "action": "link",
        "user": user,
        "other": other,
        "how": how,
        "created_at": created_at,
        "prev_hash": chain.GENESIS if prev is None else prev["hash"],
    }
    row["hash"] = row_hash(row["prev_hash"], row)
    conn.execute(insert(LINKS).values(**row))
    return row


def repair(conn: Connection) -> list[Row]:
    """Drop the rows from the first bad one on (in the caller's transaction, under this table's
    guards, lifted and restored inside it); the rows dropped (none: the chain holds)."""
    fail = identity_failure(conn)
    if fail is None:
        return []
    dropped = [_row(r) for r in conn.execute(_WHOLE.where(LINKS.c.index >= fail["index"]))]
    lifted = append_only.lift(conn, (TABLE,))
    conn.execute(delete(LINKS).where(LINKS.c.index >= fail["index"]))
    append_only.restore(conn, (TABLE,))
    log.warning(
        "identity chain repaired: %d rows dropped from row %d (guards lifted: %s): %s",
        len(dropped),
        fail["index"],
        ", ".join(lifted) or "none",
        "; ".join(f"{r['user']} with {r['other']}" for r in dropped),
    )
    _CHECKED.pop(_database(conn), None)
    return dropped


__all__ = [
    "IDENTITY_FIELDS",
    "Broken",
    "append_link",
    "broken",
    "chain_failure",
    "identity_failure",
    "insert_link",
    "link_of",
    "link_row",
    "repair",
    "row_hash",
    "row_problem",
    "whole_failure",
]

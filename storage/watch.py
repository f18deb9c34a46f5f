"""The background check of every game's whole chain while a service runs (`pbem serve`).

The checks before a write are constant time (storage/trust.py): a row in the middle of the log
that a host edits while the service runs is not among the rows they read. `Watch.run_pass` walks
the logs of every game of the database in slices (at most `budget` rows a pass; a walk that
does not fit goes on at the next pass, so a big database is covered over several passes), off
the message path: a pass reads through its own read connection and holds no game's lock.

Each row read is checked as the whole-log check does it: it is readable, carries the index that
follows, links to the row before, hashes to its hash, and its epoch column is its payload's.
When a game's whole log has been walked, the walk ends with the checks of its caches against
what the chain derives (storage/caches.py `table_failure`), the head and the dice bookkeeping
(`check_head`), the checks the layer above adds (`extra`: the snapshot against the state row,
app/chain_watch.py), and the append-only guards.

The anchor: what this process verified of a game, (index, hash) of the last row verified, and
the last `repair` row up to it. A log whose row at that index has another hash now (a rewrite
re-chained after it, which the chain alone does not show) or that ends before it (a
truncation) fails, unless a `repair` row that the anchor does not know stands at or before it
(`pbem repair` is logged, and changes rows on purpose). Each completed walk also writes its
anchor to the database (service_state "chain:<game>"), so a restarted process checks the log
against it at its first write (`anchor_failure`, run with the whole-log check). That record is
not chained: a host who finds it can delete it; a head a player kept remains the outside check.
A migration that ever re-chains stored rows must delete these records with it.

A failure freezes the game as a failed write does (`Store.freeze`: the moderators are told once
per freeze). `poke(game)` asks the serving process for a pass now (app/after.py, at a phase end).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from storage import append_only, chain
from storage.caches import full_failure, table_failure
from storage.chat_models import ServiceState
from storage.errors import GameNotFound
from storage.models import Game, GameColumns, table
from storage.trust import Failure, _fail, check_head, epoch_column_problem
from storage.trust_rows import LOG, Entry, entry_row
from texts.i18n import t

if TYPE_CHECKING:
    from storage.store import Store

log = logging.getLogger(__name__)

BUDGET = 2000  # rows read in one pass
PREFIX = "chain:"  # service_state key of a game's anchor
STATE = table(ServiceState)
_SLICE = (
    select(LOG)
    .where(LOG.c.game_id == bindparam("g"), LOG.c.index >= bindparam("start"))
    .order_by(LOG.c.index)
    .limit(bindparam("n"))
)
_AT = select(LOG.c.hash).where(LOG.c.game_id == bindparam("g"), LOG.c.index == bindparam("i"))
_MODERATION = (
    select(LOG.c.index, LOG.c.hash, LOG.c.payload)
    .where(
        LOG.c.game_id == bindparam("g"),
        LOG.c.kind == "moderation",
        LOG.c.index <= bindparam("to"),
    )
    .order_by(LOG.c.index.desc())
)
_GAMES = select(table(Game).c.name).order_by(table(Game).c.id)
DERIVED = ("setup", "moderation", "epoch", "salt", "reveal")  # the rows the caches come from

Anchor = tuple[int, str, list[Any] | None]  # (index, hash, the last repair row up to it)
Extra = Callable[[Session, Game], Failure | None]


# -- the anchor
def _repair(row: dict[str, Any]) -> bool:
    p = row.get("payload")
    return row["kind"] == "moderation" and isinstance(p, dict) and p.get("action") == "repair"


def _last_repair(s: Session, g: GameColumns, to: int) -> list[Any] | None:
    for index, digest, payload in s.connection().execute(_MODERATION, {"g": g.id, "to": to}):
        try:
            if json.loads(payload).get("action") == "repair":
                return [index, digest]
        except (TypeError, ValueError, AttributeError):
            continue
    return None


def _anchor_problem(s: Session, g: GameColumns, anchor: Anchor) -> Failure | None:
    index, digest, repair = anchor
    found = s.connection().execute(_AT, {"g": g.id, "i": index}).scalar()
    if found == digest:
        return None
    if _last_repair(s, g, index + 1) not in (None, repair):  # repaired since: on purpose
        return None
    if found is None:
        problem = t(
            "the log was truncated: it ends at row {head}, and this service verified it up "
            "to row {row} (hash {hash}...)",
            head=g.head_index,
            row=index,
            hash=digest[:12],
        )
    else:
        problem = t(
            "row {row} is not the row this service verified (hash {hash}... then, {found}... "
            "now): the log was rewritten",
            row=index,
            hash=digest[:12],
            found=found[:12],
        )
    return _fail(min(index, g.head_index), chain.at_row(min(index, g.head_index), problem))


def stored_anchor(s: Session, name: str) -> Anchor | None:
    value = s.connection().execute(select(STATE.c.value).where(STATE.c.key == PREFIX + name))
    text = value.scalar()
    try:
        doc = json.loads(text) if text else None
        return (int(doc["index"]), str(doc["hash"]), doc.get("repair")) if doc else None
    except (TypeError, ValueError, KeyError, AttributeError):
        return None  # not a record (a host's edit): no anchor


def anchor_failure(s: Session, g: GameColumns, anchors: dict[str, Anchor]) -> Failure | None:
    """The log against what this process verified of it, and against the database's record
    of what the serving processes verified (run with the whole-log check)."""
    for anchor in (anchors.get(g.name), stored_anchor(s, g.name)):
        failure = anchor and _anchor_problem(s, g, anchor)
        if failure:
            return failure
    return None


def _store_anchor(store: Store, name: str, anchor: Anchor) -> None:
    index, digest, repair = anchor
    text = json.dumps({"index": index, "hash": digest, "repair": repair})
    now = datetime.now(UTC)
    key = PREFIX + name
    for _ in range(3):  # another process may insert the first record at the same moment
        try:
            with store.engine.begin() as conn:
                old = conn.execute(select(STATE.c.value).where(STATE.c.key == key)).scalar()
                if old is None:
                    conn.execute(insert(STATE).values(key=key, value=text, updated_at=now))
                elif old != text:
                    stmt = update(STATE).where(STATE.c.key == key)
                    conn.execute(stmt.values(value=text, updated_at=now))
            return
        except IntegrityError:
            continue


# -- the walk
@dataclass
class _Walk:
    """A game's walk so far: the next row to read, the hash it must link to, the rows the
    caches derive from, the last repair row met."""

    next: int = 0
    prev: str = chain.GENESIS
    rows: list[dict[str, Any]] = field(default_factory=list)
    repair: list[Any] | None = None


class Watch:
    def __init__(self, store: Store, *, budget: int = BUDGET, extra: Extra | None = None):
        self.store = store
        self.budget = budget
        self.extra = extra
        self.walks: dict[str, _Walk] = {}
        self.queue: list[str] = []  # the games left in this round
        self.rows_read = 0  # every row a pass read (the benchmark's count)
        self.rounds = 0  # rounds completed: every game walked whole
        self.stored: dict[str, Anchor] = {}  # the anchors this watch wrote to the database
        self._lock = threading.Lock()  # one pass at a time

    def run_pass(self, halt: Callable[[], bool] | None = None) -> list[tuple[str, Failure]]:
        """One pass: up to `budget` rows, going on where the last pass stopped; a new round
        (every game of the database) starts when the last one is done. The failures found
        (each game frozen). `halt`: asked between games; True ends the pass there (a process
        that stops does not wait for a pass over many small games)."""
        with self._lock:
            if not self.queue:
                with self.store.reader.connect() as conn:
                    self.queue = list(conn.execute(_GAMES).scalars())
            budget = self.budget
            found: list[tuple[str, Failure]] = []
            while self.queue and budget > 0 and not (halt is not None and halt()):
                name = self.queue[0]
                used, done, failure = self._step(name, budget)
                budget -= max(used, 1)
                if done:
                    self.queue.pop(0)
                    self.walks.pop(name, None)
                if failure is not None:
                    found.append((name, failure))
                    self.store.freeze(name, failure)
            if not self.queue:
                self.rounds += 1
            return found

    def run_round(self) -> list[tuple[str, Failure]]:
        """Passes until every game was walked whole (tests and the benchmark)."""
        rounds, found = self.rounds, []
        while self.rounds == rounds:
            found += self.run_pass()
        return found

    def _step(self, name: str, budget: int) -> tuple[int, bool, Failure | None]:
        """Read up to `budget` rows of one game: (rows read, whether its walk is done, its
        failure)."""
        walk = self.walks.setdefault(name, _Walk())
        with self.store._session(read=True) as s:
            try:
                g = self.store._game(s, name)
            except GameNotFound:
                return 0, True, None
            params = {"g": g.id, "start": walk.next, "n": budget}
            entries = [Entry(r) for r in s.connection().execute(_SLICE, params)]
            self.rows_read += len(entries)
            mine = self.store.anchors.get(name)
            for e in entries:
                row = entry_row(e)
                problem = self._row_problem(walk, row, mine)
                if problem is not None:
                    return len(entries), True, self._diagnose(name, problem)
                walk.next, walk.prev = e.index + 1, e.hash
                if _repair(row):
                    walk.repair = [e.index, e.hash]
                if row["kind"] in DERIVED or row["index"] == 0 or _draws(row):
                    walk.rows.append(row)
            if entries and (mine is None or walk.next - 1 >= mine[0]):
                self.store.anchors[name] = (walk.next - 1, walk.prev, walk.repair)
            if len(entries) == budget:
                return len(entries), False, None
            return len(entries), True, self._end(s, g, walk)

    def _row_problem(self, walk: _Walk, row: dict[str, Any], mine: Anchor | None) -> Failure | None:
        at = walk.next
        defect = chain.row_defect(row)
        if defect or row["index"] != at or row["prev_hash"] != walk.prev:
            return _fail(
                at, chain.at_row(at, defect or t("prev_hash does not link to the row before"))
            )
        try:
            if chain.row_hash(walk.prev, row) != row["hash"]:
                return _fail(at, chain.at_row(at, t("hash mismatch (its content was edited)")))
        except (TypeError, ValueError) as exc:
            return _fail(at, chain.at_row(at, t("fields are not plain JSON ({exc})", exc=exc)))
        problem = epoch_column_problem(row)
        if problem:
            return _fail(at, problem)
        if mine is not None and mine[0] == at and mine[1] != row["hash"]:
            return _fail(at, "anchor")  # said by anchor_failure (_diagnose)
        return None

    def _diagnose(self, name: str, found: Failure) -> Failure | None:
        """A row that failed: the whole-log check names the first bad row as a write's check
        would. When it finds none (the rows read before were rewritten meanwhile, or repaired),
        the walk starts again from row 0 and its anchor decides."""
        with self.store._session(read=True) as s:
            g = self.store._game(s, name)
            failure = full_failure(s, g) or anchor_failure(s, g, self.store.anchors)
            if failure is None and found["problem"] == "anchor":  # repaired since it verified
                self.store.anchors.pop(name, None)
            return failure

    def _end(self, s: Session, g: Game, walk: _Walk) -> Failure | None:
        """The whole log was walked: the head, the caches, the snapshot, the anchors, the
        guards; a walk that holds leaves its anchor, here and in the database."""
        if walk.next - 1 != g.head_index or walk.prev != g.head_hash:
            return _fail(walk.next - 1, t("the game row's head is not the log's last row"))
        failure = (
            table_failure(s, g, walk.rows)
            or check_head(s, g)
            or (self.extra(s, g) if self.extra is not None else None)
            or anchor_failure(s, g, self.store.anchors)  # a truncation ends before an anchor
            or append_only.failure(append_only.problems(s.connection()), g.head_index)
        )
        if failure is None:
            anchor = (walk.next - 1, walk.prev, walk.repair)
            self.store.anchors[g.name] = anchor
            if self.stored.get(g.name) != anchor:
                _store_anchor(self.store, g.name, anchor)
                self.stored[g.name] = anchor
        return failure


def _draws(row: dict[str, Any]) -> bool:
    p = row.get("payload")
    return (
        row["kind"] == "order"
        and isinstance(p, dict)
        and any(r.get("n") is not None for r in p.get("rolls", []) if isinstance(r, dict))
    )


# -- the phase end's poke
_listeners: list[Callable[[str], None]] = []


def listen(fn: Callable[[str], None]) -> None:
    """Call fn(game) (from any thread) whenever a phase of a game ended in this process."""
    if fn not in _listeners:
        _listeners.append(fn)


def unlisten(fn: Callable[[str], None]) -> None:
    if fn in _listeners:
        _listeners.remove(fn)


def poke(game: str) -> None:
    """A phase of `game` ended: the watch runs a pass soon (never here, on the message path)."""
    for fn in tuple(_listeners):
        try:
            fn(game)
        except Exception:  # a listener must not fail the write
            log.exception("a chain watch listener failed")


__all__ = ["BUDGET", "Watch", "anchor_failure", "listen", "poke", "stored_anchor", "unlisten"]

"""GameTx: one game inside one write transaction (Store.transact, Store.create_game).

It reads the locked game, queues hash-chained log rows (storage/chain.py) and changes the game's
bookkeeping: the snapshot, seats, moderators, the pause and the committed dice epochs. Seeds live
in DiceSecret only; a seed enters the log (a `reveal` row) only when its epoch ends. Nothing is
visible to others before the transaction commits.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.engine import Connection
from sqlmodel import Session, col, select

from storage import chain, clocks, raw_sql, trust, trust_rows
from storage import dice as committed
from storage.engine import dump
from storage.models import GameColumns, LogEntry, Moderator, Seat, iso_now, stored_id
from storage.records import LogRecord, record, record_from
from storage.tx_epochs import EpochWrites
from storage.tx_rows import (
    OF_KIND,
    TX,
    UNREVEALED,
    Role,
    entry_values,
)
from storage.tx_writes import CoreWrites, GameRow

FOLLOWERS = frozenset({"reveal", "reveal-hidden", "epoch"})  # rows a change may bring along


class GameTx(EpochWrites):
    """One game inside one transaction: read it, queue log rows, change its bookkeeping.

    Used only inside Store.transact / create_game. Nothing is visible to others before commit.
    """

    def __init__(
        self,
        session: Session,
        game: GameColumns,
        *,
        core: bool = False,
        conn: Connection | None = None,
    ):
        """core: the game row is stored; its rows and changes are written in Core
        (storage/tx_writes.py) and it leaves the session's unit of work (Store.transact).
        conn: the session's connection, when the caller holds it already."""
        self.s = session
        self._conn = conn  # (one per transaction: asked of the session once)
        self.g = game
        self._core: CoreWrites | None = None
        if core:  # (an ORM object leaves the unit of work; a GameRow is in none)
            if not isinstance(game, GameRow):
                session.expunge(game)
            self._core = CoreWrites(game)
        session.info[TX] = self  # trust_rows.entries writes what is queued before it reads
        self.written: list[LogRecord] = []
        self._snapshot: dict[str, Any] | None = None
        # read once per transaction, dropped by the writes that change them
        self._seats: dict[str, str | None] | None = None
        self._moderators: list[str] | None = None
        self._clock: tuple[tuple[int, bool], clocks.ClockRow] | None = None
        self._secrets: dict[tuple[str, int], str] | None = None
        self._seeds_checked: set[tuple[str, int]] = set()
        self._pending: list[Seat | Moderator] = []  # cache rows waiting for their chained row
        self._seat_rows: list[Any] | None = None  # read with the head check (before_checks)
        self._mod_rows: list[Any] | None = None

    # -- reading
    @property
    def name(self) -> str:
        return self.g.name

    @property
    def uid(self) -> str:
        return self.g.uid

    @property
    def sandbox(self) -> bool:
        return self.g.sandbox

    @property
    def scenario_text(self) -> str:
        return self.g.scenario_text

    @property
    def system_id(self) -> str:
        return self.g.game

    @property
    def head_index(self) -> int:
        return self.g.head_index

    @property
    def head_hash(self) -> str:
        return self.g.head_hash

    @property
    def epoch(self) -> int:
        return self.g.epoch

    @property
    def epoch_turn(self) -> int | None:
        return self.g.epoch_turn

    @property
    def next_n(self) -> int:
        return self.g.epoch_next_n

    @property
    def salt_digest(self) -> str:
        return self.g.salt_digest or committed.EMPTY_SALT_DIGEST

    @property
    def paused(self) -> bool:
        return self.g.paused

    @property
    def conn(self) -> Connection:
        """The connection of this transaction: Core writes (outbox rows, the clock) join it.
        The session's, asked once: it cannot change while the transaction runs."""
        conn = self._conn
        if conn is None:
            conn = self._conn = self.s.connection()
        return conn

    @property
    def snapshot(self) -> dict[str, Any]:
        if self._snapshot is None:
            self._snapshot = json.loads(self.g.snapshot)
        return self._snapshot

    def before_checks(self) -> tuple[list[str], list[int]]:
        """Read the seat and moderator rows (checked when first asked for) and the unrevealed
        seeds (checked before their first use): the hashes of the roles' source rows and the
        epochs of the seeds, whose rows the head check prefetches with the head."""
        g = self.g.id  # (raw_sql.ROLES_AND_SECRETS: tx_rows.ROLES_AND_SECRETS on the driver)
        found = raw_sql.rows(self.conn, raw_sql.ROLES_AND_SECRETS, (g, g, g))
        self._seat_rows = [Role(a, b, c) for what, _, a, b, c in found if what == "seat"]
        self._mod_rows = [Role(None, b, c) for what, _, _, b, c in found if what == "moderator"]
        if self._secrets is None:
            self._secrets = {(a, n): b for what, n, a, b, _ in found if what == "secret"}
        epochs = [epoch for _, epoch in self._unrevealed()]
        return [x.row_hash or "" for x in [*self._seat_rows, *self._mod_rows]], epochs

    def seats(self) -> dict[str, str | None]:
        if self._seats is None:
            rows, self._seat_rows = self._seat_rows, None
            if rows is None:
                q = select(Seat).where(Seat.game_id == self.g.id).order_by(col(Seat.id))
                rows = list(self.s.exec(q))
            self._check(trust.check_roles(self.s, self.g, rows, ()))
            self._seats = {seat.side: seat.user for seat in rows}
        return dict(self._seats)

    def moderators(self) -> list[str]:
        if self._moderators is None:
            rows, self._mod_rows = self._mod_rows, None
            if rows is None:
                q = select(Moderator).where(Moderator.game_id == self.g.id)
                rows = list(self.s.exec(q.order_by(col(Moderator.id))))
            self._check(trust.check_roles(self.s, self.g, (), rows))
            self._moderators = [m.user for m in rows]
        return list(self._moderators)

    def _check(self, failure: trust.Failure | None) -> None:
        """A power is read only from a cache that agrees with its chained row."""
        if failure is not None and not self._pending:
            raise trust.Tampered(self.g.name, failure)

    def state_row(self) -> LogRecord | None:
        """The last row that records a state hash: the snapshot must hash to it."""
        e = trust_rows.state_entry(self.s, self.g)
        return None if e is None else record(e)

    def clock(self) -> clocks.ClockRow:
        """The game's clock as storage/clocks.py reads it, read again only after a clock write
        on this transaction's connection or a change of the pause (a copy: edit it freely)."""
        conn = self.conn
        key = (clocks.writes(conn), self.g.paused)
        if self._clock is None or self._clock[0] != key:
            self._clock = (key, clocks.read(conn, self.g.name))
        return self._clock[1].copy()

    def rows(self, start: int = 0) -> list[LogRecord]:
        found = trust_rows.raw_entries(self.s, raw_sql.ROWS_FROM, (self.g.id, start))
        return [record(e) for e in found]  # Core rows (entries flushes the rows queued first)

    def rows_of_kind(self, kind: str) -> list[LogRecord]:
        """The log rows of one kind ("moderation": seats, roles, linked identities), in order."""
        read = trust_rows.cache(self.s, self.g).get(("kind", kind))  # the checks' prefetch
        if read is not None:  # every row of the kind then, and the ones written since
            return [record(e) for e in read] + [r for r in self.written if r.kind == kind]
        found = trust_rows.entries(self.s, OF_KIND, {"g": self.g.id, "kind": kind})
        return [record(e) for e in found]  # (entries flushes the rows queued first)

    def find_key(self, key: str) -> list[LogRecord] | None:
        """The rows a keyed change wrote: its own row and the epoch rows it brought along."""
        self.flush()  # a row queued by an earlier line of the message
        index = raw_sql.scalar(self.conn, raw_sql.KEYED, (self.g.id, key))  # KEYED
        if index is None:
            return None
        rows = self.rows(index)
        end = 1
        while end < len(rows) and rows[end].kind in FOLLOWERS and rows[end].key is None:
            end += 1
        return rows[:end]

    def salts(self, epoch: int) -> list[str]:
        q = select(LogEntry.payload).where(
            LogEntry.game_id == self.g.id, LogEntry.kind == "salt", LogEntry.epoch == epoch
        )
        self.flush()  # a salt row queued by this change
        salts = [json.loads(p)["salt"] for p in self.s.exec(q.order_by(col(LogEntry.index)))]
        if epoch == self.g.epoch:
            checked, failure = trust.salts_of(self.s, self.g, epoch)
            self._check(failure)
            return checked
        return salts

    def seed(self) -> str | None:
        """The open epoch's seed (None when no epoch is open)."""
        if not self.g.epoch:
            return None
        seed = self._unrevealed().get(("epoch", self.g.epoch))
        if seed is None:
            raise LookupError(f"game {self.g.name!r}: no seed for the open epoch {self.g.epoch}")
        self._check_seed("epoch", self.g.epoch, seed)
        return seed

    def _check_seed(self, kind: str, epoch: int, seed: str) -> None:
        """A seed is checked against its chained commitment before its first use."""
        if (kind, epoch) not in self._seeds_checked:
            self._check(trust.check_seed(self.s, self.g, kind, epoch, seed))
            self._seeds_checked.add((kind, epoch))

    def hidden_seed(self) -> str | None:
        """The unrevealed hidden seed (of the latest epoch that committed one), or None."""
        hidden = [(k[1], seed) for k, seed in self._unrevealed().items() if k[0] == "hidden"]
        if not hidden:
            return None
        epoch, seed = max(hidden)
        self._check_seed("hidden", epoch, seed)
        return seed

    def _unrevealed(self) -> dict[tuple[str, int], str]:
        """(kind, epoch) -> seed of every unrevealed secret, read once per transaction (the
        writes that change them, open_epoch and the reveals, drop it)."""
        if self._secrets is None:
            self.flush()  # a secret queued by open_epoch
            found = self.conn.execute(UNREVEALED, {"g": self.g.id})
            self._secrets = {(kind, epoch): seed for kind, epoch, seed in found}
        return self._secrets

    # -- writing
    def append(
        self,
        kind: str,
        actor: str,
        text_: str,
        payload: dict[str, Any],
        *,
        user: str | None = None,
        key: str | None = None,
        epoch: int | None = None,
        secret: object = None,
    ) -> LogRecord:
        """Queue the next log row, chained to the head."""
        index = self.g.head_index + 1 if self.g.head_hash else 0
        prev = self.g.head_hash or chain.GENESIS
        payload_text = dump(payload)
        row = {
            "index": index,
            "kind": kind,
            "actor": actor,
            "user": user,
            "text": text_,
            "payload": json.loads(payload_text),  # hashed exactly as it will be read back
            "key": key,
            "created_at": iso_now(),
        }
        digest = chain.row_hash(prev, row)
        entry = entry_values(stored_id(self.g), row, payload_text, prev, digest, epoch, secret)
        if self._core is not None:
            self._core.queue(entry)
        else:
            self.s.add(LogEntry(**entry))
        written = record_from(row, prev, digest, epoch, secret)
        self.written.append(written)
        self.g.head_index, self.g.head_hash = index, digest
        if kind in ("moderation", "setup"):
            for cached in self._pending:  # the seats and moderators this row changed
                cached.row_hash = digest
                self.s.add(cached)
            self._pending = []
        return written

    def set_snapshot(self, state_dict: dict[str, Any], text: str | None = None) -> None:
        """The new snapshot; `text`: its serialisation when the caller made it already (and
        state_dict is then that text read back)."""
        if text is None:
            text = dump(state_dict)
            state_dict = json.loads(text)
        self._snapshot = state_dict
        self.g.snapshot = text

    def set_next_n(self, next_n: int) -> None:
        """After the order row that drew (its hash is the bookkeeping's source row)."""
        if next_n != self.g.epoch_next_n:
            self.g.epoch_row_hash = self.written[-1].hash
        self.g.epoch_next_n = next_n

    def set_salt_digest(self, digest: str) -> None:
        """After the salt row (its hash is the bookkeeping's source row)."""
        self.g.salt_digest = digest
        self.g.epoch_row_hash = self.written[-1].hash

    def set_paused(self, paused: bool, why: str | None) -> None:
        self.g.paused, self.g.paused_why = paused, why if paused else None

    def set_seat(self, side: str, user: str | None) -> None:
        seat = self.s.exec(select(Seat).where(Seat.game_id == self.g.id, Seat.side == side)).one()
        seat.user = user
        self.s.add(seat)
        self._pending.append(seat)
        self._seats = None

    def add_moderator(self, user: str) -> None:
        mod = Moderator(game_id=stored_id(self.g), user=user)
        self.s.add(mod)
        self._pending.append(mod)
        self._moderators = None

    def remove_moderator(self, user: str) -> None:
        q = select(Moderator).where(Moderator.game_id == self.g.id, Moderator.user == user)
        self.s.delete(self.s.exec(q).one())
        self._moderators = None

    def flush(self) -> None:
        """Write what is queued so that a read on this transaction's connection sees it: the
        log rows, the game row's changes (the version guard fires here), the seats and
        moderators, the seeds."""
        if self._core is not None:
            self._core.flush(self.conn)
        self.s.flush()

    def finish(self) -> None:
        """Flush the queued rows and the game row (the version guard fires here)."""
        if self._core is None and (self.written or self.s.is_modified(self.g)):
            self.s.add(self.g)
        self.flush()

"""The SQL of a game's clock: the deadline columns of its row, its memo, the heartbeat, outages.

The game row holds the clock (migration 0002, seen through `storage.chat_models.game_clock`):
`deadline_at` (aware UTC; None when no clock runs), `deadline_kind`, `phase_hours`,
`decision_hours`, `reminder_hours`, `reminders_sent` (lists, stored as JSON text),
`clock_paused`, `paused_remaining_s`, plus `started_at` and `last_image_index`. The clock's memo
(a small JSON dict: what the deadline was armed for, the outage that moved it) is the
service_state row "clock:<game>"; the heartbeat and the outage being handled are the
service_state rows HEARTBEAT_KEY and OUTAGE_KEY. What these values mean is the application's
(app/clock.py); here they are only read and written.

Functions taking a `conn` run inside the caller's transaction (a game's change re-arms its clock
in its own transaction: `GameTx.conn`); the others open one of their own.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Integer, Row, Select, bindparam, insert, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from storage import raw_posts, raw_sql
from storage.chat_models import DEFAULT_REMINDER_HOURS, ServiceState, game_clock
from storage.errors import GameNotFound
from storage.models import Game, aware, table

if TYPE_CHECKING:
    from storage.store import Store  # the wrappers' argument (a Store's GameTx reads clocks)

log = logging.getLogger(__name__)

STATE = table(ServiceState)
GAMES = table(Game)
HEARTBEAT_KEY = "heartbeat"
OUTAGE_KEY = "outage"
MEMO_PREFIX = "clock:"
CLOCK_COLUMNS = tuple(c.name for c in game_clock.c if c.name != "id")
JSON_COLUMNS = ("reminder_hours", "reminders_sent")
WHOLE_HOURS = isinstance(game_clock.c.phase_hours.type, Integer)  # lengths are whole hours


@dataclass
class ClockRow:
    """The clock columns of a game row, its moderators' pause flag and its memo."""

    name: str
    started_at: datetime | None = None
    deadline_at: datetime | None = None
    deadline_kind: str | None = None
    phase_hours: int = 48
    decision_hours: int = 12
    reminder_hours: list[float] = field(default_factory=lambda: list(DEFAULT_REMINDER_HOURS))
    reminders_sent: list[float] = field(default_factory=list)
    clock_paused: bool = False
    paused_remaining_s: int | None = None
    last_image_index: int | None = None
    paused: bool = False  # game.paused: a moderator paused the game
    memo: dict[str, Any] = field(default_factory=dict)  # the "clock:<game>" row

    def copy(self) -> ClockRow:
        """A copy to edit freely (its lists and memo too), cheaper than copy.deepcopy."""
        return dataclasses.replace(
            self,
            reminder_hours=list(self.reminder_hours),
            reminders_sent=list(self.reminders_sent),
            memo=copy.deepcopy(self.memo) if self.memo else {},
        )


def memo_key(game: str) -> str:
    return MEMO_PREFIX + game


WRITES = "pbem_clock_writes"  # conn.info: how many clock writes this connection has made


def writes(conn: Connection) -> int:
    """A counter every clock write on this connection moves on: a reader that cached a clock
    in this transaction (GameTx.clock) knows from it whether the clock may have changed."""
    return int(conn.info.get(WRITES, 0))


def _wrote(conn: Connection) -> None:
    conn.info[WRITES] = writes(conn) + 1


# -- reading (in the caller's transaction)
def _clock_query() -> Select[*tuple[Any, ...]]:
    return select(*[game_clock.c[c] for c in CLOCK_COLUMNS])


def read(conn: Connection, game: str, *, lock: bool = False) -> ClockRow:
    """One game's clock (GameNotFound if there is none). lock: the game row stays locked until
    the transaction ends (PostgreSQL; SQLite writers hold the database's write lock anyway)."""
    row = raw_sql.first(conn, raw_sql.CLOCK[lock], (game,))  # _ONE, on the driver
    if row is None:
        raise GameNotFound(game)
    *columns, paused, memo_text = row  # with its pause flag and memo, in the same statement
    clock = _values_row(dict(zip(CLOCK_COLUMNS, columns, strict=True)))
    clock.paused = bool(paused)
    memo = _json(memo_text, {})
    clock.memo = memo if isinstance(memo, dict) else {}
    return clock


def _one_query() -> Select[*tuple[Any, ...]]:
    """One game's clock columns, its pause flag and its memo: one statement."""
    same = GAMES.alias("pbem_game")  # the same row through the ORM's table (its pause flag)
    memo = STATE.c.key == MEMO_PREFIX + game_clock.c.name
    return select(
        *[game_clock.c[c] for c in CLOCK_COLUMNS],
        same.c.paused.label("pbem_paused"),
        STATE.c.value.label("pbem_memo"),
    ).select_from(game_clock.join(same, same.c.id == game_clock.c.id).outerjoin(STATE, memo))


_ONE_Q = _one_query().where(game_clock.c.name == bindparam("name"))
_ONE = {False: _ONE_Q, True: _ONE_Q.with_for_update(of=game_clock)}  # built once


def read_armed(conn: Connection) -> list[ClockRow]:
    """The clocks of every game with a deadline running or a clock stopped, in game order."""
    q = _clock_query().where(or_(game_clock.c.deadline_at.is_not(None), game_clock.c.clock_paused))
    return _complete(conn, [_row(r) for r in conn.execute(q.order_by(game_clock.c.id))])


def read_armed_page(conn: Connection, after: str | None, limit: int) -> list[ClockRow]:
    """Up to `limit` clocks of `read_armed`, in game-name order, of the games named after
    `after` (None: from the first): the games read a page at a time (keyset), never all at
    once."""
    q = _clock_query().where(or_(game_clock.c.deadline_at.is_not(None), game_clock.c.clock_paused))
    if after is not None:
        q = q.where(game_clock.c.name > after)
    return _complete(
        conn, [_row(r) for r in conn.execute(q.order_by(game_clock.c.name).limit(limit))]
    )


def read_all(conn: Connection) -> list[ClockRow]:
    """The clock columns of every game (no pause flag, no memo), in game order."""
    return [_row(r) for r in conn.execute(_clock_query().order_by(game_clock.c.id))]


def _row(r: Row[*tuple[Any, ...]]) -> ClockRow:
    return _values_row({c: getattr(r, c) for c in CLOCK_COLUMNS})


def _values_row(values: dict[str, Any]) -> ClockRow:
    for c in JSON_COLUMNS:
        values[c] = _json(values[c], [])
    for c in ("started_at", "deadline_at"):
        values[c] = aware(values[c])
    return ClockRow(**values)


def _complete(conn: Connection, found: list[ClockRow]) -> list[ClockRow]:
    """Add the pause flags and the memos."""
    if not found:
        return found
    names = [c.name for c in found]
    paused = dict(
        conn.execute(select(GAMES.c.name, GAMES.c.paused).where(GAMES.c.name.in_(names))).all()
    )
    keys = [memo_key(n) for n in names]
    memos = dict(
        conn.execute(select(STATE.c.key, STATE.c.value).where(STATE.c.key.in_(keys))).all()
    )
    for c in found:
        c.paused = bool(paused.get(c.name, False))
        memo = _json(memos.get(memo_key(c.name)), {})
        c.memo = memo if isinstance(memo, dict) else {}
    return found


# -- writing (in the caller's transaction)
def write(
    conn: Connection,
    game: str,
    *,
    expect: dict[str, Any] | None = None,
    memo: dict[str, Any] | None = None,
    now: datetime | None = None,
    **columns: Any,
) -> bool:
    """Write clock columns of a game (lists for reminder_hours / reminders_sent) and, if given,
    its memo (replaced whole). With `expect` ({column: value}), only if the row still holds
    those values (a compare-and-set; the memo is written only with the columns): True if
    written."""
    unknown = set(columns) - set(CLOCK_COLUMNS)
    if unknown:
        raise TypeError(f"not clock columns: {sorted(unknown)}")
    done = True
    _wrote(conn)
    if columns:
        values = {k: _dumped(k, v) for k, v in columns.items()}
        expected = {k: _dumped(k, v) for k, v in (expect or {}).items()}
        stmt, params = raw_posts.write_clock(conn.dialect, game, values, expected)  # on the driver
        done = bool(raw_sql.run(conn, stmt, params).rowcount == 1)
    if done and memo is not None:
        put_state(conn, memo_key(game), json.dumps(memo), now or datetime.now(UTC))
    return done


def advance_image_index(conn: Connection, game: str, index: int) -> bool:
    """Record that the map up to log row `index` was posted (only forward)."""
    _wrote(conn)  # (raw_posts.ADVANCE_IMAGE: _ADVANCE on the driver's connection)
    return bool(raw_sql.run(conn, raw_posts.ADVANCE_IMAGE, (index, game, index)).rowcount == 1)


_LAST = game_clock.c.last_image_index
_ADVANCE = (
    update(game_clock)
    .where(
        game_clock.c.name == bindparam("b_game"),
        or_(_LAST.is_(None), _LAST < bindparam("b_index")),
    )
    .values(last_image_index=bindparam("b_index"))
)  # built once: every post moves it


def set_started(conn: Connection, game: str, now: datetime) -> bool:
    """Record when the game was started (`start`), once."""
    _wrote(conn)
    stmt = (
        update(game_clock)
        .where(game_clock.c.name == game, game_clock.c.started_at.is_(None))
        .values(started_at=now)
    )
    return conn.execute(stmt).rowcount == 1


def get_state(conn: Connection, key: str) -> tuple[str, datetime] | None:
    """A service_state row: (value, updated_at), or None."""
    row = conn.execute(select(STATE.c.value, STATE.c.updated_at).where(STATE.c.key == key)).first()
    return None if row is None else (row.value, aware(row.updated_at))


def put_state(conn: Connection, key: str, value: str, now: datetime) -> None:
    """Upsert a service_state row (atomic: INSERT ... ON CONFLICT DO UPDATE)."""
    _wrote(conn)
    if conn.dialect.name in ("postgresql", "sqlite"):  # on the driver's connection
        stamp = raw_sql.binder(conn.dialect, STATE.c.updated_at.type)
        at = now if stamp is None else stamp(now)
        raw_sql.run(conn, raw_posts.PUT_STATE, (key, value, at, value, at))
        return
    dialect = {"postgresql": postgresql, "sqlite": sqlite}.get(conn.dialect.name)
    if dialect is None:  # another database: update, else insert
        stmt = update(STATE).where(STATE.c.key == key).values(value=value, updated_at=now)
        if not conn.execute(stmt).rowcount:
            conn.execute(insert(STATE).values(key=key, value=value, updated_at=now))
        return
    stmt = dialect.insert(STATE).values(key=key, value=value, updated_at=now)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[STATE.c.key], set_={"value": value, "updated_at": now}
        )
    )


# -- the Store's convenience wrappers (a transaction each)
def load(store: Store, game: str) -> ClockRow:
    with store.reader.connect() as conn:
        return read(conn, game)


def armed(store: Store) -> list[ClockRow]:
    with store.reader.connect() as conn:
        return read_armed(conn)


def armed_pages(
    store: Store, size: int = 500, after: str | None = None
) -> Iterator[list[ClockRow]]:
    """`armed` a page of at most `size` games at a time, each page read in a short transaction
    of its own (no read spans the whole walk; a game changed meanwhile is read as it is when its
    page is read)."""
    while True:
        with store.reader.connect() as conn:
            page = read_armed_page(conn, after, size)
        if not page:
            return
        yield page
        if len(page) < size:
            return
        after = page[-1].name


def every(store: Store) -> list[ClockRow]:
    with store.reader.connect() as conn:
        return read_all(conn)


def save(
    store: Store,
    game: str,
    *,
    expect: dict[str, Any] | None = None,
    memo: dict[str, Any] | None = None,
    **columns: Any,
) -> bool:
    with store.engine.begin() as conn:
        return write(conn, game, expect=expect, memo=memo, **columns)


def state(store: Store, key: str) -> tuple[str, datetime] | None:
    with store.reader.connect() as conn:
        return get_state(conn, key)


def set_state(store: Store, key: str, value: str, now: datetime) -> None:
    with store.engine.begin() as conn:
        put_state(conn, key, value, now)


def last_heartbeat(store: Store) -> datetime | None:
    """When the scheduler last finished a pass (None: never)."""
    found = state(store, HEARTBEAT_KEY)
    return None if found is None else found[1]


def beat(store: Store, now: datetime) -> None:
    set_state(store, HEARTBEAT_KEY, now.isoformat(), now)


def outage(store: Store) -> dict[str, Any] | None:
    """The outage being handled, as recorded ({"from": iso, "to": iso}), or None."""
    found = state(store, OUTAGE_KEY)
    value = _json(found[0], None) if found else None
    return value if isinstance(value, dict) else None


def set_outage(store: Store, value: dict[str, Any], now: datetime) -> None:
    set_state(store, OUTAGE_KEY, json.dumps(value), now)


# -- values
def _dumped(column: str, value: object) -> object:
    return json.dumps(value) if column in JSON_COLUMNS and value is not None else value


def _json(text: str | None, default: object) -> Any:
    if text is None or text == "":
        return default
    try:
        return json.loads(text)
    except ValueError:
        log.warning("a clock value holds text that is not JSON: %.60r", text)
        return default


__all__ = [
    "CLOCK_COLUMNS",
    "HEARTBEAT_KEY",
    "MEMO_PREFIX",
    "OUTAGE_KEY",
    "WHOLE_HOURS",
    "ClockRow",
    "advance_image_index",
    "armed",
    "armed_pages",
    "beat",
    "every",
    "get_state",
    "last_heartbeat",
    "load",
    "memo_key",
    "outage",
    "put_state",
    "read",
    "read_all",
    "read_armed",
    "read_armed_page",
    "save",
    "set_outage",
    "set_started",
    "set_state",
    "write",
]

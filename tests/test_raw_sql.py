"""The order path's statements on the driver's connection (storage/raw_sql.py) read and write
exactly what their SQLAlchemy Core counterparts do: the same rows, the same values of the same
types (SQLite's 0/1 and datetime text converted as Core converts them), the same stored
values, and the errors the store retries on raised as SQLAlchemy raises them."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import bindparam, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import chat_languages, clocks, raw_posts, raw_sql, trust_rows, tx_rows, tx_writes
from storage.chat_models import game_clock
from storage.engine import retryable
from tests.test_chat_service import TG_GROUP, Chat, started

STATE_ROW = select(clocks.STATE).where(clocks.STATE.c.key == bindparam("key"))


def typed(row):
    """A row's values with their types: equal only when both are equal."""
    return None if row is None else [(type(v).__name__, v) for v in row]


@pytest.fixture
def game(db_url, stores):
    """A started sandbox game in a Telegram group with a language chosen, a few orders in, a
    deadline armed: (store, game name)."""
    store = stores(db_url)
    chat = ChatService(GameService(store), clock=FakeClock(), images=False)
    tg = Chat(chat, "telegram", TG_GROUP)
    name = started(tg)
    assert "Русский" in tg.text(1, "language ru")
    tg.text(1, "salt the cat walked on the keyboard")
    tg.text(1, "end")
    return store, name


def both(store, core, raw):
    """core(conn) and raw(conn), each in a transaction of its own, rolled back."""
    found = []
    for run in (core, raw):
        with store.engine.connect() as conn, conn.begin() as tx:
            found.append(run(conn))
            tx.rollback()
    return found


def game_id(store, name):
    with store.engine.connect() as conn:
        return tx_writes.read_game(conn, name, lock=False).id


@pytest.mark.parametrize("lock", [False, True])
def test_the_game_row_is_read_as_core_reads_it(game, lock):
    store, name = game
    core, raw = both(
        store,
        lambda c: c.execute(tx_writes._READ[lock], {"b_name": name}).first(),
        lambda c: raw_sql.first(c, raw_sql.READ_GAME[lock], (name,)),
    )
    assert typed(raw) == typed(core)
    assert isinstance(raw[raw_sql.GAME_COLUMNS.index("sandbox")], bool)
    assert isinstance(raw[raw_sql.GAME_COLUMNS.index("created_at")], datetime)
    g = both(store, lambda c: None, lambda c: tx_writes.read_game(c, name, lock=lock))[1]
    assert {k: (type(v), v) for k, v in vars(g).items()} == {
        k: (type(v), v) for k, v in core._mapping.items()
    }
    assert both(store, lambda c: None, lambda c: tx_writes.read_game(c, "none", lock=lock)) == [
        None,
        None,
    ]


def test_the_roles_and_seeds_are_read_as_core_reads_them(game):
    store, name = game
    g = game_id(store, name)
    core, raw = both(
        store,
        lambda c: c.execute(tx_rows.ROLES_AND_SECRETS, {"g": g}).all(),
        lambda c: raw_sql.rows(c, raw_sql.ROLES_AND_SECRETS, (g, g, g)),
    )
    assert {r[0] for r in raw} == {"seat", "moderator", "secret"}
    assert [typed(r) for r in raw] == [typed(r) for r in core]


def test_a_key_is_found_as_core_finds_it(game):
    store, name = game
    g = game_id(store, name)
    rows = store.log(name)
    keys = [r.key for r in rows if r.key] + ["no such key"]
    assert len(keys) > 1
    for key in keys:
        core, raw = both(
            store,
            lambda c, k=key: c.execute(tx_rows.KEYED, {"g": g, "key": k}).scalar(),
            lambda c, k=key: raw_sql.scalar(c, raw_sql.KEYED, (g, k)),
        )
        assert (type(raw), raw) == (type(core), core)


@pytest.mark.parametrize("by_hash", [False, True])
@pytest.mark.parametrize("epoch", [0, 1])
@pytest.mark.parametrize("epochs", [[], [1], [1, 2]])
def test_the_head_checks_rows_are_prefetched_as_core_reads_them(game, by_hash, epoch, epochs):
    store, name = game
    g = game_id(store, name)
    log = store.log(name)
    hashes = [log[0].hash, log[2].hash, "nothing"] if by_hash else []
    start = len(log) - 3
    params = {"g": g, "from": start, "hashes": hashes, "epoch": epoch, "epochs": epochs}
    flat = [g, start, *([*hashes, g, *hashes] if hashes else []), *([epoch] if epoch else [])]
    stmt = raw_sql.PREFETCH[by_hash, bool(epoch)].expand(len(hashes), len(epochs))
    core, raw = both(
        store,
        lambda c: c.execute(trust_rows._PREFETCH[by_hash, bool(epoch)], params).all(),
        lambda c: raw_sql.rows(c, stmt, [*flat, *epochs]),
    )
    assert len(raw) > 3
    assert [typed(r) for r in raw] == [typed(r) for r in core]


@pytest.mark.parametrize("lock", [False, True])
def test_the_clock_is_read_as_core_reads_it(game, lock):
    store, name = game
    core, raw = both(
        store,
        lambda c: c.execute(clocks._ONE[lock], {"name": name}).first(),
        lambda c: raw_sql.first(c, raw_sql.CLOCK[lock], (name,)),
    )
    assert core.deadline_at is not None and core.pbem_memo  # an armed deadline, a memo
    assert typed(raw) == typed(core)
    clocks.save(store, name, clock_paused=True, paused_remaining_s=60, deadline_at=None)
    core, raw = both(
        store,
        lambda c: c.execute(clocks._ONE[lock], {"name": name}).first(),
        lambda c: raw_sql.first(c, raw_sql.CLOCK[lock], (name,)),
    )
    assert core.clock_paused is True
    assert typed(raw) == typed(core)


def test_the_chats_of_a_game_and_a_chats_binding_and_languages_are_read_as_core_reads_them(game):
    store, name = game
    core, raw = both(
        store,
        lambda c: c.execute(tx_rows.GAME_CHATS, {"game": name}).all(),
        lambda c: raw_sql.rows(c, raw_sql.GAME_CHATS, (name,)),
    )
    assert raw == [("telegram", TG_GROUP)]
    assert [typed(r) for r in raw] == [typed(r) for r in core]
    chat = chat_languages.chat_scope("telegram", TG_GROUP)
    for chat_id in (TG_GROUP, "elsewhere"):
        for scopes in ([], [chat], [chat, "user:telegram:1", "user:nobody"]):
            params = {"platform": "telegram", "chat_id": chat_id, "scopes": scopes}
            stmt = raw_sql.BINDING_AND_CHOICES.expand(len(scopes))
            core, raw = both(
                store,
                lambda c, p=params: c.execute(chat_languages._BINDING_AND_CHOICES, p).all(),
                lambda c, s=scopes, i=chat_id, q=stmt: raw_sql.rows(c, q, ("telegram", i, *s)),
            )
            assert sorted(typed(r) for r in raw) == sorted(typed(r) for r in core)
    game_name, known = chat_languages.binding_and_choices(store, "telegram", TG_GROUP, [chat])
    assert game_name == name and known.found == {chat: ("ru", None)}


def stored(conn, name):
    """The game row as the database holds it (no conversion at all)."""
    return tuple(raw_sql.run(conn, raw_sql.READ_GAME[False], (name,)).fetchone())


def test_the_log_row_and_the_guarded_update_write_what_core_writes(game):
    store, name = game
    g = game_id(store, name)
    later = datetime(2031, 5, 6, 7, 8, 9, 123456, tzinfo=UTC) + timedelta(hours=1)
    changed = {
        "snapshot": '{"x":1}',
        "head_index": 99,
        "head_hash": "h" * 64,
        "sandbox": False,
        "paused": True,
        "paused_why": None,
        "created_at": later,
        "epoch_turn": None,
    }
    row = {c: None for c in raw_sql.INSERTED} | {
        "game_id": g,
        "index": 1000,
        "kind": "note",
        "actor": "system",
        "text": "t",
        "payload": "{}",
        "created_at": "2031-05-06T07:08:09.000001+00:00",
        "prev_hash": "p",
        "hash": "q",
        "epoch": 3,
    }

    def core(c):
        version = stored(c, name)[raw_sql.GAME_COLUMNS.index("version")]
        params = {f"v_{k}": v for k, v in changed.items()}
        params |= {"b_id": g, "b_version": version, "v_version": version + 1}
        assert c.execute(tx_writes._update(tuple(changed)), params).rowcount == 1
        c.execute(tx_writes._INSERT, [row])
        at = {"g": g, "index": 1000}
        return stored(c, name), c.execute(trust_rows._AT, at).all()

    def raw(c):
        version = stored(c, name)[raw_sql.GAME_COLUMNS.index("version")]
        stmt, values = raw_sql.update_game(c.dialect, changed)
        assert raw_sql.run(c, stmt, (*values, version + 1, g, version)).rowcount == 1
        raw_sql.run_many(c, raw_sql.INSERT_LOG, [raw_sql.log_values(row)])
        at = {"g": g, "index": 1000}
        return stored(c, name), c.execute(trust_rows._AT, at).all()

    (core_game, core_log), (raw_game, raw_log) = both(store, core, raw)
    assert typed(raw_game) == typed(core_game)
    # (the id aside: a PostgreSQL sequence is not rolled back)
    assert [typed(r[1:]) for r in raw_log] == [typed(r[1:]) for r in core_log]
    assert len(raw_log) == 1


def test_a_stale_version_and_a_taken_log_index_are_conflicts_the_store_retries(game):
    store, name = game
    with store.engine.connect() as conn, conn.begin():
        g = tx_writes.read_game(conn, name, lock=True)
        writes = tx_writes.CoreWrites(g)
        g.version -= 1  # another writer moved it
        g.snapshot = "{}"
        with pytest.raises(StaleDataError) as stale:
            writes.flush(conn)
    assert retryable(stale.value)
    head = store.log(name)[-1]
    row = {c: None for c in raw_sql.INSERTED} | {
        "game_id": g.id,
        "index": head.index,  # taken
        "kind": "note",
        "actor": "system",
        "text": "t",
        "payload": "{}",
        "created_at": "x",
        "prev_hash": "p",
        "hash": "q",
    }
    with store.engine.connect() as conn, conn.begin():
        writes = tx_writes.CoreWrites(tx_writes.read_game(conn, name, lock=True))
        writes.queue(row)
        with pytest.raises(IntegrityError) as taken:
            writes.flush(conn)
    assert retryable(taken.value)


def test_a_locked_database_is_a_conflict_the_store_retries(tmp_path, stores):
    store = stores(str(tmp_path / "games.db"))
    holder = sqlite3.connect(str(tmp_path / "games.db"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the write lock
    try:
        with store.engine.connect() as conn:
            conn.connection.driver_connection.execute("PRAGMA busy_timeout=0")
            with pytest.raises(OperationalError) as locked:
                raw_sql.run(conn, raw_posts.PUT_STATE, ("k", "v", "t", "v", "t"))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "database is locked" in str(locked.value)
    assert retryable(locked.value)


def stored_clock(conn, name):
    """The clock columns and the memo as the database holds them (no conversion at all)."""
    sql = raw_sql.CLOCK[False].text(conn.dialect.name)
    return tuple(conn.connection.driver_connection.execute(sql, (name,)).fetchone())


def core_clock_write(conn, name, expect, **columns):
    """storage/clocks.write's UPDATE as it was written in Core."""
    values = {k: clocks._dumped(k, v) for k, v in columns.items()}
    where = [game_clock.c.name == name]
    for k, v in expect.items():
        v = clocks._dumped(k, v)
        where.append(game_clock.c[k].is_(None) if v is None else game_clock.c[k] == v)
    return conn.execute(update(game_clock).where(*where).values(**values)).rowcount == 1


def core_put_state(conn, key, value, now):
    """storage/clocks.put_state's upsert as it was written in Core."""
    dialect = {"postgresql": postgresql, "sqlite": sqlite}[conn.dialect.name]
    stmt = dialect.insert(clocks.STATE).values(key=key, value=value, updated_at=now)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[clocks.STATE.c.key], set_={"value": value, "updated_at": now}
        )
    )


@pytest.mark.parametrize(
    "expect",
    [{}, {"deadline_at": None}, {"deadline_kind": "phase"}, {"deadline_kind": "decision"}],
)
def test_a_clock_write_and_the_service_state_store_what_core_stores(game, expect):
    store, name = game
    armed = datetime(2031, 1, 2, 3, 4, 5, 6, tzinfo=timezone(timedelta(hours=3)))
    columns = {
        "deadline_at": armed,
        "deadline_kind": "decision",
        "reminders_sent": [24, 1.5],
        "clock_paused": True,
        "paused_remaining_s": 7,
        "started_at": armed,
    }
    now = datetime(2031, 1, 2, 3, 4, 5, 600, tzinfo=UTC)

    def core(c):
        done = core_clock_write(c, name, expect, **columns)
        core_put_state(c, clocks.memo_key(name), '{"a": 1}', now)
        core_put_state(c, "fresh", "v", now)
        key = {"key": "fresh"}
        return done, stored_clock(c, name), c.execute(STATE_ROW, key).all()

    def raw(c):
        done = clocks.write(c, name, expect=expect, memo={"a": 1}, now=now, **columns)
        clocks.put_state(c, "fresh", "v", now)
        key = {"key": "fresh"}
        return done, stored_clock(c, name), c.execute(STATE_ROW, key).all()

    core_found, raw_found = both(store, core, raw)
    assert core_found[0] == (expect in ({}, {"deadline_kind": "phase"}))  # (armed: a phase)
    if core_found[0]:
        assert typed(raw_found[1]) == typed(core_found[1])
    assert raw_found[0] == core_found[0]
    assert typed(raw_found[2][0]) == typed(core_found[2][0])


def test_the_image_index_the_choices_and_the_rows_from_an_index_are_what_core_gives(game):
    store, name = game
    g = game_id(store, name)
    for index in (None, 2, 10**6):
        core, raw = both(
            store,
            lambda c, i=index: (
                c.execute(clocks._ADVANCE, {"b_game": name, "b_index": i}).rowcount,
                stored_clock(c, name),
            ),
            lambda c, i=index: (
                raw_sql.run(c, raw_posts.ADVANCE_IMAGE, (i, name, i)).rowcount,
                stored_clock(c, name),
            ),
        )
        assert typed(raw[1]) == typed(core[1]) and raw[0] == core[0]
    chat = chat_languages.chat_scope("telegram", TG_GROUP)
    for scopes in ([], [chat], [chat, "user:telegram:1", "user:nobody"]):
        core, raw = both(
            store,
            lambda c, s=scopes: c.execute(chat_languages._CHOICES, {"scopes": s}).all(),
            lambda c, s=scopes: raw_sql.rows(c, raw_sql.CHOICES.expand(len(s)), s),
        )
        assert sorted(typed(r) for r in raw) == sorted(typed(r) for r in core)
    assert chat_languages.choices(store, [chat]) == {chat: ("ru", None)}
    for start in (0, 3, 10**6):
        core, raw = both(
            store,
            lambda c, i=start: c.execute(tx_rows.ROWS_FROM, {"g": g, "start": i}).all(),
            lambda c, i=start: raw_sql.rows(c, raw_sql.ROWS_FROM, (g, i)),
        )
        assert [typed(r) for r in raw] == [typed(r) for r in core]

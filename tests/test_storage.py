"""Storage: the hash-chained append-only log, its transactions and the schema migrations.

Every test that takes `db_url` runs on SQLite, and on PostgreSQL too when PBEM_TEST_PG is set.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, select

from storage import Conflict, GameExists, GameNotFound, LegacyDatabase, Store, database_url
from storage.chain import GENESIS, row_hash, verify_chain
from storage.dice import commitment
from storage.models import Game
from storage.store import HEAD_REVISION, MIGRATIONS, state_hash
from tests.host_edits import host_execute

EVENT = {"kind": "PhaseEnded", "text": "soviet-combat ended"}
SCENARIO = "[scenario]\nid = 'x'\n"
WAIT = 600  # seconds: a ceiling for threads' events that only a hang reaches


def new(store: Store, name: str = "g1", state: dict | None = None, sandbox=False, **kw):
    kw.setdefault("sides", ("soviet", "german"))  # the game system names them
    return store.create_game(
        name, "hells-gate", SCENARIO, sandbox, state or {"turn": 1}, events=[EVENT], **kw
    )


def order(tx, actor="soviet", text_="end", state=None, key=None):
    """A stand-in for the service: log an order and store the state after it."""
    tx.append("order", actor, text_, {"rolls": [], "events": [EVENT]}, key=key, epoch=tx.epoch)
    tx.set_snapshot(state or {"turn": 1, "n": tx.head_index})
    return tx.head_index


def test_create_writes_game_seats_moderator_setup_and_epoch_rows(db_url, stores):
    store = stores(db_url)
    rec = new(store, sandbox=True, creator="mod1", uid="u" * 32)
    assert rec.name == "g1" and rec.game == "hells-gate" and rec.sandbox is True
    assert rec.uid == "u" * 32 and rec.scenario_text == SCENARIO
    assert rec.created_at.tzinfo is not None and rec.created_at.utcoffset().total_seconds() == 0
    assert rec.snapshot == {"turn": 1} and rec.head_index == 1
    assert rec.seats == {"soviet": None, "german": None} and rec.moderators == ("mod1",)
    setup, epoch = rec.log
    assert (setup.index, setup.kind, setup.actor, setup.user, setup.text) == (
        0,
        "setup",
        "system",
        "mod1",
        "new game",
    )
    assert setup.payload["events"] == [EVENT] and setup.payload["sandbox"] is True
    assert setup.payload["state_sha256"] == state_hash({"turn": 1})
    assert setup.prev_hash == GENESIS and setup.hash == row_hash(GENESIS, setup.to_dict())
    assert epoch.kind == "epoch" and epoch.payload["epoch"] == 1 and epoch.payload["turn"] == 1
    assert epoch.prev_hash == setup.hash and rec.head_hash == epoch.hash
    seeds = store.dice_secrets("g1")
    assert [(s["kind"], s["epoch"], s["revealed"]) for s in seeds] == [
        ("epoch", 1, False),
        ("hidden", 1, False),
    ]
    assert epoch.payload["commitment"] == commitment(seeds[0]["seed"]) == rec.epoch_commitment
    assert epoch.payload["hidden_commitment"] == commitment(seeds[1]["seed"])
    assert (rec.epoch, rec.epoch_turn, rec.epoch_next_n, rec.salts_open) == (1, 1, 1, True)


def test_transact_appends_chained_rows_that_survive_a_new_store(db_url, stores):
    store = stores(db_url)
    new(store)
    for actor in ("soviet", "german"):
        store.transact("g1", lambda tx, a=actor: order(tx, a))
    store.close()

    again = stores(db_url)
    rec = again.load("g1")
    assert [(r.index, r.kind, r.actor) for r in rec.log] == [
        (0, "setup", "system"),
        (1, "epoch", "system"),
        (2, "order", "soviet"),
        (3, "order", "german"),
    ]
    assert rec.snapshot == {"turn": 1, "n": 3} and rec.head_index == 3
    assert rec.head_hash == rec.log[-1].hash
    assert verify_chain(again.rows("g1")) is None
    assert [r.index for r in again.log("g1", 2)] == [2, 3]
    assert again.count_rows("g1") == 4


def test_name_clash_is_refused(db_url, stores):
    store = stores(db_url)
    new(store)
    with pytest.raises(GameExists, match="'g1' already exists"):
        new(store, state={"other": True})
    assert store.load("g1").snapshot == {"turn": 1}
    assert [g.name for g in store.list_games()] == ["g1"]


def test_unknown_game(db_url, stores):
    store = stores(db_url)
    for call in (
        lambda: store.load("nope"),
        lambda: store.log("nope"),
        lambda: store.transact("nope", order),
    ):
        with pytest.raises(GameNotFound, match="no game named 'nope'"):
            call()


def test_an_exception_in_the_transaction_writes_nothing(db_url, stores):
    """The rows, the snapshot and the dice bookkeeping commit together or not at all."""
    store = stores(db_url)
    before = new(store)

    def half(tx):
        order(tx)
        tx.reveal_epoch()
        tx.open_epoch(2)
        raise RuntimeError("the engine blew up")

    with pytest.raises(RuntimeError):
        store.transact("g1", half)
    with pytest.raises(TypeError):  # the snapshot cannot be serialised after the row was queued
        store.transact("g1", lambda tx: (order(tx), tx.set_snapshot({"bad": object()})))
    rec = store.load("g1")
    assert rec.log == before.log and rec.snapshot == before.snapshot
    assert (rec.version, rec.head_hash, rec.epoch) == (before.version, before.head_hash, 1)
    assert [s["epoch"] for s in store.dice_secrets("g1")] == [1, 1]


def test_a_failing_commit_writes_nothing(db_url, stores):
    store = stores(db_url)
    before = new(store)
    with store.engine.begin() as conn:
        if store.dialect == "sqlite":
            conn.exec_driver_sql(
                "CREATE TRIGGER no_update BEFORE UPDATE ON game "
                "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
            )
        else:
            conn.exec_driver_sql(
                "CREATE FUNCTION fire() RETURNS trigger AS $$ BEGIN "
                "RAISE EXCEPTION 'disk on fire'; END $$ LANGUAGE plpgsql"
            )
            conn.exec_driver_sql(
                "CREATE TRIGGER no_update BEFORE UPDATE ON game FOR EACH ROW EXECUTE FUNCTION fire()"
            )
    with pytest.raises(DBAPIError, match="disk on fire"):
        store.transact("g1", order)
    rec = store.load("g1")
    assert rec.log == before.log and rec.version == before.version


def test_a_stale_writer_is_stopped_by_the_version_column(db_url, stores):
    """The portable guard: an UPDATE of a game row that changed since it was read fails."""
    store = stores(db_url)
    new(store)
    with Session(store.engine, expire_on_commit=False) as stale:
        game = stale.exec(select(Game).where(Game.name == "g1")).one()
        stale.commit()  # read, then let go: a writer without the lock of `transact`
        store.transact("g1", order)  # someone else changes the game meanwhile
        game.head_hash = "f" * 64
        stale.add(game)
        with pytest.raises(StaleDataError):
            stale.commit()
    assert store.load("g1").head_hash != "f" * 64


def test_a_conflict_is_retried_on_a_fresh_read_then_given_up(db_url, stores):
    store = stores(db_url)
    new(store)
    seen = []

    def flaky(tx):
        seen.append(tx.head_index)
        if len(seen) == 1:
            raise StaleDataError("simulated: another writer won")
        return order(tx)

    assert store.transact("g1", flaky) == 2 and seen == [1, 1]
    assert store.count_rows("g1") == 3

    def always(tx):
        order(tx)
        raise StaleDataError("simulated")

    with pytest.raises(Conflict, match="nothing was applied"):
        store.transact("g1", always, attempts=3)
    assert store.count_rows("g1") == 3


def test_an_idempotency_key_is_unique_per_game(db_url, stores):
    store = stores(db_url)
    new(store)
    new(store, "g2")
    store.transact("g1", lambda tx: order(tx, key="m-1"))
    store.transact("g2", lambda tx: order(tx, key="m-1"))  # another game: no clash
    with pytest.raises(Conflict):
        store.transact("g1", lambda tx: order(tx, key="m-1"), attempts=2)
    rows = store.transact("g1", lambda tx: tx.find_key("m-1"))
    assert [(r.index, r.key) for r in rows] == [(2, "m-1")]
    assert store.transact("g1", lambda tx: tx.find_key("m-2")) is None


def test_find_key_brings_the_epoch_rows_its_change_wrote(db_url, stores):
    store = stores(db_url)
    new(store)

    def turn_change(tx):
        order(tx, key="k")
        tx.reveal_epoch()
        tx.open_epoch(2)

    store.transact("g1", turn_change)
    store.transact("g1", lambda tx: order(tx, key="next"))
    rows = store.transact("g1", lambda tx: tx.find_key("k"))
    assert [r.kind for r in rows] == ["order", "reveal", "epoch"]


def test_seeds_stay_out_of_the_log_until_their_epoch_ends(db_url, stores):
    store = stores(db_url)
    new(store)
    seed1 = store.dice_secrets("g1")[0]["seed"]
    assert seed1 not in str(store.rows("g1"))

    def next_epoch(tx):
        tx.reveal_epoch()
        tx.open_epoch(2)

    store.transact("g1", next_epoch)
    secrets = store.dice_secrets("g1")
    seed2 = next(s["seed"] for s in secrets if s["kind"] == "epoch" and s["epoch"] == 2)
    rows = store.rows("g1")
    assert rows[2]["kind"] == "reveal" and rows[2]["payload"] == {"epoch": 1, "seed": seed1}
    assert seed2 not in str(rows) and rows[3]["payload"]["commitment"] == commitment(seed2)
    rec = store.load("g1")
    assert (rec.epoch, rec.epoch_turn) == (2, 2) and verify_chain(rows) is None


def test_games_are_separate_and_listed(db_url, stores):
    store = stores(db_url)
    new(store, "a")
    new(store, "b")
    store.transact("b", order)
    assert [g.name for g in store.list_games()] == ["a", "b"]
    assert [r.index for r in store.log("a")] == [0, 1]
    assert [r.index for r in store.log("b")] == [0, 1, 2]
    assert store.load("a").uid != store.load("b").uid


def test_a_row_that_is_not_json_is_read_for_the_audit_not_crashed_on(db_url, stores):
    store = stores(db_url)
    new(store)
    host_execute(store, "UPDATE logentry SET payload = '{broken' WHERE \"index\" = 1")
    rows = store.rows("g1")
    assert rows[1]["payload"] == "{broken"
    assert verify_chain(rows)[0] == 1


def test_migrations_bring_an_empty_database_to_head_once(db_url, stores):
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(cfg).get_current_head() == HEAD_REVISION
    store = stores(db_url)
    with store.engine.connect() as conn:
        assert (
            conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD_REVISION
        )
    new(store)
    stores(db_url)  # a second opening: nothing to migrate, nothing lost
    assert stores(db_url).count_rows("g1") == 2


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path, stores):
    db = str(tmp_path / "games.db")
    new(stores(db))
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    con.close()


def test_sqlite_writers_queue_at_begin_immediate(tmp_path, stores):
    """A second writer waits at BEGIN for the first to commit, then reads what it wrote."""
    db = str(tmp_path / "games.db")
    first, second = stores(db), stores(db)
    new(first)
    inside, asking, release = threading.Event(), threading.Event(), threading.Event()
    seen = []

    def slow(tx):
        inside.set()
        assert release.wait(WAIT)
        return order(tx)

    def quick(tx):
        seen.append(tx.head_index)
        return order(tx, "german")

    def about_to_run(conn, cursor, statement, *rest):  # the write's BEGIN, whichever it is
        if statement.startswith("BEGIN") and not conn.get_execution_options().get("pbem_read"):
            asking.set()

    event.listen(second.engine, "before_cursor_execute", about_to_run)
    t = threading.Thread(target=lambda: first.transact("g1", slow))
    t.start()
    assert inside.wait(WAIT)  # the first writer holds the lock
    u = threading.Thread(target=lambda: second.transact("g1", quick))
    u.start()
    assert asking.wait(WAIT)  # the second writer sends its BEGIN
    time.sleep(0.2)  # room to get past it wrongly (a slower machine only checks less)
    assert seen == []  # still waiting for the lock
    release.set()
    t.join(WAIT)
    u.join(WAIT)
    assert seen == [2]  # it read the first writer's row
    assert [r.actor for r in first.log("g1")][2:] == ["soviet", "german"]


def test_a_database_from_before_migrations_is_refused_with_a_reason(tmp_path):
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE game (id INTEGER PRIMARY KEY, name TEXT)")
    con.execute("CREATE TABLE logentry (id INTEGER PRIMARY KEY, game_id INTEGER, text TEXT)")
    con.commit()
    con.close()
    with pytest.raises(LegacyDatabase, match="made by pbem 0.1"):
        Store(str(db))


def test_database_url_forms(tmp_path):
    assert database_url(None) == "sqlite:///pbem.db"
    assert database_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path}/x.db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url(":memory:") == "sqlite://"

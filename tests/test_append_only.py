"""The game log is append-only in the database itself (storage/append_only.py): the database
refuses an UPDATE or DELETE of a log row and a changed seed; a fresh and an upgraded database
hold the guards as pbem makes them (their SQL compared); a guard dropped, changed or disabled is
found at a service's start and by the audit, and freezes the games with a message naming the
table and what to do; `pbem repair` works under the guards and leaves them in place."""

from __future__ import annotations

import logging
import random
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from app.service import GameService
from bots.cli import main
from bots.demo import DemoSeeds  # fixed dice seeds: the same game on every run
from bots.startup import check_guards
from storage import Store, append_only, chat_store, freeze_records
from storage.engine import MIGRATIONS
from tests.host_edits import host_execute, restore_guards
from tests.playing import legal_text, play_random

USERS = {"soviet": "telegram:1", "german": "telegram:2"}
FIXTURES = Path(__file__).resolve().parent / "fixtures"
OF_G = "game_id = (SELECT id FROM game WHERE name = 'g')"


def new_game(service: GameService, name: str, orders: int = 12) -> None:
    service.new_game(name, creator="mod")
    for side, user in USERS.items():
        assert service.say(name, None, f"seat {side} {user} seating", user="mod")[0].ok
    play_random(service, name, orders, seed=2)


@pytest.fixture
def service(db_url, stores):
    """Two games a while into play; game g's chats bound (a freeze is told there)."""
    played = GameService(stores(db_url), seeds=DemoSeeds(3))
    for name in ("g", "h"):
        new_game(played, name)
    chat_store.bind(played.store, "telegram", "-1001", "g", now=datetime.now(UTC))
    return played


def refused(store: Store, sql: str, **params) -> str:
    """The database's refusal of `sql` (nothing of it written)."""
    with pytest.raises(DBAPIError) as caught, store.engine.begin() as conn:
        conn.execute(text(sql), params)
    return str(caught.value)


def scalar(store: Store, sql: str, **params):
    with store.engine.connect() as conn:
        return conn.execute(text(sql), params).scalar()


def problems(store: Store) -> list[tuple[str, str]]:
    return [(p.guard.name, p.how) for p in store.unguarded()]


def order(service: GameService, name: str):
    side, said = legal_text(service, name, random.Random(7))
    return service.say(name, None, said, user=USERS[side])[0]


def restarted(service: GameService, stores) -> GameService:
    """The same database in a new process, as `pbem serve` starts: the guards checked first."""
    fresh = GameService(stores(service.store.url), seeds=DemoSeeds(4))
    check_guards(fresh.store)
    return fresh


# -- what the database refuses
def test_an_update_and_a_delete_of_a_log_row_are_refused_by_the_database(service):
    store = service.store
    before = store.rows("g")
    g = scalar(store, "SELECT id FROM game WHERE name = 'g'")
    for sql in (
        "UPDATE logentry SET text = 'forged' WHERE \"index\" = 3 AND game_id = :g",
        "UPDATE logentry SET secret = NULL WHERE game_id = :g",  # off-chain columns too
        'DELETE FROM logentry WHERE "index" = 3 AND game_id = :g',
        "DELETE FROM logentry WHERE game_id = :g",
    ):
        assert "logentry rows are append-only" in refused(store, sql, g=g), sql
    if store.dialect == "postgresql":
        assert "append-only" in refused(store, "TRUNCATE logentry CASCADE")
    assert store.rows("g") == before
    assert order(service, "g").ok  # inserting is what pbem does: untouched


def test_a_seed_is_written_once_and_only_revealed(service):
    store = service.store
    seeds = store.dice_secrets("g")
    for sql in (
        "UPDATE dicesecret SET seed = :s WHERE kind = 'epoch'",
        "UPDATE dicesecret SET epoch = epoch + 1",
        "DELETE FROM dicesecret",
    ):
        said = refused(store, sql, s="0" * 64) if ":s" in sql else refused(store, sql)
        assert "dicesecret rows are written once" in said, sql
    with pytest.raises(DBAPIError, match="written once"), store.engine.begin() as conn:
        conn.execute(text("UPDATE dicesecret SET revealed = :t"), {"t": True})  # allowed...
        conn.execute(text("UPDATE dicesecret SET revealed = :f"), {"f": False})  # ...not back
    assert store.dice_secrets("g") == seeds
    for sql in ("UPDATE game SET uid = 'x'", "UPDATE game SET scenario_text = 'x'"):
        assert "uid, game and scenario_text are fixed" in refused(store, sql), sql
    with store.engine.begin() as conn:  # the game row's caches change with every order
        conn.execute(text("UPDATE game SET paused_why = NULL, head_hash = head_hash"))
    assert problems(store) == [] and order(service, "g").ok


def test_an_identity_link_row_is_append_only_in_the_database(service):
    """The service's chained identity links (storage/identity_chain.py) are guarded like the log."""
    from app import identities

    now = datetime.now(UTC)
    code, _ = identities.new_code(service.store, USERS["soviet"], now=now)
    identities.confirm(service.store, "discord:11", code, now=now)
    store = service.store
    for sql in (
        "UPDATE identitylink SET other = 'telegram:2'",
        "UPDATE identitylink SET hash = hash",
        "DELETE FROM identitylink",
    ):
        assert "identitylink rows are append-only" in refused(store, sql), sql
    if store.dialect == "postgresql":
        assert "append-only" in refused(store, "TRUNCATE identitylink")
    assert scalar(store, "SELECT other FROM identitylink") == USERS["soviet"]
    assert identities.partners(store, "discord:11") == [USERS["soviet"]]


# -- the guards as pbem makes them
def stored_sql(store: Store) -> dict[str, str]:
    """name -> what the database holds of each guard (its SQL, as comparable)."""
    with store.engine.connect() as conn:
        return {n: sql for n, (_, sql, _) in append_only.held(conn).items()}


def test_a_fresh_database_holds_every_guard_with_its_sql(db_url, stores):
    store = stores(db_url)
    with store.engine.connect() as conn:
        expected = {g.name: " ".join(g.sql.split()) for g in append_only.guards(conn)}
    assert set(expected) >= {"pbem_logentry_no_update", "pbem_logentry_no_delete"}
    held = stored_sql(store)
    assert {n: held.get(n) for n in expected} == expected
    assert problems(store) == []


def test_an_upgraded_legacy_database_holds_every_guard(tmp_path):
    path = tmp_path / "legacy.db"
    shutil.copy(FIXTURES / "legacy-0.1.db", path)  # at revision 0002: before the guards
    store = Store(str(path))
    try:
        assert scalar(store, "SELECT version_num FROM alembic_version") == store_head()
        held = stored_sql(store)
        assert {g.name: held.get(g.name) for g in append_only.SQLITE} == {
            g.name: g.sql for g in append_only.SQLITE
        }
        assert problems(store) == []
        assert "append-only" in refused(store, "DELETE FROM logentry")
    finally:
        store.close()


def store_head() -> str:
    from storage.engine import HEAD_REVISION

    return HEAD_REVISION


def test_a_migration_that_rebuilds_a_table_leaves_the_guards_in_place(tmp_path):
    """SQLite's batch mode rebuilds a table without its triggers: every migration run ends by
    installing them again (storage/migrations/env.py)."""
    from alembic import command
    from alembic.config import Config

    path = tmp_path / "games.db"
    Store(str(path)).close()
    later = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, later, ignore=shutil.ignore_patterns("__pycache__"))
    (later / "versions" / "9999_rebuild.py").write_text(
        "from alembic import op\nimport sqlalchemy as sa\n"
        f"revision = '9999'\ndown_revision = '{store_head()}'\n"
        "branch_labels = depends_on = None\n\n"
        "def upgrade():\n"
        "    with op.batch_alter_table('logentry', recreate='always') as batch:\n"
        "        batch.add_column(sa.Column('later', sa.Text(), nullable=True))\n",
        "utf-8",
    )
    store = Store(str(path))
    try:
        with store.engine.connect() as conn:
            cfg = Config()
            cfg.set_main_option("script_location", str(later))
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
            conn.commit()
        assert scalar(store, "SELECT version_num FROM alembic_version") == "9999"
        assert "later" in stored_sql_of_table(store, "logentry")  # rebuilt, then guarded again
        assert problems(store) == []
    finally:
        store.close()


def stored_sql_of_table(store: Store, table: str) -> str:
    return str(
        scalar(store, "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = :t", t=table)
    )


# -- a guard down: found, every game frozen, told
def drop(store: Store, trigger: str, table: str) -> None:
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            f"DROP TRIGGER {trigger} ON {table}"
            if store.dialect == "postgresql"
            else f"DROP TRIGGER {trigger}"
        )


def alter(store: Store) -> None:
    """pbem_logentry_no_update under its own name, never firing: another SQL."""
    with store.engine.begin() as conn:
        if store.dialect == "postgresql":
            conn.exec_driver_sql("DROP TRIGGER pbem_logentry_no_update ON logentry")
            conn.exec_driver_sql(
                "CREATE TRIGGER pbem_logentry_no_update BEFORE UPDATE ON logentry FOR EACH ROW "
                "WHEN (false) EXECUTE FUNCTION pbem_logentry_guard()"
            )
        else:
            conn.exec_driver_sql("DROP TRIGGER pbem_logentry_no_update")
            conn.exec_driver_sql(
                "CREATE TRIGGER pbem_logentry_no_update BEFORE UPDATE ON logentry WHEN 0 "
                "BEGIN SELECT RAISE(ABORT, 'pbem: logentry rows are append-only'); END"
            )


def assert_all_frozen(fresh: GameService, table: str, how: str) -> None:
    for name in ("g", "h"):
        reply = order(fresh, name)
        assert not reply.ok and reply.error["code"] == "frozen", reply.reply
        message = reply.error["message"]
        assert f"table {table}" in message and how in message, message
        assert f"pbem repair {name}" in message and "append-only" in message, message
        assert freeze_records.open_failure(fresh.store, name) is not None
        ok, report, _ = fresh.audit(name)
        assert not ok and f"table {table}" in report, report


def test_a_dropped_guard_is_found_at_start_and_every_game_is_frozen(service, stores, caplog):
    drop(service.store, "pbem_logentry_no_delete", "logentry")
    with caplog.at_level(logging.ERROR, logger="pbem.serve"):
        fresh = restarted(service, stores)
    said = " ".join(r.getMessage() for r in caplog.records if r.name == "pbem.serve")
    assert "table logentry: trigger pbem_logentry_no_delete missing" in said, said
    assert "every game is frozen" in said and "pbem repair GAME" in said, said
    assert problems(fresh.store) == [("pbem_logentry_no_delete", "missing")]
    assert_all_frozen(fresh, "logentry", "was dropped")
    notices = [r for r in chat_store_posts(fresh) if "FROZEN" in r]
    assert len(notices) == 1 and "table logentry" in notices[0], notices


def test_a_dropped_identity_link_guard_is_found_and_freezes_every_game(service, stores):
    drop(service.store, "pbem_identitylink_no_delete", "identitylink")
    assert problems(service.store) == [("pbem_identitylink_no_delete", "missing")]
    fresh = restarted(service, stores)
    assert_all_frozen(fresh, "identitylink", "was dropped")


def test_pbem_serve_checks_the_guards_when_it_starts(tmp_path, caplog):
    import asyncio
    import io

    from bots import serve as S
    from bots.config import Config

    path = str(tmp_path / "games.db")
    store = Store(path)
    new_game(GameService(store, seeds=DemoSeeds(3)), "g", orders=2)
    drop(store, "pbem_dicesecret_no_delete", "dicesecret")
    store.close()
    config = Config.load({"PBEM_DB": path})
    with caplog.at_level(logging.ERROR, logger="pbem.serve"):
        code = asyncio.run(S.serve(config, stdin=io.StringIO(""), stdout=io.StringIO()))
    assert code == 0  # it serves on: questions are answered, orders refused
    said = " ".join(r.getMessage() for r in caplog.records if r.name == "pbem.serve")
    assert "table dicesecret: trigger pbem_dicesecret_no_delete missing" in said, said
    store = Store(path)
    try:
        failure = freeze_records.open_failure(store, "g")
        assert failure is not None and "table dicesecret lost its guard" in failure["problem"]
    finally:
        store.close()


def chat_store_posts(service: GameService) -> list[str]:
    from storage import outbox

    return [r["text"] for r in outbox.select_rows(service.store, game="g")]


def test_a_guard_changed_under_its_own_name_is_found(service, stores):
    alter(service.store)
    assert problems(service.store) == [("pbem_logentry_no_update", "changed")]
    fresh = restarted(service, stores)
    assert_all_frozen(fresh, "logentry", "is not the one pbem made")


def test_a_guard_dropped_while_serving_is_found_by_the_audit(service):
    drop(service.store, "pbem_dicesecret_no_update", "dicesecret")
    ok, report, _ = service.audit("h")
    assert not ok and "table dicesecret lost its guard" in report, report
    for name in ("h", "g"):  # the audit froze every game: each write checks its game whole again
        reply = order(service, name)
        assert not reply.ok and reply.error["code"] == "frozen", reply.reply
        assert "table dicesecret" in reply.error["message"], reply.reply


def test_a_disabled_guard_or_a_changed_function_is_found_on_postgresql(db_url, stores):
    store = stores(db_url)
    if store.dialect != "postgresql":
        assert problems(store) == []  # (SQLite has neither: a trigger holds its whole SQL)
        return
    with store.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE logentry DISABLE TRIGGER pbem_logentry_no_delete")
    assert problems(store) == [("pbem_logentry_no_delete", "disabled")]
    with store.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE logentry ENABLE TRIGGER pbem_logentry_no_delete")
        conn.exec_driver_sql(
            "CREATE OR REPLACE FUNCTION pbem_dicesecret_guard() RETURNS trigger "
            "LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$"
        )
    assert problems(store) == [
        (f"pbem_dicesecret_no_{what}", "changed") for what in ("update", "delete", "truncate")
    ]


# -- repair under the guards
def test_repair_restores_a_dropped_guard_for_each_game_and_logs_it(service, stores, capsys):
    drop(service.store, "pbem_logentry_no_update", "logentry")
    drop(service.store, "pbem_game_fixed", "game")  # a guard the repair need not lift itself
    fresh = restarted(service, stores)
    url = fresh.store.url
    assert main(["repair", "g", "--db", url, "--by", "mod"]) == 0
    assert "0 rows after it dropped" in capsys.readouterr().out
    assert problems(fresh.store) == []
    (row,) = [r for r in fresh.store.log("g") if r.payload.get("action") == "repair"]
    down = ["pbem_logentry_no_update missing", "pbem_game_fixed missing"]
    assert row.payload["guards"]["down"] == down
    assert "pbem_logentry_no_delete" in row.payload["guards"]["lifted"]
    assert "append-only" in row.payload["why"]
    assert order(fresh, "g").ok
    assert main(["repair", "h", "--db", url, "--by", "mod"]) == 0  # each game records it
    assert order(fresh, "h").ok
    for name in ("g", "h"):
        ok, report, _ = fresh.audit(name)
        assert ok, report
        assert freeze_records.open_failure(fresh.store, name) is None


def test_repair_drops_tampered_rows_under_the_guards_and_leaves_them_in_place(service, stores):
    store = service.store
    k = store.load("g", with_log=False).head_index - 2
    host_execute(store, f"UPDATE logentry SET text = 'forged' WHERE \"index\" = :k AND {OF_G}", k=k)
    restore_guards(store)  # the host even puts the guards back: the chain still finds the edit
    fresh = restarted(service, stores)
    reply = order(fresh, "g")
    assert not reply.ok and f"at row {k}:" in reply.error["message"], reply.reply
    assert main(["repair", "g", "--db", store.url, "--by", "mod"]) == 0
    (row,) = [r for r in fresh.store.log("g") if r.payload.get("action") == "repair"]
    assert len(row.payload["dropped"]) == 3 and row.payload["guards"]["down"] == []
    assert problems(fresh.store) == []
    assert "append-only" in refused(fresh.store, 'DELETE FROM logentry WHERE "index" = 0')
    assert order(fresh, "g").ok and order(fresh, "h").ok
    ok, report, _ = fresh.audit("g")
    assert ok, report

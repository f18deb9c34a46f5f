"""PostgreSQL: the migrations, and the command line end to end, on a real server.

Runs when PBEM_TEST_PG holds a server URL (.ci/run sets it to the machine's server). The store,
chain, tamper and concurrency tests also run there: they are parametrised over both databases
(tests/conftest.py, `db_url`).
"""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import inspect, text

from bots.cli import main
from storage import Store
from storage.store import HEAD_REVISION
from tests.conftest import PG_URL, PgSchema

pytestmark = pytest.mark.skipif(not PG_URL, reason="PBEM_TEST_PG is not set")


@pytest.fixture
def schema():
    s = PgSchema(PG_URL)
    yield s
    s.drop()


def test_migrations_create_the_schema_on_postgresql(schema):
    store = Store(schema.url)
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
                HEAD_REVISION
            )
            insp = inspect(conn)
            assert {"game", "seat", "moderator", "dicesecret", "logentry"} <= set(
                insp.get_table_names()
            )
            created = {c["name"]: c for c in insp.get_columns("game")}["created_at"]
            assert created["type"].timezone is True
            uniques = {u["name"] for u in insp.get_unique_constraints("logentry")}
            assert {"uq_logentry_game_index", "uq_logentry_game_key"} <= uniques
    finally:
        store.close()


def test_two_processes_opening_a_fresh_database_at_once_migrate_it_once(schema):
    errors, stores = [], []
    barrier = threading.Barrier(4)

    def open_():
        barrier.wait()
        try:
            stores.append(Store(schema.url))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)  # a ceiling only a hang reaches
    assert not errors and len(stores) == 4
    with stores[0].engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM alembic_version")).scalar() == 1
    for s in stores:
        s.close()


def test_the_command_line_on_postgresql(schema, capsys, tmp_path):
    url = schema.url
    assert main(["new", "g", "--creator", "mod", "--db", url]) == 0
    assert main(["say", "g", "--as", "soviet", "end", "--key", "m1", "--db", url]) == 0
    assert main(["say", "g", "--as", "soviet", "end", "--key", "m1", "--db", url]) == 0
    assert main(["say", "g", "--user", "mod", "pause tea", "--db", url]) == 0
    assert main(["audit", "g", "--export", str(tmp_path / "g.jsonl"), "--db", url]) == 0
    assert main(["audit", "--verify", str(tmp_path / "g.jsonl")]) == 0
    assert main(["replay", "--all", "--db", url]) == 0
    out = capsys.readouterr().out
    assert "OK: the chain holds" in out and "1 of 1 games replay" in out
    store = Store(url)
    try:
        assert [r.key for r in store.log("g")].count("m1") == 1
    finally:
        store.close()

"""Storage: the append-only log and its snapshot cache, against real SQLite files."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.exc import DBAPIError

from storage import Conflict, GameExists, GameNotFound, Store, database_url

ROLL = {"purpose": "weather", "value": 4, "fixed": False}
EVENT = {"kind": "PhaseEnded", "text": "soviet-combat ended"}


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.db")


def new(store: Store, name: str = "g1", state: dict | None = None, sandbox: bool = False):
    return store.create_game(
        name,
        "hells-gate",
        "[scenario]\nid = 'x'\n",
        sandbox,
        state or {"turn": 1},
        rolls=[ROLL],
        events=[EVENT],
    )


def test_create_writes_game_seats_and_setup_row(db):
    rec = new(Store(db), sandbox=True)
    assert rec.name == "g1" and rec.game == "hells-gate" and rec.sandbox is True
    assert rec.scenario_text.startswith("[scenario]")
    assert rec.created_at.tzinfo is not None and rec.created_at.utcoffset().total_seconds() == 0
    assert rec.snapshot == {"turn": 1} and rec.snapshot_index == 0
    assert rec.seats == {"soviet": None, "german": None}
    assert [(r.index, r.actor, r.text, r.rolls, r.events) for r in rec.log] == [
        (0, "system", "new game", [ROLL], [EVENT])
    ]


def test_append_keeps_order_and_survives_a_new_store(db):
    store = Store(db)
    new(store)
    for i, (actor, text) in enumerate([("soviet", "attack C6 with 5gd"), ("german", "end")], 1):
        assert store.append("g1", actor, text, [ROLL], [EVENT], {"turn": 1, "n": i}) == i
    store.close()

    again = Store(db)
    rec = again.load("g1")
    assert [(r.index, r.actor, r.text) for r in rec.log] == [
        (0, "system", "new game"),
        (1, "soviet", "attack C6 with 5gd"),
        (2, "german", "end"),
    ]
    assert rec.snapshot == {"turn": 1, "n": 2} and rec.snapshot_index == 2
    assert rec.version == 3
    assert [r.index for r in again.log("g1", 2)] == [1, 2]
    assert again.count_rows("g1") == 3


def test_name_clash_is_refused(db):
    store = Store(db)
    new(store)
    with pytest.raises(GameExists, match="'g1' already exists"):
        new(store, state={"other": True})
    assert store.load("g1").snapshot == {"turn": 1}
    assert [g.name for g in store.list_games()] == ["g1"]


def test_unknown_game(db):
    store = Store(db)
    for call in (
        lambda: store.load("nope"),
        lambda: store.log("nope"),
        lambda: store.append("nope", "soviet", "end", [], [], {}),
    ):
        with pytest.raises(GameNotFound, match="no game named 'nope'"):
            call()


def test_failing_append_writes_nothing(db):
    """The log row and the snapshot commit together or not at all."""
    store = Store(db)
    new(store)
    with pytest.raises(TypeError):  # the snapshot cannot be serialised after the row was flushed
        store.append("g1", "soviet", "end", [], [], {"bad": object()})
    raw = sqlite3.connect(db)
    raw.execute(
        "CREATE TRIGGER no_update BEFORE UPDATE ON game "
        "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
    )
    raw.commit()
    with pytest.raises(DBAPIError, match="disk on fire"):
        store.append("g1", "soviet", "end", [], [], {"turn": 2})
    rec = store.load("g1")
    assert [r.index for r in rec.log] == [0] and rec.snapshot == {"turn": 1} and rec.version == 1
    raw.close()


def test_stale_writer_gets_a_conflict(db):
    store = Store(db)
    new(store)
    store.append("g1", "soviet", "end", [], [], {"turn": 1}, after=0)
    with pytest.raises(Conflict):
        store.append("g1", "german", "end", [], [], {"turn": 1}, after=0)
    assert store.count_rows("g1") == 2


def test_games_are_separate_and_listed(db):
    store = Store(db)
    new(store, "a")
    new(store, "b")
    store.append("b", "soviet", "end", [], [], {"b": 1})
    assert [g.name for g in store.list_games()] == ["a", "b"]
    assert [r.index for r in store.log("a")] == [0]
    assert [r.index for r in store.log("b")] == [0, 1]


def test_sqlite_runs_in_wal_mode(db):
    new(Store(db))
    assert sqlite3.connect(db).execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_database_url_forms(tmp_path):
    assert database_url(None) == "sqlite:///pbem.db"
    assert database_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path}/x.db"
    assert database_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
    assert database_url(":memory:") == "sqlite://"

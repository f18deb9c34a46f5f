"""SQLite's BEGIN, sent on the driver's connection (storage/engine._sqlite_begin): a writer's
takes the write lock, a reader's does not, the engine's listeners hear both, and a writer that
finds the lock held gets the conflict the store retries, its connection still usable."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from storage.engine import retryable


def test_a_writers_begin_takes_the_lock_and_a_readers_does_not(tmp_path, stores):
    store = stores(str(tmp_path / "games.db"))
    heard: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda c, cur, s, *_: heard.append(s))
    holder = sqlite3.connect(str(tmp_path / "games.db"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the write lock
    try:
        with store.reader.connect() as conn:
            conn.connection.driver_connection.execute("PRAGMA busy_timeout=0")
            with conn.begin():  # (a deferred BEGIN: reading waits for no writer)
                assert conn.execute(text("SELECT count(*) FROM game")).scalar() == 0
        with store.engine.connect() as conn:
            conn.connection.driver_connection.execute("PRAGMA busy_timeout=0")
            with pytest.raises(OperationalError) as locked:
                conn.begin()
            assert not conn.in_transaction()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "database is locked" in str(locked.value)
    assert retryable(locked.value)
    assert heard[0] == "BEGIN" and heard[-1] == "BEGIN IMMEDIATE"
    with store.engine.begin() as conn:  # the lock free again: the writer begins
        conn.execute(text("DELETE FROM service_state WHERE 1 = 0"))
        assert conn.connection.driver_connection.in_transaction
    assert heard[-2:] == ["BEGIN IMMEDIATE", "DELETE FROM service_state WHERE 1 = 0"]

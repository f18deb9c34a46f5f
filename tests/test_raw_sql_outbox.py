"""The outbox rows a change writes and the user names its posts read, on the driver's connection
(storage/raw_sql.py), store and read exactly what their SQLAlchemy Core counterparts do: the
same stored values (datetimes, booleans, bytes, JSON text converted as Core converts them), the
id written, the same names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from storage import chat_store, outbox, raw_posts, raw_sql
from tests.test_raw_sql import both, game, typed

__all__ = ["game"]  # (the fixture: a started game in a chat)

NOW = datetime(2031, 1, 2, 3, 4, 5, 600, tzinfo=UTC)
LATER = datetime(2031, 1, 2, 9, 4, 5, 7, tzinfo=timezone(timedelta(hours=3)))
ROWS = [
    {"platform": "telegram", "lane": "c1", "chat_id": "c1", "text": "plain", "dedupe_key": "k|0"},
    {
        "platform": "discord",
        "lane": "dm:u1",
        "user_id": "u1",
        "private": True,
        "as_document": True,
        "text": "",
        "image": b"\x89PNG\x00\xff",
        "image_name": "m.png",
        "mentions": ["u1", "u2"],
        "render": {"after": 3, "title": "Карта"},
        "asks": {"key": "s", "side": "german"},
        "reply_to": "17",
        "fallback_chat_id": "c9",
        "next_attempt_at": LATER,
        "dedupe_key": None,
    },
]


def stored(conn, row_id):
    """The outbox row as the database holds it (no conversion at all), without its id."""
    sql = "SELECT * FROM outbox WHERE id = " + str(int(row_id))
    return tuple(raw_sql.run(conn, raw_sql.Statement(sql)).fetchone())[1:]


@pytest.mark.parametrize("row", ROWS, ids=["chat", "private"])
def test_an_outbox_row_is_written_as_core_writes_it(game, row):
    store, name = game
    values = outbox._values(name, row, NOW)

    def core(c):
        row_id = c.execute(outbox._INSERT, values).inserted_primary_key[0]
        return row_id, stored(c, row_id)

    def raw(c):
        stmt, params = raw_posts.insert_outbox(c.dialect, values)
        row_id = raw_posts.inserted_id(c, stmt, params)
        return row_id, stored(c, row_id)

    (core_id, core_row), (raw_id, raw_row) = both(store, core, raw)
    assert isinstance(raw_id, int) and isinstance(core_id, int)
    assert typed(raw_row) == typed(core_row)
    assert len(raw_row) == len(outbox.OUTBOX.c) - 1


def test_the_rows_written_are_read_back_and_known_keys_are_skipped(game):
    store, name = game
    with store.engine.begin() as c:
        first = outbox.insert_rows(c, name, ROWS, NOW)
    with store.engine.begin() as c:  # (written again: the keyed row is there already)
        again = outbox.insert_rows(c, name, ROWS, NOW)
    assert len(first) == 2 and len(again) == 1 and again[0] > first[1]
    found = {r["id"]: r for r in outbox.select_rows(store, game=name)}
    private = found[first[1]]
    assert private["image"] == b"\x89PNG\x00\xff" and private["private"] is True
    assert private["mentions"] == ["u1", "u2"] and private["render"]["title"] == "Карта"
    assert private["next_attempt_at"] == LATER and private["created_at"] == NOW
    assert found[first[0]]["dedupe_key"] == "k|0" and found[first[0]]["next_attempt_at"] == NOW


def test_the_known_keys_and_the_user_names_are_read_as_core_reads_them(game):
    store, name = game
    with store.engine.begin() as c:
        outbox.insert_rows(c, name, ROWS, NOW)
    for keys in ([], ["k|0"], ["k|0", "missing", "k|0"], ["missing"]):
        core, raw = both(
            store,
            lambda c, k=keys: c.execute(outbox._EXISTING, {"keys": k}).all(),
            lambda c, k=keys: raw_sql.rows(c, raw_posts.OUTBOX_KEYS.expand(len(k)), k),
        )
        assert sorted(typed(r) for r in raw) == sorted(typed(r) for r in core)
    chat_store.remember_user(store, "telegram:1", "Анна", now=NOW)
    chat_store.remember_user(store, "discord:2", "Bob", now=NOW)
    for users in ([], ["telegram:1"], ["telegram:1", "discord:2", "nobody", "telegram:1"]):
        core, raw = both(
            store,
            lambda c, u=users: c.execute(chat_store._NAMES, {"us": u}).all(),
            lambda c, u=users: raw_sql.rows(c, raw_posts.USER_NAMES.expand(len(u)), u),
        )
        assert sorted(typed(r) for r in raw) == sorted(typed(r) for r in core)
    names = {"telegram:1": "Анна", "discord:2": "Bob"}
    assert chat_store.user_names(store, ["telegram:1", "discord:2", "nobody"]) == names
    with store.engine.begin() as c:
        assert chat_store.user_names(c, ["discord:2"]) == {"discord:2": "Bob"}

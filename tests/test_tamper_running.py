"""Tampering while `pbem serve` runs: every case of docs/threat-model.md ("Cannot, without the
game freezing ...") tried against the service that served the game before the edit, then
against a fresh one (a restart), on SQLite and PostgreSQL.

(a) The same Store that served the game: a case the checks before a write see (the head, the
caches, the dice bookkeeping, the snapshot) freezes the game at its next order; a row in the
middle of the log, a cache row pointed at an old genuine row, a consistent rewrite of rows it
verified or a truncation is found by one pass of the background check (storage/watch.py), which
the test drives; the game is frozen from then on. (b) A fresh Store on the same database (a
restart): its first order is refused. Then `pbem repair` brings the game back and `pbem audit`
passes.

The game is played once per backend and copied for each case (the file on SQLite; the rows into
a freshly migrated schema on PostgreSQL).
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import SQLModel

from app.chain_watch import watch
from app.service import GameService
from bots.cli import main
from storage import Store, chain
from tests.conftest import PG_URL, PgSchema
from tests.host_edits import host_execute, restore_guards
from tests.playing import legal_text, play_random

USERS = {"soviet": "telegram:1", "german": "telegram:2"}
OLD_SEAT = "telegram:9"  # held soviet's seat first: the row that gave it is chained, and old


def scalar(store: Store, sql: str, **params: Any) -> Any:
    with store.engine.connect() as conn:
        return conn.execute(text(sql), params).scalar()


def raw_rows(store: Store) -> list[dict[str, Any]]:
    with store.engine.connect() as conn:
        result = conn.execute(text('SELECT * FROM logentry ORDER BY "index"'))
        return [dict(r._mapping) for r in result]


def game_row(store: Store) -> dict[str, Any]:
    with store.engine.connect() as conn:
        return dict(conn.execute(text("SELECT * FROM game")).one()._mapping)


# -- the played game, once per backend
@dataclass
class Template:
    url: str
    earlier: dict[str, Any]  # the game row two orders before the end (a truncation's target)


def play(store: Store) -> dict[str, Any]:
    """A game of two seated players in turn 2 (soviet's seat held by another user first), a
    salt in the open epoch and draws in it; the game row two orders before its end."""
    service = GameService(store)
    service.new_game("g", creator="mod")
    assert service.say("g", None, f"seat soviet {OLD_SEAT} first", user="mod")[0].ok
    assert service.say("g", None, "unseat soviet swap", user="mod")[0].ok
    for side, user in USERS.items():
        assert service.say("g", None, f"seat {side} {user} seating", user="mod")[0].ok
    play_random(service, "g", 300, seed=2, until_turn=2)
    assert service.say("g", None, "salt open epoch salt", user=USERS["soviet"])[0].ok
    play_random(service, "g", 6, seed=3)
    earlier = game_row(store)
    secrets = scalar(store, "SELECT COUNT(*) FROM dicesecret")
    play_random(service, "g", 2, seed=5)
    later = game_row(store)
    assert later["head_index"] > earlier["head_index"] and later["epoch"] == earlier["epoch"]
    assert scalar(store, "SELECT COUNT(*) FROM dicesecret") == secrets
    assert scalar(store, "SELECT epoch_next_n FROM game") > 1  # the epoch has drawn
    ok, report, _ = service.audit("g")
    assert ok, report
    return earlier


_templates: dict[str, Template] = {}


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    schemas: list[PgSchema] = []

    def get(backend: str) -> Template:
        if backend not in _templates:
            if backend == "sqlite":
                url = str(tmp_path_factory.mktemp("played") / "template.db")
            else:
                schemas.append(PgSchema(PG_URL))
                url = schemas[-1].url
            store = Store(url)
            try:
                _templates[backend] = Template(url, play(store))
            finally:
                store.close()
        return _templates[backend]

    yield get
    _templates.clear()
    for schema in schemas:
        schema.drop()


def copy_played(template: Template, url: str) -> None:
    """The played game into `url` (an empty database)."""
    if not url.startswith("postgresql"):
        shutil.copy(template.url, url)
        return
    source = template.url.rsplit("%3D", 1)[1]  # the template's schema (conftest.pg_schema_url)
    store = Store(url)  # the schema, its guards and sequences: as pbem makes them
    try:
        with store.engine.begin() as conn:
            for t in SQLModel.metadata.sorted_tables:
                conn.exec_driver_sql(f"INSERT INTO {t.name} SELECT * FROM {source}.{t.name}")
                if "id" in t.c:
                    conn.exec_driver_sql(
                        f"SELECT setval(pg_get_serial_sequence('{t.name}', 'id'), "
                        f"(SELECT COALESCE(MAX(id), 0) + 1 FROM {t.name}), false)"
                    )
    finally:
        store.close()


# -- the service, its orders, its freezes
def next_order(service: GameService):
    side, order = legal_text(service, "g", random.Random(7))
    (reply, *_) = service.say("g", None, order, user=USERS[side])
    return reply


def assert_frozen(service: GameService, row: int | None, says: str | None) -> None:
    reply = next_order(service)
    assert not reply.ok and reply.error["code"] == "frozen", reply.reply
    message = reply.error["message"]
    assert row is None or f"at row {row}:" in message, message
    assert says is None or says in message, message


# -- the cases: each edits the database as a host would; (row named, words of the message)
Edit = Callable[[Store, Template], tuple[int | None, str | None]]


def middle(store: Store) -> int:
    return len(raw_rows(store)) // 2


def edit_row(store: Store, _: Template):
    k = middle(store)
    host_execute(store, 'UPDATE logentry SET text = :t WHERE "index" = :k', t="forged", k=k)
    return k, "hash mismatch"


def delete_row(store: Store, _: Template):
    k = middle(store)
    host_execute(store, 'DELETE FROM logentry WHERE "index" = :k', k=k)
    return k, "deleted"


def insert_row(store: Store, _: Template):
    rows = raw_rows(store)
    k = len(rows) // 2
    host_execute(store, 'UPDATE logentry SET "index" = "index" + 100000 WHERE "index" >= :k', k=k)
    host_execute(store, 'UPDATE logentry SET "index" = "index" - 99999 WHERE "index" >= 100000')
    forged = {c: rows[k][c] for c in ("kind", "actor", "user", "payload", "created_at", "epoch")}
    forged |= {"index": k, "text": "forged order", "key": None}
    digest = chain.row_hash(
        rows[k - 1]["hash"], forged | {"payload": json.loads(forged["payload"])}
    )
    host_execute(
        store,
        'INSERT INTO logentry (game_id, "index", kind, actor, "user", text, payload, "key", '
        "created_at, prev_hash, hash, epoch) VALUES (:g, :index, :kind, :actor, :user, :text, "
        ":payload, :key, :created_at, :prev, :hash, :epoch)",
        g=rows[k]["game_id"], prev=rows[k - 1]["hash"], hash=digest, **forged,
    )  # fmt: skip
    host_execute(store, "UPDATE game SET head_index = head_index + 1")
    return k, "inserted"


def swap_rows(store: Store, _: Template):
    k = middle(store)
    host_execute(store, 'UPDATE logentry SET "index" = -1 WHERE "index" = :k', k=k)
    host_execute(store, 'UPDATE logentry SET "index" = :k WHERE "index" = :n', k=k, n=k + 1)
    host_execute(store, 'UPDATE logentry SET "index" = :n WHERE "index" = -1', n=k + 1)
    return k, "does not link"


def payload_no_json(store: Store, _: Template):
    k = middle(store)
    host_execute(store, 'UPDATE logentry SET payload = :p WHERE "index" = :k', p="{not", k=k)
    return k, "not JSON"


def forge_snapshot(store: Store, _: Template):
    snap = json.loads(scalar(store, "SELECT snapshot FROM game"))
    key = next(k for k, v in snap.items() if isinstance(v, dict | list) and v)
    snap[key] = {} if isinstance(snap[key], dict) else []
    host_execute(store, "UPDATE game SET snapshot = :s", s=json.dumps(snap))
    return None, "snapshot"


def seat_in_table(store: Store, _: Template):
    host_execute(store, "UPDATE seat SET \"user\" = 'telegram:666' WHERE side = 'soviet'")
    return None, "telegram:666"


def moderator_in_table(store: Store, _: Template):
    gid = scalar(store, "SELECT id FROM game")
    host_execute(store, "INSERT INTO moderator (game_id, \"user\") VALUES (:g, 'telegram:666')",
                 g=gid)  # fmt: skip
    return None, "telegram:666"


def seat_at_old_row(store: Store, _: Template):
    """The seat table names the genuine, chained, but superseded row that gave soviet to
    OLD_SEAT: each check of a power finds a chained row saying so; the table check does not."""
    old = next(r for r in raw_rows(store) if r["kind"] == "moderation" and OLD_SEAT in r["payload"])
    host_execute(store, "UPDATE seat SET \"user\" = :u, row_hash = :h WHERE side = 'soviet'",
                 u=OLD_SEAT, h=old["hash"])  # fmt: skip
    return old["index"] + 2, "seat table row soviet"  # the row that seated soviet again


def open_epoch_seed(store: Store, _: Template):
    host_execute(store, "UPDATE dicesecret SET seed = :s WHERE kind = 'epoch' AND NOT revealed",
                 s="ab" * 32)  # fmt: skip
    return None, "does not match the commitment"


def salt_digest(store: Store, _: Template):
    host_execute(store, "UPDATE game SET salt_digest = :d", d="f" * 64)
    return None, "salt digest"


def roll_counter(store: Store, _: Template):
    host_execute(store, "UPDATE game SET epoch_next_n = 1")
    return None, "roll counter"


def epoch_counter(store: Store, _: Template):
    host_execute(store, "UPDATE game SET epoch = epoch + 1")
    return None, None


def epoch_column_of_salt(store: Store, _: Template):
    host_execute(store, "UPDATE logentry SET epoch = epoch + 1 WHERE kind = 'salt'")
    return None, None


def epoch_column_of_old_row(store: Store, _: Template):
    k = scalar(store, "SELECT MIN(\"index\") FROM logentry WHERE kind = 'reveal'")
    host_execute(store, 'UPDATE logentry SET epoch = 99 WHERE "index" = :k', k=k)
    return k, "epoch column"


def rechained_rewrite(store: Store, _: Template):
    """An order's key rewritten and every row after it chained again, the head and every
    cache row moved to the new hashes, the guards put back: the log holds by itself; only
    what the service verified before (its anchor) tells."""
    rows = raw_rows(store)
    k = len(rows) - 4
    docs = [{f: r[f] for f in chain.CHAINED_FIELDS} | {"payload": json.loads(r["payload"])}
            for r in rows]  # fmt: skip
    docs[k]["key"] = "rewritten"  # (a rewritten order's text must still replay)
    chain.link(docs)
    moved = {r["hash"]: d["hash"] for r, d in zip(rows[k:], docs[k:], strict=True)}
    for r, d in zip(rows[k:], docs[k:], strict=True):
        host_execute(store, 'UPDATE logentry SET "key" = :k, prev_hash = :p, hash = :h WHERE id = :id',
                     k=d["key"], p=d["prev_hash"], h=d["hash"], id=r["id"])  # fmt: skip
    for table, column in (
        ("game", "epoch_row_hash"),
        ("seat", "row_hash"),
        ("moderator", "row_hash"),
    ):
        for old, new in moved.items():
            host_execute(
                store, f"UPDATE {table} SET {column} = :n WHERE {column} = :o", n=new, o=old
            )
    host_execute(store, "UPDATE game SET head_hash = :h", h=docs[-1]["hash"])
    assert chain.chain_failure(docs) is None  # the rewritten log chains by itself
    restore_guards(store)  # and the host puts the guards back: nothing in the database tells
    return len(rows) - 1, "rewritten"


def truncation(store: Store, template: Template):
    """The last orders deleted and the game row put back as it was before them (head, snapshot,
    dice bookkeeping), the guards put back: the log and every cache hold by themselves."""
    earlier = template.earlier
    host_execute(store, 'DELETE FROM logentry WHERE "index" > :k', k=earlier["head_index"])
    columns = [c for c in earlier if c not in ("id", "version")]
    assigned = ", ".join(f"{c} = :{c}" for c in columns)
    host_execute(store, f"UPDATE game SET {assigned}", **{c: earlier[c] for c in columns})
    restore_guards(store)
    return earlier["head_index"], "truncated"


# (case, whether the checks before a write see it)
CASES = [
    (edit_row, False),
    (delete_row, False),
    (insert_row, False),
    (swap_rows, False),
    (payload_no_json, False),
    (forge_snapshot, True),
    (seat_in_table, True),
    (moderator_in_table, True),
    (seat_at_old_row, False),
    (salt_digest, True),
    (roll_counter, True),
    (epoch_counter, True),
    (rechained_rewrite, False),
    (truncation, False),
]


def tamper_running_then_restart(db_url, stores, templates) -> Any:
    """(a) then (b) for one case; the fresh service (the repair is the caller's)."""
    template = templates("postgresql" if db_url.startswith("postgresql") else "sqlite")
    copy_played(template, db_url)
    running = GameService(stores(db_url))
    assert next_order(running).ok  # the game is served: its whole chain checked once
    checks = watch(running.store)
    assert checks.run_round() == []  # what this process verified: every row, its anchor
    return template, running, checks


@pytest.mark.parametrize("edit, write_sees", CASES, ids=[c[0].__name__ for c in CASES])
def test_every_tampering_freezes_the_running_service_and_a_restarted_one(
    db_url, stores, templates, capsys, edit, write_sees
):
    """Threat model, "Cannot, without the game freezing": the running service, at its next
    write or after one background pass; a restarted one at its first write; repair, audit."""
    template, running, checks = tamper_running_then_restart(db_url, stores, templates)
    row, says = edit(running.store, template)
    if write_sees:
        assert_frozen(running, row, says)
        assert checks.run_pass()  # the background check finds it too
    else:
        found = checks.run_pass()
        assert [name for name, _ in found] == ["g"], found
        assert row is None or found[0][1]["index"] == row, found
        assert_frozen(running, row, says)  # the game stays frozen
    assert_frozen(GameService(stores(db_url)), row, says)  # (b) a restart
    capsys.readouterr()
    assert main(["repair", "g", "--db", db_url, "--by", "mod"]) == 0, capsys.readouterr().err
    assert main(["audit", "g", "--db", db_url]) == 0, capsys.readouterr().out
    assert next_order(running).ok  # the repaired game is served again, by the same process


@pytest.mark.parametrize(
    "edit, write_sees",
    [(epoch_column_of_salt, True), (epoch_column_of_old_row, False)],
    ids=["epoch_column_of_salt", "epoch_column_of_old_row"],
)
def test_a_changed_epoch_column_freezes_both_and_repair_rebuilds_it(
    db_url, stores, templates, capsys, edit, write_sees
):
    """Threat model: a row's epoch column (not chained: the chain alone does not show it; the
    audit does). Its own test: it needs a repair that cuts where the audit finds the first bad
    row (a repair that cut where the chain breaks kept the row and still failed)."""
    test_every_tampering_freezes_the_running_service_and_a_restarted_one(
        db_url, stores, templates, capsys, edit, write_sees
    )


def test_a_changed_seed_of_the_open_epoch_freezes_both_and_repair_refuses_to_reveal_it(
    db_url, stores, templates, capsys
):
    """Threat model: the open epoch's seed changed. The repair cannot reveal a seed that does
    not match its commitment: the game stays frozen (as tests/test_tamper.py says)."""
    template, running, checks = tamper_running_then_restart(db_url, stores, templates)
    row, says = open_epoch_seed(running.store, template)
    assert_frozen(running, row, says)
    assert checks.run_pass()
    assert_frozen(GameService(stores(db_url)), row, says)
    capsys.readouterr()
    assert main(["repair", "g", "--db", db_url, "--by", "mod"]) != 0
    assert "does not match the commitment" in capsys.readouterr().err
    assert_frozen(running, row, says)


def test_a_pass_reads_at_most_its_budget_and_the_next_goes_on(db_url, stores, templates):
    """The background check's slices: a pass reads at most `budget` rows, the next pass goes
    on where it stopped, and a middle edit is found once the walk reaches it."""
    template = templates("postgresql" if db_url.startswith("postgresql") else "sqlite")
    copy_played(template, db_url)
    service = GameService(stores(db_url))
    rows = service.store.count_rows("g")
    checks = watch(service.store, budget=5)
    k = edit_row(service.store, template)[0]
    passes = 0
    while not service.store.frozen:
        before = checks.rows_read
        checks.run_pass()
        assert checks.rows_read - before <= 5
        passes += 1
    assert passes == k // 5 + 1 and service.store.frozen["g"]["index"] == k
    assert rows > 10

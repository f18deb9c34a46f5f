"""Trust under attack (issue 13, items 1-3): a tampered game stops, every authority is in the chain,
and a head hash a player kept catches truncation and rewrites.

Each tampering case changes the database behind the service's back (as a host with database
access could) and then gives the next order: it must be refused with code "frozen" and a message
naming the first bad row; `pbem audit` says the same; `pbem repair` brings the game back, logged.
A case the constant-time checks before every write catch is tried in the same process; a row in
the middle of the log is found by the whole-chain check the process runs before it first serves
a game (a fresh Store, as after a restart).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from app.service import GameService
from bots.cli import main
from storage import Store, chain, chat_store
from storage import outbox as outbox_rows
from tests.host_edits import host_execute
from tests.playing import legal_text, play_random

USERS = {"soviet": "telegram:1", "german": "telegram:2"}


def execute(store: Store, sql: str, **params) -> None:
    """A host's edit: he drops the append-only guards first (tests/host_edits.py)."""
    host_execute(store, sql, **params)


def scalar(store: Store, sql: str, **params):
    with store.engine.connect() as conn:
        return conn.execute(text(sql), params).scalar()


def raw_rows(store: Store) -> list[dict]:
    with store.engine.connect() as conn:
        result = conn.execute(text('SELECT * FROM logentry ORDER BY "index"'))
        return [dict(r._mapping) for r in result]


@pytest.fixture
def game(db_url, stores):
    """A game of two seated players in turn 2, with a salt in the open epoch and draws in it."""
    service = GameService(stores(db_url))
    service.new_game("g", creator="mod")
    for side, user in USERS.items():
        assert service.say("g", None, f"seat {side} {user} seating", user="mod")[0].ok
    play_random(service, "g", 300, seed=2, until_turn=2)
    assert service.say("g", None, "salt open epoch salt", user=USERS["soviet"])[0].ok
    play_random(service, "g", 6, seed=3)
    assert scalar(service.store, "SELECT epoch_next_n FROM game") > 1  # the epoch has drawn
    ok, report, _ = service.audit("g")
    assert ok, report
    return service


def next_order(service: GameService):
    """The next legal order, given by the player whose side it is."""
    import random

    side, order = legal_text(service, "g", random.Random(7))
    (reply, *_) = service.say("g", None, order, user=USERS[side])
    return reply


def assert_frozen(service: GameService, row: int | None) -> str:
    reply = next_order(service)
    assert not reply.ok and reply.error["code"] == "frozen", reply.reply
    message = reply.error["message"]
    if row is not None:
        assert f"at row {row}:" in message, message
        assert f"at row {row}: row {row}:" not in message, message  # the row said once
    ok, report, _ = service.audit("g")
    assert not ok and "FROZEN" in report and (row is None or f"at row {row}:" in report), report
    return message


def restarted(service: GameService, stores) -> GameService:
    """The same database in a new process (a fresh Store: its first write checks the chain)."""
    return GameService(stores(service.store.url))


# -- rows of the log (found by the whole-chain check before a game is first served)
def test_13_1_an_edited_row_freezes_the_game_naming_it(game, stores):
    """Tamper case: row edited."""
    rows = raw_rows(game.store)
    k = len(rows) // 2
    execute(game.store, 'UPDATE logentry SET text = :t WHERE "index" = :k', t="forged", k=k)
    assert_frozen(restarted(game, stores), k)


def test_13_1_a_deleted_row_freezes_the_game_naming_it(game, stores):
    """Tamper case: row deleted."""
    k = len(raw_rows(game.store)) // 2
    execute(game.store, 'DELETE FROM logentry WHERE "index" = :k', k=k)
    assert_frozen(restarted(game, stores), k)


def test_13_1_an_inserted_row_freezes_the_game_naming_it(game, stores):
    """Tamper case: row inserted."""
    store = game.store
    rows = raw_rows(store)
    k = len(rows) // 2
    execute(store, 'UPDATE logentry SET "index" = "index" + 100000 WHERE "index" >= :k', k=k)
    execute(store, 'UPDATE logentry SET "index" = "index" - 99999 WHERE "index" >= 100000')
    forged = {c: rows[k][c] for c in ("kind", "actor", "user", "payload", "created_at", "epoch")}
    forged |= {"index": k, "text": "forged order", "key": None}
    doc = forged | {"payload": json.loads(forged["payload"])}
    digest = chain.row_hash(rows[k - 1]["hash"], doc)
    execute(
        store,
        'INSERT INTO logentry (game_id, "index", kind, actor, "user", text, payload, "key", '
        "created_at, prev_hash, hash, epoch) VALUES (:g, :index, :kind, :actor, :user, :text, "
        ":payload, :key, :created_at, :prev, :hash, :epoch)",
        g=rows[k]["game_id"], prev=rows[k - 1]["hash"], hash=digest, **forged,
    )  # fmt: skip
    execute(store, "UPDATE game SET head_index = head_index + 1")
    assert_frozen(restarted(game, stores), k)


def test_13_1_swapped_rows_freeze_the_game_naming_the_first(game, stores):
    """Tamper case: rows swapped."""
    store = game.store
    k = len(raw_rows(store)) // 2
    execute(store, 'UPDATE logentry SET "index" = -1 WHERE "index" = :k', k=k)
    execute(store, 'UPDATE logentry SET "index" = :k WHERE "index" = :n', k=k, n=k + 1)
    execute(store, 'UPDATE logentry SET "index" = :n WHERE "index" = -1', n=k + 1)
    assert_frozen(restarted(game, stores), k)


def test_13_1_a_payload_that_is_no_json_freezes_the_game(game, stores):
    """Tamper case: non-JSON payload."""
    k = len(raw_rows(game.store)) // 2
    execute(game.store, 'UPDATE logentry SET payload = :p WHERE "index" = :k', p="{not json", k=k)
    assert_frozen(restarted(game, stores), k)


# -- before every write, in constant time: the same process notices at once
def test_13_1_an_edited_head_row_is_refused_in_the_same_process(game):
    """Tamper case: head row edited."""
    head = scalar(game.store, "SELECT head_index FROM game")
    execute(game.store, 'UPDATE logentry SET text = :t WHERE "index" = :k', t="forged", k=head)
    assert_frozen(game, head)
    assert scalar(game.store, "SELECT head_index FROM game") == head  # nothing chained onto it


def test_13_1_a_row_checked_before_and_edited_since_is_refused_in_the_same_process(game):
    """The checks before a write remember the rows they found right by their stored values
    (storage/trust.py): the row before the head, checked by the last two writes, edited in any
    value is checked afresh and caught."""
    assert next_order(game).ok and next_order(game).ok  # the row before the head: remembered
    head = scalar(game.store, "SELECT head_index FROM game")
    before = head - 1
    forged = json.dumps({"forged": True})
    execute(game.store, 'UPDATE logentry SET payload = :p WHERE "index" = :k', p=forged, k=before)
    assert_frozen(game, before)


def forge_snapshot(service: GameService) -> None:
    snap = json.loads(scalar(service.store, "SELECT snapshot FROM game"))
    key = next(k for k, v in snap.items() if isinstance(v, dict | list) and v)
    snap[key] = {} if isinstance(snap[key], dict) else []
    execute(service.store, "UPDATE game SET snapshot = :s", s=json.dumps(snap))


def test_13_1_a_forged_snapshot_is_refused(game):
    """Tamper case: snapshot forged."""
    forge_snapshot(game)
    message = assert_frozen(game, None)
    assert "snapshot" in message


def test_13_2_a_seat_given_in_the_table_is_refused_to_everyone(game):
    """Tamper case: seat table edited."""
    execute(game.store, "UPDATE seat SET \"user\" = 'telegram:666' WHERE side = 'soviet'")
    message = assert_frozen(game, None)
    assert "seat table gives soviet to telegram:666" in message
    (reply,) = game.say("g", None, "pause mine now", user="telegram:666")
    assert not reply.ok


def test_13_2_an_inserted_moderator_row_is_refused(game):
    """Tamper case: moderator row inserted."""
    gid = scalar(game.store, "SELECT id FROM game")
    execute(
        game.store, "INSERT INTO moderator (game_id, \"user\") VALUES (:g, 'telegram:666')", g=gid
    )
    message = assert_frozen(game, None)
    assert "moderator table names telegram:666" in message
    (reply,) = game.say("g", None, "pause I rule", user="telegram:666")
    assert not reply.ok and reply.error["code"] == "frozen"


def test_13_2_a_changed_seed_of_the_open_epoch_is_caught_before_its_first_use(game):
    """Tamper case: open epoch's seed changed."""
    execute(game.store, "UPDATE dicesecret SET seed = :s WHERE kind = 'epoch' AND NOT revealed",
            s="ab" * 32)  # fmt: skip
    message = assert_frozen(game, None)
    assert "does not match the commitment" in message


def test_13_2_a_changed_salt_digest_is_refused(game):
    """Tamper case: salt digest."""
    execute(game.store, "UPDATE game SET salt_digest = :d", d="f" * 64)
    assert "salt digest" in assert_frozen(game, None)


def test_13_2_a_moved_roll_counter_is_refused(game):
    """Tamper case: roll counter."""
    execute(game.store, "UPDATE game SET epoch_next_n = 1")
    assert "roll counter" in assert_frozen(game, None)


def test_13_2_a_changed_epoch_column_of_a_salt_row_is_refused(game):
    """Tamper case: epoch column."""
    execute(game.store, "UPDATE logentry SET epoch = epoch + 1 WHERE kind = 'salt'")
    assert_frozen(game, None)


def test_13_2_a_changed_epoch_column_of_an_old_row_is_found_on_restart(game, stores):
    """Tamper case: epoch column (old row)."""
    k = scalar(game.store, "SELECT MIN(\"index\") FROM logentry WHERE kind = 'reveal'")
    execute(game.store, 'UPDATE logentry SET epoch = 99 WHERE "index" = :k', k=k)
    assert_frozen(restarted(game, stores), k)


def test_13_2_the_epoch_counter_is_checked(game):
    """Tamper case: epoch counter."""
    execute(game.store, "UPDATE game SET epoch = epoch + 1")
    assert_frozen(game, None)


def test_13_1_the_moderators_are_told_in_every_linked_chat(game):
    now = datetime.now(UTC)
    for chat in ("-1001", "-1002"):
        chat_store.bind(game.store, "telegram", chat, "g", now=now)
    execute(game.store, "UPDATE game SET salt_digest = :d", d="f" * 64)
    assert_frozen(game, None)
    told = [r for r in outbox_rows.select_rows(game.store, game="g") if "FROZEN" in r["text"]]
    assert sorted(r["chat_id"] for r in told) == ["-1001", "-1002"], told
    next_order(game)  # told once, not at every refused order
    again = [r for r in outbox_rows.select_rows(game.store, game="g") if "FROZEN" in r["text"]]
    assert len(again) == 2


# -- repair
def test_13_1_repair_brings_a_frozen_game_back_and_is_logged(game, stores, capsys):
    store = game.store
    k = len(raw_rows(store)) - 3
    execute(store, 'UPDATE logentry SET text = :t WHERE "index" = :k', t="forged", k=k)
    fresh = restarted(game, stores)
    assert_frozen(fresh, k)
    assert main(["repair", "g", "--db", store.url, "--by", "mod"]) == 0
    out = capsys.readouterr().out
    assert f"rebuilt from row {k - 1}" in out, out
    log = fresh.store.log("g")
    repair = [r for r in log if r.kind == "moderation" and r.payload.get("action") == "repair"]
    assert len(repair) == 1 and repair[0].payload["from_row"] == k - 1
    assert repair[0].user == "mod" and len(repair[0].payload["dropped"]) == 3
    # the host dropped the log's guards to edit it: the repair row says so, and put them back
    assert "pbem_logentry_no_update missing" in repair[0].payload["guards"]["down"]
    assert fresh.store.unguarded() == []
    assert next_order(fresh).ok
    ok, report, _ = fresh.audit("g")
    assert ok, report


def test_13_1_repair_rebuilds_a_forged_snapshot_without_dropping_rows(game):
    execute(game.store, "UPDATE seat SET \"user\" = 'telegram:666' WHERE side = 'soviet'")
    forge_snapshot(game)
    rows = len(raw_rows(game.store))
    assert not next_order(game).ok
    assert main(["repair", "g", "--db", game.store.url]) == 0
    assert len(raw_rows(game.store)) > rows  # the repair row (and the fresh epoch), none dropped
    assert scalar(game.store, "SELECT \"user\" FROM seat WHERE side = 'soviet'") == USERS["soviet"]
    assert next_order(game).ok
    assert game.audit("g")[0]


# -- anchors outside the database
def saved_post(service: GameService) -> str:
    """The last line of the next phase post (what a player keeps): "Log row N, head hash H."."""
    for _ in range(40):
        reply = next_order(service)
        assert reply.ok, reply.reply
        lines = [ln for ln in reply.reply.splitlines() if ln.startswith("Log row ")]
        if lines:
            index = int(lines[-1].split()[2].rstrip(","))
            head = scalar(service.store, "SELECT head_hash FROM game")
            assert lines[-1] == f"Log row {index}, head hash {head[:20]}.", lines  # its anchor
            assert index == scalar(service.store, "SELECT head_index FROM game")
            return lines[-1]
    raise AssertionError("no phase post in 40 orders")


def test_13_3_a_kept_head_is_confirmed(game, capsys):
    kept = saved_post(game)
    play_random(game, "g", 3, seed=5)
    code = main(["audit", "g", "--db", game.store.url, "--expect-head", kept])
    out = capsys.readouterr().out
    assert code == 0 and "the log still holds it" in out, out
    bare = kept.split("head hash ")[1].rstrip(".")
    assert len(bare) == 20  # as a post shows it
    assert main(["audit", "g", "--db", game.store.url, "--expect-head", bare]) == 0
    index = int(kept.split()[2].rstrip(","))
    whole = next(r["hash"] for r in raw_rows(game.store) if r["index"] == index)
    assert main(["audit", "g", "--db", game.store.url, "--expect-head", whole]) == 0  # as before
    capsys.readouterr()


def test_13_3_a_kept_head_shorter_than_20_hex_characters_is_refused(game, capsys):
    kept = saved_post(game)
    cut = kept.rstrip(".")[:-1]  # 19 hex characters
    code = main(["audit", "g", "--db", game.store.url, "--expect-head", cut])
    err = capsys.readouterr().err
    assert code != 0 and "19 hex characters long: give at least its first 20" in err, err


def test_13_3_truncation_is_caught_by_a_kept_head(game, capsys):
    """Tamper case: truncation (kept head)."""
    store = game.store
    play_random(game, "g", 2, seed=5)
    kept = saved_post(game)
    index = int(kept.split()[2].rstrip(","))
    cut = index - 2
    row = raw_rows(store)[cut]
    execute(store, 'DELETE FROM logentry WHERE "index" > :k', k=cut)
    execute(store, "UPDATE game SET head_index = :k, head_hash = :h", k=cut, h=row["hash"])
    code = main(["audit", "g", "--db", store.url, "--expect-head", kept])
    out = capsys.readouterr().out
    assert code != 0 and "NOT in the log" in out and "truncated" in out, out


def test_13_3_a_rechained_rewrite_is_caught_by_a_kept_head(game, capsys):
    """Tamper case: re-chained rewrite (kept head)."""
    store = game.store
    kept = saved_post(game)
    rows = raw_rows(store)
    k = len(rows) - 4
    docs = []
    for r in rows:
        d = {f: r[f] for f in chain.CHAINED_FIELDS} | {"payload": json.loads(r["payload"])}
        docs.append(d)
    docs[k]["text"] = docs[k]["text"] + " (rewritten)"
    chain.link(docs)
    for r, d in zip(rows[k:], docs[k:], strict=True):
        execute(store, "UPDATE logentry SET text = :t, prev_hash = :p, hash = :h WHERE id = :id",
                t=d["text"], p=d["prev_hash"], h=d["hash"], id=r["id"])  # fmt: skip
    execute(store, "UPDATE game SET head_hash = :h", h=docs[-1]["hash"])
    assert chain.chain_failure(docs) is None  # the rewritten log chains by itself
    code = main(["audit", "g", "--db", store.url, "--expect-head", kept])
    out = capsys.readouterr().out
    assert code != 0 and "NOT in the log" in out and "rewritten" in out, out


def test_13_3_a_kept_head_is_checked_in_an_export_without_the_database(game, capsys, tmp_path):
    kept = saved_post(game)
    path = tmp_path / "g.jsonl"
    assert main(["audit", "g", "--db", game.store.url, "--export", str(path)]) == 0
    capsys.readouterr()
    assert main(["audit", "--verify", str(path), "--expect-head", kept]) == 0
    assert "the log still holds it" in capsys.readouterr().out
    other = "Log row 3, head hash " + "0" * 64
    assert main(["audit", "--verify", str(path), "--expect-head", other]) != 0
    assert "NOT in the log" in capsys.readouterr().out


def test_13_2_a_forged_seat_answers_no_question_as_that_side(game):
    """Tamper case: seat table edited, then a question (a side's view is a power too): status
    is answered as the public sees the game, naming the freeze; a side's own question is not."""
    execute(game.store, "UPDATE seat SET \"user\" = 'telegram:666' WHERE side = 'german'")
    (reply,) = game.say("g", None, "status", user="telegram:666")
    assert reply.ok and not reply.private, reply.reply
    assert "is FROZEN" in reply.reply and "seat table gives german to telegram:666" in reply.reply
    (reply,) = game.say("g", None, "options", user="telegram:666")
    assert not reply.ok and reply.error["code"] == "frozen", reply.reply
    assert "seat table gives german to telegram:666" in reply.error["message"]


def test_13_1_repair_from_an_export_restores_the_rows_and_is_logged(game, stores, capsys, tmp_path):
    store = game.store
    path = tmp_path / "g.jsonl"
    assert main(["audit", "g", "--db", store.url, "--export", str(path)]) == 0
    exported = len(raw_rows(store))
    play_random(game, "g", 2, seed=5)
    execute(store, 'DELETE FROM logentry WHERE "index" = 3')
    fresh = restarted(game, stores)
    assert_frozen(fresh, 3)
    capsys.readouterr()
    assert main(["repair", "g", "--db", store.url, "--from-export", str(path)]) == 0
    assert f"rebuilt from row {exported - 1}" in capsys.readouterr().out
    (repair,) = [r for r in fresh.store.log("g") if r.payload.get("action") == "repair"]
    assert repair.index == exported and repair.text.startswith("repair from an export")
    assert next_order(fresh).ok
    ok, report, _ = fresh.audit("g")
    assert ok, report


def test_13_1_repair_refuses_to_reveal_a_changed_seed(game, capsys):
    execute(game.store, "UPDATE dicesecret SET seed = :s WHERE kind = 'epoch' AND NOT revealed",
            s="ab" * 32)  # fmt: skip
    assert not next_order(game).ok
    assert main(["repair", "g", "--db", game.store.url]) != 0
    assert "does not match the commitment" in capsys.readouterr().err
    assert not next_order(game).ok  # still frozen


def test_13_2_the_migration_fills_every_cache_row_hash_of_an_old_database(tmp_path):
    import shutil

    from tests.test_legacy_games import FIXTURES

    path = tmp_path / "legacy.db"
    shutil.copy(FIXTURES / "legacy-0.1.db", path)
    store = Store(str(path))
    try:
        assert scalar(store, 'SELECT COUNT(*) FROM seat WHERE "user" IS NOT NULL') > 0
        assert scalar(store, "SELECT COUNT(*) FROM seat WHERE row_hash IS NULL") == 0
        assert scalar(store, "SELECT COUNT(*) FROM moderator WHERE row_hash IS NULL") == 0
        assert scalar(store, "SELECT COUNT(*) FROM game WHERE epoch_row_hash IS NULL") == 0
        for g in store.list_games():
            assert store.verify(g.name) is None, g.name
    finally:
        store.close()

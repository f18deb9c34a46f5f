"""The chained log in the database: tampering with any row is caught and named; an export
verifies offline, with no database; no seed is shown anywhere before its epoch ends.

"Done when": changing one byte of any row, deleting a row, or swapping two rows makes
`pbem audit` fail and name that row; a game's dice can be exported and verified offline.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from app.service import GameService
from bots.cli import main
from storage import Store
from storage.chain import link
from tests.host_edits import host_execute, restore_guards
from tests.playing import play_random

ROOT = Path(__file__).resolve().parent.parent
COLUMNS = ("kind", "actor", "user", "text", "payload", "key", "created_at", "prev_hash", "hash")


@pytest.fixture
def game(db_url, stores):
    """A game played into turn 3 (two revealed epochs with rolls), with a salt and a key."""
    store = stores(db_url)
    service = GameService(store)
    service.new_game("g", creator="mod")
    assert service.say("g", "soviet", "salt fair dice please", key="chat-1")[0].ok
    play_random(service, "g", 200, seed=2, until_turn=3)
    ok, report_text, report = service.audit("g")
    assert ok, report_text
    assert report.rolls_checked > 5 and report.epochs_revealed == [1, 2]
    return service


def run(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def first_row_named(service: GameService) -> int | None:
    ok, _, report = service.audit("g")
    assert not ok
    return next(f["index"] for f in report.failures if f["index"] is not None)


def raw_rows(store: Store) -> list[dict]:
    with store.engine.connect() as conn:
        result = conn.execute(text('SELECT * FROM logentry ORDER BY "index"'))
        return [dict(r._mapping) for r in result]


def execute(store: Store, sql: str, **params) -> None:
    """A host's edit: he drops the append-only guards first (tests/host_edits.py)."""
    host_execute(store, sql, **params)


def one_byte_changed(value) -> object:
    """The value with one character (byte) changed; a NULL becomes a one-byte text."""
    if value is None:
        return "x"
    if isinstance(value, int):
        return value + 100_000  # a row index that no other row holds
    pos = len(value) // 2
    old = value[pos]
    new = "0" if old != "0" else "1"
    return value[:pos] + new + value[pos + 1 :]


def test_changing_one_byte_of_any_row_fails_the_audit_naming_that_row(game):
    store = game.store
    rows = raw_rows(store)
    assert len(rows) > 30
    for i, row in enumerate(rows):
        column = (COLUMNS + ("index",))[i % (len(COLUMNS) + 1)]
        changed = one_byte_changed(row[column])
        execute(
            store, f'UPDATE logentry SET "{column}" = :v WHERE id = :id', v=changed, id=row["id"]
        )
        try:
            assert first_row_named(game) == i, (i, column)
        finally:
            execute(
                store,
                f'UPDATE logentry SET "{column}" = :v WHERE id = :id',
                v=row[column],
                id=row["id"],
            )
    ok, report, _ = game.audit("g")  # every row is back, but the guards the host dropped are not
    assert not ok and "table logentry lost its guard" in report, report
    restore_guards(store)
    assert game.audit("g")[0]


def test_every_column_of_one_row_is_covered(game):
    store = game.store
    rows = raw_rows(store)
    i = next(
        k for k, r in enumerate(rows) if r["kind"] == "order" and json.loads(r["payload"])["rolls"]
    )
    row = rows[i]
    for column in (*COLUMNS, "index"):
        execute(
            store,
            f'UPDATE logentry SET "{column}" = :v WHERE id = :id',
            v=one_byte_changed(row[column]),
            id=row["id"],
        )
        try:
            assert first_row_named(game) == i, column
        finally:
            execute(
                store,
                f'UPDATE logentry SET "{column}" = :v WHERE id = :id',
                v=row[column],
                id=row["id"],
            )


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_deleting_a_row_fails_the_audit_naming_that_row(game, capsys, where):
    store = game.store
    rows = raw_rows(store)
    i = {"first": 0, "middle": len(rows) // 2, "last": len(rows) - 1}[where]
    execute(store, "DELETE FROM logentry WHERE id = :id", id=rows[i]["id"])
    assert first_row_named(game) == i
    code, out = run(capsys, "audit", "g", "--db", store.url)
    assert code == 1 and f"row {i}" in out.split("FAILED")[1].splitlines()[0]


@pytest.mark.parametrize("offset", [1, 7])
def test_swapping_two_rows_fails_the_audit_naming_the_first(game, capsys, offset):
    store = game.store
    rows = raw_rows(store)
    i, j = 20, 20 + offset
    a, b = rows[i]["id"], rows[j]["id"]
    execute(store, 'UPDATE logentry SET "index" = -1 WHERE id = :id', id=a)
    execute(store, 'UPDATE logentry SET "index" = :v WHERE id = :id', v=i, id=b)
    execute(store, 'UPDATE logentry SET "index" = :v WHERE id = :id', v=j, id=a)
    assert first_row_named(game) == i
    code, out = run(capsys, "audit", "g", "--db", store.url)
    assert code == 1 and f"row {i}" in out.split("FAILED")[1].splitlines()[0]


def test_pbem_audit_passes_and_prints_the_statistics(game, capsys):
    code, out = run(capsys, "audit", "g", "--db", game.store.url)
    assert code == 0, out
    assert "OK: the chain holds" in out and "Replay: " in out and "matches" in out
    assert "purpose combat" in out and "side soviet" in out and "chi2" in out


def test_chat_audit_is_for_moderators(game):
    (reply,) = game.say("g", None, "audit", user="mod")
    assert reply.ok and "OK: the chain holds" in reply.reply
    (reply,) = game.say("g", None, "audit", user="somebody")
    assert not reply.ok and reply.error["code"] == "moderator-only"


def test_an_export_verifies_offline_and_a_tampered_export_names_its_row(game, capsys, tmp_path):
    path = tmp_path / "g.jsonl"
    code, out = run(capsys, "audit", "g", "--export", str(path), "--db", game.store.url)
    assert code == 0 and f"Exported {game.store.count_rows('g')} rows" in out
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "pbem-audit/1" and header["rows"] == len(lines) - 1
    code, out = run(capsys, "audit", "--verify", str(path))
    assert code == 0 and "OK: the chain holds" in out and "Replay: " in out

    rng = random.Random(5)
    for i in rng.sample(range(len(lines) - 1), 12):
        doc = json.loads(lines[i + 1])
        doc["text"] = doc["text"][:-1] + ("x" if doc["text"][-1] != "x" else "y")
        bad = (
            lines[: i + 1]
            + [json.dumps(doc, sort_keys=True, separators=(",", ":"))]
            + lines[i + 2 :]
        )
        tampered = tmp_path / f"bad{i}.jsonl"
        tampered.write_text("\n".join(bad) + "\n", encoding="utf-8")
        code, out = run(capsys, "audit", "--verify", str(tampered))
        assert code == 1 and f"FAILED at row {i}:" in out, out


def test_a_relinked_export_with_a_changed_order_fails_the_replay(game, tmp_path):
    """Even a forger who recomputes every hash cannot change what an order did: the replay
    through the rules names the row."""
    from app.audit import verify_file
    from storage.audit import read_export, write_export

    game.export("g", tmp_path / "g.jsonl")
    header, rows = read_export(tmp_path / "g.jsonl")
    i = next(k for k, r in enumerate(rows) if r["kind"] == "order" and r["payload"]["events"])
    rows[i]["payload"]["events"][0]["text"] = "Nothing happened, honest."
    link(rows)
    header["head_hash"] = rows[-1]["hash"]
    write_export(tmp_path / "forged.jsonl", header, rows)
    ok, out = verify_file(tmp_path / "forged.jsonl")
    assert not ok and "OK: the chain holds" in out and f"Replay: FAILED at row {i}" in out


@pytest.mark.parametrize("which", ["first", "middle", "last", "final"])
def test_a_relinked_export_with_a_changed_state_hash_fails_the_replay(game, tmp_path, which):
    """Every row that records a state hash is checked against a hash of the replayed state,
    and the header's final state hash too: a forger's rehashed log is named at that row."""
    import hashlib

    from app.audit import verify_file
    from storage.audit import read_export, write_export

    game.export("g", tmp_path / "g.jsonl")
    header, rows = read_export(tmp_path / "g.jsonl")
    hashed = [k for k, r in enumerate(rows) if r["kind"] == "order"]
    assert all("state_sha256" in rows[k]["payload"] for k in hashed) and len(hashed) > 3
    other = hashlib.sha256(b"another state").hexdigest()
    if which == "final":
        header["state_sha256"] = other
    else:
        i = {"first": hashed[0], "middle": hashed[len(hashed) // 2], "last": hashed[-1]}[which]
        rows[i]["payload"]["state_sha256"] = other
        link(rows)
        header["head_hash"] = rows[-1]["hash"]
    write_export(tmp_path / "forged.jsonl", header, rows)
    ok, out = verify_file(tmp_path / "forged.jsonl")
    assert not ok and "OK: the chain holds" in out, out
    if which == "final":
        assert "Replay: FAILED: the" in out and other in out, out
    else:
        assert f"Replay: FAILED at row {i}" in out and "differs on replay" in out, out


def test_verify_needs_no_database(game, tmp_path):
    """`pbem audit --verify` in a fresh process whose PBEM_DB points nowhere."""
    game.export("g", tmp_path / "g.jsonl")
    env = {**os.environ, "PBEM_DB": str(tmp_path / "missing" / "nowhere.db")}
    done = subprocess.run(
        [sys.executable, "-m", "bots.cli", "audit", "--verify", str(tmp_path / "g.jsonl")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK: the chain holds" in done.stdout
    assert not (tmp_path / "missing").exists() and not (tmp_path / "pbem.db").exists()


# -- no seed before its time
def test_no_seed_appears_in_any_message_or_export_before_its_epoch_ends(tmp_path):
    """Play a whole game and look for every seed not yet revealed in everything anyone can read:
    replies (text and JSON), events, log texts, status, show, rolls, audit, exports."""
    store = Store(":memory:")
    service = GameService(store)
    seen: list[tuple[str, set[str]]] = []  # (text shown, seeds secret at that moment)

    def secret_now() -> set[str]:
        return {s["seed"] for s in store.dice_secrets("g") if not s["revealed"]}

    def shown(value) -> None:
        body = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        seen.append((body, secret_now()))

    shown(service.new_game("g", creator="mod"))
    rng = random.Random(11)
    from tests.playing import legal_text

    exports = 0
    while service.state("g").result is None:
        side, order = legal_text(service, "g", rng)
        for reply in service.say("g", side, order):
            assert reply.ok
            shown(reply.reply)
            shown(reply.to_dict())
        if rng.random() < 0.15:
            for question in ("status", "log", "rolls 20", "units", "options"):
                for reply in service.say("g", side, question):
                    shown(reply.reply)
            shown(service.show("g"))
            shown(service.status("g"))
            shown(service.say("g", None, "audit", user="mod")[0].reply)
        if rng.random() < 0.05:
            exports += 1
            path = tmp_path / f"e{exports}.jsonl"
            service.export("g", path)
            shown(path.read_text(encoding="utf-8"))
    shown(service.log_text("g"))
    assert exports > 0 and len(seen) > 300
    everything = [s["seed"] for s in store.dice_secrets("g")]
    assert len(everything) >= 9 and not secret_now()  # all revealed at the end
    for body, secret in seen:
        for seed in secret:
            assert seed not in body and seed[:16] not in body
    # and once revealed, the seeds are there for everyone to check: whole in the export (and its
    # audit page), their first 20 hex characters in the log, as a phone shows a hash
    path = tmp_path / "end.jsonl"
    service.export("g", path)
    assert all(seed in path.read_text(encoding="utf-8") for seed in everything)
    assert all(seed[:20] in service.log_text("g") for seed in everything)


# -- hidden information (designed now, for the card and block games): a synthetic hidden draw
def test_a_hidden_draw_is_chained_as_a_commitment_and_disclosed_only_at_the_end(
    db_url, stores, tmp_path
):
    from storage.audit import read_export
    from storage.dice import CommittedDice, roll_entry

    store = stores(db_url)
    service = GameService(store)
    service.new_game("g", sandbox=True, creator="mod")
    hidden_seed = next(s["seed"] for s in store.dice_secrets("g") if s["kind"] == "hidden")

    def hidden_draw(tx):
        dice = CommittedDice(
            tx.seed(), tx.uid, tx.epoch, tx.next_n, tx.salt_digest, tx.hidden_seed()
        )
        dice.die(6, "shuffle deck", hidden=True)
        record, secret = roll_entry(dice.drawn[0])
        payload = {"rolls": [record], "events": [], "state_sha256": None}
        tx.append("note", "system", "hidden draw", payload, epoch=tx.epoch, secret=[secret])
        tx.set_next_n(dice.next_n)
        return secret["value"]

    value = store.transact("g", hidden_draw)
    row = store.log("g")[-1]
    assert row.payload["rolls"][0]["value"] is None and row.secret[0]["value"] == value
    assert str(value) not in json.dumps(row.payload["rolls"][0]["purpose"])

    out = tmp_path / "hidden.jsonl"
    ok, text, report = service.export("g", out)
    assert ok, text
    _, rows = read_export(out)
    assert "secret" not in rows[-1] and hidden_seed not in out.read_text(encoding="utf-8")
    assert report.hidden_pending == 1 and not report.hidden_revealed

    store.transact("g", lambda tx: (tx.reveal_epoch(), tx.reveal_hidden()))
    ok, text, report = service.export("g", out)
    assert ok, text
    _, rows = read_export(out)
    assert rows[-3]["secret"] == row.secret and hidden_seed in out.read_text(encoding="utf-8")
    assert report.hidden_revealed and report.hidden_checked == 1

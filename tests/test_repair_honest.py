"""`pbem repair` is honest (docs/threat-model.md, "pbem repair"): it cuts at the first bad row the
full audit names (a die or salt changed in an old row with every later row re-chained holds the
chain by itself, and is still found), it commits only a game whose full audit passes, the orders
of the rows it drops can be re-applied with the dice their rows rolled, an edited epoch column is
rewritten, and every outcome is said in sentences.

Each case edits the database as a host could (tests/host_edits.py), on SQLite and PostgreSQL.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from sqlalchemy import text

from app import audit
from app.service import GameService
from bots.cli import main
from bots.demo import DemoSeeds, demo_uid
from storage import Store, chain
from tests.browser import Browser
from tests.host_edits import host_execute
from tests.playing import legal_text, play_random

USERS = {"soviet": "telegram:1", "german": "telegram:2"}


def raw_rows(store: Store) -> list[dict]:
    with store.engine.connect() as conn:
        result = conn.execute(text('SELECT * FROM logentry ORDER BY "index"'))
        return [dict(r._mapping) for r in result]


def new_game(service: GameService, salt_first: bool = False) -> None:
    service.new_game("g", creator="mod")
    for side, user in USERS.items():
        assert service.say("g", None, f"seat {side} {user} seating", user="mod")[0].ok
    if salt_first:  # a salt in epoch 1, before its first draw
        assert service.say("g", None, "salt first epoch salt", user=USERS["soviet"])[0].ok


@pytest.fixture
def game(db_url, stores):
    """A game of two seated players in turn 3, 30 rows and more, dice drawn in three epochs."""
    service = GameService(stores(db_url), seeds=DemoSeeds(5), uids=lambda: demo_uid(5, "hg"))
    new_game(service)
    play_random(service, "g", 300, seed=2, until_turn=3)
    play_random(service, "g", 4, seed=3)
    assert len(raw_rows(service.store)) >= 30
    assert service.audit("g")[0]
    return service


def rechain(store: Store, k: int, change) -> None:
    """The host changes row k's chained fields (change(doc)) and re-chains every later row, and
    the game row's head: the chain holds by itself."""
    rows = raw_rows(store)
    docs = [
        {f: r[f] for f in chain.CHAINED_FIELDS} | {"payload": json.loads(r["payload"])}
        for r in rows
    ]
    change(docs[k])
    chain.link(docs)
    assert chain.chain_failure(docs) is None
    for r, d in zip(rows[k:], docs[k:], strict=True):
        host_execute(
            store,
            "UPDATE logentry SET text = :t, payload = :p, prev_hash = :prev, hash = :h WHERE id = :id",
            t=d["text"],
            p=json.dumps(d["payload"]),
            prev=d["prev_hash"],
            h=d["hash"],
            id=r["id"],
        )
    host_execute(store, "UPDATE game SET head_hash = :h", h=docs[-1]["hash"])


def first_drawn(store: Store, epoch: int) -> int:
    """The first order row that drew a die of `epoch`."""
    for r in raw_rows(store):
        p = json.loads(r["payload"])
        if r["kind"] == "order" and any(
            x.get("epoch") == epoch and x.get("n") is not None for x in p.get("rolls", [])
        ):
            return r["index"]
    raise AssertionError(f"no draw in epoch {epoch}")


def other_die(doc: dict) -> None:
    roll = next(x for x in doc["payload"]["rolls"] if x.get("n") is not None)
    roll["value"] = roll["value"] % 6 + 1


def next_order(service: GameService):
    side, order = legal_text(service, "g", random.Random(7))
    (reply, *_) = service.say("g", None, order, user=USERS[side])
    return reply


def repair(store: Store, capsys, *more: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["repair", "g", "--db", store.url, "--by", "mod", *more])
    captured = capsys.readouterr()
    said = captured.out + captured.err
    assert "{" not in said and "}" not in said, said  # sentences, never a payload's dict
    return code, said


def audited(service: GameService, stores) -> tuple[bool, str]:
    fresh = GameService(stores(service.store.url))
    ok, report, _ = fresh.audit("g")
    return ok, report


def test_repair_cuts_a_rechained_old_die_edit_where_the_audit_names_it(game, stores, capsys):
    store = game.store
    k = first_drawn(store, 1)
    rechain(store, k, other_die)
    ok, report = audited(game, stores)
    assert not ok and f"row {k}:" in report, report
    rows = len(raw_rows(store))
    code, said = repair(store, capsys)
    assert code == 0, said
    assert f"names row {k} as the first bad row" in said, said
    assert f"rebuilt from row {k - 1}, {rows - k} rows after it dropped" in said, said
    assert "--reapply" in said
    ok, report = audited(game, stores)
    assert ok, report
    assert next_order(GameService(stores(store.url))).ok


def reapplied_rows(store: Store) -> list[dict]:
    return [
        r
        for r in raw_rows(store)
        if r["kind"] == "order" and "reapplies" in json.loads(r["payload"])
    ]


def test_repair_reapply_keeps_the_dropped_orders_that_still_apply(game, stores, capsys, tmp_path):
    """A middle edit (the first die of a 30+ row game): the orders after it are given again with
    the dice their rows rolled, where those dice are proven and the rules accept them."""
    store = game.store
    k = first_drawn(store, 1)
    rechain(store, k, other_die)
    texts = {
        r["index"]: r["text"] for r in raw_rows(store) if r["index"] >= k and r["kind"] == "order"
    }
    orders = sorted(texts)
    code, said = repair(store, capsys, "--reapply")
    assert code == 0, said
    again = reapplied_rows(store)
    refused = said.count("Not re-applied: the order of row ")
    assert len(again) + refused == len(orders) and len(again) >= 10, said
    assert f"Re-applied {len(again)} of the {len(orders)} dropped orders" in said, said
    assert f"the order of row {k}: its dice do not recompute from the seed of epoch 1" in said
    assert "which only a dropped row commits" in said  # later epochs: their commitments dropped
    assert "Only order rows are re-applied" in said
    by = {json.loads(r["payload"])["reapplies"]: r for r in again}
    assert all(by[i]["text"] == texts[i] for i in by)  # each is the order of the row it names
    ok, report = audited(game, stores)
    assert ok and f"Replay: {len(again)} effective orders" in report, report
    path = tmp_path / "g.jsonl"
    assert main(["audit", "g", "--db", store.url, "--export", str(path)]) == 0
    capsys.readouterr()
    assert main(["audit", "--verify", str(path)]) == 0, capsys.readouterr().out
    assert next_order(GameService(stores(store.url))).ok


def test_repair_then_reapply_gives_the_orders_the_repair_dropped(game, stores, capsys):
    store = game.store
    k = first_drawn(store, 1)
    rechain(store, k, other_die)
    code, said = repair(store, capsys)
    assert code == 0 and "--reapply" in said and reapplied_rows(store) == [], said
    code, said = repair(store, capsys, "--reapply")
    assert code == 0 and "The full audit found no bad row" in said, said
    assert len(reapplied_rows(store)) >= 10, said
    assert audited(game, stores)[0]


def test_a_forged_reapplied_roll_fails_the_audit(game, stores, capsys):
    store = game.store
    rechain(store, first_drawn(store, 1), other_die)
    assert repair(store, capsys, "--reapply")[0] == 0
    rows = raw_rows(store)
    rolled = next(
        r
        for r in reapplied_rows(store)
        if any(x.get("n") for x in json.loads(r["payload"])["rolls"])
    )
    rechain(store, rolled["index"], other_die)
    ok, report = audited(game, stores)
    assert not ok and f"row {rolled['index']}:" in report, report
    assert len(rows) == len(raw_rows(store))


def test_repair_cuts_a_rechained_old_salt_edit_where_the_audit_names_it(db_url, stores, capsys):
    service = GameService(stores(db_url), seeds=DemoSeeds(6), uids=lambda: demo_uid(6, "hg"))
    new_game(service, salt_first=True)
    play_random(service, "g", 300, seed=2, until_turn=3)
    store = service.store
    salt = next(r["index"] for r in raw_rows(store) if r["kind"] == "salt")
    rechain(store, salt, lambda d: d["payload"].update(salt="forged salt"))
    ok, report = audited(service, stores)
    first = first_drawn(store, 1)  # the first roll the forged salt no longer recomputes
    assert not ok and f"row {first}:" in report, report
    code, said = repair(store, capsys)
    assert code == 0 and f"names row {first} as the first bad row" in said, said
    assert audited(service, stores)[0]
    assert next_order(GameService(stores(store.url))).ok


def test_repair_of_an_open_epochs_rechained_salt_cuts_where_its_reveal_shows(game, stores, capsys):
    """A salt of the open epoch: its rolls cannot be recomputed before its seed is revealed, so the
    audit names only a cache; the repair reveals the seed, finds the roll that no longer
    recomputes, and starts over cutting there."""
    store = game.store
    play_random(game, "g", 300, seed=4, until_turn=4)  # a fresh epoch: its salts are open
    assert game.say("g", None, "salt late salt", user=USERS["soviet"])[0].ok
    salt = max(r["index"] for r in raw_rows(store) if r["kind"] == "salt")
    epoch = json.loads(raw_rows(store)[salt]["payload"])["epoch"]
    for seed in range(8, 60):  # until the epoch draws (its turn still on)
        play_random(game, "g", 1, seed=seed)
        if any(
            r["kind"] == "order" and r["epoch"] == epoch and json.loads(r["payload"])["rolls"]
            for r in raw_rows(store)
        ):
            break
    drawn = first_drawn(store, epoch)
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT epoch FROM game")).scalar() == epoch  # still open
    rechain(store, salt, lambda d: d["payload"].update(salt="forged salt"))
    ok, report = audited(game, stores)
    assert not ok and "OK: the chain holds" in report, report  # its seed unrevealed: unseen
    assert "does not recompute" not in report, report
    code, said = repair(store, capsys)
    assert code == 0 and f"names row {drawn} as" not in said, said
    assert (
        f"Revealing the seed of the open dice epoch showed an earlier row bad too (row {drawn}:"
        in said
    ), said
    assert f"rebuilt from row {drawn - 1}," in said, said
    assert audited(game, stores)[0]
    assert next_order(GameService(stores(store.url))).ok


def test_an_edited_epoch_column_is_repaired(game, stores, capsys):
    store = game.store
    rows = len(raw_rows(store))
    k = first_drawn(store, 1)
    host_execute(store, 'UPDATE logentry SET epoch = 7 WHERE "index" = :k', k=k)
    fresh = GameService(stores(store.url))
    assert not next_order(fresh).ok  # frozen
    code, said = repair(store, capsys)
    assert code == 0 and f"names row {k} (" in said and "0 rows after it dropped" in said, said
    assert len(raw_rows(store)) > rows
    assert raw_rows(store)[k]["epoch"] == 1
    assert audited(game, stores)[0]
    assert next_order(GameService(stores(store.url))).ok


def test_a_repair_that_cannot_end_the_freeze_says_so_in_a_sentence(game, capsys):
    host_execute(
        game.store,
        "UPDATE dicesecret SET seed = :s WHERE kind = 'epoch' AND NOT revealed",
        s="ab" * 32,
    )
    code, said = repair(game.store, capsys)
    assert (
        code != 0 and said.startswith("pbem repair: cannot repair 'g': ") and "commitment" in said
    )
    assert "Traceback" not in said


def test_the_offline_page_checks_reapplied_orders_as_the_cli_does(game, capsys, tmp_path):
    """The export of a repaired game verifies in the offline page and with `pbem audit --verify`,
    and a re-applied roll changed in it (every hash recomputed) fails at its row in both."""
    from tests.test_audit_page import relinked, verdicts

    store = game.store
    rechain(store, first_drawn(store, 1), other_die)
    assert repair(store, capsys, "--reapply")[0] == 0
    header, rows = json.loads(json.dumps(audit.export_doc(store, "g"), default=str))
    browser = Browser()
    try:
        verdict, code, out = verdicts(browser, tmp_path, "repaired", header, rows, capsys)
        assert verdict.startswith("VERIFIED:") and code == 0, (verdict, out)
        forged = copy.deepcopy(rows)
        k = next(
            r["index"]
            for r in forged
            if "reapplies" in r["payload"] and any(x.get("n") for x in r["payload"]["rolls"])
        )
        other_die(forged[k])  # and its dropped row's copy: only recomputing the roll finds it
        src = forged[k]["payload"]["reapplies"]
        repair_row = next(r for r in forged if r["payload"].get("action") == "repair")
        other_die(next(d for d in repair_row["payload"]["dropped_rows"] if d["index"] == src))
        header, forged = relinked(header, forged)
        verdict, code, out = verdicts(browser, tmp_path, "forged", header, forged, capsys)
        assert verdict.startswith(f"FAILED at row {k}:") and "does not recompute" in verdict, (
            verdict
        )
        assert code == 1 and f"FAILED at row {k}:" in out and "does not recompute" in out, out
    finally:
        browser.close()


def test_a_repair_without_the_open_epochs_seed_says_so_in_a_sentence(game, capsys):
    host_execute(game.store, "DELETE FROM dicesecret WHERE kind = 'epoch' AND NOT revealed")
    rows = len(raw_rows(game.store))
    code, said = repair(game.store, capsys)
    assert code != 0 and "the seed of the open dice epoch" in said and "is missing" in said, said
    assert len(raw_rows(game.store)) == rows  # nothing committed

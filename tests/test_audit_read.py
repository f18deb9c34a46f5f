"""The audit's and the replay's one read of a stored game (storage/audit_read.py) give what the
reads they replace gave: the audit's header and rows as `export_doc` (Store.load) gives them,
the store-side verdict as `Store.verify` gives it, the chain's verdict as `chain_failure` of the
rows; the replay's rows as `fold.with_secrets(Store.log)`: on an intact game and on games whose
stored rows a host edited."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from app import audit, fold
from app.service import GameService
from bots.demo import DemoSeeds
from storage import Store, audit_read
from storage.chain import chain_failure
from tests.playing import play_random

USERS = {"soviet": "telegram:1", "german": "telegram:2"}
K = 8  # the row edited
OF_G = "game_id = (SELECT id FROM game WHERE name = 'g')"
EDITS = {
    "none": None,
    "payload no JSON": f"UPDATE logentry SET payload = '{{not json' WHERE \"index\" = {K} AND {OF_G}",
    "payload JSON null": f"UPDATE logentry SET payload = 'null' WHERE \"index\" = {K} AND {OF_G}",
    "text edited": f"UPDATE logentry SET text = 'pass' WHERE \"index\" = {K} AND {OF_G}",
    "epoch column": f'UPDATE logentry SET epoch = 7 WHERE "index" = {K} AND {OF_G}',
    "row deleted": f'DELETE FROM logentry WHERE "index" = {K} AND {OF_G}',
    "seat table": "UPDATE seat SET user = 'telegram:9' WHERE side = 'soviet'",
}


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    path = tmp_path_factory.mktemp("audit-read") / "base.db"
    store = Store(str(path))
    service = GameService(store, seeds=DemoSeeds(3))
    service.new_game("g", creator="mod")
    for side, user in USERS.items():
        assert service.say("g", None, f"seat {side} {user} seating", user="mod")[0].ok
    play_random(service, "g", 30, seed=3)
    store.close()
    return path


@pytest.fixture(params=sorted(EDITS))
def edited(request, prepared, tmp_path):
    path = tmp_path / "games.db"
    shutil.copy(prepared, path)
    if EDITS[request.param]:
        with sqlite3.connect(path) as conn:
            for trigger in ("pbem_logentry_no_update", "pbem_logentry_no_delete"):
                conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
            conn.execute(EDITS[request.param])
    return str(path), request.param


def test_the_audits_one_read_gives_what_the_reads_it_replaces_gave(edited):
    path, edit = edited
    header, rows = audit.export_doc(Store(path), "g")
    verdict = Store(path).verify("g")
    store = Store(path)
    mine_header, mine_rows, whole = audit._stored_doc(store, "g")
    assert (mine_header, mine_rows) == (header, rows)
    assert [list(r) for r in mine_rows] == [list(r) for r in rows]  # the fields in their order
    assert whole.failure == verdict
    assert (whole.failure is None) == (edit == "none")
    assert whole.chain == chain_failure(rows)
    assert whole.seeds == store.dice_secrets("g")


def test_the_replays_one_read_gives_the_rows_the_log_gave(edited):
    path, _ = edited
    store = Store(path)
    read = audit_read.replayed(store, "g")
    rec = store.load("g")
    assert read.rows == fold.with_secrets(rec.log)
    assert (read.snapshot, read.head_index) == (rec.snapshot, rec.head_index)
    assert (read.game, read.scenario_text) == (rec.game, rec.scenario_text)

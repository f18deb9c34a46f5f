"""Games stored before the plug-in design still replay, audit and play on.

tests/fixtures/legacy-0.1.db was written by the code of before game systems became plug-ins
(commit 724a013, by the script that commit adds): two finished demo games, one unfinished game
in turn 3, a game with salts, an undo refused, a pause, a rewind, seat changes and an added
moderator, a sandbox game with fixed dice, and a game started in a Telegram chat.
legacy-0.1.json holds what that code said of each game: its audit verdict, the state hash its
replay gave, its head hash and row count, and its status text."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from app.service import GameService
from storage import Store, state_hash
from tests.playing import legal_text

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXPECTED = json.loads((FIXTURES / "legacy-0.1.json").read_text("utf-8"))


@pytest.fixture
def legacy(tmp_path):
    path = tmp_path / "legacy.db"
    shutil.copy(FIXTURES / "legacy-0.1.db", path)
    store = Store(str(path))  # the migrations since then run here
    yield GameService(store)
    store.close()


def test_every_game_of_the_fixture_is_there(legacy):
    assert {g.name for g in legacy.store.list_games()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_stored_game_audits_and_replays_as_it_did(legacy, name):
    expected = EXPECTED[name]
    ok, text, _ = legacy.audit(name)
    assert ok == expected["audit_ok"] is True, text
    assert (
        state_hash(legacy.system(name).state_to_json(legacy.replay(name)))
        == (expected["state_sha256"])
    )
    legacy.verify(name)  # every row's events and state hash, and the snapshot
    rec = legacy.record(name)
    assert (rec.head_hash, rec.head_index + 1) == (expected["head_hash"], expected["rows"])
    said, now = expected["status"].split("\n"), legacy.status(name).split("\n")
    assert now[: len(said)] == said  # what the old code said, then what status adds since:
    assert all(line.startswith(("Salts received", "Free seat")) for line in now[len(said) :])


@pytest.mark.parametrize("name", ["midgame", "moderated", "hg-telegram-100500-1"])
def test_an_unfinished_stored_game_goes_on_being_played(legacy, name):
    rng = random.Random(5)
    rows = legacy.record(name).head_index
    for _ in range(12):
        side, text = legal_text(legacy, name, rng)
        seats = legacy.record(name).seats
        user = seats.get(side) if name != "midgame" else None
        (reply, *_) = legacy.say(name, side if user is None else None, text, user=user)
        assert reply.ok, (side, text, reply.reply)
    assert legacy.record(name).head_index >= rows + 12
    ok, text, _ = legacy.audit(name)
    assert ok, text
    legacy.verify(name)

"""Games played before the system kit (issue 25) are adjudicated today exactly as they were.

tests/fixtures/golden-0.1.db.xz holds 20 demo games of each built-in system (random legal
players, bots/demo.py), each played to its end by the code of before the kit and written by
tests/fixtures/make_golden.py; it is stored compressed (the SQLite file is about 50 MB). `pbem
replay --all` re-applies every row of every game with today's rules and compares the events
and state hashes each row recorded: a rule the rebuilding changed shows as the first row that
differs. The fixture is never rewritten to make this pass."""

from __future__ import annotations

import lzma
import shutil
from collections import Counter
from pathlib import Path

import pytest

from app.service import GameService
from bots.cli import main
from storage import Store

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "golden-0.1.db.xz"
SYSTEMS = ("hells-gate", "borodino", "northern-war", "stalins-war")
GAMES = 20


@pytest.fixture(scope="module")
def golden(tmp_path_factory) -> Path:
    """A copy of the fixture, unpacked (and migrated by the first Store that opens it)."""
    path = tmp_path_factory.mktemp("golden") / "golden.db"
    with lzma.open(FIXTURE) as packed, path.open("wb") as raw:
        shutil.copyfileobj(packed, raw)
    Store(str(path)).close()  # the migrations since then run here
    return path


def test_the_fixture_holds_finished_games_of_every_system(golden):
    store = Store(str(golden))
    try:
        games = store.list_games()
        assert Counter(g.game for g in games) == {s: GAMES for s in SYSTEMS}
        service = GameService(store)
        for name in (f"{s}-01" for s in SYSTEMS):
            assert service.system(name).situation(service.state(name)).over
            ok, text, _ = service.audit(name)
            assert ok, text
    finally:
        store.close()


def test_pbem_replay_all_finds_every_game_identical(golden, capsys, monkeypatch):
    monkeypatch.delenv("PBEM_DB", raising=False)
    code = main(["replay", "--all", "--db", str(golden)])
    out = capsys.readouterr().out
    total = GAMES * len(SYSTEMS)
    assert f"{total} of {total} games replay to their stored state." in out, out
    assert code == 0

"""No traceback from any `pbem` command on any database content: a game whose log row payload
is not JSON, JSON null or a JSON value of the wrong type, or whose snapshot is one of those, is
answered by `pbem replay`, `audit`, `log`, `show` and `repair` (through the entry point, the
output captured) with a sentence naming the game and a non-zero exit, or with a right answer;
never a traceback, never a Python dict; `pbem replay --all` reports the game and replays the
others; `pbem repair` then gives a game whose audit passes."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from app.service import GameService
from bots.cli_main import main
from bots.demo import DemoSeeds  # fixed dice seeds: the same game on every run
from storage import Store
from tests.playing import play_random

USERS = {"soviet": "telegram:1", "german": "telegram:2"}
K = 8  # the row edited
OF_G = "game_id = (SELECT id FROM game WHERE name = 'g')"
EDITS = {
    "payload no JSON": f"UPDATE logentry SET payload = '{{not json' WHERE \"index\" = {K} AND {OF_G}",
    "payload JSON null": f"UPDATE logentry SET payload = 'null' WHERE \"index\" = {K} AND {OF_G}",
    "payload a list": f"UPDATE logentry SET payload = '[1, 2]' WHERE \"index\" = {K} AND {OF_G}",
    "payload a number": f"UPDATE logentry SET payload = '42' WHERE \"index\" = {K} AND {OF_G}",
    "setup payload no JSON": f"UPDATE logentry SET payload = '{{x' WHERE \"index\" = 0 AND {OF_G}",
    "snapshot no JSON": "UPDATE game SET snapshot = '{x' WHERE name = 'g'",
    "snapshot JSON null": "UPDATE game SET snapshot = 'null' WHERE name = 'g'",
    "snapshot a list": "UPDATE game SET snapshot = '[]' WHERE name = 'g'",
    "epoch column a text": "UPDATE game SET epoch = 'abc' WHERE name = 'g'",
}
COMMANDS = [["replay", "g"], ["replay", "--all"], ["audit", "g"], ["log", "g"],
            ["log", "g", "--json"], ["show", "g"], ["show", "g", "--json"]]  # fmt: skip


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """One database with the game "g" (played a while) and a second game "h" left intact."""
    path = tmp_path_factory.mktemp("unreadable") / "base.db"
    store = Store(str(path))
    service = GameService(store, seeds=DemoSeeds(2))
    for name in ("g", "h"):
        service.new_game(name, creator="mod")
        for side, user in USERS.items():
            assert service.say(name, None, f"seat {side} {user} seating", user="mod")[0].ok
        play_random(service, name, 40, seed=2)
    store.close()
    return path


@pytest.fixture(params=sorted(EDITS))
def edited(request, prepared, tmp_path):
    path = tmp_path / "games.db"
    shutil.copy(prepared, path)
    with sqlite3.connect(path) as conn:
        if "logentry" in EDITS[request.param]:  # a host drops the log's guards first
            conn.execute("DROP TRIGGER pbem_logentry_no_update")
        conn.execute(EDITS[request.param])
    return str(path), request.param


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([*argv])  # an exception escaping here fails the test: that is the point
    out, err = capsys.readouterr()
    for said in (out, err):
        assert "Traceback" not in said and "{'" not in said and 'File "' not in said, said
    return code, out, err


def test_every_reading_command_says_a_sentence_or_answers(edited, capsys):
    edited, edit = edited
    for command in COMMANDS:
        code, out, err = run(capsys, *command, "--db", edited)
        if code != 0:
            said = out + err
            assert "g" in said and any(
                reason in said for reason in ("pbem repair g", "FROZEN", "g: differs at row")
            ), (command, said)
    code, out, err = run(capsys, "audit", "g", "--db", edited)
    assert code != 0  # the audit never passes such a game
    if "epoch" not in edit:  # (the epoch column is no part of what a replay reads)
        code, out, err = run(capsys, "replay", "g", "--db", edited)
        assert code != 0 and ("g: " in out or "game g" in err), (out, err)


def test_replay_all_reports_the_bad_game_and_replays_the_others(edited, capsys):
    edited, edit = edited
    code, out, _ = run(capsys, "replay", "--all", "--db", edited)
    if "epoch" not in edit:  # (the epoch column is no part of what a replay reads)
        assert code == 1 and "1 of 2 games replay to their stored state; differing: g" in out, out


def test_repair_then_gives_a_game_whose_audit_passes(edited, capsys):
    edited, _ = edited
    code, out, err = run(capsys, "repair", "g", "--db", edited, "--by", "mod")
    if code != 0:  # a repair that cannot rebuild says why, in a sentence
        assert err.startswith("pbem repair") and "g" in err, err
        return
    assert "Repaired g" in out
    code, out, _ = run(capsys, "audit", "g", "--db", edited)
    assert code == 0, out


def test_a_repair_that_still_fails_says_the_row_and_the_problem_not_a_dict(
    prepared, tmp_path, capsys, monkeypatch
):
    path = tmp_path / "games.db"
    shutil.copy(prepared, path)
    failure = {"index": 3, "problem": "row 3: hash mismatch"}
    monkeypatch.setattr(Store, "verify", lambda self, name: failure)  # a failure no repair ends
    code, out, err = run(capsys, "repair", "g", "--db", str(path))
    assert code == 1 and not out, out
    assert "still fails after the repair: row 3: row 3: hash mismatch" in err, err

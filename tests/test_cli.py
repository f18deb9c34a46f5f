"""The `pbem` command line, driven in-process (and once as the installed console script)."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.hells_gate.loader import default_scenario_text
from app.service import GameService
from bots.cli import main
from storage import Store

ROOT = Path(__file__).resolve().parent.parent
UNIT_KEYS = {"side", "hex", "box", "reduced", "steps", "oos", "retreat"}
SHOW_KEYS = {"turn", "phase", "weather", "active_side", "pending", "units", "vp", "result"}


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.delenv("PBEM_DB", raising=False)
    return str(tmp_path / "games.db")


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def new_game(capsys, db, name="g", *extra) -> None:
    code, out, err = run(capsys, "new", name, "--db", db, *extra)
    assert code == 0, err
    assert name in out


def show(capsys, db, name="g") -> dict:
    code, out, _ = run(capsys, "show", name, "--json", "--db", db)
    assert code == 0
    return json.loads(out)


def test_new_creates_a_game_and_refuses_a_second_of_the_same_name(capsys, db):
    new_game(capsys, db)
    code, _, err = run(capsys, "new", "g", "--db", db)
    assert code == 2 and "already exists" in err


def test_show_json_has_the_documented_keys(capsys, db):
    new_game(capsys, db)
    doc = show(capsys, db)
    assert SHOW_KEYS <= doc.keys()
    assert doc["turn"] == 1 and doc["active_side"] == "soviet" and doc["result"] is None
    assert doc["units"] and all(UNIT_KEYS <= u.keys() for u in doc["units"].values())
    code, out, _ = run(capsys, "show", "g", "--db", db)
    assert code == 0 and out.strip()


def test_say_accepted_order_exits_0_and_is_logged(capsys, db):
    new_game(capsys, db)
    before = show(capsys, db)
    code, out, _ = run(
        capsys, "say", "g", "--as", before["active_side"], "end", "--json", "--db", db
    )
    doc = json.loads(out)
    assert code == 0 and doc["ok"] is True and doc["error"] is None
    assert set(doc) == {"ok", "reply", "error", "events", "combat", "log_index", "head_hash"}
    assert doc["log_index"] == 2 and doc["head_hash"] == Store(db).load("g").head_hash
    assert show(capsys, db)["phase"] != before["phase"]
    assert [r.text for r in Store(db).log("g")][-1] == "end"


def test_say_refused_order_exits_1_with_the_rule(capsys, db):
    new_game(capsys, db)
    code, out, _ = run(capsys, "say", "g", "--as", "german", "end", "--json", "--db", db)
    doc = json.loads(out)
    assert code == 1 and doc["ok"] is False
    assert doc["error"]["code"] and doc["error"]["message"] and doc["error"]["rule"]
    assert len(Store(db).log("g")) == 2  # nothing appended to the setup and epoch 1's commitment


def test_say_stops_at_the_first_refusal_and_names_the_rest(capsys, db):
    new_game(capsys, db)
    text = "status\nflarp C6\nend"
    code, out, _ = run(capsys, "say", "g", "--as", "soviet", text, "--json", "--db", db)
    docs = json.loads(out)
    assert code == 1 and [d["ok"] for d in docs] == [True, False, False]
    assert docs[1]["error"]["code"] == "unknown-command" and "'end'" in docs[1]["reply"]
    assert docs[2]["error"]["code"] == "not-applied"
    assert show(capsys, db)["phase"] == "soviet-combat"


def test_the_operators_edit_applies_at_once_and_dice_are_for_a_sandbox(capsys, db):
    """The local operator is trusted: his edit applies at once in any game (app/edits.py);
    fixing dice stays a sandbox command."""
    new_game(capsys, db)
    code, out, _ = run(capsys, "say", "g", "--as", "moderator", "dice 3", "--json", "--db", db)
    assert code == 1 and json.loads(out)["ok"] is False
    code, out, _ = run(capsys, "say", "g", "--as", "moderator", "set weather mud", "--db", db)
    assert code == 0 and show(capsys, db)["weather"] == "mud"
    new_game(capsys, db, "s", "--sandbox")
    code, out, _ = run(capsys, "say", "s", "--as", "moderator", "set weather mud", "--db", db)
    assert code == 0 and show(capsys, db, "s")["weather"] == "mud"


@pytest.mark.parametrize(
    "argv",
    [
        ["say", "nope", "--as", "soviet", "end"],
        ["show", "nope"],
        ["say", "g", "--as", "nobody", "end"],
        ["frobnicate"],
    ],
)
def test_usage_errors_exit_2(capsys, db, argv):
    new_game(capsys, db)
    code, _, err = run(capsys, *argv, *(["--db", db] if argv[0] != "frobnicate" else []))
    assert code == 2 and err


def test_bad_scenario_file_exits_2_naming_file_entry_and_problem(capsys, db, tmp_path):
    bad = tmp_path / "bad.toml"
    text = default_scenario_text().replace('id = "5gtk"', 'id = "5gtk"\nmorale = 3', 1)
    bad.write_text(text.replace("strength_full = 2", 'strength_full = "two"', 1), encoding="utf-8")
    code, _, err = run(capsys, "new", "g", "--scenario", str(bad), "--db", db)
    assert code == 2 and str(bad) in err and "strength_full" in err and "5gtk" in err
    assert Store(db).list_games() == []
    code, _, err = run(capsys, "new", "g", "--scenario", str(tmp_path / "missing.toml"), "--db", db)
    assert code == 2 and "missing.toml" in err


def test_pbem_db_environment_variable(capsys, db, monkeypatch):
    monkeypatch.setenv("PBEM_DB", db)
    code, _, _ = run(capsys, "new", "viaenv")
    assert code == 0 and [g.name for g in Store(db).list_games()] == ["viaenv"]


def test_demo_plays_a_whole_game(capsys, db):
    code, out, _ = run(capsys, "demo", "--seed", "3")
    assert code == 0
    assert "T1 soviet-combat" in out and "Result after" in out
    # each attack's odds (the final column), die and result, on a line of its own
    told = re.findall(
        r"(?m)^    (?:Decisive a|A)ttack on \w+ by .*final \d+:\d+; die [1-6]: \d+ hits?\.$", out
    )
    orders = re.findall(r"\battack \w+ with ", out)
    assert told and len(told) >= len(orders)  # phase lines are whole (wrapped, never cut)
    assert "    Die for" not in out  # the die is told once, in the attack's line


def test_demo_with_a_db_replays_to_its_snapshot(capsys, db):
    code, _, _ = run(capsys, "demo", "--seed", "5", "--db", db)
    assert code == 0
    service = GameService(Store(db))
    (game,) = Store(db).list_games()
    assert game.snapshot["result"] is not None
    assert service.replay(game.name).to_json() == game.snapshot
    service.verify(game.name)
    code, out, _ = run(capsys, "replay", game.name, "--db", db)
    assert code == 0 and "replays to the stored state" in out


def test_play_reads_orders_from_stdin(capsys, db, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("status\nend\ngerman: status\nflarp\nquit\n"))
    code, out, _ = run(capsys, "play", "--db", db)
    assert code == 0
    assert "[turn 1 soviet-combat] soviet> " in out
    assert "[turn 1 soviet-movement] soviet> " in out
    assert "unknown command 'flarp'" in out
    assert [(r.actor, r.text) for r in Store(db).log("local")][2:] == [("soviet", "end")]


def test_play_stops_at_end_of_input(capsys, db, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("end\n"))
    code, out, _ = run(capsys, "play", "mine", "--db", db)
    assert code == 0 and "[turn 1 soviet-movement]" in out


def test_installed_console_script(tmp_path):
    exe = shutil.which("pbem", path=str(Path(sys.executable).parent))
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("the pbem console script is not installed next to the test interpreter")
        pytest.skip("pbem console script not installed (pip install -e .)")
    env = {**os.environ, "PBEM_DB": str(tmp_path / "sub.db")}
    new = subprocess.run(
        [exe, "new", "sub"],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert new.returncode == 0, new.stderr
    say = subprocess.run(
        [exe, "say", "sub", "--as", "german", "end", "--json"],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert say.returncode == 1 and json.loads(say.stdout)["error"]["rule"]


def test_readme_and_ci_run_the_same_test_command():
    command = (
        'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest'
    )
    assert command in (ROOT / "README.md").read_text(encoding="utf-8")
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_log_is_answered_from_the_store(capsys, db):
    new_game(capsys, db)
    run(capsys, "say", "g", "--as", "soviet", "end", "--db", db)
    code, out, _ = run(capsys, "say", "g", "--as", "german", "log 1", "--db", db)
    assert code == 0 and out.startswith("2. soviet: end")
    code, out, _ = run(capsys, "log", "g", "--db", db)
    assert code == 0 and "0. system: new game" in out and "2. soviet: end" in out
    assert "1. system: dice epoch 1 for turn 1\n    commitment " in out


def test_replay_detects_a_snapshot_that_is_not_the_fold_of_the_log(capsys, db):
    new_game(capsys, db)
    run(capsys, "say", "g", "--as", "soviet", "end", "--db", db)
    assert run(capsys, "replay", "g", "--db", db)[0] == 0
    raw = sqlite3.connect(db)
    raw.execute("UPDATE game SET snapshot = replace(snapshot, '\"turn\":1', '\"turn\":2')")
    raw.commit()
    raw.close()
    code, out, _ = run(capsys, "replay", "g", "--db", db)
    assert code == 1 and "g: differs at row 2" in out and "does not give the snapshot" in out


def test_play_goes_through_to_a_result(capsys, db, monkeypatch):
    """A whole game in `pbem play`: the moderator of a sandbox game lets every deadline pass."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("moderator: default\n" * 300))
    code, out, _ = run(capsys, "play", "whole", "--sandbox", "--db", db)
    assert code == 0
    assert "Game over: Soviet" in out
    show = GameService(Store(db)).show("whole")
    assert show["result"]["winner"] in ("soviet", "german", "draw")
    assert (show["turn"], show["phase"]) == (8, "german-recovery")


# -- issue 3: fair dice, roles, idempotency, audit, replay
def test_show_and_status_give_the_open_epochs_commitment_and_the_head_hash(capsys, db):
    new_game(capsys, db)
    rec = Store(db).load("g")
    code, out, _ = run(capsys, "show", "g", "--db", db)
    assert code == 0 and rec.epoch_commitment in out and rec.head_hash in out
    assert "Dice: epoch 1 (turn 1)" in out and "salts open" in out
    doc = show(capsys, db)
    assert doc["dice"] == {
        "epoch": 1,
        "turn": 1,
        "commitment": rec.epoch_commitment,
        "salts_open": True,
    }
    assert doc["log"] == {"rows": 2, "head_hash": rec.head_hash}
    code, out, _ = run(capsys, "say", "g", "--as", "german", "status", "--db", db)
    assert code == 0 and f"commitment {rec.epoch_commitment[:20]};" in out  # as a chat says it
    code, out, _ = run(capsys, "say", "g", "--as", "german", "status full", "--db", db)
    assert code == 0 and rec.epoch_commitment in out and rec.head_hash in out


def test_new_game_names_its_creator_as_the_first_moderator(capsys, db):
    code, out, _ = run(capsys, "new", "g", "--creator", "mod1", "--db", db)
    assert code == 0 and "moderator mod1" in out and "commitment" in out
    assert Store(db).load("g").moderators == ("mod1",)
    code, out, _ = run(capsys, "say", "g", "--user", "mod1", "pause lunch break", "--db", db)
    assert code == 0 and "paused" in out
    code, out, _ = run(capsys, "say", "g", "--user", "bob", "end", "--json", "--db", db)
    assert code == 1 and json.loads(out)["error"]["code"] == "spectator"


def test_say_needs_a_side_or_a_user(capsys, db):
    new_game(capsys, db)
    code, _, err = run(capsys, "say", "g", "end", "--db", db)
    assert code == 2 and "--as" in err and "--user" in err


def test_a_repeated_key_applies_once_and_answers_the_same(capsys, db):
    new_game(capsys, db)
    argv = ["say", "g", "--as", "soviet", "end", "--key", "msg-1", "--json", "--db", db]
    code1, out1, _ = run(capsys, *argv)
    code2, out2, _ = run(capsys, *argv)
    assert code1 == code2 == 0 and json.loads(out1) == json.loads(out2)
    assert [r.key for r in Store(db).log("g")].count("msg-1") == 1
    assert Store(db).count_rows("g") == 3


def test_replay_all_shows_progress_and_names_the_game_that_differs(capsys, db, monkeypatch):
    for name in ("a", "b", "c"):
        new_game(capsys, db, name)
        run(capsys, "say", name, "--as", "soviet", "end", "--db", db)
    code, out, err = run(capsys, "replay", "--all", "--db", db)
    assert code == 0 and "3 of 3 games replay" in out
    assert err == ""  # stderr is no terminal here: no progress bar, no carriage returns
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run(capsys, "replay", "--all", "--db", db)
    assert code == 0 and "\r[" in err and "3/3 games" in err
    raw = sqlite3.connect(db)
    raw.execute(
        'UPDATE game SET snapshot = replace(snapshot, \'"weather":"snow"\', \'"weather":"mud"\') '
        "WHERE name = 'b'"
    )
    raw.commit()
    raw.close()
    code, out, err = run(capsys, "replay", "--all", "--db", db)
    assert code == 1 and "b: differs" in out and "differing: b" in out and "a: differs" not in out


def test_audit_needs_a_name_or_a_file(capsys, db):
    new_game(capsys, db)
    assert run(capsys, "audit", "--db", db)[0] == 2
    assert run(capsys, "audit", "g", "--verify", "x.jsonl", "--db", db)[0] == 2
    code, out, _ = run(capsys, "audit", "g", "--db", db)
    assert code == 0 and "OK: the chain holds" in out

"""The command line's edges: `pbem log` names users as the chats know them (and `--json`), a
closed pipe ends a command quietly, `render --phase` takes the spaced form the chat takes, and
the demo tells each attack's
odds, die and result (tests/test_cli.py, where the demo runs)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from app.messages import Incoming
from app.service import GameService
from bots.chat import ChatService
from bots.cli import CLOSED_PIPE, main
from storage import Store

ROOT = Path(__file__).resolve().parent.parent
RAW = "205622761253081"  # a terminal user's id, as the issue saw it in `pbem log`


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def chat_game(db: str) -> str:
    """A game made and played in a chat: alice (id RAW) and bob, as the terminal names them."""
    store = Store(db)
    try:
        chat = ChatService(GameService(store))
        lines = [
            (RAW, "alice", "new hells-gate sandbox"),
            (RAW, "alice", "join soviet"),
            ("99", "bob", "join german"),
            (RAW, "alice", "start"),
            (RAW, "alice", "end"),
            (RAW, "alice", "seat german bob back again"),  # a moderation row naming bob
        ]
        for n, (user, name, text) in enumerate(lines):
            chat.handle(Incoming("terminal", "local", user, name, text, message_id=f"m{n}"))
        (game,) = [g.name for g in store.list_games()]
        return game
    finally:
        store.close()


def test_log_names_users_by_the_names_the_chat_knows(capsys, tmp_path):
    db = str(tmp_path / "g.db")
    game = chat_game(db)
    code, out, err = run(capsys, "log", game, "--db", db)
    assert code == 0, err
    assert f"terminal:{RAW}" not in out and "terminal:99" not in out
    assert re.search(r"(?m)^\d+\. soviet \(alice\): end$", out), out


def test_log_json_gives_each_row_with_its_user_id_and_name(capsys, tmp_path):
    db = str(tmp_path / "g.db")
    game = chat_game(db)
    code, out, err = run(capsys, "log", game, "--json", "--db", db)
    assert code == 0, err
    rows = json.loads(out)
    assert [r["index"] for r in rows] == list(range(len(rows)))
    end = next(r for r in rows if r["kind"] == "order" and r["text"] == "end")
    assert end["actor"] == "soviet" and end["effective"] is True
    assert end["user"] == f"terminal:{RAW}" and end["user_name"] == "alice"
    assert set(end) >= {"details", "created_at", "hash"} and end["details"]
    assert f"terminal:{RAW}" not in json.dumps([r["text"] for r in rows])
    code, out, _ = run(capsys, "log", game, "--json", "-n", "2", "--db", db)
    assert [r["index"] for r in json.loads(out)] == [r["index"] for r in rows[-2:]]


def test_a_closed_pipe_ends_a_command_quietly(tmp_path):
    """`pbem games | head -1`: the reader is gone before pbem writes; no error is printed and
    the exit code is the shell's for a closed pipe."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader closed the pipe: every write now fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bots.cli", "games"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == CLOSED_PIPE


def test_render_takes_the_spaced_phase_name_as_the_chat_does(capsys, tmp_path):
    db = str(tmp_path / "g.db")
    assert run(capsys, "new", "g", "--db", db)[0] == 0
    for side, text in [
        ("soviet", "end"),
        ("soviet", "move 20tk D7 E6\nmove 29tk D7 E7\nmove 5gtk C1\nend"),
        ("german", "end"),
    ]:
        code, _, err = run(capsys, "say", "g", "--as", side, text, "--db", db)
        assert code == 0, err
    images = {}
    for phase in ("german-combat", "german combat", "German Combat"):
        out = tmp_path / f"{len(images)}.png"
        code, _, err = run(
            capsys, "render", "g", "--turn", "1", "--phase", phase, "-o", str(out), "--db", db
        )
        assert code == 0, (phase, err)
        images[phase] = out.read_bytes()
    assert len(set(images.values())) == 1
    code, _, err = run(capsys, "render", "g", "--turn", "1", "--phase", "german supper", "--db", db)
    assert code == 2 and "german-combat" in err  # what exists is named


def test_log_rows_of_the_local_operator_keep_their_plain_form(capsys, tmp_path):
    db = str(tmp_path / "g.db")
    assert run(capsys, "new", "g", "--db", db)[0] == 0
    assert run(capsys, "say", "g", "--as", "soviet", "end", "--db", db)[0] == 0
    code, out, _ = run(capsys, "log", "g", "--db", db)
    assert code == 0 and re.search(r"(?m)^\d+\. soviet: end$", out), out
    (row,) = [
        r
        for r in json.loads(run(capsys, "log", "g", "--json", "--db", db)[1])
        if r["text"] == "end"
    ]
    assert row["user"] is None and row["user_name"] is None

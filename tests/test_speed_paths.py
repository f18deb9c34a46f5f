"""The fast paths keep their meaning: `pbem --help` loads no engine and no database code, the
command line's default system is the application's, and the state hash remembered for a
snapshot text is the one the text gives."""

from __future__ import annotations

import json
import subprocess
import sys

from adjudicator.core import registry
from adjudicator.core.dice import FixedDice
from app import games, lifecycle, sealing
from bots import cli_parser


def test_help_imports_neither_an_engine_nor_the_database_code():
    probe = (
        "import sys\n"
        "from bots.cli_main import main\n"
        "assert main(['--help']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('sqlalchemy', 'sqlmodel', 'storage', 'app') or m.startswith('adjudicator.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_command_line_s_default_system_is_the_application_s():
    assert cli_parser.DEFAULT_SYSTEM == lifecycle.DEFAULT_SYSTEM


def test_the_remembered_state_hash_of_a_snapshot_is_the_hash_its_text_gives():
    system = games.bind("hells-gate", games.default_scenario(registry.get("hells-gate"))[0])
    state = system.initial(False, FixedDice([])).state
    text, doc, digest = sealing.serialised(system, state)
    assert digest == sealing.state_digest(system, state)
    assert doc == json.loads(text)
    assert sealing.snapshot_digest(system, text, state) == digest
    other = json.loads(text)
    other["turn"] = other.get("turn", 1) + 1  # a text this process never wrote
    changed = system.state_from_json(other)
    assert sealing.snapshot_digest(system, json.dumps(other), changed) == sealing.state_digest(
        system, changed
    )
    assert sealing.state_digest(system, changed) != digest

"""The fast paths keep their meaning: `pbem --help` loads no engine and no database code, the
command line's default system is the application's, the state hash remembered for a
snapshot text is the one the text gives, the one-encoding check of a state hash says what the
exact hash says, a scenario text is bound once whatever source names it, and the rules of one
system are found without importing the others, the installed script ends with main's exit
code, and `pbem replay` imports neither the chat, the render nor the order-path code."""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adjudicator.core import registry
from adjudicator.core.dice import FixedDice, HashDice
from app import games, lifecycle, sealing
from bots import cli_parser
from bots.demo import choose, legal_texts
from storage import chain, state_hash, state_hash_is


def last_line_of(probe: str) -> str:
    """The last line a fresh interpreter prints running `probe` (which must succeed)."""
    done = subprocess.run(
        [sys.executable, "-c", probe], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_help_imports_neither_an_engine_nor_the_database_code():
    probe = (
        "import sys\n"
        "from bots.cli_main import main\n"
        "assert main(['--help']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('sqlalchemy', 'sqlmodel', 'storage', 'app') or m.startswith('adjudicator.')))\n"
    )
    assert last_line_of(probe) == "[]"


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


def _direct(doc: Any) -> str:
    return hashlib.sha256(chain.canonical(doc)).hexdigest()


def test_the_one_encoding_state_hash_check_says_what_the_exact_hash_says():
    plain = {"turn": 3, "units": {"a": {"hex": "B2", "reduced": True}}, "pending": [], "vp": None}
    assert state_hash_is(plain, state_hash(plain))
    assert not state_hash_is(plain, state_hash(plain | {"turn": 4}))
    assert not state_hash_is(plain, None)
    tupled = plain | {"pending": ("x", 1.5)}  # read back from JSON, a tuple is a list
    assert state_hash_is(tupled, state_hash(tupled))
    numbered = {"by_turn": {10: "late", 2: "early"}}  # sorted as numbers, not as JSON text
    assert _direct(numbered) != state_hash(numbered)
    assert state_hash_is(numbered, state_hash(numbered))
    mixed = {"keys": {1: "one", "b": "bee"}}  # no order of its keys: the exact hash decides
    assert state_hash_is(mixed, state_hash(mixed))
    assert not state_hash_is(mixed, state_hash({"keys": {"1": "one"}}))


def _keys_are_strings(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _keys_are_strings(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(_keys_are_strings(v) for v in value)
    return True


def _states(system: Any, sandbox: bool, orders: int = 60) -> Iterator[Any]:
    """The states of a game of random legal orders (bots.demo's choice), the first one first."""
    rng = random.Random(7)
    dice = HashDice("keys")
    state = system.initial(sandbox, dice).state
    yield state
    for _ in range(orders):
        here = system.situation(state)
        if here.over or not here.to_move:
            return
        side = here.to_move[0]
        text = choose(rng, legal_texts(system, state, side))
        state = system.apply(state, side, system.grammar.parse(text), dice).state
        yield state


def test_every_system_s_state_json_has_string_keys_so_one_encoding_is_the_state_hash():
    for system_type in registry.systems():
        system = games.bind(system_type.id, games.default_scenario(system_type)[0])
        for sandbox in (False, True):
            for state in _states(system, sandbox):
                doc = system.state_to_json(state)
                assert _keys_are_strings(doc), system_type.id
                assert _direct(doc) == state_hash(doc), system_type.id
                assert sealing.state_is(system, state, sealing.state_digest(system, state))
                assert not sealing.state_is(system, state, state_hash({}))


def test_a_scenario_text_is_bound_once_whatever_source_names_it():
    system_type = registry.get("hells-gate")
    text = games.default_scenario(system_type)[0]
    first = games.bind(system_type.id, text, "game 'a' (scenario)")
    assert games.bind(system_type.id, text, "game 'b' (scenario)") is first
    assert games.bind(system_type.id, text + "\n") is not first  # another text: its own binding


def test_getting_one_installed_system_imports_no_other_system():
    probe = (
        "import json, sys\n"
        "from adjudicator.core import registry\n"
        "assert registry.get('hells-gate').id == 'hells-gate'\n"
        "print(json.dumps(sorted({m.split('.')[1] for m in sys.modules"
        " if m.startswith('adjudicator.')})))\n"
    )
    loaded = set(json.loads(last_line_of(probe)))
    assert "hells_gate" in loaded
    assert not loaded & {"borodino", "northern_war", "stalins_war"}
    assert {s.id for s in registry.systems()} >= {"hells-gate", "borodino", "northern-war"}


def test_the_installed_script_is_entry_and_ends_with_main_s_exit_code():
    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text("utf-8"))
    assert project["project"]["scripts"]["pbem"] == "bots.cli_main:entry"
    probe = "import sys\nfrom bots.cli_main import entry\nsys.exit(entry())\n"
    for argv, code in ((["--help"], 0), (["no-such-command"], 2)):
        done = subprocess.run(
            [sys.executable, "-c", probe, *argv], check=False, capture_output=True, text=True
        )
        assert done.returncode == code, done.stderr
    assert "usage: pbem" in done.stderr


def test_replay_imports_neither_the_chat_the_render_nor_the_order_path(tmp_path):
    from app.service import GameService
    from storage import Store

    db = str(tmp_path / "g.db")
    store = Store(db)
    GameService(store).new_game("g")
    store.close()
    probe = (
        "import sys\n"
        "from bots.cli_main import main\n"
        f"assert main(['replay', '--all', '--db', {db!r}]) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('render', 'PIL')"
        " or m in ('bots.cli', 'bots.chat', 'app.service', 'app.submit', 'app.audit')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "1 of 1 games replay to their stored state." in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_change_reads_its_moderation_rows_from_the_checks_prefetch(tmp_path):
    """The checks before a write read every moderation row with the head (one statement); a
    change asking for them (its linked identities) gets those and the ones it wrote since,
    exactly what the log holds then."""
    from app.service import GameService
    from storage import Store, trust_rows
    from storage.tx_rows import OF_KIND

    store = Store(str(tmp_path / "games.db"))
    service = GameService(store)
    service.new_game("g", creator="mod")
    assert service.say("g", None, "seat soviet telegram:1", user="mod")[0].ok

    def change(tx):
        before = tx.rows_of_kind("moderation")
        assert trust_rows.cache(tx.s, tx.g).get(trust_rows.MODERATION) is not None  # prefetched
        tx.append("moderation", "system", "seat german telegram:2",
                  {"action": "seat", "side": "german", "user": "telegram:2"})  # fmt: skip
        served = tx.rows_of_kind("moderation")
        stored = trust_rows.entries(tx.s, OF_KIND, {"g": tx.g.id, "kind": "moderation"})
        raise Seen(before, served, [e.hash for e in stored])  # (and nothing is committed)

    class Seen(Exception):
        pass

    with pytest.raises(Seen) as seen:
        store.transact("g", change)
    before, served, stored = seen.value.args
    assert len(served) == len(before) + 1 >= 2
    assert [r.hash for r in served] == stored
    assert served[-1].payload["user"] == "telegram:2"
    store.close()

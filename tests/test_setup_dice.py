"""A game whose setup rolls: its dice are committed like an order's, its private events sealed.

The secret-dice test system (tests/systems/secret_dice.py) rolls a public d6 at the setup (the
first player) and deals each side a hidden d6 told by a private event. The setup's draws come
from epoch 1's committed seeds and are recorded in row 1, the epoch row that commits them; the
private events enter row 0 sealed. So `pbem new` makes the game, `rolls` lists the setup's
die, the audit recomputes it (and the hidden ones once the game ends), and neither a
spectator's log nor the export of the running game holds a secret die.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from adjudicator.core import registry
from app import audit
from app.service import GameService
from bots import cli
from storage import Store
from storage.audit import read_export
from tests.systems import secret_dice

SECRET = re.compile(r"Your secret die is (\d)")


@pytest.fixture
def system():
    registry.register(secret_dice.SYSTEM)
    yield secret_dice.SYSTEM
    registry.unregister(secret_dice.SYSTEM.id)


@pytest.fixture
def service(system, tmp_path):
    store = Store(str(tmp_path / "games.db"))
    yield GameService(store)
    store.close()


def new_game(service: GameService) -> str:
    said = service.new_game("s", system="secret-dice", creator="mod")
    assert "moves first" in said and not SECRET.search(said)  # the creator's reply: public
    return "s"


def secrets_of(service: GameService, name: str) -> dict[str, str]:
    """Each side's secret die, as its own log shows it to it."""
    found = {}
    for side in ("red", "blue"):
        (die,) = SECRET.findall(service.log_text(name, view=side))
        found[side] = die
    return found


def play_out(service: GameService, name: str) -> None:
    rng = random.Random(3)
    system = service.system(name)
    while not system.situation(state := service.state(name)).over:
        side = system.situation(state).to_move[0]
        (reply, *_) = service.say(name, side, rng.choice(["roll", "pass"]))
        assert reply.ok, reply.reply


def test_the_setup_draws_from_epoch_one_and_its_row_records_the_draws(service):
    name = new_game(service)
    setup, epoch = service.store.log(name)[:2]
    assert (setup.kind, epoch.kind) == ("setup", "epoch")
    rolls = epoch.payload["rolls"]
    assert [(r["purpose"], r["epoch"], r["n"], r["hidden"]) for r in rolls] == [
        ("first player", 1, 1, False),
        ("secret red", 1, 2, True),
        ("secret blue", 1, 3, True),
    ]
    assert rolls[0]["value"] in range(1, 7)
    assert all(r["value"] is None and len(r["commitment"]) == 64 for r in rolls[1:])
    assert "first player" in service.rolls_text(name)
    ok, text, report = service.audit(name)
    assert ok, text
    assert report.epochs_open == [1] and report.rolls_pending == 1 and report.hidden_pending == 4
    (reply, *_) = service.say(name, "red", "salt pepper")  # epoch 1 has rolled: salts closed
    assert not reply.ok and "already rolled" in reply.reply
    again = Store(service.store.url)  # a new process checks the whole chain before a write
    try:
        side = service.state(name).to_move
        (reply, *_) = GameService(again).say(name, side, "roll")
        assert reply.ok, reply.reply
        assert again.log(name)[-1].payload["rolls"][0]["n"] == 4  # after the setup's three
    finally:
        again.close()


def test_the_setup_events_are_sealed_from_the_spectator_and_the_export(service):
    name = new_game(service)
    secret = secrets_of(service, name)
    setup = service.store.log(name)[0]
    assert [e["kind"] for e in setup.payload["events"]] == ["FirstPlayer", "Sealed", "Sealed"]
    assert "secret die" not in json.dumps(setup.payload)
    spectator = service.log_text(name)
    assert "sealed until the game ends" in spectator and not SECRET.search(spectator)
    red = service.log_text(name, view="red")  # red's own die, and blue's sealed
    assert SECRET.findall(red) == [secret["red"]] and "private to side:blue: sealed" in red
    header, rows = service.export_doc(name)
    assert "secret die" not in json.dumps([header, rows])
    assert all("secret" not in row for row in rows)


def test_a_finished_game_audits_every_setup_die_and_replays(service, tmp_path):
    name = new_game(service)
    secret = secrets_of(service, name)
    play_out(service, name)
    ok, text, report = service.audit(name)
    assert ok, text
    assert report.rolls_checked >= 1 and report.hidden_checked >= 4  # 2 dice + 2 events
    service.verify(name)  # the fold replays the setup with the dice row 1 recorded
    result = service.state(name).result
    assert f"'red': {secret['red']}, 'blue': {secret['blue']}" in result["text"]
    path = tmp_path / "s.json"
    assert service.export(name, path)[0]
    _, rows = read_export(path)
    assert rows[1]["secret"] and rows[0]["secret"]  # revealed with the game's end
    assert audit.verify_file(path)[0]


def test_pbem_new_makes_a_game_whose_setup_rolls(system, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("PBEM_DB", raising=False)
    db = str(tmp_path / "cli.db")
    assert cli.main(["new", "s", "--game", "secret-dice", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "moves first" in out and not SECRET.search(out)
    assert cli.main(["audit", "s", "--db", db]) == 0

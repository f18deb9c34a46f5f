"""Hidden information at the keyboard and on the command line: `pbem play` shows one side's
view at a time and asks the players to pass the keyboard; `pbem show --view SIDE|public` shows
a side's hidden card to that side only; a private event reaches only its audience."""

from __future__ import annotations

import re

import pytest

from adjudicator.core import registry
from app.service import GameService
from bots import cli
from bots.terminal import play
from storage import Store
from tests.systems import duel


@pytest.fixture
def duel_system():
    registry.register(duel.SYSTEM)
    yield duel.SYSTEM
    registry.unregister(duel.SYSTEM.id)


def test_pbem_play_passes_the_keyboard_and_shows_each_side_only_its_card(duel_system):
    store = Store(":memory:")
    service = GameService(store)
    service.new_game("d", system="hidden-duel")
    lines = iter(["", "draw", "roll", "play", "", "draw", "quit"])
    out: list[str] = []
    play(service, "d", read=lambda prompt: next(lines), write=out.append)
    text = "\n".join(out)
    assert "Pass the keyboard to north" in text and "Pass the keyboard to south" in text
    north_part, south_part = text.split("Pass the keyboard to south")
    drawn = re.findall(r"You draw the (\d)", text)
    assert len(drawn) == 2  # each side saw its own draw, after the keyboard passed to it
    assert f"You draw the {drawn[0]}" in north_part and f"You draw the {drawn[1]}" in south_part
    store.close()


def test_pbem_show_view_shows_a_hidden_card_to_its_side_only(duel_system, tmp_path, capsys):
    db = str(tmp_path / "d.db")
    assert cli.main(["new", "d", "--game", "hidden-duel", "--db", db]) == 0
    assert cli.main(["say", "d", "--as", "north", "draw", "--db", db]) == 0
    said = capsys.readouterr().out
    (card,) = re.findall(r"You draw the (\d)", said)  # the operator speaks for north: his card
    assert cli.main(["show", "d", "--view", "north", "--db", db]) == 0
    assert f"the {card}" in capsys.readouterr().out
    for view in (["--view", "public"], [], ["--view", "south"]):
        assert cli.main(["show", "d", *view, "--db", db]) == 0
        assert f"Your card: the {card}" not in capsys.readouterr().out
    assert cli.main(["log", "d", "--db", db]) == 0
    log = capsys.readouterr().out
    assert "sealed until the game ends" in log and f"You draw the {card}" not in log
    assert cli.main(["show", "d", "--view", "west", "--db", db]) == 2

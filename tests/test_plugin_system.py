"""A game system defined in a test (tests/systems/race.py) plays through the whole stack: the
registry, the command line's listing, the chat service with its posts and deadlines, the log, the
audit and the map, with no line of the platform changed for it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from adjudicator.core import registry
from app import clock as clocks
from app import deadlines
from app.service import GameService
from bots import cli
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store
from storage import outbox as outbox_rows
from tests.systems import race
from tests.test_chat_service import Chat


@pytest.fixture
def registered():
    registry.register(race.SYSTEM)
    yield race.SYSTEM
    registry.unregister(race.SYSTEM.id)


@pytest.fixture
def chat(tmp_path, registered):
    store = Store(str(tmp_path / "games.db"))
    yield ChatService(GameService(store), clock=FakeClock(), images=True)
    store.close()


def test_pbem_games_lists_every_system_a_line_each(registered, capsys):
    assert cli.main(["games"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("hells-gate") and "Korsun" in line for line in lines)
    assert any(line.startswith("dice-race") for line in lines)


def test_pbem_new_refuses_an_unknown_system(tmp_path, capsys):
    assert cli.main(["new", "g", "--game", "chess", "--db", str(tmp_path / "g.db")]) == 2
    assert "no game system 'chess'" in capsys.readouterr().err


def test_a_registered_system_is_created_played_and_audited_from_the_command_line(
    registered, tmp_path, capsys
):
    db = str(tmp_path / "g.db")
    assert cli.main(["new", "r", "--game", "dice-race", "--db", db]) == 0
    assert cli.main(["say", "r", "--as", "red", "roll", "--db", db]) == 0
    assert "red rolls" in capsys.readouterr().out
    assert cli.main(["say", "r", "--as", "green", "roll", "--db", db]) == 2
    assert "the sides red, blue, moderator" in capsys.readouterr().err
    assert cli.main(["audit", "r", "--db", db]) == 0


def test_a_registered_system_plays_through_the_chat_service(chat):
    tg = Chat(chat, "telegram", "-100777")
    assert "a game of Dice race" in tg.text(1, "new dice-race")
    assert "now plays red" in tg.text(1, "join r")
    assert "now plays blue" in tg.text(2, "join blue")
    assert "begins: Red (user1) against Blue (user2)" in tg.text(1, "start")
    game = chat.service.store.list_games()[0].name
    assert "red rolls" in tg.text(1, "roll")
    assert "Refused (rule R1): it is blue's turn" in tg.text(1, "roll")
    for _ in range(20):
        here = chat.service.system(game).situation(chat.service.state(game))
        if here.over:
            break
        user = 1 if here.to_move == ("red",) else 2
        assert "Refused" not in tg.text(user, "roll")
    assert chat.service.system(game).situation(chat.service.state(game)).over
    posts = [r for r in outbox_rows.select_rows(chat.store, game=game)]
    assert any("Game over" in r["text"] for r in posts)
    assert all(r["render"] is not None for r in posts if "**" in r["text"][:2])
    ok, text, _ = chat.service.audit(game)
    assert ok, text
    png = chat.service.image(game)
    assert png.startswith(b"\x89PNG")


def test_a_registered_systems_deadline_default_is_applied(chat):
    tg = Chat(chat, "telegram", "-100778")
    tg.text(1, "new dice-race")
    tg.text(1, "join red")
    tg.text(2, "join blue")
    tg.text(1, "start")
    game = chat.service.store.list_games()[0].name
    armed = clocks.load(chat.store, game)
    chat.clock.set(armed.deadline_at + timedelta(seconds=1))
    deadlines.adjudicate_due(chat.store, chat.clock.now())
    rows = chat.store.log(game)
    assert rows[-1].actor == "system" and rows[-1].text == "default"
    assert chat.service.state(game).to_move == "blue"  # red passed on the deadline


def test_a_player_of_two_games_names_the_game_in_a_private_message(chat):
    for group in ("-100801", "-100802"):
        g = Chat(chat, "telegram", group)
        g.text(1, "new dice-race")
        g.text(1, "join red")
        g.text(2, "join blue")
        g.text(1, "start")
    first, second = sorted(g.name for g in chat.store.list_games())
    dm = Chat(chat, "telegram", "dm:1", private=True)
    refused = dm.text(1, "status")
    assert first in refused and second in refused and "use <GAME>" in refused
    assert "red rolls" in dm.text(1, f"roll in {second}")
    assert (
        chat.service.state(second).score["red"] > 0 and chat.service.state(first).score["red"] == 0
    )
    assert f"now for **{first}**" in dm.text(1, f"use {first}")
    assert "red rolls" in dm.text(1, "roll")
    assert chat.service.state(first).score["red"] > 0
    assert "running games" in dm.text(1, "use nosuchgame")

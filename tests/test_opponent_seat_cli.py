"""The opponent at the command line: `pbem play --ai SIDE` (the person at the keyboard against
it, its moves shown as the other players of a chat read them) and `pbem demo --ai [SIDE]` (it
against the random player), both through the one path of every change, as its seat's user."""

from __future__ import annotations

import random

import pytest

from adjudicator import opponent
from app.service import GameService
from bots import cli_parser
from bots.demo import DemoError, run_demo
from bots.terminal import play
from storage import Store


@pytest.fixture
def store():
    s = Store(":memory:")
    yield s
    s.close()


def test_the_command_lines_levels_are_the_opponents():
    assert cli_parser.AI_LEVELS == opponent.LEVELS
    assert cli_parser.AI_DEFAULT == opponent.DEFAULT_LEVEL
    args = cli_parser.build_parser().parse_args(["demo", "--ai"])
    assert (args.ai, args.level) == ("", "easy")
    args = cli_parser.build_parser().parse_args(["play", "g", "--ai", "german"])
    assert (args.ai, args.level) == ("german", opponent.DEFAULT_LEVEL)


def test_play_against_the_opponent_at_the_keyboard(store):
    service = GameService(store)
    rng = random.Random(4)
    said: list[str] = []

    def read(prompt: str) -> str:
        """The person: a random legal order of his side (soviet), a few dozen of them."""
        if len(said) > 60:
            return "quit"
        system = service.system("g")
        legal = system.legal_orders(service.state("g"), "soviet")
        line = system.grammar.format(rng.choice(list(legal)))
        said.append(line)
        return line

    out: list[str] = []
    assert play(service, "g", read, out.append, ai=("german", "easy")) == 0
    text = "\n".join(out)
    assert "Opponent (easy) now plays german" in text
    moves = [r for r in store.log("g") if r.user == "ai:easy"]
    assert moves and all(r.actor == "german" for r in moves)
    assert f"**Opponent**: `{moves[0].text}`" in text
    ok, report, _ = service.audit("g")
    assert ok, report


def test_play_refuses_the_opponent_where_it_does_not_play(store):
    out: list[str] = []
    service = GameService(store)
    service.new_game("b", system="borodino")
    assert play(service, "b", lambda _: "quit", out.append, ai=("french", "easy")) == 1
    assert "does not play Borodino" in "\n".join(out)


def test_the_demo_with_the_opponent_on_the_second_side(store):
    result = run_demo(2, store, write=lambda _: None, ai=("", "easy"))
    assert result.result is not None
    moves = [r for r in store.log(result.name) if r.user == "ai:easy"]
    assert moves and {r.actor for r in moves} == {"german"}
    ok, report, _ = GameService(store).audit(result.name)
    assert ok, report


def test_the_demo_refuses_a_system_the_opponent_does_not_play(store):
    with pytest.raises(DemoError, match="does not play"):
        run_demo(1, store, write=lambda _: None, system="borodino", ai=("", "easy"))

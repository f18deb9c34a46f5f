"""A private event of the setup reaches its side's player when he takes the side.

The secret-dice test system (tests/systems/secret_dice.py) deals each side a hidden die at the
setup, told by a private event (sealed in row 0). Nobody is seated then; whoever takes the side
(`join <SIDE>` in the chat, a moderator's `seat <SIDE> <USER>`) is sent it by private message,
written with his seat row in one transaction (app/seat_secrets.py), in his language, once per
side and user. Each audience is checked for what it received: the side's player his own die, the
group, a spectator and the other side never it.
"""

from __future__ import annotations

import re

import pytest

from adjudicator.core import registry
from app import post_queue
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store, chat_store
from tests.systems import secret_dice
from tests.test_chat_service import Chat

GROUP = "-100777"
SECRET = re.compile(r"Your secret die is (\d)")


@pytest.fixture
def system():
    registry.register(secret_dice.SYSTEM)
    yield secret_dice.SYSTEM
    registry.unregister(secret_dice.SYSTEM.id)


@pytest.fixture
def store(system, db_url, stores):
    return stores(db_url)  # SQLite, and PostgreSQL too when PBEM_TEST_PG is set


@pytest.fixture
def chat(store):
    return ChatService(GameService(store), clock=FakeClock(), images=False)


@pytest.fixture
def group(chat):
    return Chat(chat, "telegram", GROUP)


def new_game(group: Chat) -> str:
    said = group.text(1, "new secret-dice")
    assert "New game" in said and not SECRET.search(said)
    name = chat_store.binding(group.service.store, "telegram", GROUP)
    assert name is not None
    return name


def dice_of(chat: ChatService, game: str) -> dict[str, str]:
    """Each side's secret die, from its own view of the log."""
    return {s: SECRET.findall(chat.service.log_text(game, view=s))[0] for s in ("red", "blue")}


def secret_dms(store: Store) -> list[tuple[str | None, str]]:
    """(addressee, text) of every outbox row that holds a secret die."""
    return [
        (
            r.outgoing.user_id if r.outgoing.private else f"chat {r.outgoing.chat_id}",
            r.outgoing.text,
        )
        for r in post_queue.rows(store)
        if SECRET.search(r.outgoing.text or "")
    ]


def received(store: Store, user: str) -> list[str]:
    """The secret dice in the private messages to `user` (a Telegram user id)."""
    return [
        d
        for r in post_queue.rows(store)
        if r.outgoing.private and r.outgoing.user_id == user
        for d in SECRET.findall(r.outgoing.text or "")
    ]


def test_each_player_is_sent_his_sides_setup_secret_when_he_joins_and_no_one_else(chat, group):
    game = new_game(group)
    die = dice_of(chat, game)
    assert secret_dms(chat.store) == []  # nobody seated at the setup: nobody told yet
    answers = [group.say(1, "join red"), group.say(2, "join blue"), group.say(3, "status")]
    answers.append(group.say(3, "log"))  # a spectator asks for the log in the group
    answers.append(group.say(1, "start"))
    # what each audience received: each player his own side's die, privately, once
    assert received(chat.store, "1") == [die["red"]]
    assert received(chat.store, "2") == [die["blue"]]
    assert received(chat.store, "3") == []
    assert [who for who, _ in secret_dms(chat.store)] == ["1", "2"]  # no row to a chat
    (red_dm,) = [t for who, t in secret_dms(chat.store) if who == "1"]
    assert f"**{game}** (only you see this): Your secret die is {die['red']}" in red_dm
    # the answers in the group (the joins, the spectator's status and log) name no die
    said = [out.text for outs in answers for out in outs]
    assert said and not any(SECRET.search(text) for text in said)
    assert "sealed until the game ends" in group.text(3, "log")


def test_a_second_join_of_the_same_side_sends_nothing_and_another_player_is_sent_it(chat, group):
    game = new_game(group)
    die = dice_of(chat, game)
    group.say(1, "join red")
    assert "one side per player" in group.text(1, "join blue")  # refused: nothing sent
    assert "no longer plays red" in group.text(1, "leave")
    assert "now plays red" in group.text(1, "join red")  # he held red before: not sent again
    assert received(chat.store, "1") == [die["red"]]
    group.say(1, "leave")
    assert "now plays red" in group.text(4, "join red")  # another player: he is sent it
    assert received(chat.store, "4") == [die["red"]] and received(chat.store, "1") == [die["red"]]
    redelivered = group.incoming(2, "join blue")
    group.service.handle(redelivered)
    group.service.handle(redelivered)  # the platform delivers it twice: one seat, one message
    assert received(chat.store, "2") == [die["blue"]]


def test_a_moderators_seat_sends_the_new_player_his_sides_secret_after_the_start(chat, group):
    game = new_game(group)
    die = dice_of(chat, game)
    group.say(1, "join red")
    group.say(2, "join blue")
    group.say(1, "start")
    group.say(5, "status")  # user5 is now a known name in the group
    rows = len(post_queue.rows(chat.store))
    assert "now plays blue" in group.text(1, "seat blue @user5 replacing 2")
    new = [r for r in post_queue.rows(chat.store)[rows:] if SECRET.search(r.outgoing.text)]
    assert [(r.outgoing.private, r.outgoing.user_id) for r in new] == [(True, "5")]
    assert received(chat.store, "5") == [die["blue"]]
    assert received(chat.store, "1") == [die["red"]]  # red's player never sees blue's die
    # the moderator gives blue back to user 2, who held it: nothing is sent again
    assert "now plays blue" in group.text(1, "seat blue @user2 back")
    assert received(chat.store, "2") == [die["blue"]]


def test_the_setup_secret_is_said_in_the_players_language(chat, group):
    game = new_game(group)
    die = dice_of(chat, game)
    private = Chat(chat, "telegram", "2", private=True)
    private.say(2, "language ru")  # his own language, for his private messages
    group.say(2, "join blue")
    (text,) = [t for who, t in secret_dms(chat.store) if who == "2"]
    assert text.startswith(f"**{game}** (видите только вы): Your secret die is {die['blue']}")

"""A system with `side_maps` sends each seated side its own map by a private message with every
after-phase post (the group keeps the public map); a system without it sends none. The hidden
duel opts in: its map shows the card in a side's own hand."""

from __future__ import annotations

import pytest

from adjudicator.core import registry
from app import images, post_queue
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store
from tests.systems import duel, race
from tests.test_chat_service import Chat

GROUP = "-100800"
NORTH, SOUTH, MODERATOR = 2, 3, 1


@pytest.fixture
def store():
    for kind in (duel.SYSTEM, race.SYSTEM):
        registry.register(kind)
    opened = Store(":memory:")
    yield opened
    opened.close()
    for kind in (duel.SYSTEM, race.SYSTEM):
        registry.unregister(kind.id)


def started(store: Store, system: str, sides: tuple[str, str]) -> tuple[Chat, GameService]:
    service = GameService(store)
    chat = Chat(ChatService(service, clock=FakeClock(), images=True), "telegram", GROUP)
    chat.say(MODERATOR, f"new {system}")
    chat.say(NORTH, f"join {sides[0]}")
    chat.say(SOUTH, f"join {sides[1]}")
    chat.say(MODERATOR, "start")
    return chat, service


def maps(store: Store) -> list:
    return [r for r in post_queue.rows(store) if r.outgoing.render is not None]


def test_each_seated_side_gets_its_own_map_privately_with_a_post(store):
    started(store, "hidden-duel", ("north", "south"))
    rows = maps(store)  # the start's post
    public = [r for r in rows if not r.outgoing.private]
    private = [r for r in rows if r.outgoing.private]
    assert public and all("view" not in r.outgoing.render for r in public)
    views = {(r.outgoing.user_id, r.outgoing.render["view"]) for r in private}
    assert views == {(str(NORTH), "north"), (str(SOUTH), "south")}
    assert all(r.outgoing.chat_id == GROUP for r in private)  # the notice's chat if no DM
    assert {r.outgoing.render["upto"] for r in private} == {public[0].outgoing.render["upto"]}


def test_a_side_map_is_drawn_from_that_sides_view_only(store):
    chat, service = started(store, "hidden-duel", ("north", "south"))
    for user, text in ((NORTH, "draw"), (NORTH, "roll"), (NORTH, "play"), (SOUTH, "draw")):
        chat.say(user, text)
    name = maps(store)[0].game
    spec = {"upto": service.store.load(name).head_index, "after": None, "title": "t"}
    public = images.render_spec(store, name, spec)
    south = images.render_spec(store, name, {**spec, "view": "south"})
    assert south != public  # south's map shows the card in his hand; the group's does not
    assert images.render_spec(store, name, {**spec, "view": "public"}) == public


def test_a_system_without_side_maps_sends_no_private_map(store):
    chat, _ = started(store, "dice-race", ("red", "blue"))
    chat.say(NORTH, "roll")
    assert maps(store) and not [r for r in maps(store) if r.outgoing.private]


def test_a_side_map_is_written_once_for_a_redelivered_message(store):
    chat, _ = started(store, "hidden-duel", ("north", "south"))
    for user in (NORTH, SOUTH):
        for text in ("draw", "roll", "play"):
            chat.say(user, text, message_id=f"{user}-{text}")
    private = [r for r in maps(store) if r.outgoing.private]
    assert len(private) == 4  # the start's post and the next turn's, each side's map with both
    chat.say(SOUTH, "play", message_id=f"{SOUTH}-play")  # the platform delivers it again
    assert len([r for r in maps(store) if r.outgoing.private]) == 4

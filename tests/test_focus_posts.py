"""A phase post carries the focus image for phones (render spec "focus"), titled as the frame of
the same moment; a drawer without a focus image draws its map; `pbem render` keeps the full map."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from adjudicator.core import registry
from app import frames, images, post_queue
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store
from tests.systems import race
from tests.test_chat_service import Chat

GROUP = "-100900"
SOVIET, GERMAN, MODERATOR = 2, 3, 1


@pytest.fixture
def store():
    registry.register(race.SYSTEM)
    opened = Store(":memory:")
    yield opened
    opened.close()
    registry.unregister(race.SYSTEM.id)


def started(store: Store, system: str, sides: tuple[str, str]) -> tuple[Chat, GameService]:
    service = GameService(store)
    chat = Chat(ChatService(service, clock=FakeClock(), images=True), "telegram", GROUP)
    chat.say(MODERATOR, f"new {system}")
    chat.say(SOVIET, f"join {sides[0]}")
    chat.say(GERMAN, f"join {sides[1]}")
    chat.say(MODERATOR, "start")
    return chat, service


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_a_phase_post_carries_the_focus_image_titled_as_its_frame(store):
    chat, service = started(store, "hells-gate", ("soviet", "german"))
    chat.say(SOVIET, "end")  # the Soviet combat phase ends: a post
    rows = [r for r in post_queue.rows(store) if r.outgoing.render is not None]
    post = rows[-1]
    spec, name = post.outgoing.render, post.game
    assert spec["focus"] is True
    assert spec["title"] == frames.title(name, service.frames(name)[-1])
    focus = images.render_spec(store, name, spec)
    full = images.render_spec(store, name, {**spec, "focus": False})
    assert max(size(focus)) <= 1280
    assert size(full)[0] > 1280  # the full map, for `map full` and `pbem render`
    assert size(service.image(name)) == size(full)


def test_a_drawer_without_a_focus_image_draws_its_map(store):
    started(store, "dice-race", ("red", "blue"))
    rows = [r for r in post_queue.rows(store) if r.outgoing.render is not None]
    spec = rows[-1].outgoing.render
    name = rows[-1].game
    assert spec["focus"] is True
    assert images.render_spec(store, name, spec) == images.render_spec(
        store, name, {**spec, "focus": False}
    )

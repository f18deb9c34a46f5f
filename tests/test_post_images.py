"""Images only where they tell something (core.system's module doc, `post_image`): a whole game
of Stalin's War through the chat service posts its board at most once a turn (the first post and
the end's included) plus each `map` asked for; Borodino posts its boxes image after a Recovery
Phase (the turn it ends) and on request; Hell's Gate keeps the map on every phase post; a
system without the member (not written on the kit) keeps an image on every post.

A post's image is counted as the sender draws it: an outbox row with a render spec; a `map`
answer carries its image drawn."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from adjudicator.core.system import Situation
from app import after, post_queue
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import choose, legal_texts
from storage import Store
from tests.test_chat_service import Chat

GROUP = "-100977"
FIRST, SECOND, MODERATOR = 31, 32, 30


@pytest.fixture
def store() -> Iterator[Store]:
    opened = Store(":memory:")
    yield opened
    opened.close()


def started(store: Store, system: str, sides: tuple[str, str]) -> tuple[Chat, GameService, str]:
    service = GameService(store)
    chat = Chat(ChatService(service, clock=FakeClock(), images=True), "telegram", GROUP)
    chat.say(MODERATOR, f"new {system}")
    chat.say(FIRST, f"join {sides[0]}")
    chat.say(SECOND, f"join {sides[1]}")
    chat.say(MODERATOR, "start")
    return chat, service, store.list_games()[0].name


def group_posts(store: Store) -> list[Any]:
    """The outbox rows to the group that are posts (a phase's, or the start's)."""
    return [r for r in post_queue.rows(store) if r.outgoing.chat_id == GROUP]


def imaged(store: Store) -> int:
    return sum(1 for r in group_posts(store) if r.outgoing.render is not None)


def play(
    chat: Chat, service: GameService, game: str, users: dict[str, int], *, orders: int, seed: int
) -> Iterator[tuple[Situation, Situation]]:
    """Random legal orders by the seated players in the group; (before, after) of each."""
    rng = random.Random(seed)
    system = service.system(game)
    for _ in range(orders):
        state = service.state(game)
        here = system.situation(state)
        if here.over:
            return
        side = here.pending[0].side if here.pending else here.to_move[0]
        text = choose(rng, legal_texts(system, state, side))
        (reply, *_) = chat.say(users[side], text)
        assert not reply.text.startswith("Refused"), (text, reply.text)
        yield here, system.situation(service.state(game))


def test_stalins_war_posts_its_board_once_a_turn_and_on_request(store):
    chat, service, game = started(store, "stalins-war", ("axis", "soviet"))
    users = {"axis": FIRST, "soviet": SECOND}
    assert imaged(store) == 1  # the first post shows the board
    turns, asked = set(), 0
    per_turn = {1: 1}  # the images posted in each turn (the first post's in turn 1)
    for n, (before, now) in enumerate(play(chat, service, game, users, orders=2000, seed=5)):
        turns.add(now.turn)
        per_turn[now.turn] = per_turn.get(now.turn, 0) + imaged(store) - sum(per_turn.values())
        if n in (7, 40):  # asked for: the board drawn in the answer, nothing posted
            (answer,) = chat.say(FIRST, "map")
            assert answer.image is not None and answer.image[:4] == b"\x89PNG"
            assert imaged(store) == sum(per_turn.values())  # the answer posts nothing
            asked += 1
    here = service.system(game).situation(service.state(game))
    assert here.over, "the game did not end within the orders given"
    posts = len(group_posts(store))
    images = imaged(store)
    # one per turn (the first post's turn 1 included), one more for the end
    assert images <= len(turns) + 1, (images, sorted(turns))
    assert images >= len(turns) - 1  # each new turn's post carries it
    assert posts > 3 * images  # the action rounds' posts are text only
    assert asked == 2
    # at most one a turn; the last turn's may add the end's (the final board)
    final_turn = max(per_turn)
    assert all(k <= 1 for turn, k in per_turn.items() if turn != final_turn), per_turn
    assert per_turn[final_turn] <= 2 and sum(per_turn.values()) == images, per_turn
    last = group_posts(store)[-1].outgoing
    assert last.render is not None  # the end's post shows the final board


def test_3_borodino_posts_its_boxes_after_a_recovery_phase_and_on_request(store):
    chat, service, game = started(store, "borodino", ("russian", "french"))
    users = {"russian": FIRST, "french": SECOND}
    system = service.system(game)
    assert imaged(store) == 1
    seen = imaged(store)
    posted_turns = 0
    for before, now in play(chat, service, game, users, orders=400, seed=2):
        drew = imaged(store) - seen
        seen += drew
        recovery_held = now.over or now.turn != before.turn  # 5.1: the turn it ends
        if not recovery_held:
            assert drew == 0, (before.label, now.label)
        elif drew:
            posted_turns += 1
        if now.turn is not None and now.turn >= 3:
            break
    assert posted_turns >= 2, "no image after a Recovery Phase"
    assert system.post_image(None, system.situation(service.state(game)))
    (answer,) = chat.say(FIRST, "map")
    assert answer.image is not None


def test_hells_gate_keeps_its_map_on_every_phase_post(store):
    chat, service, game = started(store, "hells-gate", ("soviet", "german"))
    users = {"soviet": FIRST, "german": SECOND}
    start = len(group_posts(store))
    for _ in play(chat, service, game, users, orders=6, seed=1):
        pass
    posts = group_posts(store)[start:]
    phase_posts = [r for r in posts if r.outgoing.asks is not None or r.outgoing.render]
    assert len(phase_posts) >= 2 and all(r.outgoing.render is not None for r in phase_posts)


class Bare:
    """A system written without the kit, without `post_image`."""


def test_a_system_without_post_image_carries_an_image_on_every_post():
    here = Situation(2, "p", "turn 2", ("a",), key="2|p")
    assert after.carries_image(Bare(), here, here) is True  # type: ignore[arg-type]
    assert after.carries_image(Bare(), None, here) is True  # type: ignore[arg-type]

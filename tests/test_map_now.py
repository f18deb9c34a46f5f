"""The map of now without a replay (app/map_now.py): the same PNG as the last frame of the replay
(app/frames.py) in every system at every point of a game, from the game row's marks of where the
last two phases ended; an undo or a rewind since, a game made before the marks, or marks that do
not agree with the rows they name fall back to the replay, with the same picture."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text

from adjudicator.core.events import Viewer
from adjudicator.core.i18n import say
from app import frames, games, map_now
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds
from storage import Store
from tests.northern_war.helpers import hidden_from, perturbed
from tests.playing import play_random
from tests.test_chat_service import Chat
from tests.test_repair_honest import first_drawn, game, other_die, rechain, repair

__all__ = ["game"]  # the fixture: a 30-row Hell's Gate game of two seated players

FIXTURES = Path(__file__).parent / "fixtures"
GROUP = "-100977"
MODERATOR = 1
# orders played between looks at the map, and how many looks (random play ends Borodino in
# about 60 orders and the Northern War sample in about 35; Stalin's War goes on past 300)
PLAY = {
    "hells-gate": (11, 12),
    "borodino": (5, 12),
    "stalins-war": (19, 12),
    "northern-war": (3, 12),
}


def started(store: Store, system: str, seed: int = 5) -> tuple[Chat, GameService, str]:
    service = GameService(store, seeds=DemoSeeds(seed))
    chat = Chat(ChatService(service, clock=FakeClock(), images=False), "telegram", GROUP)
    chat.say(MODERATOR, f"new {system}")
    name = store.list_games()[-1].name
    for user, side in enumerate(service.system(name).sides, start=2):
        chat.say(user, f"join {side.id}")
    chat.say(MODERATOR, "start")
    return chat, service, name


def replayed(service: GameService, name: str, focus: bool = False) -> bytes:
    """The map of now as it was drawn before the marks: the last frame of the whole replay."""
    frame = frames.pick(service.frames(name), None, None)
    title = say(frames.title(name, frame), games.EN)
    system = service.system(name)
    return games.draw(system, frame.state, frame.events, None, title, focus)


def marks(store: Store, name: str) -> tuple[int | None, int | None]:
    with store.engine.connect() as conn:
        row = conn.execute(
            text("SELECT frame_row, frame_before FROM game WHERE name = :n"), {"n": name}
        ).one()
    return row[0], row[1]


def set_marks(store: Store, name: str, row: int | None, before: int | None) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE game SET frame_row = :r, frame_before = :b WHERE name = :n"),
            {"r": row, "b": before, "n": name},
        )


@pytest.mark.parametrize("system", list(PLAY))
def test_the_map_of_now_is_the_last_frame_of_the_replay_without_replaying(system):
    store = Store(":memory:")
    try:
        _, service, name = started(store, system)
        step, looks = PLAY[system]
        fast = 0
        rng = random.Random(system)
        for look in range(looks):
            focus = look % 2 == 0
            if map_now.frame_now(store, service.system(name), name) is not None:
                fast += 1
            assert service.image(name, focus=focus) == replayed(service, name, focus), look
            play_random(service, name, rng.randint(1, step), seed=look)
        assert fast >= looks - 2  # the marks answered (not the replay) nearly every time
    finally:
        store.close()


def test_the_marks_follow_the_orders_that_end_phases():
    store = Store(":memory:")
    try:
        _, service, name = started(store, "hells-gate")
        assert marks(store, name) == (0, None)  # the setup is where the first frame is
        play_random(service, name, 30)
        ends = [f.index for f in service.frames(name) if f.ended]
        assert len(ends) >= 2
        assert marks(store, name) == (ends[-1], ends[-2])
    finally:
        store.close()


@pytest.mark.parametrize("remove", ["undo", "rewind"])
def test_an_undo_or_a_rewind_since_the_marks_draws_from_the_replay(remove):
    store = Store(":memory:")
    try:
        chat, service, name = started(store, "borodino")
        play_random(service, name, 20)
        side = service.system(name).situation(service.state(name)).to_move[0]
        play_random(service, name, 1, seed=9)
        if remove == "undo":
            assert service.say(name, side, "undo")[0].ok
        else:
            head = service.record(name).head_index
            assert chat.say(MODERATOR, f"rewind {head - 3} test")
        assert map_now.frame_now(store, service.system(name), name) is None
        assert service.image(name) == replayed(service, name)
        play_random(service, name, 25, seed=3)  # two phases end again: the marks answer
        assert map_now.frame_now(store, service.system(name), name) is not None
        assert service.image(name) == replayed(service, name)
    finally:
        store.close()


@pytest.mark.parametrize(
    "wrong",
    [(None, None), (10_000, 3), (5, 5), ("head", 0)],
    ids=["unknown", "past-the-head", "before-not-before", "not-an-order"],
)
def test_marks_that_disagree_with_the_rows_are_not_trusted(wrong):
    store = Store(":memory:")
    try:
        chat, service, name = started(store, "hells-gate")
        play_random(service, name, 40)
        chat.say(MODERATOR, "pause testing")  # a row that is no order
        row, before = wrong
        if row == "head":
            row = service.record(name).head_index
        set_marks(store, name, row, before)
        assert map_now.frame_now(store, service.system(name), name) is None
        assert service.image(name) == replayed(service, name)
    finally:
        store.close()


def test_a_game_made_before_the_marks_draws_from_the_replay_until_two_phases_end(tmp_path):
    path = tmp_path / "legacy.db"
    shutil.copy(FIXTURES / "legacy-0.1.db", path)  # at revision 0002: no marks
    store = Store(str(path))
    try:
        service = GameService(store, seeds=DemoSeeds(2))
        name = store.list_games()[0].name
        assert marks(store, name) == (None, None)
        assert map_now.frame_now(store, service.system(name), name) is None
        assert service.image(name) == replayed(service, name)
    finally:
        store.close()


def test_a_repair_forgets_the_marks_and_the_map_is_the_replays(game, stores, capsys):
    """A repair cuts rows (new rows then take their places): the marks may name rows that are
    gone or are other rows now, so the repair forgets them, and the orders after it set them."""
    store = game.store
    assert None not in marks(store, "g")
    k = first_drawn(store, 1)
    rechain(store, k, other_die)
    code, said = repair(store, capsys)
    assert code == 0, said
    assert marks(store, "g") == (None, None)
    fresh = GameService(stores(store.url))
    assert map_now.frame_now(store, fresh.system("g"), "g") is None
    assert fresh.image("g") == replayed(fresh, "g")
    play_random(fresh, "g", 40, seed=4)
    ends = [f.index for f in fresh.frames("g") if f.ended]
    assert marks(store, "g") == (ends[-1], ends[-2])
    assert map_now.frame_now(store, fresh.system("g"), "g") is not None
    assert fresh.image("g") == replayed(fresh, "g")


def test_2_19_the_groups_map_of_now_tells_no_hidden_value():
    """The Northern War's `map` for the group, drawn from the marks, is the same picture, pixel
    for pixel, when every value hidden from the public differs (strengths, the blocks of a
    nation shuffled among their places, each side's private records: the snapshot edited as a
    host could, tests/northern_war/helpers.py's `perturbed`), at every step of a game: nothing
    the group's map shows depends on a hidden value."""
    store = Store(":memory:")
    try:
        service = GameService(store, seeds=DemoSeeds(3))
        service.new_game("nw", system="northern-war")
        system, rng, compared = service.system("nw"), random.Random(5), 0
        for _ in range(40):
            state = service.state("nw")
            if system.situation(state).over:
                break
            fast = map_now.frame_now(store, system, "nw") is not None  # (else: the replay's)
            if fast and hidden_from(system, state, Viewer.public()):
                shown = service.image("nw")
                real = store.snapshot("nw")
                other = system.state_to_json(perturbed(system, state, Viewer.public(), rng))
                assert other != real
                set_snapshot(store, "nw", other)
                assert service.image("nw") == shown
                set_snapshot(store, "nw", real)
                compared += 1
            play_random(service, "nw", 1, seed=compared)
        assert compared >= 20
    finally:
        store.close()


def set_snapshot(store: Store, name: str, doc: dict) -> None:
    with store.engine.begin() as conn:
        conn.execute(
            text("UPDATE game SET snapshot = :s WHERE name = :n"), {"s": json.dumps(doc), "n": name}
        )

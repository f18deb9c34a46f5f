"""Maps drawn off the message path: a row written with a `render` spec is drawn by the sender's
renderer just before it is sent, the PNG is kept on the row (a retry does not draw again), and a
renderer that fails never costs the text."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.messages import Outgoing
from bots import delivery
from bots.clock import FakeClock
from bots.platforms.common import DeliveryError
from tests.test_outbox import FakeSender, drive

PNG = b"\x89PNG\r\n\x1a\n" + b"map" * 100
SPEC = {"after": 12, "upto": 17, "title": "g: turn 2, movement"}


class Recording(FakeSender):
    """A FakeSender that also keeps the images it was given."""

    def __init__(self, clock, script=None):
        super().__init__(clock, script)
        self.images: list[bytes | None] = []

    async def send(self, outgoing: Outgoing, *, start_part: int = 0, fallback_chat_id=None):
        self.images.append(outgoing.image)
        await super().send(outgoing, start_part=start_part, fallback_chat_id=fallback_chat_id)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def store(db_url, stores):
    return stores(db_url)


def test_the_map_is_drawn_when_the_row_is_sent_and_kept_for_a_retry(store, clock):
    drawn = []

    def renderer(game: str, spec: dict) -> bytes:
        drawn.append((game, spec))
        return PNG

    sender = Recording(clock, [DeliveryError("500 from the platform"), None])
    out = Outgoing("telegram", "A", "after the phase")
    delivery.enqueue(store, "g", [out], key="k", now=clock.now(), render=SPEC)
    (row,) = delivery.rows(store)
    assert row.outgoing.render == SPEC and row.outgoing.image is None  # nothing drawn yet
    asyncio.run(
        drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered, renderer=renderer)
    )
    assert drawn == [("g", SPEC)]  # once: the retry sent the image kept on the row
    assert sender.images == [PNG, PNG]
    (row,) = delivery.rows(store)
    assert row.status == "sent" and row.outgoing.image == PNG


def test_a_failing_renderer_sends_the_text_without_the_image(store, clock, caplog):
    def renderer(game: str, spec: dict) -> bytes:
        raise RuntimeError("the drawer broke")

    sender = Recording(clock)
    out = Outgoing("telegram", "A", "the text must go out", render=SPEC)  # its own spec
    delivery.enqueue(store, "g", [out], now=clock.now())
    with caplog.at_level(logging.WARNING, logger="bots.outbox"):
        asyncio.run(
            drive(
                store, {"telegram": sender.send}, clock, lambda: sender.delivered, renderer=renderer
            )
        )
    assert sender.delivered == [("A", "the text must go out")] and sender.images == [None]
    assert any("drawing the map failed" in r.getMessage() for r in caplog.records)
    (row,) = delivery.rows(store)
    assert row.status == "sent" and row.outgoing.image is None


def test_without_a_renderer_the_text_goes_out_alone(store, clock):
    sender = Recording(clock)
    delivery.enqueue(store, "g", [Outgoing("telegram", "A", "hi")], now=clock.now(), render=SPEC)
    asyncio.run(drive(store, {"telegram": sender.send}, clock, lambda: sender.delivered))
    assert sender.delivered == [("A", "hi")] and sender.images == [None]


def test_a_row_with_an_image_is_not_drawn_and_render_applies_only_to_rows_without_one(store, clock):
    calls = []

    def renderer(game: str, spec: dict) -> bytes:
        calls.append(spec)
        return PNG

    sender = Recording(clock)
    outs = [Outgoing("telegram", "A", "has one", image=b"old"), Outgoing("telegram", "B", "none")]
    delivery.enqueue(store, "g", outs, now=clock.now(), render=SPEC)
    assert [r.outgoing.render for r in delivery.rows(store)] == [None, SPEC]
    asyncio.run(
        drive(
            store,
            {"telegram": sender.send},
            clock,
            lambda: len(sender.delivered) == 2,
            renderer=renderer,
        )
    )
    assert calls == [SPEC]
    assert sorted(sender.images) == sorted([b"old", PNG])


def test_enqueue_in_writes_inside_the_callers_transaction(store, clock):
    out = Outgoing("telegram", "A", "with the log rows")
    try:
        with store.engine.begin() as conn:
            ids = delivery.enqueue_in(conn, "g", [out], key="k1", now=clock.now(), render=SPEC)
            assert len(ids) == 1
            raise RuntimeError("the change is refused: nothing is written")
    except RuntimeError:
        pass
    assert delivery.rows(store) == []
    with store.engine.begin() as conn:
        delivery.enqueue_in(conn, "g", [out], key="k1", now=clock.now())
    with store.engine.begin() as conn:
        assert delivery.enqueue_in(conn, "g", [out], key="k1", now=clock.now()) == []  # keyed
    (row,) = delivery.rows(store)
    assert row.dedupe_key == "k1|telegram|A|0"

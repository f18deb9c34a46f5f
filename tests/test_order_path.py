"""The order path stays lean (counted, not timed): the SQL statements a chat message costs, and
the phase post's read of only the rows since the last map, which tells the same events."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from sqlalchemy import event

from app import fold
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds, choose, legal_texts
from storage import Store
from tests.test_chat_service import Chat

GROUP = "-100900"
USERS = {"soviet": 2, "german": 3}
# measured 26 on average over a game with the trust checks before every write (storage/trust.py:
# the head and its tail, the dice bookkeeping's row, the epoch's commitment and salts, the state
# row, the seats' and moderators' rows); 18 before them, 28 before the caches
STATEMENTS_PER_ORDER = 28


@pytest.fixture
def counted() -> Iterator[tuple[Store, list[str]]]:
    store = Store(":memory:")
    seen: list[str] = []

    def count(conn, cursor, statement, params, context, executemany):
        seen.append(statement)

    event.listen(store.engine, "before_cursor_execute", count)
    yield store, seen
    store.close()


def test_an_order_costs_a_bounded_number_of_statements(counted):
    store, seen = counted
    service = GameService(store, seeds=DemoSeeds(3))
    chat = Chat(ChatService(service, clock=FakeClock(), images=False), "telegram", GROUP)
    chat.say(1, "new hells-gate")
    for side, user in USERS.items():
        chat.say(user, f"join {side}")
    chat.say(1, "start")
    (name,) = [g.name for g in store.list_games()]
    system, rng = service.system(name), random.Random(3)
    spent = []
    for _ in range(60):
        side = system.situation(service.state(name)).to_move[0]
        text = choose(rng, legal_texts(system, service.state(name), side))
        mark = len(seen)
        (reply, *_) = chat.say(USERS[side], text)
        assert not reply.text.startswith("Refused"), reply.text
        spent.append(len(seen) - mark)
        assert spent[-1] <= 50, (text, seen[mark:])  # a phase end writes more, never unbounded
    assert sum(spent) / len(spent) <= STATEMENTS_PER_ORDER, spent


def test_the_post_told_from_the_tail_of_the_log_equals_the_whole_log():
    """An undo or a rewind after the last map removes what it names in the tail just as in the
    whole log, so reading only the rows since the map tells the same events."""
    rows = [{"index": 0, "kind": "setup", "payload": {"events": [{"kind": "Setup"}]}}]

    def order(n: int) -> dict:
        return {"index": n, "kind": "order", "payload": {"events": [{"kind": f"E{n}"}]}}

    rows += [order(n) for n in range(1, 6)]
    rows.append({"index": 6, "kind": "undo", "payload": {"targets": [5, 2]}})
    rows += [order(n) for n in range(7, 10)]
    rows.append({"index": 10, "kind": "rewind", "payload": {"to": 7}})
    rows += [order(n) for n in range(11, 13)]
    for after in (None, *range(len(rows))):
        tail = rows if after is None else rows[after + 1 :]
        assert fold.events_since(tail, after) == fold.events_since(rows, after), after

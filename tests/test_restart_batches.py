"""A restart after an outage: the covered deadlines move in bounded batches (one transaction
each), a pass cut short by a stop leaves the rest to the next pass and moves no game twice, and
`Scheduler.stop()` returns after at most the batch in progress.

Driven by hand: a FakeClock, the batch size and a hook called between batches (where a test
stops the pass); nothing waits on the wall clock."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import math
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event

from app import clock as C
from app import deadlines as D
from app import notify, outage
from app.service import GameService
from bots.clock import FakeClock
from bots.scheduler import AlwaysLeader, Scheduler
from storage import clocks

H = timedelta(hours=1)


def games(db_url, stores, n: int):
    """n started sandbox games g0..g(n-1), their phase deadlines (48 h) armed at clock time 0,
    and the heartbeat written then; the clock moved 1 h on: an outage of 1 h covers them all."""
    store = stores(db_url)
    seeds = (f"{k:064x}" for k in itertools.count(1))
    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))
    service = GameService(store, seeds=lambda: next(seeds), now=clock.now)
    for i in range(n):
        name = f"g{i}"
        service.new_game(name, sandbox=True, creator="telegram:909")
        C.rearm(store, name, service.system(name).situation(service.state(name)), clock)
    armed = {gc.name: gc.deadline_at for gc in C.clocks(store)}
    outage.heartbeat(store, clock)
    clock.advance(hours=1)
    return store, service, clock, armed


def deadlines(store) -> dict:
    return {gc.name: gc.deadline_at for gc in C.clocks(store)}


def commits(store) -> list[int]:
    """A list that grows by one at every commit on the store's engine."""
    seen: list[int] = []
    event.listen(store.engine, "commit", lambda conn: seen.append(1))
    return seen


@pytest.mark.parametrize(("n", "batch"), [(7, 3), (6, 3), (5, 200), (4, 1)])
def test_the_outage_moves_take_one_transaction_per_batch(db_url, stores, n, batch):
    store, _, clock, armed = games(db_url, stores, n)
    found = outage.detect(store, clock.now())
    assert found is not None
    seen = commits(store)
    finished = outage.catch_up(store, found, clock.now(), notify.Poster(clock.now()), batch=batch)
    assert finished
    assert len(seen) == math.ceil(n / batch)
    assert deadlines(store) == {name: at + H for name, at in armed.items()}


def test_a_pass_of_n_moves_is_the_outage_record_its_batches_and_the_heartbeat(db_url, stores):
    store, service, clock, armed = games(db_url, stores, 5)
    seen = commits(store)
    assert D.adjudicate_due(store, clock.now(), core=service.core, batch=2) == []  # no chat bound
    assert len(seen) == 1 + math.ceil(5 / 2) + 1  # nothing else is due: no other transaction
    assert deadlines(store) == {name: at + H for name, at in armed.items()}
    assert outage.last_heartbeat(store) == clock.now()


def test_a_pass_stopped_after_some_batches_leaves_the_rest_and_moves_none_twice(db_url, stores):
    store, service, clock, armed = games(db_url, stores, 7)
    halt = threading.Event()
    batches: list[int] = []

    def between(k: int) -> None:
        batches.append(k)
        if k == 2:
            halt.set()

    rows = {name: service.store.count_rows(name) for name in armed}
    D.adjudicate_due(store, clock.now(), core=service.core, batch=2, stop=halt, between=between)
    assert batches == [1, 2]
    moved = {n for n, at in deadlines(store).items() if at == armed[n] + H}
    assert moved == {"g0", "g1", "g2", "g3"}  # two batches of two, in name order
    assert all(deadlines(store)[n] == armed[n] for n in armed if n not in moved)
    assert outage.last_heartbeat(store) == clock.now() - H  # the outage is not over
    # a moved game's clock armed again meanwhile (its memo no longer names the outage)
    clocks.save(store, "g1", memo={"for": "another situation"})
    clock.advance(minutes=10)  # the next pass, later: the same outage, continued
    D.adjudicate_due(store, clock.now(), core=service.core, batch=2)
    assert deadlines(store) == {name: at + H for name, at in armed.items()}  # each moved once
    assert {name: service.store.count_rows(name) for name in armed} == rows  # nothing executed
    assert outage.last_heartbeat(store) == clock.now()
    D.adjudicate_due(store, clock.now(), core=service.core, batch=2)
    assert deadlines(store) == {name: at + H for name, at in armed.items()}


def test_a_pass_stopped_before_its_first_batch_commits_moves_nothing(db_url, stores):
    store, service, clock, armed = games(db_url, stores, 3)
    halt = threading.Event()
    halt.set()
    assert D.adjudicate_due(store, clock.now(), core=service.core, stop=halt) == []
    assert deadlines(store) == armed
    assert outage.last_heartbeat(store) == clock.now() - H


def test_a_stop_during_a_long_catch_up_returns_after_at_most_one_batch(db_url, stores, monkeypatch):
    """Scheduler.stop() is called from inside the first batch's hook (the pass's thread), and
    the hook waits until stop() has set the halt: the pass then returns, and stop() with it."""
    store, service, clock, armed = games(db_url, stores, 6)
    batches: list[int] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stopped: list[concurrent.futures.Future[None]] = []

        def between(k: int) -> None:  # in the pass's thread, after batch k committed
            batches.append(k)
            if k == 1:
                future = asyncio.run_coroutine_threadsafe(scheduler.stop(), loop)
                stopped.append(future)
                assert scheduler.halt.wait(60)  # stop() sets it before it waits

        scheduler = Scheduler(
            service,
            store,
            clock,
            tick_seconds=60,
            leadership=AlwaysLeader(),
            catch_up_beside=True,
            between_batches=between,
        )
        await scheduler.start()  # returns at once: the catch-up runs beside
        assert scheduler.is_leader and scheduler.runs == 0
        while not stopped:  # the pass reaches its first batch (or fails: a logged error)
            assert scheduler._catching is not None and not scheduler._catching.done()
            await asyncio.sleep(0.01)
        await asyncio.wrap_future(stopped[0])
        assert scheduler.runs == 1  # the halted pass returned, and stop() after it

    monkeypatch.setattr(outage, "BATCH", 2)
    asyncio.run(main())
    assert batches == [1]
    moved = {n for n, at in deadlines(store).items() if at == armed[n] + H}
    assert moved == {"g0", "g1"}
    assert outage.last_heartbeat(store) == clock.now() - H  # the next start continues it


def test_serve_catches_up_beside_the_bots(tmp_path):
    """`pbem serve`'s scheduler does not hold the start for its catch-up."""
    from bots.config import Config
    from bots.serve import _Run
    from storage import Store

    store = Store(str(tmp_path / "games.db"))
    try:
        run = _Run(Config.load({}), store, FakeClock(datetime.now(UTC)), asyncio.Event())
        assert run.scheduler.catch_up_beside
    finally:
        store.close()


def test_a_game_whose_notice_fails_is_passed_over_and_the_catch_up_finishes(
    db_url, stores, monkeypatch
):
    """As a pass does with a game that fails: logged, the others moved, the outage over (a
    game that failed never blocks every later pass)."""
    store, service, clock, armed = games(db_url, stores, 4)
    real = notify.standing

    def standing(store_, name):
        if name == "g1":
            raise RuntimeError("a game that cannot be read")
        return real(store_, name)

    monkeypatch.setattr(notify, "standing", standing)
    D.adjudicate_due(store, clock.now(), core=service.core, batch=2)
    after = deadlines(store)
    assert after["g1"] == armed["g1"]
    assert {n: after[n] for n in ("g0", "g2", "g3")} == {
        n: armed[n] + H for n in ("g0", "g2", "g3")
    }
    assert outage.last_heartbeat(store) == clock.now()


def test_a_deadline_armed_after_the_service_came_back_is_not_moved_by_the_outage(db_url, stores):
    """The bots answer while the catch-up runs: a game the catch-up has not reached may be
    re-armed by a player's order; that deadline ran for none of the outage and keeps its time."""
    store, _, clock, armed = games(db_url, stores, 3)
    found = outage.detect(store, clock.now())
    assert found is not None
    later = clock.now() + timedelta(minutes=5)
    with C.locked(store, "g1") as (conn, gc):  # g1 re-armed for a new situation after the outage
        C.save(
            conn, gc, {"deadline_at": later + 48 * H}, memo={"for": "x", "armed": later.isoformat()}
        )
    assert outage.catch_up(store, found, clock.now(), notify.Poster(clock.now()), batch=2)
    after = deadlines(store)
    assert after["g1"] == later + 48 * H
    assert after["g0"] == armed["g0"] + H and after["g2"] == armed["g2"] + H


def test_a_deadline_armed_by_the_clock_records_when_it_was_armed(db_url, stores):
    store, _, clock, _ = games(db_url, stores, 1)
    (gc,) = C.clocks(store)
    assert datetime.fromisoformat(gc.memo["armed"]) == clock.now() - H

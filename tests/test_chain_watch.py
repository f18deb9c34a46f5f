"""The background check of every game's chain (storage/watch.py) as a serving process runs it:
its setting, its passes between orders, the phase end's poke, the loop of `pbem serve`
(bots/serve_watch.py). The tampering cases themselves: tests/test_tamper_running.py."""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.chain_watch import watch
from app.service import GameService
from bots.config import Config, ConfigError
from bots.serve_watch import run_watch
from storage import watch as chain_watch
from tests.host_edits import host_execute
from tests.playing import play_random

WAIT = 600  # seconds: a ceiling for a pass that only a hang reaches


def test_the_chain_check_runs_every_300_seconds_unless_set_otherwise():
    assert Config.load({}).chain_check_seconds == 300
    assert Config.load({"PBEM_CHAIN_CHECK_SECONDS": "60"}).chain_check_seconds == 60
    with pytest.raises(ConfigError, match="PBEM_CHAIN_CHECK_SECONDS must be positive"):
        Config.load({"PBEM_CHAIN_CHECK_SECONDS": "0"})


def played(db_url, stores, games=("g",)) -> GameService:
    service = GameService(stores(db_url))
    for n, name in enumerate(games):
        service.new_game(name, creator="mod")
        play_random(service, name, 12, seed=n + 1)
    return service


def test_orders_given_between_the_passes_of_a_walk_are_no_tampering(db_url, stores):
    """A walk spread over passes: rows appended meanwhile (orders, in two games) are read by
    the next pass; nothing is frozen, and every game ends its walk at its new head."""
    service = played(db_url, stores, ("g", "h"))
    checks = watch(service.store, budget=4)
    assert checks.run_pass() == [] and checks.queue  # the round goes on
    for name in ("g", "h"):
        play_random(service, name, 4, seed=9)
    assert checks.run_round() == [] and not service.store.frozen
    for name in ("g", "h"):
        rec = service.record(name)
        assert service.store.anchors[name][:2] == (rec.head_index, rec.head_hash)
    assert checks.rows_read >= sum(service.store.count_rows(n) for n in ("g", "h"))


def test_a_repair_is_no_rewrite_of_what_the_service_verified(db_url, stores, capsys):
    """The anchor forgives a `repair` row it does not know: a repair drops rows on purpose."""
    from bots.cli import main

    service = played(db_url, stores)
    checks = watch(service.store)
    assert checks.run_round() == []
    k = service.store.count_rows("g") - 3
    host_execute(service.store, 'UPDATE logentry SET text = :t WHERE "index" = :k', t="x", k=k)
    assert checks.run_round()[0][1]["index"] == k
    assert main(["repair", "g", "--db", db_url, "--by", "mod"]) == 0
    capsys.readouterr()
    assert checks.run_round() == []  # the shorter, repaired log: no truncation
    (reply,) = service.say("g", None, "pause waiting for a ruling", user="mod")
    assert reply.ok, reply.reply  # the same process writes to it again
    assert checks.run_round() == [] and "g" not in service.store.frozen


def test_a_phase_end_asks_for_a_pass(db_url, stores):
    """app/after.py pokes the check when a phase post is due, not at every order."""
    poked: list[str] = []
    chain_watch.listen(poked.append)
    try:
        service = GameService(stores(db_url))
        service.new_game("g", creator="mod")
        poked.clear()
        replies = play_random(service, "g", 40, seed=3)
    finally:
        chain_watch.unlisten(poked.append)
    assert poked and set(poked) == {"g"}
    assert len(poked) < len(replies)


def test_the_serving_process_runs_a_pass_at_start_and_after_a_phase_end(db_url, stores):
    """bots/serve_watch.py: a pass at once, then one as soon as a phase ended (the period is
    an hour: nothing else wakes it); each in a worker thread; stop ends the loop."""
    service = played(db_url, stores)
    checks = watch(service.store)
    threads: list[str] = []
    done = threading.Semaphore(0)
    run_pass = checks.run_pass

    def counted(*halt):
        threads.append(threading.current_thread().name)
        try:
            return run_pass(*halt)
        finally:
            done.release()

    checks.run_pass = counted

    async def main():
        stop = asyncio.Event()
        task = asyncio.create_task(run_watch(checks, stop, 3600))
        assert await asyncio.to_thread(done.acquire, timeout=WAIT)
        chain_watch.poke("g")
        assert await asyncio.to_thread(done.acquire, timeout=WAIT)
        stop.set()
        await asyncio.wait_for(task, WAIT)

    asyncio.run(main())
    assert len(threads) == 2 and threading.main_thread().name not in threads
    assert checks.rounds == 2 and not service.store.frozen


def test_a_pass_ends_between_two_games_once_the_process_stops(db_url, stores):
    """`pbem serve` stopping (SIGTERM) does not wait for a pass over many games: the pass asks
    between games and ends there; the next pass goes on with the game it did not walk."""
    service = played(db_url, stores, ("g", "h", "i"))
    checks = watch(service.store)
    asked: list[int] = []

    def halt() -> bool:
        asked.append(len(asked))
        return len(asked) > 1  # the process stops once the first game was walked

    assert checks.run_pass(halt) == []
    assert set(service.store.anchors) == {"g"} and checks.queue == ["h", "i"]
    assert checks.rounds == 0
    assert checks.run_pass() == [] and set(service.store.anchors) == {"g", "h", "i"}
    assert checks.rounds == 1

"""The opponent's runner (bots/opponent_runner.py) with its real worker process
(bots/opponent_worker.py): a game that waits for the opponent when the service starts gets its
move (a restart), a follower process moves nothing, and a worker's failure is logged and leaves
the game as it was (its deadline's default still comes)."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
from datetime import timedelta

import pytest

from app import deadlines, opponent_turns
from app.messages import Incoming
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.opponent_runner import OpponentRunner
from bots.opponent_worker import NICE, OpponentWorker, lower_priority
from storage import Store, chat_store

GROUP = "-100888"
_ids = itertools.count(1)


def waiting_game(path: str) -> str:
    """A started Hell's Gate game (a person plays soviet, the opponent german) played by the
    person until it waits for the opponent; the store is closed again (the service stops)."""
    store = Store(path)
    chat = ChatService(GameService(store), clock=FakeClock(), images=False)

    def say(text: str) -> None:
        chat.handle(Incoming("telegram", GROUP, "1", "alice", text, message_id=f"m{next(_ids)}"))

    for text in ("new hells-gate", "join soviet", "join german ai easy", "start"):
        say(text)
    game = chat_store.binding(store, "telegram", GROUP)
    assert game is not None
    rng = random.Random(11)
    while not opponent_turns.due_jobs(store):
        system = chat.service.system(game)
        state = system.state_from_json(store.snapshot(game))
        say(system.grammar.format(rng.choice(list(system.legal_orders(state, "soviet")))))
    store.close()
    return game


class Failing:
    async def decide(self, job: opponent_turns.Job) -> str:
        raise RuntimeError("the worker died")


def test_after_a_restart_a_game_waiting_for_the_opponent_gets_its_move(tmp_path):
    path = str(tmp_path / "games.db")
    game = waiting_game(path)

    async def scenario() -> None:
        store = Store(path)  # the service starts again on the same file
        worker = OpponentWorker(1)
        runner = OpponentRunner(GameService(store).core, worker)
        try:
            await runner.start()  # its first pass finds the waiting game
            await asyncio.wait_for(runner.settle(), 300)
        finally:
            await runner.stop()
            worker.close()
        rows = [r for r in store.log(game) if r.user == "ai:easy"]
        assert rows and all(r.key.startswith(opponent_turns.KEY_PREFIX) for r in rows)
        assert runner.played == len(rows)
        assert opponent_turns.due_jobs(store) == []  # the person's turn again (or the end)
        store.close()

    asyncio.run(scenario())


def test_a_process_that_does_not_lead_moves_nothing(tmp_path):
    path = str(tmp_path / "games.db")
    game = waiting_game(path)

    async def scenario() -> None:
        store = Store(path)
        runner = OpponentRunner(GameService(store).core, Failing(), leading=lambda: False)
        rows = store.count_rows(game)
        assert await runner.run_once() == []
        assert store.count_rows(game) == rows and not runner.busy
        store.close()

    asyncio.run(scenario())


def test_a_failed_decision_is_logged_and_not_retried_at_once(tmp_path, caplog):
    path = str(tmp_path / "games.db")
    game = waiting_game(path)

    async def scenario() -> None:
        store = Store(path)
        runner = OpponentRunner(GameService(store).core, Failing())
        rows = store.count_rows(game)
        await runner.settle()
        assert store.count_rows(game) == rows
        job = opponent_turns.job_of(store, game)
        assert job is not None and runner.failed == {game: job.head}
        assert await runner.run_once() == []  # the same position: not again until the interval
        store.close()

    with caplog.at_level("ERROR"):
        asyncio.run(scenario())
    assert "the opponent's decision failed" in caplog.text


def test_the_worker_lowers_its_own_priority():
    import os

    before = os.nice(0)
    pid = os.fork()
    if pid == 0:  # the child: the initializer as a worker process runs it
        lower_priority()
        os._exit(0 if os.nice(0) == min(before + NICE, 19) else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.fixture(autouse=True)
def _no_leftover_listeners():
    from storage import outbox

    listeners = list(outbox._listeners)
    yield
    outbox._listeners[:] = listeners


def test_the_normal_level_decides_in_the_worker_process(tmp_path):
    """`normal` with a tiny budget (counted in evaluations: the same order whatever the load)."""
    path = str(tmp_path / "games.db")
    game = waiting_game(path)

    async def scenario() -> None:
        store = Store(path)
        job = opponent_turns.job_of(store, game)
        assert job is not None
        job = dataclasses.replace(job, user="ai:normal", level="normal", budget=8)
        worker = OpponentWorker(1)
        try:
            text = await worker.decide(job)
            assert await worker.decide(job) == text  # reproducible
        finally:
            worker.close()
        system = GameService(store).system(game)
        state = system.state_from_json(job.state)
        legal = {system.grammar.format(o) for o in system.legal_orders(state, "german")}
        assert text in legal
        store.close()

    asyncio.run(scenario())


def test_when_its_decision_fails_the_deadline_default_still_comes(tmp_path):
    path = str(tmp_path / "games.db")
    game = waiting_game(path)

    async def scenario() -> None:
        store = Store(path)
        service = GameService(store)
        runner = OpponentRunner(service.core, Failing())
        await runner.settle()
        deadline = chat_store.clock(store, game).deadline_at
        assert deadline is not None
        rows = store.count_rows(game)
        await asyncio.to_thread(
            deadlines.adjudicate_due, store, deadline + timedelta(minutes=1), core=service.core
        )
        added = store.log(game)[rows:]
        assert [(r.actor, r.text) for r in added[:1]] == [("system", "default")]
        [applied] = [e for e in added[0].payload["events"] if e["kind"] == "DefaultApplied"]
        assert applied["side"] == "german"  # the default of the side it was waited for
        store.close()

    asyncio.run(scenario())


def test_the_worker_count_is_a_setting():
    from bots.config import Config, ConfigError

    assert Config.load({}).number("PBEM_OPPONENT_WORKERS", int) == 1
    assert Config.load({"PBEM_OPPONENT_WORKERS": "0"}).number("PBEM_OPPONENT_WORKERS", int) == 0
    with pytest.raises(ConfigError, match="PBEM_OPPONENT_WORKERS"):
        Config.load({"PBEM_OPPONENT_WORKERS": "-1"})

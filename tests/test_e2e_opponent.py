"""End to end on Telegram: a WHOLE game of Hell's Gate in a group between a person, who gives
random legal orders through the REAL python-telegram-bot Application and the local fake of the
Bot API, and the built-in opponent, thinking in its real worker process and moving through the
opponent's runner as `pbem serve` runs it (tests/e2e_support.py's World, plus the runner).

While the opponent's worker process is in the middle of a decision (held there at a gate, a
Unix socket: it says it is held, and goes on when the test answers; no sleep, no timing), the
person's `status` and another game's orders are answered: no reply waits for its thinking.
At the end the game audits clean and its replay gives the stored state."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import tempfile
from typing import Any

from app import opponent_turns
from bots.opponent_runner import OpponentRunner
from bots.opponent_worker import OpponentWorker, think
from tests import e2e_support as E
from tests.fakes.telegram_api import FakeTelegramAPI

GROUP, OTHER = E.TG_GROUP, E.TG_SIDE


GATE_ENV = "PBEM_TEST_OPPONENT_GATE"  # the path of the test's Unix socket, the gate
_gated = False  # (in the worker process) whether its first decision waited at the gate


def think_behind_gate(job: opponent_turns.Job) -> str:
    """In the worker process: the first decision connects to the gate, says it is held, and
    waits for the gate's answer (or its close: a test that failed lets it go); then `think`."""
    global _gated
    path = os.environ.get(GATE_ENV)
    if path and not _gated:
        _gated = True
        with socket.socket(socket.AF_UNIX) as gate:
            gate.connect(path)
            gate.sendall(b"h")
            gate.recv(1)
    return think(job)


class Gate:
    """The test's end of the gate: `held` is set once the worker process waits at it, and it
    goes on once `opened` is set (the World's close sets it too)."""

    def __init__(self, path: str):
        self.path, self.held, self.opened = path, asyncio.Event(), asyncio.Event()

    async def start(self) -> None:
        self.server = await asyncio.start_unix_server(self._waiting, path=self.path)

    async def _waiting(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1)
        self.held.set()
        await self.opened.wait()
        writer.write(b"o")
        await writer.drain()
        writer.close()

    async def close(self) -> None:
        self.opened.set()
        self.server.close()


class OpponentWorld(E.World):
    """The World with the opponent's runner started as `pbem serve` starts it."""

    async def start(self) -> None:
        await super().start()
        self.worker = OpponentWorker(1, think_behind_gate)
        self.runner = OpponentRunner(self.service.core, self.worker, interval=3600)
        await self.runner.start()
        self._started.append(self.runner.stop)
        self._started.append(lambda: asyncio.to_thread(self.worker.close))
        self.gate = Gate(os.environ[GATE_ENV])
        await self.gate.start()
        self._started.append(self.gate.close)  # stopped first: a failed test lets it go


def waits_for(w: OpponentWorld, game: str) -> str | None:
    """The side the game waits for (None: it is over)."""
    system = w.service.system(game)
    state = system.state_from_json(w.store.snapshot(game))
    return next(iter(opponent_turns.waiting_sides(system, state)), None)


async def person_order(w: OpponentWorld, group: Any, game: str, rng: random.Random) -> str:
    system = w.service.system(game)
    state = system.state_from_json(w.store.snapshot(game))
    text = system.grammar.format(rng.choice(list(system.legal_orders(state, "soviet"))))
    a = await group.say("alice", text)
    assert not a.public.startswith("Refused"), (text, a.public)
    return text


def test_a_whole_hells_gate_game_against_the_opponent_in_a_telegram_group(tmp_path, monkeypatch):
    short = tempfile.TemporaryDirectory(prefix="gate")  # a socket's path: at most 107 bytes
    monkeypatch.setenv(GATE_ENV, os.path.join(short.name, "s"))  # the worker inherits it

    async def scenario() -> None:
        clock = E.now_clock()
        async with (
            FakeTelegramAPI() as api,
            OpponentWorld(
                str(tmp_path / "games.db"), clock, telegram=api, images=False, label="ai"
            ) as w,
        ):
            group, other = E.TelegramChat(w, GROUP), E.TelegramChat(w, OTHER)
            await group.say("alice", "new hells-gate")
            game = w.game(*group.key)
            await group.say("alice", "join soviet")
            a = await group.say("alice", "join german ai easy")
            assert "Opponent (easy) now plays german" in a.public
            a = await group.say("alice", "start")
            assert "Soviet (alice) against German (Opponent (easy))" in a.public

            # -- the person plays until the opponent is asked; its worker process holds its
            # first decision at the gate (it has said so through the FIFO "held")
            rng = random.Random(2026)
            while waits_for(w, game) != "german":
                await person_order(w, group, game, rng)
            await asyncio.wait_for(w.gate.held.wait(), E.CEILING)
            head = w.store.load(game, with_log=False).head_index
            a = await group.say("alice", "status", via="command")
            assert "German to move" in a.public
            await other.say("bob", "new hells-gate")
            second = w.game(*other.key)
            await other.say("bob", "join soviet")
            await other.say("carol", "join german")
            await other.say("bob", "start")
            a = await other.say("bob", "end")
            assert "Soviet ends the soviet-combat phase" in a.public
            assert w.store.load(game, with_log=False).head_index == head  # still deciding
            assert second != game
            w.gate.opened.set()  # the decision goes on

            # -- the rest of the game: the person's random orders, the opponent's moves
            orders = 0
            while True:
                await w.runner.settle()
                side = waits_for(w, game)
                if side is None:
                    break
                assert side == "soviet"
                await person_order(w, group, game, rng)
                orders += 1
            moves = [r for r in w.store.log(game) if r.user == "ai:easy"]
            assert moves and orders
            assert all(r.actor == "german" and (r.key or "").startswith("opponent:") for r in moves)

            # -- its moves were posted like a person's; nothing private went to its seat
            await E.until(lambda: not w.pending(), "the outbox", wake=w.wakes)
            texts = [c.rendered or "" for c in api.sent(None, GROUP)]
            said = [r.text for r in moves if r.text != "end"][-1]  # an `end` is in a phase post
            assert any(t.startswith(f"Opponent (easy): {said}\n") for t in texts)
            assert "Game over" in texts[-1]
            assert all(c.chat_id in (GROUP, OTHER) for c in api.sent())
            assert api.sent(ok=False) == []

            # -- the game audits clean and replays to its stored state
            ok, report, _ = await asyncio.to_thread(w.service.audit, game)
            assert ok, report
            await asyncio.to_thread(w.service.verify, game)

    with short:
        E.run(scenario())

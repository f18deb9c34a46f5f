"""The opponent's moves as due work: which games wait for it, what its worker is given, and its
order submitted through the one path of every change.

    for job in due_jobs(store):            # every game waiting for an opponent's seat
        text = think(job)                   # in a worker process (bots/opponent_worker.py)
        reply = play(core, job, text)       # app.submit.submit, as the seat's user

A game is due when it waits for a side (its first pending decision's side, else a side to move)
whose seat the opponent holds ("ai:<level>"), and it is not paused, frozen or over, and (a chat's
game) it has started. A `Job` is what the worker needs and nothing else: the system id and the
scenario text, the state's JSON, the side, the level, the seed, and the log's head it was read
at. `play` submits the order with

- the idempotency key `opponent:<game uid>:<head>`: a second submission of the same decision
  is answered as the duplicate it is, never applied twice;
- `at_head=<head>`: applied only while the game's log still ends at that row; if anything was
  written since (a person's order, a moderator's pause), it is refused ("opponent-stale"),
  dropped, and the next pass plans again from the new position.

The seed of a decision is `opponent|<game uid>|<side>|<head>` hashed (SHA-256, hex): the same
game, side and position give the same order, so a decision is reproducible from the log.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from adjudicator import opponent
from adjudicator.core.system import GameSystem
from adjudicator.grammar.ai_words import AI_PREFIX
from app import freezes, games, names
from app.context import Actor, Core
from app.replies import Reply
from app.submit import submit
from storage import GameNotFound, Store, chat_store
from storage import clocks as clock_rows
from storage.chat_bindings import bindings

log = logging.getLogger(__name__)

KEY_PREFIX = "opponent:"
STALE = "opponent-stale"


@dataclass(frozen=True)
class Job:
    """One decision to make: everything the worker process needs (picklable)."""

    game: str
    uid: str
    system_id: str
    scenario: str
    state: dict[str, Any]
    side: str
    user: str
    level: str
    seed: str
    head: int
    budget: float | None = None  # None: the opponent package's own default for the level


def seed_of(uid: str, side: str, head: int) -> str:
    """The seed of the decision for `side` at log row `head` of the game `uid`."""
    return hashlib.sha256(f"opponent|{uid}|{side}|{head}".encode()).hexdigest()


def key_of(job: Job) -> str:
    """The idempotency key of the decision's submission."""
    return f"{KEY_PREFIX}{job.uid}:{job.head}"


def waiting_sides(system: GameSystem, state: Any) -> list[str]:
    """The sides the game waits for: the first pending decision's, else those to move."""
    here = system.situation(state)
    if here.over:
        return []
    if here.pending:
        return [here.pending[0].side]
    return list(here.to_move)


def due_jobs(store: Store, idle: dict[str, Any] | None = None) -> list[Job]:
    """A job for every game that waits for the opponent now. `idle` (kept by the caller
    between passes): {game: its marks when it waited for no one}; a game whose marks
    (chat_store.seated_marks) have not moved since is not read again, so a pass reads only the
    games that changed, not every game the opponent ever sat in."""
    jobs = []
    marks = chat_store.seated_marks(store, [AI_PREFIX + level for level in opponent.LEVELS])
    if idle is not None:
        for gone in set(idle) - set(marks):
            del idle[gone]
    for game in sorted(marks):
        if idle is not None and idle.get(game) == marks[game]:
            continue
        try:
            job = job_of(store, game)
        except GameNotFound:
            continue
        if job is not None:
            jobs.append(job)
            if idle is not None:
                idle.pop(game, None)
        elif idle is not None:
            idle[game] = marks[game]
    return jobs


def job_of(store: Store, game: str) -> Job | None:
    """The decision the game waits for from the opponent, or None (see the module doc)."""
    rec = store.load(game, with_log=False)
    if rec.paused or freezes.failure_of(store, game) is not None:
        return None
    if bindings(store, game) and clock_rows.load(store, game).started_at is None:
        return None  # a chat's game takes no order before its `start`
    system = games.bind(rec.game, rec.scenario_text)
    state = system.state_from_json(rec.snapshot)
    for side in waiting_sides(system, state):
        user = rec.seats.get(side)
        if isinstance(user, str) and user.startswith(AI_PREFIX):
            level = user[len(AI_PREFIX) :]
            if level not in opponent.LEVELS:
                return None
            return Job(
                game,
                rec.uid,
                rec.game,
                rec.scenario_text,
                rec.snapshot,
                side,
                user,
                level,
                seed_of(rec.uid, side, rec.head_index),
                rec.head_index,
            )
    return None


def play(core: Core, job: Job, text: str) -> Reply:
    """Submit the opponent's order `text` for the job's seat (see the module doc)."""
    name = names.of_users(core.store, [job.user])[job.user]
    actor = Actor(job.user, job.side, name=name)
    done = submit(core, job.game, actor, text, key_of(job), at_head=job.head)
    reply = done.replies[0]
    if not reply.ok:
        code = (reply.error or {}).get("code")
        level = logging.INFO if code == STALE else logging.WARNING
        log.log(level, "game=%s opponent order %r not applied: %s", job.game, text, code)
    return reply


__all__ = ["KEY_PREFIX", "STALE", "Job", "due_jobs", "job_of", "key_of", "play", "seed_of"]

"""GameService: the application core bound to one store, for the front ends that name a game by
its name (the command line, the terminal, the demo, the chat service, tests).

It holds no rule and no path of its own. What it adds to the modules it calls, and nothing else:

- one `Core`, made once from its arguments (the store; where seeds and game uids come from; the
  clock; whether posts carry a map) and passed to every call. It never changes: a front end that
  needs another clock or image setting binds a service to a Core of its own (`GameService.on`);
- a game named by its name: each method finds the game's system and state (app.games) and is a
  line or two into one focused module (lifecycle, queries, audit, fold, frames, stored_replay);
- `say`: `app.submit.submit` (the one path of a change) with the `Actor` built from keyword
  arguments, answering only the replies.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from adjudicator.core.i18n import EN, Language, say
from adjudicator.core.system import GameSystem
from app import audit, fold, frames, games, lifecycle, map_now, queries, stored_replay
from app.context import Actor, Core
from app.fold import ReplayMismatch
from app.replies import Reply, fair_lines
from app.submit import submit
from storage import GameRecord, Store
from storage import dice as committed
from storage.audit import AuditReport


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        seeds: Callable[[], str] = committed.new_seed,
        uids: Callable[[], str] | None = None,
        now: Callable[[], datetime] | None = None,
        images: bool = True,
    ):
        """seeds, uids: where epoch seeds and game uids come from. Keep the defaults (secrets,
        uuid4) for real games; the demo and benchmarks pass reproducible ones. now: the clock
        (aware UTC; default: the wall clock). images: whether posts carry a map."""
        given: dict[str, Any] = {"uids": uids, "now": now}  # None: Core's default
        self.core = Core(store, seeds, images=images, **{k: v for k, v in given.items() if v})
        self.store = store

    @classmethod
    def on(cls, core: Core) -> GameService:
        """A service bound to `core` (its store, seeds, uids, clock and image setting)."""
        service = cls.__new__(cls)
        service.core, service.store = core, core.store
        return service

    @property
    def seeds(self) -> Callable[[], str]:
        return self.core.seeds

    # -- setup and reading
    def new_game(
        self,
        name: str,
        scenario_path: str | Path | None = None,
        sandbox: bool = False,
        creator: str | None = None,
        system: str = lifecycle.DEFAULT_SYSTEM,
    ) -> str:
        return lifecycle.new_game(self.core, name, scenario_path, sandbox, creator, system)

    def system(self, name: str) -> GameSystem:
        return games.system_of(self.store, name)

    rules = system  # the rules of a game: its bound system (legal_orders, situation, ...)

    def record(self, name: str) -> GameRecord:
        return self.store.load(name, with_log=False)

    def state(self, name: str) -> Any:
        return self.system(name).state_from_json(self.store.snapshot(name))

    def show(self, name: str, view: str | None = None) -> dict[str, Any]:
        """The state as `view` (a side; None or "public": the public) may see it."""
        rec = self.record(name)
        system = self.system(name)
        state = system.state_from_json(rec.snapshot)
        doc = system.show(system.view(state, games.viewer_of(system, state, view)))
        doc["dice"] = {
            "epoch": rec.epoch or None,
            "turn": rec.epoch_turn,
            "commitment": rec.epoch_commitment,
            "salts_open": rec.salts_open,
        }
        doc["log"] = {"rows": rec.head_index + 1, "head_hash": rec.head_hash}
        doc["paused"] = rec.paused_why if rec.paused else None
        doc["seats"] = rec.seats
        doc["moderators"] = list(rec.moderators)
        return doc

    def status(self, name: str, view: str | None = None, full: bool = True) -> str:
        """`status` as the operator's own views show it (`pbem show`, the local terminal: no
        phone), its hashes whole unless not `full`."""
        return queries.status(self.store, name, self.system(name), view, full)

    def fair_lines(self, name: str) -> list[str]:
        return fair_lines(self.record(name))

    # -- the order path
    def say(
        self,
        name: str,
        actor: str | None = None,
        text: str = "",
        *,
        user: str | None = None,
        key: str | None = None,
        where: tuple[str, str] | None = None,
        user_name: str | None = None,
        now: datetime | None = None,
        mine_by_dm: bool = False,
        private: bool = False,
    ) -> list[Reply]:
        """Apply a message line by line; stop at the first refusal (see app.submit). where:
        the (platform, chat) a chat message came from; user_name: its sender's display name;
        mine_by_dm: the speaker's private lines go to him by a private message; private:
        `where` is a private chat with the bot (Actor)."""
        who = Actor(user, actor, user_name, where, mine_by_dm, private)
        return submit(self.core, name, who, text, key, now=now).replies

    def log_text(self, name: str, count: int | None = None, view: str | None = None) -> str:
        system = self.system(name)
        viewer = games.viewer_of(system, self.state(name), view)
        return queries.log_text(self.store, name, count, viewer)

    def log_doc(
        self, name: str, count: int | None = None, view: str | None = None
    ) -> list[dict[str, Any]]:
        system = self.system(name)
        viewer = games.viewer_of(system, self.state(name), view)
        return queries.log_doc(self.store, name, count, viewer)

    def rolls_text(self, name: str, count: int = queries.DEFAULT_ROLLS) -> str:
        return queries.rolls_text(self.store, name, count)

    # -- audit and export
    def export_doc(self, name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        return audit.export_doc(self.store, name)

    def audit(self, name: str) -> tuple[bool, str, AuditReport]:
        return audit.audit_game(self.store, name)

    def export(self, name: str, path: str | Path) -> tuple[bool, str, AuditReport]:
        return audit.export(self.store, name, path)

    # -- map images
    def frames(self, name: str) -> list[frames.Frame]:
        return frames.frames(self.system(name), fold.with_secrets(self.store.log(name)))

    def image(
        self,
        name: str,
        turn: int | None = None,
        phase: str | None = None,
        view: str | None = None,
        focus: bool = False,
        language: Language = EN,
    ) -> bytes:
        """The PNG of the end of (turn, phase), or of now: what players see after a phase (the
        focus image a post carries if focus and the system's drawer offers one), its labels
        in `language`. The public map of now is drawn without a replay (app/map_now.py)."""
        system = self.system(name)
        now = None
        if turn is None and phase is None and view in (None, "public"):
            now = map_now.frame_now(self.store, system, name)
        if now is not None:
            state, events = now
            title = say(frames.heading(name, system.situation(state)), language)
            return games.draw(system, state, events, view, title, focus, language)
        frame = frames.pick(self.frames(name), turn, phase)
        title = say(frames.title(name, frame), language)
        return games.draw(system, frame.state, frame.events, view, title, focus, language)

    # -- the state as the fold of the log
    def replay(self, name: str, check_events: bool = False) -> Any:
        """Rebuild the state by re-applying every effective order with its recorded dice."""
        rows = fold.with_secrets(self.store.log(name))
        return fold.replay(self.system(name), rows, check=check_events)

    def verify(self, name: str) -> None:
        """Raise ReplayMismatch unless replaying the log gives its events and the snapshot."""
        stored_replay.verify(self.store, name)


__all__ = ["GameService", "ReplayMismatch", "Reply"]

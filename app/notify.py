"""Who to tell, and where the game stands: the notices of the clock (reminders, outages, refused
defaults) go to every chat bound to the game, pinging the players they concern.

    outs = outgoings(store, game, text, users)     # one Outgoing per bound chat
    write(store, game, outs, key=key, now=now)      # into the outbox, idempotent by key

Users are "platform:id" strings: a user is mentioned (pinged) in the chats of their platform and
named, in parentheses, in the others. `standing(store, game)` is the game's record, its system
and its situation, read once (what a notice says about whose move it is).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Connection

from adjudicator.core.i18n import cat, t
from adjudicator.core.system import GameSystem, Situation
from app import post_queue
from app.games import system_of
from app.messages import Outgoing
from app.summary import side_name
from storage import GameRecord, Store, chat_store
from storage import outbox as rows_sql

Emit = Callable[[str, list[Outgoing], str], None]  # (game name, outgoings, dedupe key)


def outgoings(
    store: Store, game: str, text: str, users: Iterable[str | None] = ()
) -> list[Outgoing]:
    """One post per chat bound to the game; the users ("platform:id") are pinged in the chats
    of their platform and named in the others."""
    wanted = [u for u in dict.fromkeys(users) if u]
    names = chat_store.user_names(store, wanted)
    out = []
    for platform, chat_id in chat_store.bindings(store, game):
        mine = [u for u in wanted if u.partition(":")[0] == platform]
        others = [names.get(u, u) for u in wanted if u not in mine]
        body = t("{text}\n({others})", text=text, others=cat(*others, sep=", ")) if others else text
        out.append(Outgoing(platform, chat_id, body, mentions=[u.partition(":")[2] for u in mine]))
    return out


def write(store: Store, game: str, outs: list[Outgoing], *, key: str, now: datetime) -> list[int]:
    """Write notices into the outbox in a transaction of their own (idempotent by key)."""
    return post_queue.write(store, game, outs, key=key, now=now)


class Poster:
    """Where the notices of one scheduler pass go: into the outbox inside the transaction that
    makes them stale (a reminder marked sent, a deadline moved: both or neither), or to `hook`
    instead. `posted` is everything the pass posted; `done()` wakes this process's senders."""

    def __init__(self, now: datetime, hook: Emit | None = None):
        self.now, self.hook = now, hook
        self.posted: list[Outgoing] = []
        self._wrote = False

    def emit(self, conn: Connection, game: str, outs: list[Outgoing], key: str) -> None:
        if not outs:
            return
        if self.hook is not None:
            self.hook(game, outs, key)
        else:
            self._wrote |= bool(post_queue.write_in(conn, game, outs, key=key, now=self.now))
        self.posted.extend(outs)

    def report(self, game: str, outs: list[Outgoing], key: str) -> None:
        """Posts written already (a default's, by submit): the hook hears of them too."""
        if not outs:
            return
        if self.hook is not None:
            self.hook(game, outs, key)
        self.posted.extend(outs)

    def done(self) -> None:
        if self._wrote:
            rows_sql.notify()


@dataclass
class Standing:
    """A game's record, its rules and where it stands (read once per notice)."""

    record: GameRecord
    system: GameSystem
    situation: Situation

    def side_name(self, side: str | None) -> str:
        return side_name(self.system.sides, side)

    def movers(self) -> str:
        """The sides to move, as players read them ("Red", "Red and Blue", "Nobody")."""
        return both(self.side_name(s) for s in self.situation.to_move)

    def has(self) -> str:
        return "have" if len(self.situation.to_move) > 1 else "has"

    def players(self, sides: Iterable[str] | None = None) -> list[str | None]:
        """The users seated for these sides (default: the sides to move)."""
        chosen = self.situation.to_move if sides is None else sides
        return [self.record.seats.get(s) for s in chosen]


def both(parts: Iterable[str]) -> str:
    """Texts joined by "and" ("Red", "Red and Blue"; "Nobody" for none)."""
    found = list(parts)
    if not found:
        return t("Nobody")
    said: str = found[0]
    for part in found[1:]:
        said = t("{a} and {b}", a=said, b=part)
    return said


def standing(store: Store, game: str) -> Standing:
    """The game's record (no log), its system and its situation."""
    system = system_of(store, game)
    record = store.load(game, with_log=False)
    situation = system.situation(system.state_from_json(record.snapshot))
    return Standing(record, system, situation)


__all__ = ["Emit", "Poster", "Standing", "both", "outgoings", "standing", "write"]

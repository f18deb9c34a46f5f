"""What the chat's helpers share, below them all: the message in hand (`Ctx`), a refusal
(`ChatRefused`), the chat service as they see it (`Chat`: bots/chat.py's ChatService is one),
and the small reads and writes the commands share (`started`, `over`, `mirror`).

The helpers (bots/chat_commands.py, chat_help, chat_language, chat_private, chat_users,
chat_audit, taps) are given the chat service as a `Chat`; none imports bots/chat.py, which
imports them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from app import games, post_queue
from app.context import Core
from app.messages import Incoming, Outgoing
from app.service import GameService
from bots.clock import Clock
from storage import GameNotFound, Store, chat_store
from storage import clocks as clock_rows
from storage.chat_languages import Known


class ChatRefused(Exception):
    """A refusal of a chat command: the message is for the user."""


@dataclass
class Ctx:
    incoming: Incoming
    user: str  # "platform:id"
    key: str | None
    now: datetime
    known: Known | None = None  # the languages read with the chat's binding (the order path)

    @property
    def platform(self) -> str:
        return self.incoming.platform

    @property
    def chat_id(self) -> str:
        return self.incoming.chat_id


class Chat(Protocol):
    """The chat service as its helpers use it (bots/chat.py ChatService)."""

    store: Store
    service: GameService  # bound to `core`
    core: Core  # the chat's own: its clock, its image setting
    clock: Clock

    def now(self) -> datetime:
        """The chat's clock (aware UTC)."""
        ...

    def answer(
        self,
        ctx: Ctx,
        *,
        public: Sequence[str] = (),
        private: Sequence[str] = (),
        refusals: Sequence[str] = (),
        known: Known | None = None,
    ) -> list[Outgoing]:
        """The outgoings answering the message."""
        ...

    def to_game(self, ctx: Ctx, game: str, text: str) -> list[Outgoing]:
        """The text for the game (orders, questions, moderation), answered."""
        ...

    def name(self, user: str | None) -> str:
        """A user's display name (his id if none is known)."""
        ...

    def names_of(self, users: Iterable[str]) -> str:
        """Users' display names, joined."""
        ...

    def pretty(self, text: str) -> str:
        """User ids in a text shown by their names where known."""
        ...


def started(chat: Chat, game: str) -> bool:
    """Whether the game has started (its clock says so)."""
    return clock_rows.load(chat.store, game).started_at is not None


def over(chat: Chat, game: str) -> bool:
    """Whether the game is over (a game that is gone counts as over)."""
    try:
        return games.system_of(chat.store, game).situation(chat.service.state(game)).over
    except GameNotFound:
        return True


def mirror(chat: Chat, ctx: Ctx, game: str, text: str, what: str) -> None:
    """Tell the game's other chats about a chat command that changed the game."""
    others = [c for c in chat_store.bindings(chat.store, game) if c != (ctx.platform, ctx.chat_id)]
    if others:
        key = None if ctx.key is None else f"{ctx.key}:{what}"
        outs = [Outgoing(p, c, text) for p, c in others]
        post_queue.write(chat.store, game, outs, key=key, now=ctx.now)


__all__ = ["Chat", "ChatRefused", "Ctx", "mirror", "over", "started"]

"""Who speaks, and the services a change needs (the store, where seeds and uids come from, the
clock): passed explicitly, never global."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from app import freezes
from storage import Store
from storage import dice as committed


@dataclass(frozen=True)
class Actor:
    """Who speaks: a chat user ("platform:id"), or the trusted local operator (user None) who
    speaks for `side` (a side id, "moderator"), or the deadline scheduler ("system").

    where: the (platform, chat id) the message came from (its own chat gets the direct reply
    first, and no mirror of it); name: the display name for mirrored lines. mine_by_dm: the
    speaker's own private lines (a drawn card) go to him by a private message, written in the
    order's transaction (he spoke where everyone reads the answer). private: `where` is a
    private chat with the bot (a secret edit is taken there only: app/edits.py)."""

    user: str | None = None
    side: str | None = None
    name: str | None = None
    where: tuple[str, str] | None = None
    mine_by_dm: bool = False
    private: bool = False

    @classmethod
    def system(cls) -> Actor:
        return cls(None, "system")


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Core:
    """The application core's services. seeds, uids: where epoch seeds and game uids come from
    (keep the defaults, `secrets` and uuid4, for real games; the demo and benchmarks pass
    reproducible ones). now: the clock (aware UTC). images: whether posts carry a map.

    Frozen: every service is given when the Core is made, and no front end changes it; a front
    end that needs another clock or image setting makes its own (`dataclasses.replace`)."""

    store: Store
    seeds: Callable[[], str] = committed.new_seed
    uids: Callable[[], str] = field(default=lambda: uuid.uuid4().hex)
    now: Callable[[], datetime] = _utc_now
    images: bool = True

    def __post_init__(self) -> None:
        freezes.listen(self.store, self.now)  # a frozen game's moderators are told


__all__ = ["Actor", "Core"]

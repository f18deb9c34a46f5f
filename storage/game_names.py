"""Game names as a chat reserves them: a name is unique among the games and the chats' bindings
(a binding may name a game not made yet: storage/chat_models.py), checked and bound in one
transaction, so that two chats never reserve one name.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, not_, select, union
from sqlalchemy.engine import Connection

from storage.chat_bindings import BINDING, ChatStoreError, bind_in, reading
from storage.models import Game, table
from storage.store import Store
from texts.i18n import t

GAMES = table(Game)


class NameTaken(ChatStoreError):
    def __init__(self, name: str):
        super().__init__(t("the name {name} is taken: choose another one", name=name))
        self.name = name


def starting(source: Store | Connection, stem: str) -> set[str]:
    """The names of games, and of bindings, that start with `stem`."""
    like = stem.replace("%", "").replace("_", "") + "%"
    q = union(
        select(GAMES.c.name.label("name")).where(GAMES.c.name.like(like)),
        select(BINDING.c.game.label("name")).where(BINDING.c.game.like(like)),
    )
    with reading(source) as conn:
        return set(conn.execute(q).scalars())


def _taken(conn: Connection, name: str, platform: str, chat_id: str) -> bool:
    """A game of that name exists, or another chat is bound to that name."""
    if conn.execute(select(GAMES.c.id).where(GAMES.c.name == name)).first():
        return True
    here = and_(BINDING.c.platform == platform, BINDING.c.chat_id == chat_id)
    other = select(BINDING.c.id).where(BINDING.c.game == name, not_(here))
    return conn.execute(other).first() is not None


def reserve(
    store: Store,
    platform: str,
    chat_id: str,
    name: str,
    *,
    key: str | None,
    now: datetime,
    replace: str | None = None,
) -> None:
    """Bind the chat to `name`, a name no game and no other chat has (else NameTaken); a chat
    hosting another game raises ChatBound, unless that game is `replace`."""
    with store.engine.begin() as conn:
        if _taken(conn, name, platform, chat_id):
            raise NameTaken(name)
        bind_in(conn, platform, chat_id, name, key=key, now=now, replace=replace)


__all__ = ["NameTaken", "reserve", "starting"]

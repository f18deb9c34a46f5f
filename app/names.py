"""Chat users by the names players know them by: display names of seats, mentions, and user ids
("telegram:123") in a text replaced by names. Reads only."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy.engine import Connection

from adjudicator.core.i18n import Msg
from storage import Store, chat_store

Source = Store | Connection  # a store, or the connection of the caller's transaction

USER_ID = re.compile(r"\b((?:discord|telegram|terminal):[\w-]*\w)")


def of_users(store: Source, users: Iterable[str]) -> dict[str, str]:
    """user id -> display name (the id itself where none is known)."""
    wanted = [u for u in users if u]
    found = chat_store.user_names(store, wanted) if wanted else {}
    return {u: found.get(u, u) for u in wanted}


def of_sides(store: Source, seats: Mapping[str, str | None]) -> dict[str, str | None]:
    """side -> the display name of its player (None for a free seat)."""
    known = of_users(store, [u for u in seats.values() if u])
    return {side: (known[u] if u else None) for side, u in seats.items()}


def mentions(seats: Mapping[str, str | None], sides: Iterable[str], platform: str) -> list[str]:
    """The platform user ids to ping for `sides`: their players who are on that platform."""
    found = [
        uid.partition(":")[2]
        for side in sides
        if (uid := seats.get(side)) and uid.startswith(f"{platform}:")
    ]
    return list(dict.fromkeys(found))


def pretty(store: Source, text: str) -> str:
    """User ids ("telegram:123") shown by their names where known. A Msg stays one (the ids
    are replaced in its arguments), so it can still be said in another language."""
    ids = set(USER_ID.findall(text))
    if not ids:
        return text
    known = of_users(store, ids)

    def named(value: str) -> str:
        return USER_ID.sub(lambda m: known.get(m.group(1), m.group(1)), value)

    if isinstance(text, Msg):
        return _in_args(text, named)
    return named(text)


def _in_args(msg: Msg, fn: Callable[[str], str]) -> Msg:
    """The Msg with fn applied to every plain text among its arguments (ids, what users typed)."""

    def each(value: Any) -> Any:
        if isinstance(value, Msg):
            return _in_args(value, fn)
        if isinstance(value, str):
            return fn(value)
        if isinstance(value, (list, tuple)):
            return [each(v) for v in value]
        return value

    if msg.forms is not None:
        return msg
    if msg.parts is not None:
        return Msg(msg.template, parts=[each(p) for p in msg.parts])
    args = {k: each(v) for k, v in msg.args.items()}
    return Msg(msg.template, args, plural_template=msg.plural_template, count=msg.count_key)


__all__ = ["USER_ID", "mentions", "of_sides", "of_users", "pretty"]

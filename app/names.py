"""Chat users by the names players know them by: display names of seats, mentions, and user ids
("telegram:123") in a text replaced by names. Reads only."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sqlalchemy.engine import Connection

from adjudicator.core.i18n import Msg, t
from adjudicator.grammar.ai_words import AI_PREFIX
from storage import Store, chat_store

Source = Store | Connection  # a store, or the connection of the caller's transaction

USER_ID = re.compile(r"\b((?:discord|telegram|terminal|ai):[\w-]*\w)")


def of_users(store: Source, users: Iterable[str]) -> dict[str, str]:
    """user id -> display name (the id itself where none is known)."""
    wanted = [u for u in users if u]
    found = chat_store.user_names(store, wanted) if wanted else {}
    return {u: found.get(u, _opponent(u) if u.startswith(AI_PREFIX) else u) for u in wanted}


def _opponent(user: str) -> str:
    """The built-in opponent's seat ("ai:normal") as players read it: "Opponent (normal)"."""
    return t("Opponent ({level})", level=user[len(AI_PREFIX) :])


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
    """User ids ("telegram:123") shown by their names where known (a Msg stays a Msg: the ids
    are replaced in its arguments)."""
    ids = set(USER_ID.findall(text))
    if not ids:
        return text
    known = of_users(store, ids)
    said: str = _renamed(
        text, lambda s: USER_ID.sub(lambda m: known.get(m.group(1), m.group(1)), s)
    )
    return said


def _renamed(text: Any, sub: Callable[[str], str]) -> Any:
    if not isinstance(text, Msg):
        return sub(text) if isinstance(text, str) else text
    if text.forms is not None:
        return text
    if text.parts is not None:
        return Msg(text.template, parts=[_renamed(p, sub) for p in text.parts])
    args = {k: _renamed(v, sub) for k, v in text.args.items()}
    return Msg(text.template, args, plural_template=text.plural_template, count=text.count_key)


__all__ = ["USER_ID", "mentions", "of_sides", "of_users", "pretty"]

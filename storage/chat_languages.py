"""The languages chosen, by scope: "chat:<platform>:<chat_id>" (a chat's, set by `language`) or
"user:<platform>:<id>" (a user's own, for his private messages), and each user's platform locale
last seen (the default of his private messages). The table is storage/chat_models.ChatLanguage.

Each function is one short transaction of its own, or a read on the caller's connection. A code
is stored as given: the application checks it is one the bot speaks (app.i18n.LANGUAGES).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage.chat_models import ChatLanguage
from storage.chat_store import reading
from storage.store import Store

LANGUAGES = ChatLanguage.__table__


def chat_scope(platform: str, chat_id: str) -> str:
    return f"chat:{platform}:{chat_id}"


def user_scope(user: str) -> str:
    """The scope of a user ("platform:id")."""
    return f"user:{user}"


def set_language(store: Store, scope: str, code: str | None, *, now: datetime) -> None:
    """Choose the language of a scope (None: no choice, the defaults apply)."""
    _upsert(store, scope, {"language": code}, now)


def remember_locale(store: Store, user: str, locale: str | None, *, now: datetime) -> None:
    """Record the platform locale last seen for a user ("platform:id")."""
    _upsert(store, user_scope(user), {"locale": locale}, now)


def language_of(source: Store | Connection, scope: str) -> str | None:
    """The language chosen for a scope, None if none."""
    return choices(source, [scope]).get(scope, (None, None))[0]


def locale_of(source: Store | Connection, user: str) -> str | None:
    """The platform locale last seen for a user ("platform:id"), None if none."""
    return choices(source, [user_scope(user)]).get(user_scope(user), (None, None))[1]


def choices(
    source: Store | Connection, scopes: list[str]
) -> dict[str, tuple[str | None, str | None]]:
    """scope -> (the language chosen, the locale last seen), for the scopes that have a row."""
    if not scopes:
        return {}
    q = select(LANGUAGES.c.scope, LANGUAGES.c.language, LANGUAGES.c.locale)
    with reading(source) as conn:
        rows = conn.execute(q.where(LANGUAGES.c.scope.in_(scopes)))
        return {r.scope: (r.language, r.locale) for r in rows}


def _upsert(store: Store, scope: str, values: dict[str, Any], now: datetime) -> None:
    where = LANGUAGES.c.scope == scope
    with store.engine.begin() as conn:
        if conn.execute(update(LANGUAGES).where(where).values(**values, updated_at=now)).rowcount:
            return
        try:
            with conn.begin_nested():
                conn.execute(insert(LANGUAGES).values(scope=scope, **values, updated_at=now))
        except IntegrityError:  # a concurrent first write: this one goes over it
            conn.execute(update(LANGUAGES).where(where).values(**values, updated_at=now))


__all__ = [
    "chat_scope",
    "choices",
    "language_of",
    "locale_of",
    "remember_locale",
    "set_language",
    "user_scope",
]

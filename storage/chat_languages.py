"""The languages chosen, by scope: "chat:<platform>:<chat_id>" (a chat's, set by `language`) or
"user:<platform>:<id>" (a user's own, for his private messages), and each user's platform locale
last seen (the default of his private messages). The table is storage/chat_models.ChatLanguage.

Each function is one short transaction of its own, or a read on the caller's connection. A code
is stored as given: the application checks it is one the bot speaks (app.i18n.LANGUAGES).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, insert, literal, null, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from storage import raw_sql
from storage.chat_models import ChatBinding, ChatLanguage
from storage.chat_store import reading
from storage.models import table
from storage.store import Store

LANGUAGES = table(ChatLanguage)
_CHATS = table(ChatBinding)
_BOUND = "binding"  # the scope column of the binding's row (no scope has this form)


@dataclass(frozen=True)
class Known:
    """Choices read ahead, for `scopes` (`found`: those that have a row): `choices` answers
    from them; a scope not read ahead is read from `store`."""

    store: Store
    scopes: frozenset[str]
    found: dict[str, tuple[str | None, str | None]]


Source = Store | Connection | Known

_BINDING_AND_CHOICES = (
    select(literal(_BOUND).label("scope"), _CHATS.c.game.label("language"), null().label("locale"))
    .where(_CHATS.c.platform == bindparam("platform"), _CHATS.c.chat_id == bindparam("chat_id"))
    .union_all(
        select(LANGUAGES.c.scope, LANGUAGES.c.language, LANGUAGES.c.locale).where(
            LANGUAGES.c.scope.in_(bindparam("scopes", expanding=True))
        )
    )
)  # built once: every message of the order path asks it


def binding_and_choices(
    store: Store, platform: str, chat_id: str, scopes: list[str]
) -> tuple[str | None, Known]:
    """The game a chat hosts (None if none) and the choices of `scopes`, in one statement: what
    answering a message needs of the languages, read with what routing it needs."""
    stmt = raw_sql.BINDING_AND_CHOICES.expand(len(scopes))  # _BINDING_AND_CHOICES, on the driver
    with store.reader.connect() as conn:  # (one statement: no transaction of its own)
        rows = raw_sql.rows(conn, stmt, (platform, chat_id, *scopes))
    game = next((language for scope, language, _ in rows if scope == _BOUND), None)
    found = {scope: (language, locale) for scope, language, locale in rows if scope != _BOUND}
    return game, Known(store, frozenset(scopes), found)


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


def language_of(source: Source, scope: str) -> str | None:
    """The language chosen for a scope, None if none."""
    return choices(source, [scope]).get(scope, (None, None))[0]


def locale_of(source: Source, user: str) -> str | None:
    """The platform locale last seen for a user ("platform:id"), None if none."""
    return choices(source, [user_scope(user)]).get(user_scope(user), (None, None))[1]


def choices(source: Source, scopes: list[str]) -> dict[str, tuple[str | None, str | None]]:
    """scope -> (the language chosen, the locale last seen), for the scopes that have a row."""
    if not scopes:
        return {}
    if isinstance(source, Known):
        if source.scopes.issuperset(scopes):
            return {s: source.found[s] for s in scopes if s in source.found}
        source = source.store
    with reading(source) as conn:  # (raw_sql.CHOICES: _CHOICES on the driver's connection)
        rows = raw_sql.rows(conn, raw_sql.CHOICES.expand(len(scopes)), scopes)
        return {scope: (language, locale) for scope, language, locale in rows}


_CHOICES = select(LANGUAGES.c.scope, LANGUAGES.c.language, LANGUAGES.c.locale).where(
    LANGUAGES.c.scope.in_(bindparam("scopes", expanding=True))
)  # built once: every post asks it


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
    "Known",
    "Source",
    "binding_and_choices",
    "chat_scope",
    "choices",
    "language_of",
    "locale_of",
    "remember_locale",
    "set_language",
    "user_scope",
]

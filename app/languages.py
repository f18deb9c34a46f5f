"""Which language a text is said in, and saying an Outgoing in it when it is queued.

The texts that reach a chat are str that may be Msg (adjudicator.core.i18n): English until said.
Each Outgoing is said in its chat's language at the moment it is queued (the outbox row, or the
reply handed back to the adapter), so a chat's later `language` change never rewrites what was
queued, and linked chats of one game read each its own language.

Resolution (storage/chat_languages.py holds the choices):
- a reply in a group: the chat's setting, else the speaker's platform locale, else English;
- a post to a chat: the chat's setting, else English;
- a private message: the user's setting, else his locale (the one of this message, or the last
  seen), else English; a private answer to what he asked in a group: his own setting, else
  the group's, else his locale.
A code the bot does not speak counts as none (app.i18n.normal_code).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from sqlalchemy.engine import Connection

from adjudicator.core.i18n import EN, Language, Msg, from_json, say
from app.i18n import language, normal_code
from app.messages import Incoming, Outgoing
from storage import Store
from storage import chat_languages as choices

Source = Store | Connection | choices.Known
I18N = "i18n"


def chat_code(source: Source, platform: str, chat_id: str) -> str | None:
    """The language set for a chat (a code the bot speaks), None if none."""
    return normal_code(choices.language_of(source, choices.chat_scope(platform, chat_id)))


def user_code(source: Source, user: str, locale: str | None = None) -> str | None:
    """A user's ("platform:id") language for private messages: his setting, else `locale` (the
    platform's, of the message being answered), else the locale last seen; None if none."""
    scope = choices.user_scope(user)
    chosen, seen = choices.choices(source, [scope]).get(scope, (None, None))
    return normal_code(chosen) or normal_code(locale) or normal_code(seen)


def user_setting(source: Source, user: str) -> str | None:
    """The language a user set for himself (`language` in a private chat), None if none."""
    scope = choices.user_scope(user)
    return normal_code(choices.choices(source, [scope]).get(scope, (None, None))[0])


def for_chat(source: Source, platform: str, chat_id: str | None) -> Language:
    """A post to a chat: the chat's setting, else English."""
    return language(chat_code(source, platform, chat_id) if chat_id else None)


def for_user(source: Source, user: str, locale: str | None = None) -> Language:
    """A private message to a user ("platform:id"): see user_code."""
    return language(user_code(source, user, locale))


def for_reply(source: Source, incoming: Incoming, private: bool = False) -> Language:
    """The answer to a message: in a group, the chat's setting, else the speaker's locale; in a
    private chat, the speaker's own language; an answer only the speaker sees of what he asked
    in a group, his own language, else the group's."""
    user = f"{incoming.platform}:{incoming.user_id}"
    if incoming.private:
        return for_user(source, user, incoming.locale)
    chosen = chat_code(source, incoming.platform, incoming.chat_id)
    if private:  # asked in a group, answered to him alone: his own setting, else the group's
        return language(
            user_setting(source, user) or chosen or user_code(source, user, incoming.locale)
        )
    return language(chosen or normal_code(incoming.locale))


def for_outgoing(source: Source, out: Outgoing) -> Language:
    """A queued post: a private message in its addressee's language, else its chat's."""
    if out.private and out.user_id:
        return for_user(source, f"{out.platform}:{out.user_id}")
    return for_chat(source, out.platform, out.chat_id)


def said(out: Outgoing, lang: Language) -> Outgoing:
    """The Outgoing with its text said in `lang` and its map to be drawn in it (render "lang")."""
    render = out.render
    if render is not None:
        render = {**render, "lang": lang.code}
        if isinstance(render.get("title"), Msg):
            render["title"] = say(render["title"], lang)
    if not isinstance(out.text, Msg) and render is out.render:
        return out
    return dataclasses.replace(out, text=say(out.text, lang), render=render)


def said_all(source: Source, outs: list[Outgoing]) -> list[Outgoing]:
    """Each Outgoing said in the language of where it goes (see for_outgoing)."""
    return [said(out, for_outgoing(source, out)) for out in outs]


def kept(text: str) -> str:
    """A text to store (a receipt) so that it can be said again in any language: a Msg as JSON."""
    return json.dumps({I18N: text.to_json()}) if isinstance(text, Msg) else text


def unkept(stored: str) -> str:
    """A stored text back: the Msg `kept` stored, or the text as it is."""
    try:
        doc = json.loads(stored)
    except ValueError:
        return stored
    said = from_json(doc[I18N]) if isinstance(doc, dict) and I18N in doc else None
    return said if isinstance(said, Msg) else stored


def of_spec(spec: dict[str, Any]) -> Language:
    """The language a render spec asks its map in (English if none)."""
    return language(spec.get("lang")) if spec.get("lang") else EN


__all__ = [
    "chat_code",
    "for_chat",
    "for_outgoing",
    "for_reply",
    "for_user",
    "kept",
    "of_spec",
    "said",
    "said_all",
    "unkept",
    "user_code",
]

"""`language` (alias `язык`): the language the bot speaks in a chat, or to a user privately.

    language            the current language here, how it was chosen, and the choices
    language ru|en      set it: in a private chat the user's own (his private messages), in a
                        group the chat's (every reply and post there)

Who may set a group's language: anyone in a chat that hosts no game; in a chat with a game, its
moderators, or, when the game has none left, its seated players and its creator (the people the
game's posts are for; a spectator does not change them for everyone). A refusal says who may.

Resolution (app.languages): a reply in a group in the chat's setting, else the speaker's platform
locale, else English; a post in the chat's setting, else English; a private message in the user's
setting, else his platform locale, else English.
"""

from __future__ import annotations

from adjudicator.core.i18n import Msg, cat, t
from app import identities, languages
from app.i18n import LANGUAGES, normal_code
from app.messages import Outgoing
from bots.chat_base import Chat, ChatRefused, Ctx
from storage import chat_languages as choices

WORDS = ("language", "язык")
NAMES = {"english": "en", "английский": "en", "russian": "ru", "русский": "ru", "рус": "ru"}


def code_of(word: str) -> str | None:
    """The language a word names ("ru", "RU", "русский", "English"), None if none the bot speaks."""
    word = word.strip().lower()
    return NAMES.get(word) or (word if normal_code(word) == word else None)


def _choices() -> Msg:
    return cat(
        *(t("`language {code}` ({name})", code=c, name=n) for c, n in LANGUAGES.items()), sep=", "
    )


def command(chat: Chat, ctx: Ctx, game: str | None, words: list[str]) -> list[Outgoing]:
    if len(words) == 1:
        return chat.answer(ctx, public=[current(chat, ctx)])
    code = code_of(words[1]) if len(words) == 2 else None
    if code is None:
        raise ChatRefused(
            t("say `language` to see the language here, or one of {choices}.", choices=_choices())
        )
    inc = ctx.incoming
    if inc.private:
        choices.set_language(chat.store, choices.user_scope(ctx.user), code, now=ctx.now)
        text = t("From now on I write to you in {name}.", name=LANGUAGES[code])
        return chat.answer(ctx, public=[text])
    if game is not None:
        _may_set(chat, ctx, game)
    scope = choices.chat_scope(ctx.platform, ctx.chat_id)
    choices.set_language(chat.store, scope, code, now=ctx.now)
    text = t(
        "The language of this chat is now {name}: replies and posts here are written in it.",
        name=LANGUAGES[code],
    )
    return chat.answer(ctx, public=[text])


def current(chat: Chat, ctx: Ctx) -> Msg:
    """What `language` alone says: the language here, why, and the choices."""
    inc = ctx.incoming
    if inc.private:
        chosen = choices.language_of(chat.store, choices.user_scope(ctx.user))
        code = languages.user_code(chat.store, ctx.user, inc.locale)
        why = t("your choice") if normal_code(chosen) else _default_why(code)
        head = t("I write to you in {name} ({why}).", name=LANGUAGES[code or "en"], why=why)
    else:
        set_here = languages.chat_code(chat.store, ctx.platform, ctx.chat_id)
        if set_here:
            head = t(
                "The language of this chat is {name} (set with `language`).",
                name=LANGUAGES[set_here],
            )
        else:
            mine = normal_code(inc.locale)
            head = t(
                "This chat has no language set: posts are in English, and replies in the "
                "language of the one who writes ({name} for you).",
                name=LANGUAGES[mine or "en"],
            )
    return t("{head}\nChoices: {choices}.", head=head, choices=_choices())


def _default_why(code: str | None) -> Msg:
    return t("the language of your app") if code else t("the default")


def _may_set(chat: Chat, ctx: Ctx, game: str) -> None:
    """Refuse unless the speaker may set the language of a chat that hosts `game`."""
    rec = chat.service.record(game)
    me = set(identities.accounts(chat.store, ctx.user))
    if rec.moderators:
        if me & set(rec.moderators):
            return
        raise ChatRefused(
            t(
                "only the moderators of the game {game} ({who}) set the language of this chat; "
                "your own, for private messages, you set with `language ru` in a private chat "
                "with me.",
                game=game,
                who=chat.names_of(rec.moderators),
            )
        )
    allowed = {u for u in rec.seats.values() if u} | set(_creator(chat, game))
    if me & allowed:
        return
    raise ChatRefused(
        t(
            "the game {game} has no moderator: only its players and its creator ({who}) set the "
            "language of this chat.",
            game=game,
            who=chat.names_of(sorted(allowed)),
        )
    )


def _creator(chat: Chat, game: str) -> list[str]:
    first = chat.store.log(game)[:1]
    return [first[0].user] if first and first[0].user else []


def from_creator(chat: Chat, ctx: Ctx) -> None:
    """`new` in a chat with no language set: the creator's platform locale, when the bot speaks
    it, becomes the chat's language."""
    code = normal_code(ctx.incoming.locale)
    if code is None or ctx.incoming.private:
        return
    if languages.chat_code(chat.store, ctx.platform, ctx.chat_id) is None:
        scope = choices.chat_scope(ctx.platform, ctx.chat_id)
        choices.set_language(chat.store, scope, code, now=ctx.now)


__all__ = ["WORDS", "code_of", "command", "current", "from_creator"]

"""Users in the chat: who `seat SIDE <USER>` and `moderator add|remove <USER>` name, `whoami`,
and `identity link` / `identity confirm CODE` (app.identities).

A user is named by a platform mention (Telegram `@username`, or a text mention, which the
Telegram adapter passes as `telegram:<id>`; Discord `<@123>` / `<@!123>`), by a user id
(`telegram:7001`, `discord:123`, or the bare number on the chat's platform), or by a display
name when exactly one user the service has seen bears it (the reply shows whom it chose). An
unknown or ambiguous name is refused with the candidates, and nothing is seated.

Decision: "seen" is every user who has spoken to the bot on any platform (the users table);
two accounts linked into one player count as one candidate (the one on the chat's platform).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, lines, t, tn
from adjudicator.grammar.ai_words import AI_PREFIX, AI_WORDS
from app import identities
from app.messages import Outgoing
from bots.chat_base import Chat, ChatRefused, Ctx
from bots.chat_private import my_games
from storage import chat_store

_DISCORD_MENTION = re.compile(r"<@!?(\d+)>")
_USER_ID = re.compile(r"(discord|telegram|terminal):[\w-]+")
_AT_NAME = re.compile(r"@([A-Za-z0-9_]{2,64})")
_NAMES_USER = {"seat": 2, "moderator": 2, "mod": 2}  # the command word -> the word of the user


def _label(chat: Chat, user: str) -> str:
    uid = user.partition(":")[2]
    return t(
        "{name} ({platform} user {id})",
        name=chat.name(user),
        platform=identities.platform_name(user),
        id=uid,
    )


def resolve(chat: Chat, ctx: Ctx, word: str) -> tuple[str, str | None]:
    """(the user id a word names, a note saying whom a display name chose, or None);
    ChatRefused with the candidates when no one or several users bear the name."""
    if word.lower() in AI_WORDS or word.lower().startswith(AI_PREFIX):
        return word, None  # the built-in opponent (`seat <SIDE> ai [<LEVEL>]`)
    if m := _DISCORD_MENTION.fullmatch(word):
        return f"discord:{m.group(1)}", None
    if _USER_ID.fullmatch(word):
        return word, None
    if word.isdigit() and ctx.platform in ("discord", "telegram"):
        return f"{ctx.platform}:{word}", None
    at = _AT_NAME.fullmatch(word)
    name = at.group(1) if at else word
    seen = chat_store.user_display_names(chat.store)
    found = [u for u, n in seen.items() if n.lower() == name.lower()]
    if at and ctx.platform == "telegram":  # @username: a Telegram account
        found = [u for u in found if u.startswith("telegram:")]
    people = _people(chat, ctx, found)
    if len(people) == 1:
        note = (
            None
            if at
            else t(
                "Chosen by name: `{name}` is {who}.", name=name[:60], who=_label(chat, people[0])
            )
        )
        return people[0], note
    if people:
        which = _joined([_label(chat, u) for u in people[:3]], "{a} or {b}")
        raise ChatRefused(
            tn(
                "{n} user is called {name}: {which}; mention the one you mean "
                "or give the user id (`seat <SIDE> {first}`).",
                "{n} users are called {name}: {which}; mention the one you mean "
                "or give the user id (`seat <SIDE> {first}`).",
                len(people),
                name=repr(name[:60]),
                which=which,
                first=people[0],
            )
        )
    close = difflib.get_close_matches(name.lower(), {n.lower() for n in seen.values()}, 3, 0.6)
    hint = [_label(chat, u) for u, n in seen.items() if n.lower() in close][:3]
    maybe = t(" Did you mean {who}?", who=_joined(hint, "{a} or {b}")) if hint else ""
    raise ChatRefused(
        t(
            "no user the bot has seen is called {name}: a user is seated by a mention "
            "(@username on Telegram, @user on Discord) or a user id, or by the name of a user who "
            "has spoken here.{maybe}",
            name=repr(name[:60]),
            maybe=maybe,
        )
    )


def _joined(parts: Sequence[str], template: str) -> str:
    """Texts joined two by two: template "{a} or {b}" or "{a} and {b}"."""
    said: str = parts[0] if parts else ""
    for part in parts[1:]:
        if template == "{a} or {b}":
            said = t("{a} or {b}", a=said, b=part)
        else:
            said = t("{a} and {b}", a=said, b=part)
    return said


def _people(chat: Chat, ctx: Ctx, users: list[str]) -> list[str]:
    """Users, with linked accounts of one player counted once (the chat's platform first)."""
    out: list[str] = []
    for user in sorted(users, key=lambda u: not u.startswith(f"{ctx.platform}:")):
        if not any(p in out for p in identities.accounts(chat.store, user)):
            out.append(user)
    return out


def resolve_lines(chat: Chat, ctx: Ctx, text: str) -> tuple[str, list[str]]:
    """The text with the user of each `seat` / `moderator` line made a user id, and the notes
    saying whom display names chose."""
    lines, notes = [], []
    for line in text.split("\n"):
        words = line.split()
        at = _NAMES_USER.get(words[0].lower()) if words else None
        if at is not None and len(words) > at:
            user, note = resolve(chat, ctx, words[at])
            words[at] = user
            line = " ".join(words)
            if note:
                notes.append(note)
        lines.append(line)
    return "\n".join(lines), notes


# ------------------------------------------------------------------ whoami and identity
def whoami(chat: Chat, ctx: Ctx, game: str | None) -> list[Outgoing]:
    mine = identities.accounts(chat.store, ctx.user)
    said = [t("You are {who}.", who=_label(chat, ctx.user))]
    others = [u for u in mine if u != ctx.user]
    if others:
        linked = cat(*(_label(chat, u) for u in others), sep=", ")
        said.append(t("Linked with {who}: one player.", who=linked))
    else:
        said.append(
            t("No linked account: `identity link` links your account on the other platform.")
        )
    if game is not None:
        rec = chat.service.record(game)
        names = {s.id: s.name for s in chat.service.system(game).sides}
        sides = [names.get(s, s) for s, u in rec.seats.items() if u in mine]
        role = [t("you play {sides}", sides=_joined(sides, "{a} and {b}"))] if sides else []
        role += [t("you moderate it")] if set(mine) & set(rec.moderators) else []
        what = _joined(role, "{a} and {b}") if role else t("you are a spectator")
        said.append(t("In **{game}**: {what}.", game=game, what=what))
    games_ = sorted({g for u in mine for g in my_games(chat, u)} - {game})
    if games_:
        shown = ", ".join(games_[:5])
        if len(games_) > 5:
            shown = t("{games} and {n} more", games=shown, n=len(games_) - 5)
        said.append(t("Your other running games: {games}.", games=shown))
    return chat.answer(ctx, public=[lines(said)])


def identity(chat: Chat, ctx: Ctx, words: list[str]) -> list[Outgoing]:
    sub = words[1].lower() if len(words) > 1 else ""
    if sub == "link" and len(words) == 2:
        code, expires = identities.new_code(chat.store, ctx.user, now=ctx.now, key=ctx.key)
        other = "Discord" if ctx.platform == "telegram" else "Telegram"
        secret = t(
            "Your identity code: `{code}` (valid until {until} UTC). From your "
            "{other} account, say `identity confirm {code}` to the bot: both accounts then "
            "play as one player.",
            code=code,
            until=f"{expires:%H:%M}",
            other=other,
        )
        told = t(
            "I sent you a one-time code by private message; confirm it from the other platform."
        )
        if ctx.incoming.private:
            return chat.answer(ctx, public=[secret])
        return chat.answer(ctx, public=[told], private=[secret])
    if sub == "confirm" and len(words) == 3:
        try:
            other = identities.confirm(chat.store, ctx.user, words[2], now=ctx.now)
        except Rejection as exc:
            raise ChatRefused(exc.message) from exc
        text = t(
            "Linked: {me} and {other} are one player. Either "
            "account may now play the other's seats; each game records the link in its log "
            "when the account first acts there.",
            me=_label(chat, ctx.user),
            other=_label(chat, other),
        )
        return chat.answer(ctx, public=[text])
    raise ChatRefused(
        t(
            "say `identity link` (a one-time code by private message), then `identity confirm "
            "<CODE>` from your account on the other platform."
        )
    )


__all__ = ["identity", "resolve", "resolve_lines", "whoami"]

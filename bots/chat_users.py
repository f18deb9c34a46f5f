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
from typing import TYPE_CHECKING

from adjudicator.core.errors import Rejection
from app import identities
from app.messages import Outgoing
from bots.chat_commands import ChatRefused, Ctx
from bots.chat_private import my_games
from storage import chat_store

if TYPE_CHECKING:
    from bots.chat import ChatService

_DISCORD_MENTION = re.compile(r"<@!?(\d+)>")
_USER_ID = re.compile(r"(discord|telegram|terminal):[\w-]+")
_AT_NAME = re.compile(r"@([A-Za-z0-9_]{2,64})")
_NAMES_USER = {"seat": 2, "moderator": 2, "mod": 2}  # the command word -> the word of the user


def _label(chat: ChatService, user: str) -> str:
    uid = user.partition(":")[2]
    return f"{chat.name(user)} ({identities.platform_name(user)} user {uid})"


def resolve(chat: ChatService, ctx: Ctx, word: str) -> tuple[str, str | None]:
    """(the user id a word names, a note saying whom a display name chose, or None);
    ChatRefused with the candidates when no one or several users bear the name."""
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
        note = None if at else f"Chosen by name: `{name[:60]}` is {_label(chat, people[0])}."
        return people[0], note
    if people:
        which = " or ".join(_label(chat, u) for u in people[:3])
        raise ChatRefused(
            f"{len(people)} users are called {name[:60]!r}: {which}; mention the one you mean "
            f"or give the user id (`seat <SIDE> {people[0]}`)."
        )
    close = difflib.get_close_matches(name.lower(), {n.lower() for n in seen.values()}, 3, 0.6)
    hint = [_label(chat, u) for u, n in seen.items() if n.lower() in close][:3]
    maybe = f" Did you mean {' or '.join(hint)}?" if hint else ""
    raise ChatRefused(
        f"no user the bot has seen is called {name[:60]!r}: a user is seated by a mention "
        "(@username on Telegram, @user on Discord) or a user id, or by the name of a user who "
        f"has spoken here.{maybe}"
    )


def _people(chat: ChatService, ctx: Ctx, users: list[str]) -> list[str]:
    """Users, with linked accounts of one player counted once (the chat's platform first)."""
    out: list[str] = []
    for user in sorted(users, key=lambda u: not u.startswith(f"{ctx.platform}:")):
        if not any(p in out for p in identities.accounts(chat.store, user)):
            out.append(user)
    return out


def resolve_lines(chat: ChatService, ctx: Ctx, text: str) -> tuple[str, list[str]]:
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
def whoami(chat: ChatService, ctx: Ctx, game: str | None) -> list[Outgoing]:
    mine = identities.accounts(chat.store, ctx.user)
    lines = [f"You are {_label(chat, ctx.user)}."]
    others = [u for u in mine if u != ctx.user]
    if others:
        lines.append(f"Linked with {', '.join(_label(chat, u) for u in others)}: one player.")
    else:
        lines.append("No linked account: `identity link` links your account on the other platform.")
    if game is not None:
        rec = chat.service.record(game)
        names = {s.id: s.name for s in chat.service.system(game).sides}
        sides = [names.get(s, s) for s, u in rec.seats.items() if u in mine]
        role = [f"you play {' and '.join(sides)}"] if sides else []
        role += ["you moderate it"] if set(mine) & set(rec.moderators) else []
        lines.append(f"In **{game}**: {' and '.join(role) if role else 'you are a spectator'}.")
    games_ = sorted({g for u in mine for g in my_games(chat, u)} - {game})
    if games_:
        shown = ", ".join(games_[:5]) + (f" and {len(games_) - 5} more" if len(games_) > 5 else "")
        lines.append(f"Your other running games: {shown}.")
    return chat.answer(ctx, public=["\n".join(lines)])


def identity(chat: ChatService, ctx: Ctx, words: list[str]) -> list[Outgoing]:
    sub = words[1].lower() if len(words) > 1 else ""
    if sub == "link" and len(words) == 2:
        code, expires = identities.new_code(chat.store, ctx.user, now=ctx.now, key=ctx.key)
        other = "Discord" if ctx.platform == "telegram" else "Telegram"
        secret = (
            f"Your identity code: `{code}` (valid until {expires:%H:%M} UTC). From your "
            f"{other} account, say `identity confirm {code}` to the bot: both accounts then "
            "play as one player."
        )
        told = "I sent you a one-time code by private message; confirm it from the other platform."
        if ctx.incoming.private:
            return chat.answer(ctx, public=[secret])
        return chat.answer(ctx, public=[told], private=[secret])
    if sub == "confirm" and len(words) == 3:
        try:
            other = identities.confirm(chat.store, ctx.user, words[2], now=ctx.now)
        except Rejection as exc:
            raise ChatRefused(exc.message) from exc
        text = (
            f"Linked: {_label(chat, ctx.user)} and {_label(chat, other)} are one player. Either "
            "account may now play the other's seats; each game records the link in its log "
            "when the account first acts there."
        )
        return chat.answer(ctx, public=[text])
    raise ChatRefused(
        "say `identity link` (a one-time code by private message), then `identity confirm "
        "<CODE>` from your account on the other platform."
    )


__all__ = ["identity", "resolve", "resolve_lines", "whoami"]

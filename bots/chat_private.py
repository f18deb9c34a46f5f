"""A private chat with the bot: the game it speaks for (the one running game its user is seated
in, or the one he chose with `use NAME`, or the one named with `in NAME` after a command)."""

from __future__ import annotations

from adjudicator.core.i18n import cat, lines, t, tn
from app import games, identities
from app.messages import Outgoing
from bots.chat_base import Chat, ChatRefused, Ctx, over
from storage import chat_store


def my_games(chat: Chat, user: str) -> list[str]:
    """The running games a user (or an account linked with him) is seated in."""
    seated = chat_store.seated_games
    found = {g for u in identities.accounts(chat.store, user) for g in seated(chat.store, u)}
    return [g for g in sorted(found) if not over(chat, g)]


def moderated(chat: Chat, user: str) -> list[str]:
    """The running games a user (or an account linked with him) moderates: a moderator who
    holds no seat gives his secret edits in a private chat (app/edits.py)."""
    found = {
        g
        for u in identities.accounts(chat.store, user)
        for g in chat_store.moderated_games(chat.store, u)
    }
    return [g for g in sorted(found) if not over(chat, g)]


def _use_key(user: str) -> str:
    return f"use:{user}"


def private_game(chat: Chat, ctx: Ctx) -> str | None:
    """The game a private chat speaks for: the one running game its user is seated in, or the
    one he chose with `use NAME` when he plays several; seated in none, the one running game
    he moderates."""
    found = my_games(chat, ctx.user)
    if len(found) == 1:
        return found[0]
    if not found and len(mine := moderated(chat, ctx.user)) == 1:
        return mine[0]
    chosen = chat_store.get_state(chat.store, _use_key(ctx.user))
    if chosen is not None and chosen[0] in found:
        return chosen[0]
    if found:
        raise ChatRefused(
            tn(
                "you play {n} game ({games}): say `use <GAME>` to choose the "
                "one your private messages are for, or add `in <GAME>` after the command "
                "(`status in {first}`).",
                "you play {n} games ({games}): say `use <GAME>` to choose the "
                "one your private messages are for, or add `in <GAME>` after the command "
                "(`status in {first}`).",
                len(found),
                games=", ".join(found),
                first=found[0],
            )
        )
    return None


def use(chat: Chat, ctx: Ctx, words: list[str]) -> list[Outgoing]:
    """`use NAME` in a private chat: the game the user's private messages are for."""
    found = my_games(chat, ctx.user)
    if len(words) != 2 or words[1] not in found:
        games_ = ", ".join(found) or t("none")
        raise ChatRefused(
            t("say `use <GAME>` with one of your running games: {games}.", games=games_)
        )
    chat_store.set_state(chat.store, _use_key(ctx.user), words[1], now=ctx.now)
    text = t("Your private messages are now for **{game}**.", game=words[1])
    return chat.answer(ctx, public=[text])


def named_game(chat: Chat, ctx: Ctx, text: str) -> tuple[str | None, str]:
    """`status in NAME`: (NAME, "status") when NAME is one of the user's games."""
    head, sep, name = text.rpartition(" in ")
    if sep and name.strip() in {*my_games(chat, ctx.user), *moderated(chat, ctx.user)}:
        return name.strip(), head.strip()
    return None, text


SHOWN = 3  # games named in the greeting: three lines stay short on a phone


def greets(words: list[str]) -> bool:
    """A first contact in a private chat that is no game's: a bare `help` (Telegram's Start
    button, `/start` with no deep link, is sent as `help`) or `help new`."""
    said = [w.lower() for w in words]
    return said in (["help"], ["help", "new"])


def greeting(chat: Chat, ctx: Ctx, words: list[str]) -> list[Outgoing]:
    """First contact: three lines in the user's language (what this chat is for, the games he
    plays, where orders go); `help new` gives the long guide to creating a game."""
    if [w.lower() for w in words] == ["help", "new"]:
        from bots.chat_commands import no_game_help  # (it imports the help: not at load time)

        return chat.answer(ctx, public=[no_game_help()])
    return chat.answer(ctx, public=[first_contact(chat, ctx)])


def first_contact(chat: Chat, ctx: Ctx) -> str:
    """What this chat is for, which games the user plays (his side in each; else the ones he
    moderates), where his orders go: at most three lines."""
    said = [
        t(
            "This private chat is for your own messages from the games: choices, previews "
            "and what only your side sees."
        )
    ]
    played = my_games(chat, ctx.user)
    me = set(identities.accounts(chat.store, ctx.user))
    if played:
        shown = [_seat(chat, game, me) for game in played[:SHOWN]]
        if len(played) > SHOWN:  # the rest: `use <GAME>` refuses with the whole list
            shown.append(t("{n} more (`games` lists them all)", n=len(played) - SHOWN))
        said.append(t("You play {games}.", games=cat(*shown, sep=", ")))
    elif mine := moderated(chat, ctx.user):
        said.append(t("You moderate {games}.", games=cat(*(f"**{g}**" for g in mine), sep=", ")))
    else:
        said.append(t("You play no game yet: take a side with `join <SIDE>` in a game's chat."))
    if len(played) == 1:
        said.append(
            t(
                "Orders: in the game's chat, or here as plain text (`options`); "
                "`help in {game}`: its commands; `help new`: creating a game.",
                game=played[0],
            )
        )
    elif played:
        said.append(
            t(
                "Orders: in each game's chat, or here after `use <GAME>`; "
                "`help in <GAME>`: its commands; `help new`: creating a game."
            )
        )
    else:
        said.append(t("Orders go in a game's chat; `help new`: creating a game."))
    return lines(said)


def _seat(chat: Chat, game: str, me: set[str]) -> str:
    """A game and the side(s) the user plays in it: "**NAME** (SIDE)"."""
    rec = chat.service.record(game)
    names = {s.id: s.name for s in games.system_of(chat.store, game).sides}
    sides = [names.get(s, s) for s, u in rec.seats.items() if u in me]
    return t("**{game}** ({sides})", game=game, sides=cat(*sides, sep=", "))


__all__ = [
    "first_contact",
    "greeting",
    "greets",
    "moderated",
    "my_games",
    "named_game",
    "private_game",
    "use",
]

"""A player's games and his private reminders: `games` (Russian `игры`) and `remind on|off`
(Russian `напоминать вкл|выкл`).

- `games` in a private chat: every running game the player is seated in (any account linked
  with his: app/identities.py), one line each (app/my_games.py), and whether his reminders are
  on; in a group: the game of the chat.
- `remind on` / `remind off`: the private reminders (app/move_reminders.py), stored per account;
  `remind` alone says whether they are on.
"""

from __future__ import annotations

from adjudicator.core.i18n import lines, t, tn
from app import identities, my_games
from app.messages import Outgoing
from bots.chat_base import Chat, ChatRefused, Ctx
from bots.chat_private import my_games as played
from storage import move_reminders as rows

WORDS = {"games": "games", "игры": "games", "remind": "remind", "напоминать": "remind"}
ON = ("on", "вкл", "да")
OFF = ("off", "выкл", "нет")


def run(chat: Chat, ctx: Ctx, game: str | None, words: list[str]) -> list[Outgoing]:
    if WORDS[words[0].lower()] == "remind":
        return remind(chat, ctx, words)
    return games(chat, ctx, game)


def games(chat: Chat, ctx: Ctx, game: str | None) -> list[Outgoing]:
    me = identities.accounts(chat.store, ctx.user)
    if not ctx.incoming.private:
        if game is None:
            here: str = t("No game is played in this chat yet: `help` tells how to start one.")
        else:
            here = my_games.line(chat.store, game, me, ctx.now)
        return chat.answer(ctx, public=[here])
    found = played(chat, ctx.user)
    if not found:
        head = t("You play no game yet: take a side with `join <SIDE>` in a game's chat.")
        return chat.answer(ctx, public=[lines([head, _reminders(chat, me)])])
    said: list[str] = [tn("You play {n} game:", "You play {n} games:", len(found))]
    said += [my_games.line(chat.store, g, me, ctx.now) for g in found]
    said.append(_reminders(chat, me))
    return chat.answer(ctx, public=[lines(said)])


def _reminders(chat: Chat, me: list[str]) -> str:
    if rows.opted_in(chat.store, me):
        return t("Private reminders: on (`remind off` stops them).")
    return t("Private reminders: off (`remind on`: a private message when it is your move).")


def remind(chat: Chat, ctx: Ctx, words: list[str]) -> list[Outgoing]:
    said = [w.lower() for w in words[1:]]
    me = identities.accounts(chat.store, ctx.user)
    if not said:
        return chat.answer(ctx, public=[_reminders(chat, me)])
    if len(said) != 1 or said[0] not in (*ON, *OFF):
        raise ChatRefused(t("say `remind on` or `remind off`."))
    if said[0] in ON:
        rows.set_on(chat.store, ctx.user, True, now=ctx.now)
        text = t(
            "Reminders on: a private message when a game waits for your move, and before its "
            "deadline. `remind off` stops them."
        )
    else:
        for account in me:  # off for the player, whichever account turned them on
            rows.set_on(chat.store, account, False, now=ctx.now)
        text = t("Reminders off: no private message about your moves.")
    return chat.answer(ctx, public=[text])  # (it tells nothing secret)


__all__ = ["WORDS", "games", "remind", "run"]

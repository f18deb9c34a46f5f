"""`join <SIDE> ai [easy|normal]` in a chat (`вступить <SIDE> ии [лёгкий|обычный]`): the
game's creator gives a free side to the built-in opponent before the start (app/opponent_seat.py
says who may and where)."""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import t
from adjudicator.grammar.ai_words import AI_DEFAULT_LEVEL, AI_LEVELS, AI_WORDS
from app import opponent_join
from bots.chat_base import Chat, ChatRefused, Ctx


def level(words: list[str]) -> str | None:
    """The opponent's level a `join` line asks for (None: the line seats the speaker)."""
    if len(words) < 3 or words[2].lower() not in AI_WORDS:
        return None
    if len(words) > 4:
        raise ChatRefused(t("say `join <SIDE> ai [easy|normal]`."))
    said = words[3].lower() if len(words) == 4 else AI_DEFAULT_LEVEL
    return AI_LEVELS.get(said, said)


def join(chat: Chat, ctx: Ctx, game: str, side: str, level: str) -> dict[str, Any]:
    """Seat the opponent on `side` (the payload of the seat row)."""
    return opponent_join.join(chat.core, game, ctx.user, side, level, ctx.key, ctx.now)


__all__ = ["join", "level"]

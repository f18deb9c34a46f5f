"""The slash commands' descriptions, and their Russian names and descriptions for Discord's
`name_localizations` / `description_localizations` (a player whose client speaks Russian sees
`/приказ`, `/карта`, ...; the command is the same).

The Russian command words are the grammar's own (adjudicator/grammar/lifecycle.py, shared.py),
so that `/начать` and the typed `начать` are one word. `Russian` is the `app_commands.Translator`
that hands them to discord.py when the commands are synced.
"""

from __future__ import annotations

import warnings

from adjudicator.core.i18n import Msg, say, t
from adjudicator.grammar import lifecycle, shared
from app.i18n import language

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands

ORDER = t("Give an order or ask the game something")
ORDER_TEXT = t("As you would type it, e.g. attack C6 with 20tk")
MAP = t("Show the map")
STATUS = t("Turn, phase, weather, pending decision")
OPTIONS = t("The orders you may give now")
OPTIONS_UNIT = t("One unit's orders, e.g. 20tk")
HELP = t("The commands, or the help of one")
HELP_COMMAND = t("A command to explain, e.g. attack")
NEW = t("Start a new game in this channel")
NEW_TEXT = t("The game system and its options, e.g. sandbox")
JOIN = t("Take a side of the game")
JOIN_TEXT = t("The side to play, as the game names it")
START = t("Begin the game once the sides are taken")
LINK = t("Link a chat on another platform to this game")
LINK_TEXT = t("The code given by link in the other chat")
LANGUAGE = t("The language the bot speaks here")
LANGUAGE_TEXT = t("A language code: en or ru")
DEADLINE = t("The time each move is given")
DEADLINE_TEXT = t("A duration, e.g. 24h (empty: the deadline now)")
GAMES = t("Your games: whose move and the deadline (here: this channel's game)")
REMIND = t("Private reminders when it is your move: on or off")
REMIND_TEXT = t("on or off (empty: whether they are on)")

_SAID: tuple[Msg, ...] = (ORDER, ORDER_TEXT, MAP, STATUS, OPTIONS, OPTIONS_UNIT, HELP)
_SAID += (HELP_COMMAND, NEW, NEW_TEXT, JOIN, JOIN_TEXT, START, LINK, LINK_TEXT, LANGUAGE)
_SAID += (LANGUAGE_TEXT, DEADLINE, DEADLINE_TEXT, GAMES, REMIND, REMIND_TEXT)
DESCRIPTIONS: dict[str, Msg] = {str(m): m for m in _SAID}

# command -> its Russian name (Discord: lowercase, at most 32 letters, no spaces)
NAMES = {
    **{english: russian for russian, english in lifecycle.CHAT_WORDS.items()},
    **{english: said[0] for english, said in shared.RUSSIAN.items()},
    "order": "приказ",
    "options": "варианты",
    "help": "помощь",
    "games": "игры",  # bots/chat_my_games.py: the words typed
    "remind": "напоминать",
}
PARAMETERS = {"text": "текст", "unit": "отряд", "command": "команда"}


class Russian(app_commands.Translator):
    """The Russian names and descriptions of the slash commands (None: left as they are)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.russian:
            return None
        where = context.location
        if where is app_commands.TranslationContextLocation.command_name:
            return NAMES.get(string.message)
        if where is app_commands.TranslationContextLocation.parameter_name:
            return PARAMETERS.get(string.message)
        said = DESCRIPTIONS.get(string.message)
        return say(said, language("ru")) if said is not None else None


__all__ = ["NAMES", "PARAMETERS", "Russian"]

"""`help` in a chat: at most MAX_LINES lines for the asker's role, the phase and the game;
`help all` every command; `help <COMMAND>` one command (the game's or the chat's own).

What a role is shown (from the help paragraphs of the grammar kit: a paragraph that begins
"Moderator" is a moderator's command, "Moderator, sandbox games" or one of the system's
moderator group only in a sandbox game; the group of questions is everyone's; the rest are the
players' orders):
- a spectator: the questions, and `join` while a side is free;
- a player: what he may do now (the command words of his legal orders), his orders, questions;
- a moderator: also the moderator commands (the sandbox ones only in a sandbox game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import ENGLISH, cat, lines, name, say, t
from adjudicator.grammar import MODERATOR, QUESTIONS, VerbTable
from app import games, identities
from app.i18n import LANGUAGES, language
from app.messages import Outgoing
from app.submit import is_query
from bots.chat_base import Chat, ChatRefused, Ctx, started

MAX_LINES = 15

# the chat's own commands: (usage, what it does, who) -- who: "all", "moderator"
CHAT_COMMANDS: dict[str, tuple[str, str, str]] = {
    "new": (t("new <GAME> [sandbox]"), t("a new game in this chat (when none is running)"), "all"),
    "join": (
        t("join <SIDE> [ai [easy|normal]]"),
        t(
            "take a free side (before the start); with `ai`, the game's creator gives it to the "
            "built-in opponent (Hell's Gate, Northern War)"
        ),
        "all",
    ),
    "leave": (t("leave"), t("give your side back (before the start)"), "all"),
    "start": (t("start"), t("begin once every side is taken"), "all"),
    "link": (
        t("link | link <CODE>"),
        t("a one-time code; in another chat, `link <CODE>` makes it follow this game"),
        "all",
    ),
    "map": (t("map [full]"), t("the map now (`map full`: the full-resolution file)"), "all"),
    "deadline": (
        t("deadline [<DURATION> | decisions <DURATION>]"),
        t("the deadlines; moderators set the time per phase or per decision (48h, 12h, 2d)"),
        "all",
    ),
    "extend": (
        t("extend <DURATION>"),
        t("moderators: more time for the current deadline (12h)"),
        "moderator",
    ),
    "confirm": (
        t("confirm rewind | cancel rewind | confirm edit | cancel edit"),
        t(
            "a proposed rewind over rolls, or a moderator's proposed edit of the position: "
            "applied by the other side's player (an edit: any other player); a moderator "
            "confirms only while that seat is free"
        ),
        "all",
    ),
    "whoami": (t("whoami"), t("your identity, linked accounts and seats"), "all"),
    "games": (
        t("games"),
        t(
            "in a private chat: every game you play, whose move and the deadline; in a group: "
            "its game; alias `игры`"
        ),
        "all",
    ),
    "remind": (
        t("remind [on | off]"),
        t(
            "a private message when a game waits for your move, and before its deadline; "
            "alias `напоминать вкл|выкл`"
        ),
        "all",
    ),
    "identity": (
        t("identity link | identity confirm <CODE>"),
        t("link your Discord and Telegram accounts into one player (the code comes by DM)"),
        "all",
    ),
    "language": (
        t("language [ru | en]"),
        t(
            "the language of this chat (moderators set it), or in a private chat your own; "
            "alias `язык`"
        ),
        "all",
    ),
    "help": (t("help [all | <COMMAND>]"), t("this help; `help all` every command"), "all"),
}
ALIASES = {"язык": "language", "игры": "games", "напоминать": "remind"}


def _table(grammar: Any) -> VerbTable | None:
    table = getattr(grammar, "table", None)
    return table if isinstance(table, VerbTable) else None


def _who(system: Any, table: VerbTable, name: str) -> str:
    """ "question", "sandbox", "moderator" or "player": who uses a command of the grammar,
    told by the example its help paragraph ends with (it parses: a grammar kit invariant)."""
    text = table.commands[name][1]
    group = next((g for g, names in table.groups.items() if name in names), "")
    try:
        item = system.grammar.parse(text.rpartition("Example: ")[2])
    except Rejection:
        item = None
    if item is not None and is_query(system, item) and not text.startswith("Moderator"):
        return "question"  # (the audit is a moderator's question)
    if item is not None and system.kind_of(item) == "edit":
        return "moderator"  # an edit: in any game (a proposal outside a sandbox: app/edits.py)
    moderating = item is not None and (
        isinstance(item, C.MODERATION) or system.kind_of(item) == "moderator"
    )
    if moderating or text.startswith("Moderator"):
        sandbox = group == MODERATOR and not isinstance(item, C.Default)
        return "sandbox" if sandbox or text.startswith("Moderator, sandbox") else "moderator"
    return "question" if group == QUESTIONS else "player"


def _words(system: Any, table: VerbTable, who: str, sides: Sequence[str] = ()) -> list[str]:
    """The command words (one per verb) whose commands are for `who`; given the asker's sides,
    only the verbs one of them may use (a verb's `sides` flag)."""
    found = [n.split()[0] for n in table.commands if _who(system, table, n) == who]
    return [w for w in dict.fromkeys(found) if w != "help" and _for(table, w, sides)]


def _for(table: VerbTable, word: str, sides: Sequence[str]) -> bool:
    verb = table.verbs.get(word)
    return not sides or verb is None or not verb.sides or bool(set(verb.sides) & set(sides))


def brief(chat: Chat, ctx: Ctx, game: str) -> str:
    system = games.system_of(chat.store, game)
    rec = chat.service.record(game)
    state = chat.service.state(game)
    sit = system.situation(state)
    me = set(identities.accounts(chat.store, ctx.user))
    sides = [s for s, u in rec.seats.items() if u in me]
    moderator = bool(me & set(rec.moderators))
    names = {s.id: s.name for s in system.sides}
    waiting = _and([names.get(s, s) for s in sit.to_move]) or t("nobody")
    said: list[str] = [
        t(
            "**{game}**, {label}: waiting for {waiting}.",
            game=game,
            label=sit.label,
            waiting=waiting,
        )
    ]
    if sides:
        mine = _and([names.get(s, s) for s in sides])
        role = (
            t("You play {sides} and moderate this game.", sides=mine)
            if moderator
            else t("You play {sides}.", sides=mine)
        )
    else:
        role = t("You moderate this game.") if moderator else t("You are a spectator.")
    said.append(role)
    table = _table(system.grammar)
    if not started(chat, game):
        said.append(t("Not started yet: each player takes a side, then `start`."))
    if table is None:  # a grammar not built with the kit: its own help, cut to size
        said += system.grammar.help().splitlines()[: MAX_LINES - 4]
    else:
        for side in sides:
            if side in sit.to_move and started(chat, game):
                now = _now_words(system, state, side)
                if now:
                    said.append(
                        t(
                            "Now ({side}): {words}",
                            side=names.get(side, side),
                            words=cat(*(t("`{w}`", w=_word(table, w)) for w in now), sep=", "),
                        )
                    )
        if sides:
            said.append(t("Orders: {words}", words=_listed(system, table, "player", sides)))
        questions = _listed(system, table, "question")
        said.append(t("Questions: {words}, map, deadline", words=questions))
        if moderator:
            words = _listed(system, table, "moderator")
            said.append(t("Moderator: {words}, deadline, extend", words=words))
            if rec.sandbox:
                sandbox = _listed(system, table, "sandbox")
                said.append(t("Sandbox: {words}", words=sandbox))
    free = [s.id for s in system.sides if rec.seats.get(s.id) is None]
    if free:
        joins: str = t("`join {side}`", side=free[0])
        for s in free[1:]:
            joins = t("{a} or {b}", a=joins, b=t("`join {side}`", side=s))
        said.append(t("Free: {joins}.", joins=joins))
    said.append(t("Chat: whoami, identity link (one player on Discord and Telegram), link."))
    said.append(t("`help <COMMAND>` explains one (`help attack`); `help all` lists every command."))
    return lines(said[:MAX_LINES])


def _word(table: VerbTable, word: str) -> str:
    """A command word as a chat reads it: in Russian the verb's first Russian word."""
    verb = table.verbs.get(word)
    russian = next((a for a in verb.aliases if not a.isascii()), None) if verb else None
    return name(word, ru=russian)


def _listed(system: Any, table: VerbTable, who: str, sides: Sequence[str] = ()) -> str:
    return cat(*(_word(table, w) for w in _words(system, table, who, sides)), sep=", ")


def _and(parts: list[str]) -> str:
    said: str = parts[0] if parts else ""
    for part in parts[1:]:
        said = t("{a} and {b}", a=said, b=part)
    return said


def _now_words(system: Any, state: Any, side: str) -> list[str]:
    """The command words of a side's legal orders now, with `options` to list them."""
    orders = system.legal_orders(state, side)
    found = [system.grammar.format(o).split()[0] for o in orders]
    return [*dict.fromkeys(found), "options"] if found else []


def full(chat: Chat, game: str) -> str:
    """`help all`: every command of the game, then the chat's."""
    system = games.system_of(chat.store, game)
    chat_lines = [cat("  ", usage, ": ", what) for usage, what, _ in CHAT_COMMANDS.values()]
    return lines([system.grammar.help(), t("Chat commands:"), *chat_lines])


def help_command(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    """`help` (at most MAX_LINES lines, for the asker), `help all`, `help <COMMAND>`."""
    if len(words) == 1:
        return chat.answer(ctx, public=[brief(chat, ctx, game)])
    if len(words) == 2 and words[1].lower() in ("all", "все"):
        return chat.answer(ctx, public=[full(chat, game)])
    return chat.answer(ctx, public=[one(chat, game, " ".join(words[1:]))])


def one(chat: Chat, game: str | None, topic: str) -> str:
    """`help <COMMAND>`: a chat command's usage, or the game's help of one of its commands."""
    word = topic.split()[0].lower()
    word = ALIASES.get(word, word)
    if word in CHAT_COMMANDS:
        usage, what, _ = CHAT_COMMANDS[word]
        return t("Usage: {usage}\n{what}.", usage=usage, what=_capital(what))
    if game is None:
        raise ChatRefused(t("no game is played here: say `help` for how to start one."))
    help_text: str = games.system_of(chat.store, game).grammar.help(topic)
    return help_text


def _capital(text: str) -> str:
    """A text with its first letter capital, in each language the bot speaks."""

    def up(said: str) -> str:
        return said[:1].upper() + said[1:]

    forms = {code: up(say(text, language(code))) for code in LANGUAGES}
    return name(forms.pop(ENGLISH), **forms)


__all__ = ["CHAT_COMMANDS", "MAX_LINES", "brief", "full", "help_command", "one"]

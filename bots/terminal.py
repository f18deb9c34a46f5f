"""Two players at one keyboard: each line is said as the side whose move it is."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from adjudicator.core.i18n import EN, Language, lines, say, t
from adjudicator.core.system import MODERATOR_ACTOR
from app import names
from app.service import GameService
from bots import terminal_opponent as opponent
from storage import GameNotFound

log = logging.getLogger(__name__)

QUIT = {"quit", "exit"}


def _to_move(service: GameService, name: str) -> str | None:
    here = service.system(name).situation(service.state(name))
    return here.to_move[0] if here.to_move else None


def prompt_for(service: GameService, name: str) -> str:
    here = service.system(name).situation(service.state(name))
    return f"[{here.label.replace(',', '')}] {here.to_move[0] if here.to_move else None}> "


def split_actor(line: str, default: str, actors: Iterable[str]) -> tuple[str, str]:
    """`<SIDE>: end` speaks as that side; anything else as the default side."""
    head, sep, rest = line.partition(":")
    if sep and head.strip().lower() in set(actors):
        return head.strip().lower(), rest.strip()
    return default, line


def _pass_keyboard(
    service: GameService,
    name: str,
    side: str,
    read: Callable[[str], str],
    write: Callable[[str], None],
    lang: Language = EN,
) -> bool | None:
    """In a game with hidden information, the screen shows one side's view at a time: the
    players pass the keyboard between sides. The prompt waits for Enter alone; a line typed at
    it is refused with the reason (it would be said as `side` before the screen is his) and the
    prompt asked again, never dropped unsaid. False: input ended; None: `quit`."""
    write(
        "\n" * 3
        + say(
            t(
                "--- Pass the keyboard to {side}. {side}: press Enter when the other player "
                "cannot see the screen. ---",
                side=side,
            ),
            lang,
        )
    )
    while True:
        try:
            line = read(say(t("[{side}: press Enter] ", side=side), lang)).strip()
        except EOFError:
            return False
        if not line:
            break
        if line.lower() in QUIT:
            return None
        write(
            say(
                t(
                    "Not taken: {line}. This prompt waits for Enter from {side} alone (the "
                    "screen then shows {side}'s view); type the order again after it.",
                    line=f"`{line}`",
                    side=side,
                ),
                lang,
            )
        )
    write(say(service.status(name, side), lang))
    return True


def play(
    service: GameService,
    name: str,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    sandbox: bool = False,
    lang: Language = EN,
    ai: tuple[str, str] | None = None,
) -> int:
    """Play at one keyboard until the game ends, input ends or `quit`; the game's texts said
    in `lang`. ai: (side, level): the built-in opponent plays that side (bots/terminal_opponent.py)."""
    try:
        service.record(name)
    except GameNotFound:
        write(say(service.new_game(name, sandbox=sandbox), lang))
    system = service.system(name)
    sides = [s.id for s in system.sides]
    said = t(
        "Playing {name}. Type orders, `help`, or `quit`; prefix `{side}:` etc. to speak as "
        "another side.",
        name=repr(name),
        side=sides[-1],
    )
    write(say(said, lang))
    actors = [*sides, MODERATOR_ACTOR]
    at_keyboard: str | None = None
    if ai is not None:  # the keyboard's side sees its own view only, the screen is never passed
        seated = opponent.seat(service, name, *ai)
        write(say(names.pretty(service.store, seated.reply), lang))
        if not seated.ok:
            return 1  # refused (the command line's REFUSED)
        at_keyboard = next(s for s in sides if s != ai[0])
    while not system.situation(service.state(name)).over:
        if ai is not None and opponent.moved(service, name, lambda text: write(say(text, lang))):
            continue
        mover = _to_move(service, name)
        if system.hidden_information and mover and mover != at_keyboard and ai is None:
            if not _pass_keyboard(service, name, mover, read, write, lang):
                break
            at_keyboard = mover
        try:
            line = read(prompt_for(service, name)).strip()
        except EOFError:
            write("")
            break
        if not line:
            continue
        if line.lower() in QUIT:
            break
        actor, text = split_actor(line, mover or MODERATOR_ACTOR, actors)
        for reply in service.say(name, actor, text):
            write(say(reply.reply, lang))
            if reply.private_lines and (not system.hidden_information or actor == at_keyboard):
                write(say(lines(reply.private_lines), lang))  # the speaking side's own
    write(say(service.status(name), lang))
    return 0

"""Two players at one keyboard: each line is said as the side whose move it is."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from adjudicator.core.system import MODERATOR_ACTOR
from app.service import GameService
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
) -> bool:
    """In a game with hidden information, the screen shows one side's view at a time: the
    players pass the keyboard between sides (False: input ended)."""
    write(
        "\n" * 3 + f"--- Pass the keyboard to {side}. {side}: press Enter when the other "
        "player cannot see the screen. ---"
    )
    try:
        read("")
    except EOFError:
        return False
    write(service.status(name, side))
    return True


def play(
    service: GameService,
    name: str,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    sandbox: bool = False,
) -> int:
    try:
        service.record(name)
    except GameNotFound:
        write(service.new_game(name, sandbox=sandbox))
    system = service.system(name)
    sides = [s.id for s in system.sides]
    write(
        f"Playing {name!r}. Type orders, 'help', or 'quit'; prefix '{sides[-1]}:' etc. to speak "
        "as another side."
    )
    actors = [*sides, MODERATOR_ACTOR]
    at_keyboard: str | None = None
    while not system.situation(service.state(name)).over:
        mover = _to_move(service, name)
        if system.hidden_information and mover and mover != at_keyboard:
            if not _pass_keyboard(service, name, mover, read, write):
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
            write(reply.reply)
            if reply.private_lines and (not system.hidden_information or actor == at_keyboard):
                write("\n".join(reply.private_lines))  # the speaking side's own
    write(service.status(name))
    return 0

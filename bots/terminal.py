"""Two players at one keyboard: each line is said as the side whose move it is."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bots.service import GameService
from storage import GameNotFound

log = logging.getLogger(__name__)

ACTORS = ("soviet", "german", "moderator")
QUIT = {"quit", "exit"}


def prompt_for(service: GameService, name: str) -> str:
    state = service.state(name)
    return f"[turn {state.turn} {state.phase}] {state.active_side}> "


def split_actor(line: str, default: str) -> tuple[str, str]:
    """`german: end` speaks as german; anything else as the default side."""
    head, sep, rest = line.partition(":")
    if sep and head.strip().lower() in ACTORS:
        return head.strip().lower(), rest.strip()
    return default, line


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
    write(
        f"Playing {name!r}. Type orders, 'help', or 'quit'; prefix 'german:' etc. to speak "
        "as another side."
    )
    while service.state(name).result is None:
        try:
            line = read(prompt_for(service, name)).strip()
        except EOFError:
            write("")
            break
        if not line:
            continue
        if line.lower() in QUIT:
            break
        actor, text = split_actor(line, service.state(name).active_side or "moderator")
        for reply in service.say(name, actor, text):
            write(reply.reply)
    write(service.status(name))
    return 0

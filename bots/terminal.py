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
    sides = [s.id for s in service.system(name).sides]
    write(
        f"Playing {name!r}. Type orders, 'help', or 'quit'; prefix '{sides[-1]}:' etc. to speak "
        "as another side."
    )
    actors = [*sides, MODERATOR_ACTOR]
    while not service.system(name).situation(service.state(name)).over:
        try:
            line = read(prompt_for(service, name)).strip()
        except EOFError:
            write("")
            break
        if not line:
            continue
        if line.lower() in QUIT:
            break
        actor, text = split_actor(line, _to_move(service, name) or MODERATOR_ACTOR, actors)
        for reply in service.say(name, actor, text):
            write(reply.reply)
    write(service.status(name))
    return 0

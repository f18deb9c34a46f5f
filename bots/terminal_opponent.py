"""The built-in opponent at the command line: `pbem play --ai SIDE` (a person at the keyboard
against it) and `pbem demo --ai [SIDE]` (it against the random player).

The operator seats it like a moderator in a chat (`seat <SIDE> ai <LEVEL>`, a log row), and
each of its moves is made as in a served game: the job of app/opponent_turns.py, decided by
bots/opponent_worker.py's `think` (here in this process: the person at the keyboard waits for
the move anyway) and submitted as its seat's user. What the keyboard is shown of its move is
what the game's other chats are shown of a person's (the mirror of app/after.py): its line and
the public reply, never its side's private lines, nor its line in a game with hidden
information.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.core.i18n import lines, t
from app import opponent_turns
from app.replies import Reply
from app.service import GameService
from bots.opponent_worker import think

_FAILED: dict[str, int] = {}  # game -> the head its opponent's last move was refused at


def seat(service: GameService, name: str, side: str, level: str) -> Reply:
    """Seat the opponent on `side` (the operator as the moderator)."""
    return service.say(name, "moderator", f"seat {side} ai {level}")[0]


def move(service: GameService, name: str) -> Reply | None:
    """The opponent's move if the game waits for it (None: it does not)."""
    job = opponent_turns.job_of(service.store, name)
    if job is None:
        return None
    return opponent_turns.play(service.core, job, think(job))


def moved(service: GameService, name: str, write: Callable[[str], None]) -> bool:
    """Make the opponent's move if the game waits for it and show it: whether it moved (a
    refused move is shown and not tried again at the same position: the keyboard may give its
    side's order, `<SIDE>: default`)."""
    job = opponent_turns.job_of(service.store, name)
    if job is None or _FAILED.get(name) == job.head:
        return False
    reply = opponent_turns.play(service.core, job, think(job))
    write(shown(service, name, reply))
    if not reply.ok:
        _FAILED[name] = job.head
    return reply.ok


def shown(service: GameService, name: str, reply: Reply) -> str:
    """The opponent's move as the other players read it."""
    system = service.system(name)
    speaker = t("Opponent")
    said = reply.reply if reply.shown is None else reply.shown
    if system.hidden_information or reply.sealed:
        return lines([t("**{speaker}**:", speaker=speaker), said])
    return lines([t("**{speaker}**: `{line}`", speaker=speaker, line=reply.line), said])


__all__ = ["move", "moved", "seat", "shown"]

"""The built-in opponent in a seat: who it is, where it may sit, and what it cannot do.

`seat <SIDE> ai [easy|normal]` (a moderator, as any `seat`; also after the start, replacing a
person) and `join <SIDE> ai [easy|normal]` (the creator only, before the start) give a side to
the opponent of adjudicator.opponent (`join`: app/opponent_join.py). Its seat's user id is "ai:<level>" (AI_PREFIX): no chat
account has that form, so it is never written to, and players read it as "Opponent (normal)".
Only a system the opponent supports (`opponent.supports`) takes it; elsewhere the refusal says
which systems have it.

Decision (rewinds): the opponent cannot say `confirm rewind`. A rewind that discards no roll
applies at once, as for people (nothing needs its consent). A rewind across rolls in a game
where the opponent holds a seat is refused with the reason: a moderator who wants it seats a
person on that side first (`seat <SIDE> <USER>`), who may then confirm.
"""

from __future__ import annotations

from adjudicator import opponent
from adjudicator.core import registry
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, t
from adjudicator.core.system import GameSystem
from adjudicator.grammar.ai_words import AI_DEFAULT_LEVEL, AI_PREFIX
from app import consent, games
from app.consent import Needed
from storage import GameTx


def is_ai(user: object) -> bool:
    """Whether a seat's user id is the opponent's."""
    return isinstance(user, str) and user.startswith(AI_PREFIX)


def level_of(user: str) -> str:
    return user[len(AI_PREFIX) :] or AI_DEFAULT_LEVEL


def user_of(level: str | None) -> str:
    return AI_PREFIX + (level or opponent.DEFAULT_LEVEL)


def supported_systems() -> list[str]:
    """The names of the installed systems the opponent plays."""
    found = []
    for kind in registry.systems():
        text, source = games.default_scenario(kind)
        if opponent.supports(games.bind(kind.id, text, source)):
            found.append(kind.name)
    return found


def check_seat(system: GameSystem, user: str) -> None:
    """Refuse the opponent in a seat of a system it does not play, or at an unknown level."""
    if not is_ai(user):
        return
    if not opponent.supports(system):
        raise Rejection(
            "opponent-unsupported",
            t(
                "the built-in opponent does not play {system}: it plays only {systems}, the "
                "games whose rules give it a way to judge a position",
                system=registry.get(system.id).name,
                systems=cat(*supported_systems(), sep=", "),
            ),
            None,
        )
    if level_of(user) not in opponent.LEVELS:
        raise Rejection(
            "opponent-level",
            t(
                "the opponent has no level {level}: say {levels}",
                level=level_of(user),
                levels=cat(*opponent.LEVELS, sep=", "),
            ),
            None,
        )


def consent_refusal(tx: GameTx, need: Needed, what: str) -> Rejection | None:
    """Why a proposal (`what`: "rewind" or "edit") is refused at once: its confirmation would
    have to come from the opponent (every player must confirm and it is one of them, or it is
    the only one who may); None: a person may confirm it. See the module doc."""
    held = sorted(side for side, user in need.players.items() if is_ai(user))
    if not held or (not need.every and len(held) < len(need.players)):
        return None
    sides = cat(*held, sep=", ")
    if what == "rewind":
        said = t(
            "this rewind discards rolls, and a rewind across rolls needs the confirmation of "
            "another player, which the opponent playing {sides} cannot give: a moderator may "
            "seat a person on that side (`seat {side} <USER>`), who may then confirm it",
            sides=sides,
            side=held[0],
        )
    else:
        said = t(
            "an edit of the position needs the confirmation of another player, which the "
            "opponent playing {sides} cannot give: a moderator may seat a person on that side "
            "(`seat {side} <USER>`), who may then confirm it",
            sides=sides,
            side=held[0],
        )
    return Rejection(f"{what}-opponent", said, None)


def edit_refusal(tx: GameTx, proposer: str | None) -> Rejection | None:
    """`consent_refusal` of a moderator's edit (confirmed by any seated player but him)."""
    seats = tx.seats()
    need = Needed(consent.players_of(tx, seats, set(seats), proposer), False, tx.head_index)
    return consent_refusal(tx, need, "edit")


__all__ = [
    "check_seat",
    "consent_refusal",
    "edit_refusal",
    "is_ai",
    "level_of",
    "supported_systems",
    "user_of",
]

"""The built-in opponent in a seat: who it is, where it may sit, and what it cannot do.

`seat <SIDE> ai [easy|normal]` (a moderator, as any `seat`; also after the start, replacing a
person) and `join <SIDE> ai [easy|normal]` (the creator only, before the start) give a side to
the opponent of adjudicator.opponent. Its seat's user id is "ai:<level>" (AI_PREFIX): no chat
account has that form, so it is never written to, and players read it as "Opponent (normal)".
Only a system the opponent supports (`opponent.supports`) takes it; elsewhere the refusal says
which systems have it.

Decision (rewinds): the opponent cannot say `confirm rewind`. A rewind that discards no roll
applies at once, as for people (nothing needs its consent). A rewind across rolls in a game
where the opponent holds a seat is refused with the reason: a moderator who wants it seats a
person on that side first (`seat <SIDE> <USER>`), who may then confirm.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adjudicator import opponent
from adjudicator.core import registry
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, t
from adjudicator.core.system import GameSystem
from adjudicator.grammar.shared import AI_DEFAULT_LEVEL, AI_PREFIX
from app import games, lifecycle
from app.context import Core
from storage import GameTx
from storage import outbox as outbox_rows


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


def rewind_refusal(tx: GameTx) -> Rejection | None:
    """Why a rewind across rolls is refused in this game (None: it is not): see the module."""
    held = [side for side, user in tx.seats().items() if is_ai(user)]
    if not held:
        return None
    return Rejection(
        "rewind-opponent",
        t(
            "this rewind discards rolls, and a rewind across rolls needs the confirmation of "
            "another player, which the opponent playing {sides} cannot give: a moderator may "
            "seat a person on that side (`seat {side} <USER>`), who may then confirm it",
            sides=cat(*held, sep=", "),
            side=held[0],
        ),
        None,
    )


def join(
    core: Core, game: str, user: str, side: str, level: str | None, key: str | None, now: datetime
) -> dict[str, Any]:
    """`join <SIDE> ai [<LEVEL>]`: the creator seats the opponent on a free side before the
    start (the row is the creator's, its text the canonical `seat <SIDE> ai <LEVEL>`)."""
    system = games.system_of(core.store, game)
    ai = user_of(level)
    check_seat(system, ai)

    def take(tx: GameTx) -> dict[str, Any]:
        done = tx.find_key(key) if key else None
        if done:
            return done[0].payload
        _check_join(tx, user, side)
        tx.set_seat(side, ai)
        payload = {"action": "seat", "side": side, "user": ai, "previous": None}
        payload["why"] = "joined in the chat"
        text = f"seat {side} ai {level_of(ai)}"
        tx.append("moderation", "system", text, payload, user=user, key=key)
        return payload

    payload = lifecycle.transact(core.store, game, take, system)
    outbox_rows.notify()  # the opponent's runner looks at the game
    return payload


def _check_join(tx: GameTx, user: str, side: str) -> None:
    creator = next((r.payload.get("creator") for r in tx.rows_of_kind("setup")), None)
    if user != creator:
        raise Rejection(
            "opponent-creator-only",
            t(
                "only the game's creator ({creator}) seats the opponent with `join {side} ai`; "
                "a moderator may say `seat {side} ai`",
                creator=creator or t("none"),
                side=side,
            ),
            None,
        )
    if tx.clock().started_at is not None:
        raise Rejection(
            "started",
            t(
                "the game has started: a moderator seats the opponent with `seat {side} ai`",
                side=side,
            ),
            None,
        )
    holder = tx.seats().get(side)
    if holder is not None:
        raise Rejection("seat-taken", t("{side} is played by {user}", side=side, user=holder), None)


__all__ = [
    "check_seat",
    "is_ai",
    "join",
    "level_of",
    "rewind_refusal",
    "supported_systems",
    "user_of",
]

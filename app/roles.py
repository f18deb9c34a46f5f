"""Who may do what: the role and seat checks of a change, moderation of roles and seats, and
the limits of undo.

A player (seated on a side) gives orders for his side only; a moderator (the creator is the
first) gives moderator commands; anyone else is a spectator and only asks questions. `user=None`
is the trusted local operator of the command line, who speaks as the side given (`--as`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, t
from adjudicator.core.system import MODERATOR_ACTOR, GameSystem
from adjudicator.grammar.lexicon import all_of
from storage import GameRecord, GameTx

Moderation = C.Pause | C.Resume | C.Seat | C.Unseat | C.Moderator  # what `moderate` carries out


def actor_for(
    tx: GameTx,
    system: GameSystem,
    state: Any,
    asked: str | None,
    user: str | None,
    item: object,
    also: Sequence[str] = (),
) -> str:
    """The actor a change runs as, after the role and seat checks (Rejection if refused).
    also: the accounts the game's log records as one player with `user` (app.identities):
    their seats and roles count as his."""
    moderating = isinstance(item, C.MODERATION + C.SHARED_ORDERS) or (
        not isinstance(item, C.Command) and system.kind_of(item) in ("moderator", "edit")
    )
    what = system.grammar.format(item).split()[0]
    to_move = system.situation(state).to_move
    if user is None:  # the local operator: trusted, speaks as --as
        if isinstance(item, C.MODERATION) and asked != "moderator":
            raise Rejection(
                "moderator-only",
                t("`{what}` is a moderator command: say it as the moderator", what=what),
                None,
            )
        return asked or (to_move[0] if to_move else MODERATOR_ACTOR)
    mods = tx.moderators()
    me = {user, *also}
    if moderating:
        if not me & set(mods):
            raise Rejection(
                "moderator-only",
                t(
                    "{user} is not a moderator of this game: only its moderators "
                    "({moderators}) may `{what}`",
                    user=user,
                    what=what,
                    moderators=cat(*mods, sep=", ") if mods else t("none"),
                ),
                None,
            )
        return MODERATOR_ACTOR
    mine = [side for side, who in tx.seats().items() if who in me]
    if not mine:
        if me & set(mods):
            raise Rejection(
                "not-seated",
                t(
                    "{user} moderates this game but holds no seat: a moderator gives no player "
                    "orders (`seat <SIDE> {user}` would seat him)",
                    user=user,
                ),
                None,
            )
        raise Rejection(
            "spectator",
            t(
                "{user} holds no seat in this game: a spectator may ask questions (status, units, "
                "rolls, log ...) but give no orders",
                user=user,
            ),
            None,
        )
    if asked is not None and asked not in mine:
        raise Rejection(
            "not-your-seat",
            t(
                "{user} plays {sides}, not {asked}: a player gives orders only for his own side",
                user=user,
                sides=all_of(mine),
                asked=asked,
            ),
            None,
        )
    if asked is not None:
        return asked
    return _first_to_move(to_move, mine)


def query_actor(
    system: GameSystem,
    rec: GameRecord,
    state: Any,
    asked: str | None,
    user: str | None,
    also: Sequence[str] = (),
) -> str:
    """Whom a question is answered as (also: the accounts linked with `user`)."""
    to_move = system.situation(state).to_move
    if user is None:
        return asked or (to_move[0] if to_move else MODERATOR_ACTOR)
    me = {user, *also}
    mine = [side for side, who in rec.seats.items() if who in me]
    if asked in mine:
        return asked
    if mine:
        return _first_to_move(to_move, mine)
    return MODERATOR_ACTOR if me & set(rec.moderators) else "spectator"


def _first_to_move(to_move: tuple[str, ...], mine: list[str]) -> str:
    """Of a player's sides, the one the game waits for (else his first)."""
    return next((s for s in to_move if s in mine), mine[0])


def moderate(tx: GameTx, user: str | None, item: Moderation) -> tuple[str, dict[str, Any]]:
    """Apply a moderation command to the roles and pause flag: (action, payload extras)."""
    if isinstance(item, C.Pause | C.Resume):
        pausing = isinstance(item, C.Pause)
        if tx.paused == pausing:
            raise Rejection(
                "already-" + ("paused" if pausing else "running"),
                t("the game is already paused") if pausing else t("the game is already running"),
                None,
            )
        tx.set_paused(pausing, item.reason)
        return ("pause" if pausing else "resume"), {}
    if isinstance(item, C.Seat):
        before = tx.seats().get(item.side)
        if before == item.user:
            raise Rejection(
                "already-seated",
                t("{user} already plays {side}", user=item.user, side=item.side),
                None,
            )
        tx.set_seat(item.side, item.user)
        return "seat", {"side": item.side, "user": item.user, "previous": before}
    if isinstance(item, C.Unseat):
        before = tx.seats().get(item.side)
        if before is None:
            raise Rejection(
                "seat-empty", t("nobody plays {side}: the seat is empty", side=item.side), None
            )
        tx.set_seat(item.side, None)
        return "unseat", {"side": item.side, "user": before}
    mods = tx.moderators()
    if item.action == "add":
        if item.user in mods:
            raise Rejection(
                "already-moderator", t("{user} is already a moderator", user=item.user), None
            )
        tx.add_moderator(item.user)
        return "moderator-add", {"user": item.user}
    if item.user not in mods:
        raise Rejection(
            "not-a-moderator", t("{user} is not a moderator of this game", user=item.user), None
        )
    if len(mods) == 1:
        raise Rejection(
            "last-moderator",
            t("{user} is the last moderator: add another one first", user=item.user),
            None,
        )
    tx.remove_moderator(item.user)
    return "moderator-remove", {"user": item.user}


def check_undo(
    target: dict[str, Any], rows: list[dict[str, Any]], effective: list[dict[str, Any]]
) -> None:
    """Undo never crosses a die roll, a dice epoch's end or reveal, or the opponent's move."""
    index, text = target["index"], target["text"]
    if target["payload"].get("rolls"):
        raise Rejection(
            "undo-dice",
            t(
                "row {index} ({text}) rolled a die: an order that rolled is never undone",
                index=index,
                text=text,
            ),
            None,
        )
    for row in rows[index + 1 :]:
        if row["kind"] in ("epoch", "reveal", "reveal-hidden", "rewind"):
            raise Rejection(
                "undo-reveal",
                t(
                    "a dice epoch ended or opened after row {index} ({text}) (row {row}): "
                    "undo never crosses a reveal",
                    index=index,
                    text=text,
                    row=row["index"],
                ),
                None,
            )
    later = [r for r in effective if r["index"] > index]
    if later:
        raise Rejection(
            "undo-after-opponent",
            t(
                "{actor} has acted since row {index} ({text}) (row "
                "{row}): an order is undone only before anyone else acts",
                actor=later[0]["actor"].title(),
                index=index,
                text=text,
                row=later[0]["index"],
            ),
            None,
        )


def moderators_before(tx: GameTx, index: int) -> set[str]:
    """The moderators who hold the role now and have held it since before log row `index`: the
    creator (the setup row) and each `moderator add`, unless a later `moderator remove` ended
    it (a moderator removed and added again holds it from his last `add`)."""
    since: dict[str, int] = {}
    for row in [*tx.rows_of_kind("setup"), *tx.rows_of_kind("moderation")]:
        p = row.payload or {}
        if row.kind == "setup" and isinstance(p.get("creator"), str):
            since[p["creator"]] = row.index
        elif p.get("action") == "moderator-add" and isinstance(p.get("user"), str):
            since[p["user"]] = row.index
        elif p.get("action") == "moderator-remove":
            since.pop(p.get("user"), None)  # type: ignore[arg-type]
    return {u for u, i in since.items() if i < index} & set(tx.moderators())


__all__ = ["actor_for", "check_undo", "moderate", "moderators_before", "query_actor"]

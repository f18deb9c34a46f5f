"""`confirm rewind` and `cancel rewind`: the pending proposal applied or withdrawn (the rules of a
proposal, who may confirm it and its wording are app/rewinds.py). Applying it runs the rewind
through app.changes and posts it through app.after in the same transaction."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem
from app import after, changes, games, identities, names, rewinds
from app.context import Core
from storage import Conflict, GameTx


def confirm(
    core: Core,
    game: str,
    user: str,
    key: str | None,
    now: datetime,
    cancel: bool = False,
    where: tuple[str, str] | None = None,
) -> str:
    """`confirm rewind` (apply the pending proposal) or `cancel rewind`: the reply text."""
    system = games.system_of(core.store, game)

    def run(tx: GameTx) -> str:
        if key and (done := tx.find_key(key)):
            return done_text(done[0].payload)
        found = rewinds.pending(tx, now)
        if isinstance(found, Rejection):
            raise found
        me = set(identities.accounts(core.store, user)) | {user}
        if cancel:
            if found.user not in me and not me & set(tx.moderators()):
                raise Rejection("moderator-only", t("the proposer or a moderator cancels a rewind"))
            payload = {"action": rewinds.CANCELLED, "proposal": found.index, "why": None}
            tx.append("moderation", "moderator", "cancel rewind", payload, user=user, key=key)
            return done_text(payload)
        why = rewinds.eligible(tx, found, me)
        if why is not None:
            raise Rejection("not-eligible", why)
        p = found.payload
        item = C.Rewind(p["to"], p.get("why") or "")
        ch = _Change(system, found.user, key, core.seeds)
        state = system.state_from_json(tx.snapshot)

        extra = {
            "proposal": found.index,
            "confirmed_by": user,
            "discarded": p.get("discarded") or [],
        }
        new = changes.apply_rewind(tx, ch, state, item, extra)
        here = system.situation(new)
        note = rewinds.announcement(p.get("to"), found.user, user, p.get("discarded") or [])
        note = names.pretty(tx.conn, note)  # users by the names the chats know
        after.confirmed(
            tx,
            system,
            game,
            here,
            key=key,
            now=now,
            note=note,
            reply_chat=where,
            images=core.images,
        )
        return note

    try:
        text: str = core.store.transact(game, run)
        return text
    except Conflict as exc:
        raise Rejection("conflict", str(exc)) from exc


def done_text(p: dict[str, Any]) -> str:
    if p.get("action") == rewinds.CANCELLED:
        return t(
            "The rewind proposed at row {row} is cancelled; nothing changed.", row=p["proposal"]
        )
    return t("Rewind to row {row} applied.", row=p.get("to"))


class _Change:
    """What app.changes needs of a change (see changes.Change)."""

    def __init__(
        self, system: GameSystem, user: str | None, key: str | None, seeds: Callable[[], str]
    ):
        self.system, self.actor, self.user, self.key, self.seeds = (
            system,
            "moderator",
            user,
            key,
            seeds,
        )


__all__ = ["confirm", "done_text"]

"""`confirm edit` and `cancel edit`: the pending edit proposal applied or withdrawn (the rules of
a proposal, who may confirm it and its wording are app/edits.py). Applying it runs the edit
through app.changes as the proposer's (the row's user; `confirmed_by` names the confirmer),
sends its private events to their audiences and posts the position to every chat of the game,
in the same transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from app import after, changes, consent, edits, games, identities, integrity, names
from app.context import Actor, Core
from storage import GameTx


def confirm(
    core: Core,
    game: str,
    user: str,
    key: str | None,
    now: datetime,
    cancel: bool = False,
    where: tuple[str, str] | None = None,
) -> str:
    """`confirm edit` (apply the pending proposal) or `cancel edit`: the reply text."""
    system = games.system_of(core.store, game)
    me = set(identities.accounts(core.store, user)) | {user}  # read before the transaction

    def run(tx: GameTx) -> str:
        integrity.checked_state(tx, system)  # a forged snapshot freezes the game
        if key and (done := tx.find_key(key)):
            return done_text(done[0].payload)
        found = edits.pending(tx, now)
        if isinstance(found, Rejection):
            raise found
        if cancel:
            refused = t("the proposer or a moderator cancels an edit")
            speaker = (user, key)
            return done_text(
                consent.withdraw(tx, found, me, speaker, edits.CANCELLED, "cancel edit", refused)
            )
        why = edits.eligible(tx, found, me)
        if why is not None:
            raise Rejection("not-eligible", why)
        text = edits.opened_text(found)
        if text is None:  # the server keeps every secret: only a damaged store lacks it
            raise Rejection("sealed", t("the text of the proposed edit is missing"))
        ch = changes.Change(system, "moderator", found.user, key, core.seeds, now)
        state = system.state_from_json(tx.snapshot)
        extra = {"proposal": found.index, "confirmed_by": user}
        new = changes.order(tx, ch, state, system.grammar.parse(text), extra)
        here = system.situation(new)
        after.private_posts(tx, _Run(game, key, now))  # a secret edit's value, to its side
        note = names.pretty(tx.conn, edits.announcement(found.payload, found.user, user))
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

    return consent.transact(core, game, run)


def done_text(p: dict[str, Any]) -> str:
    if p.get("action") == edits.CANCELLED:
        return t("The edit proposed at row {row} is cancelled; nothing changed.", row=p["proposal"])
    return t("The edit proposed at row {row} is applied.", row=p.get("proposal"))


class _Run:
    """What after.private_posts reads of a change: nobody spoke, so every audience is told."""

    def __init__(self, game: str, key: str | None, now: datetime):
        self.game, self.key, self.now, self.actor = game, key, now, Actor()


__all__ = ["confirm", "done_text"]

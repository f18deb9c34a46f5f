"""`confirm rewind` and `cancel rewind`: the pending proposal applied or withdrawn (the rules of a
proposal, who may confirm it and its wording are app/rewinds.py). Applying it runs the rewind
through app.changes and posts it through app.after in the same transaction."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, t
from adjudicator.core.system import GameSystem
from adjudicator.grammar.lexicon import all_of
from app import after, changes, consent, games, identities, integrity, names, post_queue, rewinds
from app.context import Core
from app.messages import Outgoing
from storage import GameTx, chat_store


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
    me = set(identities.accounts(core.store, user)) | {user}  # read before the transaction

    def run(tx: GameTx) -> str:
        integrity.checked_state(tx, system)  # a forged snapshot freezes the game
        if key and (again := tx.find_key(key)):
            if again[0].payload.get("action") == rewinds.CONSENTED:  # a retried delivery
                return names.pretty(tx.conn, rewinds.consent_text(again[0].payload, user))
            return done_text(again[0].payload)
        found = rewinds.pending(tx, now)
        if isinstance(found, Rejection):
            raise found
        if cancel:
            refused = t("the proposer or a moderator cancels a rewind")
            speaker = (user, key)
            return done_text(
                consent.withdraw(
                    tx, found, me, speaker, rewinds.CANCELLED, "cancel rewind", refused
                )
            )
        p = found.payload
        need = rewinds.needed(tx, found.user, p.get("discarded") or [])
        done = rewinds.consents(tx, found)
        why = consent.refusal(tx, found, need, me, done, "rewind")
        if why is not None:
            raise Rejection("not-eligible", why)
        if left := consent.missing(need, done, me):  # every player confirms: one more is in
            row = rewinds.consent(tx, found, need, me, user, key)
            said = rewinds.consent_text(row.payload, user, all_of(sorted(left)))
            said = names.pretty(tx.conn, said)
            _tell_others(tx, game, said, key, now, where)
            return said
        item = C.Rewind(p["to"], p.get("why") or "")
        ch = _Change(system, found.user, key, core.seeds)
        state = system.state_from_json(tx.snapshot)

        extra = {
            "proposal": found.index,
            "confirmed_by": user,
            "discarded": p.get("discarded") or [],
        }
        if done:  # the players who confirmed before him (each a chained row)
            extra["consents"] = [r.index for r in done]
        new = changes.apply_rewind(tx, ch, state, item, extra)
        here = system.situation(new)
        by = cat(*dict.fromkeys([*(r.user for r in done), user]), sep=", ")
        note = rewinds.announcement(p.get("to"), found.user, by, p.get("discarded") or [])
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

    return consent.transact(core, game, run)


def _tell_others(
    tx: GameTx, game: str, said: str, key: str | None, now: datetime, where: tuple[str, str] | None
) -> None:
    """A player's consent, to the game's other chats (the speaker's is answered)."""
    others = [c for c in chat_store.bindings(tx.conn, game) if c != where]
    if others:
        outs = [Outgoing(p, c, said) for p, c in others]
        post_queue.write_in(
            tx.conn, game, outs, key=None if key is None else f"{key}:consent", now=now
        )


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

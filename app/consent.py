"""Who confirms a moderator's proposal that another person must confirm: a rewind across dice
(app/rewinds.py says which seats confirm it) and an edit of the position (app/edits.py).

A proposal names the seats whose player confirms it (`Needed.players`: one of them, or every
one when `every`), never the proposer's own (nor one held by an account linked with him: his
proposal is his consent). While one of those seats is filled, a moderator's confirmation does
not count: a moderator who adds a second account as moderator cannot approve himself. Only when
none is filled does a moderator confirm, and only one who has held the role since before the
row `Needed.before` (the first discarded roll of a rewind, the proposal of an edit: one made
moderator once the dice were known cannot), is not linked with the proposer and plays no side
in `Needed.barred` (a side whose rolls a rewind discards).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, t
from adjudicator.grammar.lexicon import all_of, any_of
from app import identities, roles
from storage import Conflict, GameTx, Tampered


@dataclass(frozen=True)
class Needed:
    """Who confirms a proposal: one of `players` (side -> user), or every one of them when
    `every`; when there is none, a moderator who has held the role since before log row
    `before`. A player of a side in `barred` (its rolls are discarded) never confirms."""

    players: dict[str, str]
    every: bool
    before: int
    barred: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        return {"sides": sorted(self.players), "every": self.every, "before": self.before}


def linked(tx: GameTx, user: str | None) -> set[str]:
    """`user` and the accounts linked with him (by their owner, or as the game's log records)."""
    if user is None:
        return set()
    return {user, *identities.partners(tx.conn, user), *identities.recorded(tx, user)}


def players_of(
    tx: GameTx, seats: dict[str, str | None], sides: set[str], proposer: str | None
) -> dict[str, str]:
    """The seats among `sides` held by someone other than the proposer (or his accounts)."""
    his = linked(tx, proposer)
    return {s: who for s, who in seats.items() if s in sides and who and who not in his}


def refusal(
    tx: GameTx, proposal: Any, need: Needed, me: set[str], done: list[Any], what: str
) -> str | None:
    """Why `me` (a user and his linked accounts) may not confirm the proposal (None: he may).
    what: "rewind" or "edit", for the wording."""
    if proposal.user in me or linked(tx, proposal.user) & me:
        said = (
            t(
                "the proposer of a rewind does not confirm it himself (nor an account linked "
                "with him): {who} says `confirm rewind` (or you withdraw it: `cancel rewind`)",
                who=who_text(need),
            )
            if what == "rewind"
            else t(
                "the proposer of an edit does not confirm it himself (nor an account linked "
                "with him): {who} says `confirm edit` (or you withdraw it: `cancel edit`)",
                who=who_text(need),
            )
        )
        return said
    mine = {side for side, who in tx.seats().items() if who in me}
    barred = t(
        "the rewind discards rolls of your side ({sides}): {others} confirms it",
        sides=cat(*sorted(mine & need.barred), sep=", "),
        others=who_text(need),
    )
    if need.players:
        ours = {s for s, who in need.players.items() if who in me}
        if not ours and mine & need.barred:
            return barred
        if not ours and me & set(tx.moderators()):
            said = (
                t(
                    "only {who} confirms this rewind: a moderator's confirmation does not count "
                    "while that seat is filled",
                    who=who_text(need),
                )
                if what == "rewind"
                else t(
                    "only {who} confirms this edit: a moderator's confirmation does not count "
                    "while that seat is filled",
                    who=who_text(need),
                )
            )
            return said
        if not ours:
            said = (
                t(
                    "only {who} confirms this rewind; a spectator may follow it with `log`",
                    who=who_text(need),
                )
                if what == "rewind"
                else t(
                    "only {who} confirms this edit; a spectator may follow it with `log`",
                    who=who_text(need),
                )
            )
            return said
        if need.every and ours <= {s for r in done for s in r.payload.get("sides") or []}:
            return t("you have confirmed it already; it waits for {who}", who=left_text(need, done))
        return None
    if mine & need.barred:
        return barred
    if not me & roles.moderators_before(tx, need.before):
        return t(
            "no other player holds the confirming seat: a moderator who has held the role since "
            "before row {row} (not the proposer, nor an account linked with him) confirms it",
            row=need.before,
        )
    return None


def missing(need: Needed, done: list[Any], me: set[str]) -> set[str]:
    """The sides whose player has still to confirm after `me` (empty: apply it now)."""
    if not need.every or not need.players:
        return set()
    said = {s for r in done for s in r.payload.get("sides") or []}
    return {s for s, who in need.players.items() if who not in me} - said


def who_text(need: Needed) -> str:
    sides = sorted(need.players)
    if not sides:
        return t("a moderator who has held the role since before row {row}", row=need.before)
    if need.every:
        return t("every player ({sides})", sides=all_of(sides))
    return t("the player of {sides}", sides=any_of(sides))


def left_text(need: Needed, done: list[Any]) -> str:
    said = {s for r in done for s in r.payload.get("sides") or []}
    return cat(*sorted(set(need.players) - said), sep=", ")


def withdraw(
    tx: GameTx,
    found: Any,
    me: set[str],
    said: tuple[str, str | None],
    action: str,
    words: str,
    refused: str,
) -> dict[str, Any]:
    """`cancel rewind` / `cancel edit`: the proposer (or an account linked with him) or any
    moderator withdraws the proposal `found` with a chained row (`words`, `action`) by the
    speaker of `said` (user, idempotency key); anyone else is refused with `refused`. The
    row's payload."""
    if found.user not in me and not me & set(tx.moderators()):
        raise Rejection("moderator-only", refused)
    payload = {"action": action, "proposal": found.index, "why": None}
    user, key = said
    tx.append("moderation", "moderator", words, payload, user=user, key=key)
    return payload


def transact(core: Any, game: str, run: Callable[[GameTx], str]) -> str:
    """A confirmation's transaction (`run` checks the snapshot first: app/integrity.py): a
    write that lost a race, or a frozen game, is refused, never raised."""
    try:
        said: str = core.store.transact(game, run)
        return said
    except Conflict as exc:
        raise Rejection("conflict", str(exc)) from exc
    except Tampered as exc:
        raise Rejection("frozen", str(exc)) from exc


__all__ = [
    "Needed",
    "linked",
    "missing",
    "players_of",
    "refusal",
    "transact",
    "who_text",
    "withdraw",
]

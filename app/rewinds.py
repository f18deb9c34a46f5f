"""Rewinds that discard rolls: proposed by one moderator, confirmed by another person.

A rewind that would make dice results stop counting is a way to re-roll: give the rewound
order again for a fresh die. So in a game that is not a sandbox, a moderator's `rewind N REASON`
over rolls is only a proposal (a chained `moderation` row, action "rewind-proposed", naming the
rolls it would discard and who must confirm, `needs`); it is applied by `confirm rewind`, said
by (`needed`, `refusal`):

- the player of a side other than the one(s) whose orders rolled the discarded dice (a roll
  belongs to its row's actor); when every side rolled, any player;
- when a discarded die belongs to no side (its row's actor is the deadline's `system` or a
  moderator: a deal's shuffle, a default's roll), every seated player: each `confirm rewind`
  but the last is a chained row (action "rewind-consented", naming his sides) and the rewind
  applies when the last one arrives (its row lists the earlier ones, `consents`);
- only while no such seat is held by anyone other than the proposer (or an account linked
  with him), a moderator who has held the role since before the first discarded roll's row
  (the setup's creator, or his last `moderator add`: app.roles.moderators_before), is not
  linked with the proposer and plays no side whose rolls it discards.

A second moderator's confirmation does not count while a confirming seat is filled: a
moderator who adds a second account as moderator cannot approve his own re-roll with it, and
one made moderator after the roll was known cannot either (issue 27). Never the proposer
himself (nor an account linked with him). `cancel rewind` (the proposer or any moderator)
withdraws it; it expires after PROPOSAL_TTL, or as soon as the game moves on (any row after
the proposal but its consents: the rolls it names would no longer be the ones discarded, nor
the seats and roles that confirm it the same). A sandbox game, a rewind that discards no roll,
and the local operator of the command line apply at once. The applied rewind reveals the epoch
and opens a fresh one (app.changes), so re-giving the rewound order draws from a new
commitment, never from a revealed seed; its post to every chat of the game announces the
discarded rolls, and the audit counts them per moderator (`discards_by_moderator`).

Decision: a die of no side among the discarded ones makes every seated player confirm, even
when dice of one side are discarded with it (that side's player then confirms as well: the
rule that he alone never suffices still holds). The proposer's own seat needs no confirmation
of his: his proposal is his consent.
Decision: PROPOSAL_TTL is 24 hours.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import cat, t, tn
from app import consent as consent_rules
from app import fold
from app.consent import Needed, players_of, who_text
from storage import GameTx

PROPOSAL_TTL = timedelta(hours=24)
PROPOSED, CONFIRMED, CANCELLED = "rewind-proposed", "rewind-confirmed", "rewind-cancelled"
CONSENTED = "rewind-consented"  # one player's confirmation when every player confirms


def discarded_rolls(rows: list[dict[str, Any]], to: int) -> list[dict[str, Any]]:
    """The rolls of the orders that count now and would stop counting after `rewind to`:
    each {"row", "actor", "purpose", "value", "epoch", "n"} (a hidden die's value: None)."""
    out = []
    for row in fold.effective_orders(rows):
        if row["index"] <= to:
            continue
        for r in row["payload"].get("rolls") or []:
            if r.get("fixed"):
                continue  # a moderator's fixed result (sandbox `dice`): no die was rolled
            value = None if r.get("hidden") else r.get("value")
            out.append(
                {
                    "row": row["index"],
                    "actor": row["actor"],
                    "purpose": r.get("purpose"),
                    "value": value,
                    "epoch": r.get("epoch"),
                    "n": r.get("n"),
                }
            )
    return out


def rolls_text(rolls: list[dict[str, Any]]) -> str:
    """ "2 rolls are discarded: row 12 attack die 4 (epoch 2, n 1); ..." """
    if not rolls:
        return t("No roll is discarded.")
    shown = cat(
        *(
            t(
                "row {row} {purpose} {value} (epoch {epoch}, n {n})",
                row=r["row"],
                purpose=r["purpose"],
                value="?" if r["value"] is None else r["value"],
                epoch=r["epoch"],
                n=r["n"],
            )
            for r in rolls[:10]
        ),
        sep="; ",
    )
    more = t("; and {n} more", n=len(rolls) - 10) if len(rolls) > 10 else ""
    return tn(
        "{n} roll is discarded: {rolls}{more}.",
        "{n} rolls are discarded: {rolls}{more}.",
        len(rolls),
        rolls=shown,
        more=more,
    )


def needs_confirmation(tx: GameTx, user: str | None, rolls: list[dict[str, Any]]) -> bool:
    return bool(rolls) and not tx.sandbox and user is not None


def propose(
    tx: GameTx, ch: Any, item: C.Rewind, rolls: list[dict[str, Any]], now: datetime
) -> None:
    """Write the proposal row (nothing else changes)."""
    payload = {
        "action": PROPOSED,
        "to": item.index,
        "why": item.reason,
        "discarded": rolls,
        "needs": needed(tx, ch.user, rolls).to_json(),
        "expires": (now + PROPOSAL_TTL).strftime("%Y-%m-%d %H:%M UTC"),
        "expires_at": (now + PROPOSAL_TTL).isoformat(),
    }
    text = ch.system.grammar.format(item)
    tx.append("moderation", "moderator", text, payload, user=ch.user, key=ch.key)


def proposal_text(p: dict[str, Any], by: str) -> str:
    rolls = p.get("discarded") or []
    needs = p.get("needs")
    if not isinstance(needs, dict):  # a proposal from before the consent rule of issue 27
        return t(
            "Rewind to row {row} proposed by {by} ({why}). {rolls} "
            "It needs `confirm rewind` from the other side's player or a second moderator "
            "(until {until}); `cancel rewind` withdraws it.",
            row=p["to"],
            by=by,
            why=p.get("why"),
            rolls=rolls_text(rolls),
            until=p.get("expires"),
        )
    need = Needed(
        {s: s for s in needs.get("sides") or []}, bool(needs.get("every")), needs["before"]
    )
    return t(
        "Rewind to row {row} proposed by {by} ({why}). {rolls} "
        "It needs `confirm rewind` from {who} (until {until}); `cancel rewind` withdraws it.",
        row=p["to"],
        by=by,
        why=p.get("why"),
        rolls=rolls_text(rolls),
        who=who_text(need),
        until=p.get("expires"),
    )


def pending(tx: GameTx, now: datetime) -> Any:
    """The open proposal (the log row), or a Rejection saying why there is none. Only the
    players' consents to it (CONSENTED rows) may follow it."""
    rows = tx.rows(tx.head_index)
    last = rows[-1] if rows else None
    at = last.payload.get("proposal") if last is not None else None
    if last is not None and last.payload.get("action") == CONSENTED and isinstance(at, int):
        later = tx.rows(at)  # the proposal, then only its consents
        if later and all(r.payload.get("action") == CONSENTED for r in later[1:]):
            last = later[0]
    if last is None or last.kind != "moderation" or last.payload.get("action") != PROPOSED:
        return Rejection(
            "no-rewind-pending",
            t(
                "no rewind waits for confirmation (a proposal lapses as soon as the game moves on "
                "after it: a moderator proposes it again with `rewind <ROW> <REASON>`)"
            ),
        )
    if datetime.fromisoformat(last.payload["expires_at"]) <= now:
        return Rejection(
            "rewind-expired",
            t(
                "the rewind proposed at row {row} expired ({when}); "
                "a moderator may propose it again",
                row=last.index,
                when=last.payload.get("expires"),
            ),
        )
    return last


def eligible(tx: GameTx, proposal: Any, me: set[str]) -> str | None:
    """Why `me` (a user and his linked accounts) may not confirm a rewind (None: he may)."""
    need = needed(tx, proposal.user, proposal.payload.get("discarded") or [])
    return consent_rules.refusal(tx, proposal, need, me, consents(tx, proposal), "rewind")


def needed(tx: GameTx, proposer: str | None, rolls: list[dict[str, Any]]) -> Needed:
    """The consent a rewind across `rolls` needs (see the module doc)."""
    seats = tx.seats()
    sides = set(seats)
    rolled = {r.get("actor") for r in rolls}
    of_sides = {s for s in rolled if s in sides}
    every = bool(rolled - sides)  # a die of no side (the system's, a moderator's)
    confirming = sides if every or of_sides == sides else sides - of_sides
    barred = frozenset() if confirming == sides else frozenset(of_sides)
    first = min((r["row"] for r in rolls if isinstance(r.get("row"), int)), default=tx.head_index)
    return Needed(players_of(tx, seats, confirming, proposer), every, first, barred)


def consents(tx: GameTx, proposal: Any) -> list[Any]:
    """The consent rows said since the proposal (each chained, in order)."""
    return [r for r in tx.rows(proposal.index + 1) if r.payload.get("action") == CONSENTED]


def consent(
    tx: GameTx, proposal: Any, need: Needed, me: set[str], user: str, key: str | None
) -> Any:
    """Record one player's confirmation of a proposal that needs every player's."""
    sides = sorted(s for s, who in need.players.items() if who in me)
    payload = {"action": CONSENTED, "proposal": proposal.index, "sides": sides, "why": None}
    actor = sides[0] if sides else "moderator"  # the side he confirms for
    return tx.append("moderation", actor, "confirm rewind", payload, user=user, key=key)


def consent_text(p: dict[str, Any], by: str, waits: str | None = None) -> str:
    said = t(
        "{by} confirms the rewind proposed at row {row} for {sides}.",
        by=by,
        row=p.get("proposal"),
        sides=cat(*(p.get("sides") or []), sep=", "),
    )
    return cat(said, t("It waits for {who}.", who=waits), sep=" ") if waits else said


def announcement(
    to: object, by: str | None, confirmed: str | None, rolls: list[dict[str, Any]] | None
) -> str:
    how = t(", confirmed by {user}", user=confirmed) if confirmed else ""
    return t(
        "Rewound to row {row} by {by}{how}. {rolls} "
        "A fresh dice epoch is open: an order given again rolls from its new commitment.",
        row=to,
        by=by or t("the operator"),
        how=how,
        rolls=rolls_text(rolls or []),
    )


def discards_by_moderator(rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    """For the audit: how many rolls each moderator's applied rewinds discarded (the proposer;
    the operator of the command line is "operator")."""
    counts: dict[str, int] = {}
    done: list[dict[str, Any]] = []
    for row in rows:
        done.append(row)
        if row.get("kind") != "rewind":
            continue
        p = row.get("payload") or {}
        rolls = p.get("discarded")
        if rolls is None:  # a rewind from before the rolls were recorded in it
            rolls = discarded_rolls(done[:-1], p.get("to", 0))
        who = row.get("user") or "operator"
        if rolls:
            counts[who] = counts.get(who, 0) + len(rolls)
    return counts


def discards_line(rows: Iterable[dict[str, Any]]) -> str:
    """The audit's line: the rolls each moderator's rewinds discarded."""
    counts = discards_by_moderator(rows)
    if not counts:
        return t("Rewinds: no roll was discarded by a rewind.")
    each = ", ".join(f"{who} {n}" for who, n in sorted(counts.items()))
    return t("Rolls discarded by rewinds, per moderator (the proposer): {each}.", each=each)


__all__ = [
    "PROPOSAL_TTL",
    "announcement",
    "discarded_rolls",
    "discards_by_moderator",
    "discards_line",
    "needs_confirmation",
    "propose",
    "rolls_text",
]

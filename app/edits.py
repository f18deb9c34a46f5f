"""Moderators' edits of the position: at once in a sandbox, a proposal another person confirms
in any other game; a secret edit given privately and sealed.

An edit is an order of the kind "edit" (a grammar verb's flag: `place`, `flip`, `set ...`). The
kit applies it for a moderator past the rules' gate (core.kit), so the application core decides
when it is applied:

- in a sandbox game, and from the local operator of the command line, at once: an "order" row
  by the actor "moderator", chained and audited like any order, replayed by the fold;
- in any other game, a moderator's edit is first checked against the position (a refused edit
  proposes nothing), then only proposed: a chained `moderation` row, action "edit-proposed",
  naming the canonical text and who confirms it (`needs`). It is applied by `confirm edit`
  (app/confirm_edit.py) with the consent of a rewind across dice (app/consent.py): any seated
  player but the proposer (nor an account linked with him); a moderator only while no seat is
  held by anyone else, and only one who has held the role since before the proposal and is not
  linked with the proposer. `cancel edit` (the proposer or any moderator) withdraws it; it
  expires after PROPOSAL_TTL, or as soon as the game moves on (any row after the proposal: the
  position it was checked against is gone).

Decision (issue 27): "the side whose rolls it discards" has no counterpart for an edit, which
discards none and cannot be said to harm one side (a correction of a lost report helps the
side that lost it and costs the other): so any seated player other than the proposer
confirms, the proposer's own side's player being a second person all the same; "held the role
before the first discarded roll" becomes "before the proposal". A second moderator no longer
confirms while a player other than the proposer is seated (he did before: a moderator could
approve his own edit with a second account). The applied row names the proposer (its user) and
the confirmer (`confirmed_by`).

A secret edit (the system's `is_secret`: it sets a hidden value, a hand, the deck's order, a
block's strength or identity) is refused in a group chat, with the reason, and taken in a
private chat with the bot (or from the command line). Its text is sealed in the chain: the
applied "order" row's text is SEALED_TEXT, with the canonical text in the row's off-chain secret
(a salted commitment listed in the payload's `hidden` and named by its `sealed_order`), which
leaves the server only in the export of a finished game, like a hidden draw; the server's replay
reads it there (app.fold). The proposal of a secret edit seals its text the same way. The
moderator who gave it is answered "OK: <text>" in his private chat; every other chat, the log
and the confirmation request read only that a sealed edit was made. The other moderators, who
may confirm it, are sent its text by a private message when it is proposed (core.events: the
moderators may be told a value a moderator sets); a player who confirms it learns no more
than the events of the side he plays tell him.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem
from adjudicator.grammar import ParseError
from app import consent, names, post_queue, seat_secrets
from storage import GameTx
from storage.dice import hidden_commit

PROPOSAL_TTL = timedelta(hours=24)  # as a rewind's (app/rewinds.py)
PROPOSED, CANCELLED = "edit-proposed", "edit-cancelled"
SEALED_TEXT = "edit (sealed)"  # the chained text of a secret edit's rows
SEALED_DONE = t(
    "A moderator's edit that sets a hidden value is applied (sealed until the game ends)."
)
PRIVATE_ONLY = t("this edit sets a hidden value: give it in a private chat with the bot")


def is_edit(system: GameSystem, item: object) -> bool:
    """Whether a parsed line is a moderator's edit of the position (kind "edit")."""
    if isinstance(item, ParseError | C.Command | C.Dice | C.Default):
        return False
    return system.kind_of(item) == "edit"


def is_secret(system: GameSystem, item: object) -> bool:
    return is_edit(system, item) and system.is_secret(item)


def check_where(system: GameSystem, item: object, private: bool | None) -> None:
    """Refuse a secret edit said in a group chat (private: None off any chat, the command
    line; False a group chat; True a private chat with the bot)."""
    if private is False and is_secret(system, item):
        raise Rejection("private-chat-only", PRIVATE_ONLY, None)


def needs_confirmation(tx: GameTx, user: str | None) -> bool:
    """A chat user's edit outside a sandbox (the operator of the command line is trusted)."""
    return not tx.sandbox and user is not None


def sealed_text(text: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """(the chained text, the payload's fields, the off-chain secret entry) of a sealed text."""
    c, salt = hidden_commit({"order": text})
    return (
        SEALED_TEXT,
        {"sealed_order": c},
        {"commitment": c, "value": {"order": text}, "salt": salt},
    )


def opened_text(row: Any) -> str | None:
    """A row's canonical order text (a sealed one opened from its off-chain secret entry;
    None when it is not at hand). `row`: a LogRecord or a row's dict."""
    payload = row["payload"] if isinstance(row, dict) else row.payload
    text = row["text"] if isinstance(row, dict) else row.text
    c = (payload or {}).get("sealed_order")
    if not c:
        return str(text)
    secret = row.get("secret") if isinstance(row, dict) else row.secret
    for entry in secret or []:
        if isinstance(entry, dict) and entry.get("commitment") == c:
            value = entry.get("value")
            return str(value["order"]) if isinstance(value, dict) else None
    return None


def propose(tx: GameTx, ch: Any, item: object, now: datetime) -> None:
    """Write the proposal row (nothing else changes); the edit was checked already."""
    text = ch.system.grammar.format(item)
    payload: dict[str, Any] = {
        "action": PROPOSED,
        "order": text,
        "why": None,
        "needs": _needed(tx, ch.user, tx.head_index + 1).to_json(),
        "expires": (now + PROPOSAL_TTL).strftime("%Y-%m-%d %H:%M UTC"),
        "expires_at": (now + PROPOSAL_TTL).isoformat(),
    }
    secret = None
    if ch.system.is_secret(item):
        shown, fields, entry = sealed_text(text)
        payload |= {"order": None, **fields, "hidden": [fields["sealed_order"]]}
        text, secret = shown, [entry]
    tx.append("moderation", "moderator", text, payload, user=ch.user, key=ch.key, secret=secret)
    if secret is not None:  # the other moderators may confirm it: they read what it sets
        _tell_moderators(tx, ch, secret[0]["value"]["order"], now)


def _tell_moderators(tx: GameTx, ch: Any, text: str, now: datetime) -> None:
    """A secret edit's text, by a private message, to every moderator but its proposer (the
    moderators may be told a value a moderator sets: core.events)."""
    said = names.pretty(
        tx.conn, t("{by} proposes the secret edit `{order}`.", by=ch.user, order=text)
    )
    others = [m for m in tx.moderators() if m != ch.user]
    for n, out in enumerate(o for m in others for o in seat_secrets.dm(tx, tx.name, m, said)):
        key = None if ch.key is None else f"{ch.key}:edit:{n}"
        post_queue.write_in(tx.conn, tx.name, [out], key=key, now=now, fallback_chat_id=out.chat_id)


def what(p: dict[str, Any]) -> str:
    """The edit a proposal names, as everyone may read it."""
    if p.get("sealed_order"):
        return t("an edit that sets a hidden value (its text is sealed until the game ends)")
    return t("`{order}`", order=p.get("order"))


def proposal_text(p: dict[str, Any], by: str) -> str:
    needs = p.get("needs")
    if not isinstance(needs, dict):  # a proposal from before the consent rule of issue 27
        return t(
            "Edit {what} proposed by {by}. It needs `confirm edit` from a player or a second "
            "moderator (until {until}); `cancel edit` withdraws it.",
            what=what(p),
            by=by,
            until=p.get("expires"),
        )
    sides = needs.get("sides") or []
    need = consent.Needed({s: s for s in sides}, False, needs["before"])
    return t(
        "Edit {what} proposed by {by}. It needs `confirm edit` from {who} (until {until}); "
        "`cancel edit` withdraws it.",
        what=what(p),
        by=by,
        who=consent.who_text(need),
        until=p.get("expires"),
    )


def cancelled_text(p: dict[str, Any], by: str) -> str:
    return t("The edit proposed at row {row} is cancelled; by {by}.", row=p["proposal"], by=by)


def pending(tx: GameTx, now: datetime) -> Any:
    """The open proposal (the log row), or a Rejection saying why there is none."""
    rows = tx.rows(tx.head_index)
    last = rows[-1] if rows else None
    if last is None or last.kind != "moderation" or last.payload.get("action") != PROPOSED:
        return Rejection(
            "no-edit-pending",
            t(
                "no edit waits for confirmation (a proposal lapses as soon as the game moves on "
                "after it: a moderator gives the edit again)"
            ),
        )
    if datetime.fromisoformat(last.payload["expires_at"]) <= now:
        return Rejection(
            "edit-expired",
            t(
                "the edit proposed at row {row} expired ({when}); a moderator may give it again",
                row=last.index,
                when=last.payload.get("expires"),
            ),
        )
    return last


def _needed(tx: GameTx, proposer: str | None, before: int) -> consent.Needed:
    """Who confirms an edit: any player but the proposer (and his linked accounts); while no
    other player is seated, a moderator who has held the role since before the proposal."""
    seats = tx.seats()
    return consent.Needed(consent.players_of(tx, seats, set(seats), proposer), False, before)


def eligible(tx: GameTx, proposal: Any, me: set[str]) -> str | None:
    """Why `me` (a user and the accounts linked with him) may not confirm (None: he may)."""
    return consent.refusal(tx, proposal, _needed(tx, proposal.user, proposal.index), me, [], "edit")


def announcement(p: dict[str, Any], by: str | None, confirmed: str | None) -> str:
    """What every chat of the game reads of an applied edit (a secret one's text sealed)."""
    how = t(", confirmed by {user}", user=confirmed) if confirmed else ""
    return t(
        "Edit {what} applied, proposed by {by}{how}.",
        what=what(p),
        by=by or t("the operator"),
        how=how,
    )


__all__ = [
    "CANCELLED",
    "PRIVATE_ONLY",
    "PROPOSAL_TTL",
    "PROPOSED",
    "SEALED_TEXT",
    "announcement",
    "check_where",
    "eligible",
    "is_edit",
    "is_secret",
    "needs_confirmation",
    "opened_text",
    "pending",
    "proposal_text",
    "propose",
    "sealed_text",
]

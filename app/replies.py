"""The texts of replies: a refusal, the lines a change's log rows tell, the fair-dice lines.

A reply is built from the rows a change wrote, so a retried delivery gets the very same reply
from the stored rows. Pure but for the record types of storage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Viewer, audience_of, event_text
from adjudicator.core.i18n import Msg, lines, t
from adjudicator.core.text import plural
from adjudicator.grammar import quoted
from app import edits, identities, rewinds, sealing
from app.hashes import short, shown
from storage import GameRecord, GameTx, LogRecord


@dataclass
class Reply:
    """The answer to one line of a message."""

    ok: bool
    reply: str
    error: dict[str, Any] | None = None  # {"code", "message", "rule"}
    events: list[dict[str, Any]] = field(default_factory=list)
    combat: dict[str, Any] | None = None
    line: str = ""  # the line this answers (not part of the JSON document)
    log_index: int | None = None  # the last log row this line wrote
    head_hash: str | None = None  # the log's head hash after it
    duplicate: bool = False  # a retried delivery: the original reply, nothing applied again
    private: bool = False  # shows a side's possibilities: for the speaker's eyes only
    private_lines: list[str] = field(default_factory=list)  # what only the speaker's side sees
    sealed: bool = False  # a secret edit (app/edits.py): its line is for the speaker only
    shown: str | None = None  # what others read of it (None: the reply)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "reply": self.reply,
            "error": self.error,
            "events": self.events,
            "combat": self.combat,
            "log_index": self.log_index,
            "head_hash": self.head_hash,
        }


def change_reply(
    tx: GameTx,
    rows: list[LogRecord],
    line: str,
    duplicate: bool = False,
    viewer: Viewer | None = None,
) -> Reply:
    """The reply to a change, built from the rows it wrote. viewer: the speaker (his side's
    private events come back to him, apart, in `private_lines`)."""
    main = rows[0]
    said: list[str] = []
    events: list[dict[str, Any]] = []
    private: list[str] = []
    combat = None
    shown = None
    sealed = bool(main.payload.get("sealed_order"))  # a secret edit, applied or proposed
    if main.kind == "order":
        events = sealing.visible(main.events, main.secret, viewer or Viewer.public())
        private = [
            event_text(e) if "text" in e else "" for e in events if not audience_of(e).public
        ]
        public = [e for e in events if audience_of(e).public]
        combat = main.payload.get("combat")
        done = edits.opened_text(main) or main.text  # a secret edit's: the speaker's alone
        if sealed:  # his private chat: the text he gave, first
            said.append(t("OK: {order}", order=done))
        said += [event_text(e) for e in public] or (
            [] if sealed else [t("OK: {order}", order=done)]
        )
        if sealed:
            shown = lines([edits.SEALED_DONE, *(event_text(e) for e in public)])
        said += [event_text(n) for n in main.payload.get("notes") or []]  # Outcome.notes
    else:
        said.append(row_text(tx, main))
        if sealed:  # a secret edit's proposal: its text to its proposer (a private chat)
            private = [t("Your edit: {order}", order=edits.opened_text(main) or "?")]
    said += [row_text(tx, r) for r in rows[1:]]
    if is_summary(rows):
        last = rows[-1]
        said.append(
            t("Log row {index}, head hash {hash}.", index=last.index, hash=short(last.hash))
        )
    return Reply(
        True,
        lines(said),
        None,
        events,
        combat,
        line,
        log_index=rows[-1].index,
        head_hash=rows[-1].hash,
        duplicate=duplicate,
        private_lines=private,
        sealed=sealed,
        shown=shown,
    )


def fair_lines(rec: GameRecord, full: bool = False) -> list[str]:
    """The dice commitment and the log head: shown by status, show and new, their hashes
    short (`full`: whole, as `status full` gives them)."""
    if rec.epoch:
        salts = t("open (`salt <TEXT>`)") if rec.salts_open else t("closed (the epoch has rolled)")
        dice = t(
            "Dice: epoch {epoch} (turn {turn}), commitment {commitment}; salts {salts}.",
            epoch=rec.epoch,
            turn=rec.epoch_turn,
            commitment=shown(rec.epoch_commitment, full),
            salts=salts,
        )
    else:
        dice = t("Dice: no open epoch (the game is over; every seed is revealed).")
    said: list[str] = [
        dice,
        t(
            "Log: {rows} rows, head hash {hash}.",
            rows=rec.head_index + 1,
            hash=shown(rec.head_hash, full),
        ),
    ]
    if rec.paused:
        said.append(
            t("PAUSED by a moderator: {why}. Orders wait; questions work.", why=rec.paused_why)
        )
    return said


def row_text(tx: GameTx, row: LogRecord) -> str:
    p = row.payload
    if row.kind == "epoch":
        return t(
            "Dice epoch {epoch} for turn {turn}: commitment {commitment}. "
            "Players may add `salt <TEXT>` until its first roll.",
            epoch=p["epoch"],
            turn=p["turn"],
            commitment=short(p["commitment"]),
        )
    if row.kind == "reveal":
        return t(
            "Dice epoch {epoch} is over: its seed was {seed} (its SHA-256 is the "
            "commitment posted before its first roll).",
            epoch=p["epoch"],
            seed=short(p["seed"]),
        )
    if row.kind == "reveal-hidden":
        return t("The hidden seed is revealed: {seed}.", seed=short(p["hidden_seed"]))
    if row.kind == "salt":
        return t(
            "Salt added to dice epoch {epoch}: {salt}.", epoch=p["epoch"], salt=repr(p["salt"])
        )
    if row.kind == "undo":
        (target,) = tx.rows(p["targets"][0])[:1]
        return t(
            "Undone: row {index} ({actor}: {text}); it stays in the log.",
            index=target.index,
            actor=target.actor,
            text=target.text,
        )
    by = row.user or t("the operator")
    if row.kind == "rewind":
        confirmed = (
            t(", confirmed by {who}", who=p["confirmed_by"]) if p.get("confirmed_by") else ""
        )
        rolls = (
            t(" {rolls}", rolls=rewinds.rolls_text(p["discarded"])) if p.get("discarded") else ""
        )
        return t(
            "Rewound to row {to} by {by}{confirmed}: {why}. Orders after row "
            "{to} no longer count; they stay in the log.{rolls}",
            to=p["to"],
            by=by,
            confirmed=confirmed,
            why=p["why"],
            rolls=rolls,
        )
    if row.kind == "moderation":
        return moderation_text(p, by)
    return row.text


def moderation_text(p: dict[str, Any], by: str) -> str:
    why = t(" ({why})", why=p["why"]) if p.get("why") else ""
    action = p["action"]
    if action == "pause":
        return t("Game paused: orders wait; by {by}{why}.", by=by, why=why)
    if action == "resume":
        return t("Game resumed: orders are taken again; by {by}{why}.", by=by, why=why)
    if action == "seat":
        was = t(", replacing {who}", who=p["previous"]) if p.get("previous") else ""
        return t(
            "{user} now plays {side}{was}; by {by}{why}.",
            user=p["user"],
            side=p["side"],
            was=was,
            by=by,
            why=why,
        )
    if action == "unseat":
        return t(
            "{user} no longer plays {side}; by {by}{why}.",
            user=p["user"],
            side=p["side"],
            by=by,
            why=why,
        )
    if action == "identity":
        return identities.identity_text(p, by)
    if action == rewinds.PROPOSED:
        return rewinds.proposal_text(p, by)
    if action == rewinds.CONSENTED:
        return rewinds.consent_text(p, by)
    if action == rewinds.CANCELLED:
        return t(
            "The rewind proposed at row {row} is cancelled; by {by}.", row=p["proposal"], by=by
        )
    if action == edits.PROPOSED:
        return edits.proposal_text(p, by)
    if action == edits.CANCELLED:
        return edits.cancelled_text(p, by)
    if action == "moderator-add":
        return t("{user} is now a moderator; by {by}{why}.", user=p["user"], by=by, why=why)
    return t("{user} is no longer a moderator; by {by}{why}.", user=p["user"], by=by, why=why)


def row_details(row: LogRecord, viewer: Viewer | None = None) -> list[str]:
    p = row.payload
    if row.kind in ("order", "setup"):
        return [_event_line(e, row.secret, viewer or Viewer.public()) for e in row.events]
    if row.kind == "epoch":
        return [t("commitment {commitment}", commitment=short(p["commitment"]))]
    if row.kind == "reveal":
        return [t("seed {seed}", seed=short(p["seed"]))]
    if row.kind == "reveal-hidden":
        return [t("hidden seed {seed}", seed=short(p["hidden_seed"]))]
    if row.kind == "undo":
        return [t("undoes row {rows}", rows=", ".join(map(str, p["targets"])))]
    if row.kind in ("rewind", "moderation") and p.get("why"):
        return [t("why: {why}", why=p["why"])]
    return []


def _event_line(event: dict[str, Any], secrets: list[Any] | None, viewer: Viewer) -> str:
    """An event of the log as `viewer` may read it: a private one he may not see as sealed."""
    if sealing.is_sealed(event):
        (shown,) = sealing.opened([event], secrets)
        if sealing.is_sealed(shown) or not audience_of(shown).sees(viewer):
            return t(
                "(private to {audience}: sealed until the game ends)",
                audience=str(event.get("audience")),
            )
        event = shown
    return event_text(event)


def is_summary(rows: list[LogRecord]) -> bool:
    """Whether a change closes a phase (or is a moderator's act): its reply posts the head."""
    if any(r.kind in ("epoch", "reveal", "undo", "rewind", "moderation") for r in rows):
        return True
    return any(e.get("kind") in (PHASE_BEGAN, GAME_ENDED) for e in rows[0].events)


NOT_APPLIED_SHOWN = 3  # a refusal names at most this many of the lines it stopped


def refused(line: str, code: str, message: str, rule: str | None) -> Reply:
    said: Msg = (
        t("Refused (rule {rule}): {message}", rule=rule, message=message)
        if rule
        else t("Refused: {message}", message=message)
    )
    return Reply(
        False,
        said,
        {"code": code, "message": message, "rule": rule},
        line=line,
    )


def not_applied(refused: Reply, rest: list[str]) -> list[Reply]:
    if not rest:
        return []
    shown = "; ".join(quoted(r) for r in rest[:NOT_APPLIED_SHOWN])
    more = len(rest) - NOT_APPLIED_SHOWN
    refused.reply = (
        t(
            "{reply}\nNot applied: {shown} and {more}",
            reply=refused.reply,
            shown=shown,
            more=plural(more, "more line"),
        )
        if more > 0
        else t("{reply}\nNot applied: {shown}", reply=refused.reply, shown=shown)
    )
    msg = t("not applied: the earlier line {line} was refused", line=quoted(refused.line))
    return [
        Reply(
            False,
            t("Not applied: the earlier line {line} was refused.", line=quoted(refused.line)),
            {"code": "not-applied", "message": msg, "rule": None},
            line=r,
        )
        for r in rest
    ]


__all__ = [
    "Reply",
    "change_reply",
    "fair_lines",
    "is_summary",
    "moderation_text",
    "not_applied",
    "refused",
    "row_details",
    "row_text",
]

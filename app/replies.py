"""The texts of replies: a refusal, the lines a change's log rows tell, the fair-dice lines.

A reply is built from the rows a change wrote, so a retried delivery gets the very same reply
from the stored rows. Pure but for the record types of storage.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.events import GAME_ENDED, PHASE_BEGAN, Viewer, audience_of
from adjudicator.core.text import plural
from adjudicator.grammar import quoted
from app import identities, rewinds, sealing
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
    tx: GameTx, rows: list[LogRecord], line: str, duplicate: bool = False,
    viewer: Viewer | None = None,
) -> Reply:  # fmt: skip
    """The reply to a change, built from the rows it wrote. viewer: the speaker (his side's
    private events come back to him, apart, in `private_lines`)."""
    main = rows[0]
    lines: list[str] = []
    events: list[dict[str, Any]] = []
    private: list[str] = []
    combat = None
    if main.kind == "order":
        events = sealing.visible(main.events, main.secret, viewer or Viewer.public())
        private = [e.get("text", "") for e in events if not audience_of(e).public]
        public = [e for e in events if audience_of(e).public]
        combat = main.payload.get("combat")
        lines += [e.get("text", e.get("kind", "")) for e in public] or [f"OK: {main.text}"]
    else:
        lines.append(row_text(tx, main))
    lines += [row_text(tx, r) for r in rows[1:]]
    if is_summary(rows):
        last = rows[-1]
        lines.append(f"Log row {last.index}, head hash {last.hash}.")
    return Reply(
        True,
        "\n".join(lines),
        None,
        events,
        combat,
        line,
        log_index=rows[-1].index,
        head_hash=rows[-1].hash,
        duplicate=duplicate,
        private_lines=private,
    )


def fair_lines(rec: GameRecord) -> list[str]:
    """The dice commitment and the log head: shown by status, show and new."""
    if rec.epoch:
        salts = "open (`salt <TEXT>`)" if rec.salts_open else "closed (the epoch has rolled)"
        dice = (
            f"Dice: epoch {rec.epoch} (turn {rec.epoch_turn}), commitment "
            f"{rec.epoch_commitment}; salts {salts}."
        )
    else:
        dice = "Dice: no open epoch (the game is over; every seed is revealed)."
    lines = [dice, f"Log: {rec.head_index + 1} rows, head hash {rec.head_hash}."]
    if rec.paused:
        lines.append(f"PAUSED by a moderator: {rec.paused_why}. Orders wait; questions work.")
    return lines


def row_text(tx: GameTx, row: LogRecord) -> str:
    p = row.payload
    if row.kind == "epoch":
        return (
            f"Dice epoch {p['epoch']} for turn {p['turn']}: commitment {p['commitment']}. "
            "Players may add `salt <TEXT>` until its first roll."
        )
    if row.kind == "reveal":
        return (
            f"Dice epoch {p['epoch']} is over: its seed was {p['seed']} (its SHA-256 is the "
            "commitment posted before its first roll)."
        )
    if row.kind == "reveal-hidden":
        return f"The hidden seed is revealed: {p['hidden_seed']}."
    if row.kind == "salt":
        return f"Salt added to dice epoch {p['epoch']}: {p['salt']!r}."
    if row.kind == "undo":
        (target,) = tx.rows(p["targets"][0])[:1]
        return f"Undone: row {target.index} ({target.actor}: {target.text}); it stays in the log."
    by = row.user or "the operator"
    if row.kind == "rewind":
        confirmed = f", confirmed by {p['confirmed_by']}" if p.get("confirmed_by") else ""
        rolls = f" {rewinds.rolls_text(p['discarded'])}" if p.get("discarded") else ""
        return (
            f"Rewound to row {p['to']} by {by}{confirmed}: {p['why']}. Orders after row "
            f"{p['to']} no longer count; they stay in the log.{rolls}"
        )
    if row.kind == "moderation":
        return moderation_text(p, by)
    return row.text


def moderation_text(p: dict[str, Any], by: str) -> str:
    why = f" ({p['why']})" if p.get("why") else ""
    action = p["action"]
    if action in ("pause", "resume"):
        state = "paused: orders wait" if action == "pause" else "resumed: orders are taken again"
        return f"Game {state}; by {by}{why}."
    if action == "seat":
        was = f", replacing {p['previous']}" if p.get("previous") else ""
        return f"{p['user']} now plays {p['side']}{was}; by {by}{why}."
    if action == "unseat":
        return f"{p['user']} no longer plays {p['side']}; by {by}{why}."
    if action == "identity":
        return identities.identity_text(p, by)
    if action == rewinds.PROPOSED:
        return rewinds.proposal_text(p, by)
    if action == rewinds.CANCELLED:
        return f"The rewind proposed at row {p['proposal']} is cancelled; by {by}."
    verb = "is now a moderator" if action == "moderator-add" else "is no longer a moderator"
    return f"{p['user']} {verb}; by {by}{why}."


def row_details(row: LogRecord, viewer: Viewer | None = None) -> list[str]:
    p = row.payload
    if row.kind in ("order", "setup"):
        return [_event_line(e, row.secret, viewer or Viewer.public()) for e in row.events]
    if row.kind == "epoch":
        return [f"commitment {p['commitment']}"]
    if row.kind == "reveal":
        return [f"seed {p['seed']}"]
    if row.kind == "reveal-hidden":
        return [f"hidden seed {p['hidden_seed']}"]
    if row.kind == "undo":
        return [f"undoes row {', '.join(map(str, p['targets']))}"]
    if row.kind in ("rewind", "moderation") and p.get("why"):
        return [f"why: {p['why']}"]
    return []


def _event_line(event: dict[str, Any], secrets: list[Any] | None, viewer: Viewer) -> str:
    """An event of the log as `viewer` may read it: a private one he may not see as sealed."""
    if sealing.is_sealed(event):
        (shown,) = sealing.opened([event], secrets)
        if sealing.is_sealed(shown) or not audience_of(shown).sees(viewer):
            return f"(private to {event.get('audience')}: sealed until the game ends)"
        event = shown
    text: str = event.get("text", event.get("kind", ""))
    return text


def is_summary(rows: list[LogRecord]) -> bool:
    """Whether a change closes a phase (or is a moderator's act): its reply posts the head."""
    if any(r.kind in ("epoch", "reveal", "undo", "rewind", "moderation") for r in rows):
        return True
    return any(e.get("kind") in (PHASE_BEGAN, GAME_ENDED) for e in rows[0].events)


NOT_APPLIED_SHOWN = 3  # a refusal names at most this many of the lines it stopped


def refused(line: str, code: str, message: str, rule: str | None) -> Reply:
    where = f" (rule {rule})" if rule else ""
    return Reply(
        False,
        f"Refused{where}: {message}",
        {"code": code, "message": message, "rule": rule},
        line=line,
    )


def not_applied(refused: Reply, rest: list[str]) -> list[Reply]:
    if not rest:
        return []
    shown = "; ".join(quoted(r) for r in rest[:NOT_APPLIED_SHOWN])
    more = len(rest) - NOT_APPLIED_SHOWN
    refused.reply += f"\nNot applied: {shown}" + (
        f" and {plural(more, 'more line')}" if more > 0 else ""
    )
    msg = f"not applied: the earlier line {quoted(refused.line)} was refused"
    return [
        Reply(
            False,
            f"Not applied: the earlier line {quoted(refused.line)} was refused.",
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

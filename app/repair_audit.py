"""The full audit of a stored game inside a repair's transaction: the first bad row, as
`pbem audit NAME` names it.

`first_bad(s, g, system)` runs, on the rows of the open transaction, what the audit runs on an
export (storage.audit: the chain, the header against the setup, epochs, salts, every roll against
its revealed seed, hidden values) and then the replay of every effective order through the rules
(app/fold.py), and only when both hold the cache checks (storage.caches.full_failure: every
row's epoch column, the seat, moderator and dice tables, seeds against their commitments, the
head, the append-only guards) and the snapshot against the replayed state. A failure of the
first two is in the chained rows (`Bad.cut`: the repair drops the rows from it on); one of the
last two is in a cache the repair rewrites from the chain (nothing is dropped for it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlmodel import Session

from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem
from app import fold, sealing
from storage.audit import FORMAT, audit
from storage.caches import full_failure
from storage.models import GameColumns
from storage.trust_rows import WHOLE, entries, entry_row


@dataclass(frozen=True)
class Bad:
    """The first bad row the audit names: its index, the problem in words, and whether it is in
    the chained rows (cut: the rows from it on are dropped) or in a cache (rewritten)."""

    index: int
    problem: str
    cut: bool


def stored_rows(s: Session, g: GameColumns) -> list[dict[str, Any]]:
    """The game's rows as its export holds them (a hidden value's secret once the game ended)."""
    found = entries(s, WHOLE, {"g": g.id})
    rows = [entry_row(e) | {"_secret": e.secret} for e in found]
    ended = any(r["kind"] == "reveal-hidden" for r in rows)
    out = []
    for row in rows:
        secret = row.pop("_secret")
        row.pop("epoch", None)  # off the chain: the cache check reads it
        if ended and secret:
            row["secret"] = _loads(secret)
        out.append(row)
    return out


def _text(problem: Any) -> str:
    """A problem as said (a translatable text stays one; anything else as its text)."""
    return problem if isinstance(problem, str) else str(problem)


def _loads(secret: Any) -> Any:
    try:
        return json.loads(secret) if isinstance(secret, str) else secret
    except ValueError:
        return secret


def header_of(g: GameColumns, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The export header of the rows as they stand (the head is the last row: the game row's
    head is a cache, checked with the others)."""
    return {
        "format": FORMAT,
        "game_uid": g.uid,
        "name": g.name,
        "game": g.game,
        "scenario_text": g.scenario_text,
        "sandbox": g.sandbox,
        "created_at": g.created_at.isoformat(),
        "head_hash": rows[-1]["hash"] if rows else None,
        "rows": len(rows),
    }


def chained_failure(
    system: GameSystem, header: dict[str, Any], rows: list[dict[str, Any]]
) -> tuple[Bad | None, Any]:
    """(the first bad chained row, or None; the replayed state when the replay ran through)."""
    report = audit(header, rows)
    if not report.ok and report.first_failure is not None:
        first = report.first_failure
        index = first["index"] if isinstance(first.get("index"), int) else 0
        return Bad(max(index, 0), _text(first["problem"]), True), None
    try:
        return None, fold.replay(system, rows, check=True)
    except fold.Sealed:
        return None, None  # hidden draws sealed until the game ends: the public checks hold
    except fold.ReplayMismatch as exc:
        index = exc.index if isinstance(exc.index, int) else 0
        return Bad(index, _text(exc.args[0] if exc.args else exc), True), None


def first_bad(s: Session, g: GameColumns, system: GameSystem) -> Bad | None:
    """The first bad row as the full audit names it (module doc), or None: the audit passes."""
    rows = stored_rows(s, g)
    if not rows:
        return Bad(0, t("the log has no rows"), True)
    bad, state = chained_failure(system, header_of(g, rows), rows)
    if bad is not None:
        return bad
    failure = full_failure(s, g)
    if failure is not None:
        return Bad(int(failure["index"]), _text(failure["problem"]), False)
    recorded = [r for r in rows if "state_sha256" in (r.get("payload") or {})]
    if state is None or not recorded:
        return None
    at = recorded[-1]["index"]
    try:
        snapshot = system.state_from_json(json.loads(g.snapshot))
        holds = sealing.state_is(system, snapshot, recorded[-1]["payload"]["state_sha256"])
    except (KeyError, TypeError, ValueError, AttributeError):
        holds = False
    if holds:
        return None
    return Bad(at, t("the stored snapshot is not the state row {row} recorded", row=at), False)


__all__ = ["Bad", "chained_failure", "first_bad", "header_of", "stored_rows"]

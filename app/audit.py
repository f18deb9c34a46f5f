"""The audit of a game: its export, the checks of storage.audit, then a replay through the rules.

`verify_file` needs no database: it reads an exported JSONL file, audits it (chain, seeds, every
roll) and, when that holds, re-adjudicates the effective orders with the current rules code of
the export's game system, checking every row's events and state hash and the final state
against the header's `state_sha256`. `pbem audit NAME` and the chat `audit` run the same checks
on a stored game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.core.registry import UnknownSystem
from adjudicator.core.scenario import ScenarioError
from app import fold, games, sealing
from storage import GameRecord, Store
from storage.audit import FORMAT, AuditReport, audit, format_report, read_export, write_export


def export_doc(store: Store, name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The export header and rows (storage.audit format), read in one snapshot."""
    rec = store.load(name)
    ended = any(r.kind == "reveal-hidden" for r in rec.log)
    rows = [r.to_dict() | ({"secret": r.secret} if ended and r.secret else {}) for r in rec.log]
    header = {
        "format": FORMAT,
        "game_uid": rec.uid,
        "name": rec.name,
        "game": rec.game,
        "scenario_text": rec.scenario_text,
        "sandbox": rec.sandbox,
        "created_at": rec.created_at.isoformat(),
        "head_hash": rec.head_hash,
        "rows": rec.head_index + 1,  # the game row's count: a deleted last row shows
        "state_sha256": _final_digest(rec),
    }
    return header, rows


def _final_digest(rec: GameRecord) -> str:
    """The hash of the final state an export records: of its public view where the game
    hides information (see app.sealing)."""
    system = games.bind(rec.game, rec.scenario_text)
    return sealing.state_digest(system, system.state_from_json(rec.snapshot))


def audit_game(store: Store, name: str) -> tuple[bool, str, AuditReport]:
    """(ok, text, report): the audit of the stored log, then its replay through the rules."""
    return check(*export_doc(store, name), source=f"game {name!r}")


def export(store: Store, name: str, path: str | Path) -> tuple[bool, str, AuditReport]:
    """Write the self-contained export file (never an unrevealed seed), then audit it."""
    header, rows = export_doc(store, name)
    unrevealed = [s["seed"] for s in store.dice_secrets(name) if not s["revealed"]]
    write_export(path, header, rows, forbidden=unrevealed)
    return check(header, rows, source=f"game {name!r}")


def replay_check(
    header: dict[str, Any], rows: list[dict[str, Any]], source: str = "the export"
) -> tuple[bool, str]:
    """Re-adjudicate the effective orders of an audited log: (ok, one line saying so)."""
    try:
        system = games.bind(
            str(header.get("game")), header["scenario_text"], f"{source} (scenario)"
        )
    except UnknownSystem:
        return False, f"Replay: FAILED: unknown game {header.get('game')!r}"
    except (ScenarioError, KeyError, TypeError) as exc:
        return False, f"Replay: FAILED: the scenario does not load: {exc}"
    try:
        state = fold.replay(system, rows, check=True)
    except fold.Sealed as exc:
        return True, (
            "Replay: waits for the end of the game: the log holds hidden draws, revealed "
            f"then (the first at row {exc.index}); every public check above holds."
        )
    except fold.ReplayMismatch as exc:
        return False, f"Replay: FAILED at row {exc.index}: {exc}"
    n = len(fold.effective_orders(rows))
    expected = header.get("state_sha256")
    if expected is not None and sealing.state_digest(system, state) != expected:
        return False, (
            f"Replay: FAILED: the {n} effective orders give another final state than the one "
            f"recorded (state_sha256 {expected})"
        )
    final = " and the final state" if expected is not None else ""
    return True, (
        f"Replay: {n} effective orders re-adjudicated with the current rules: every event, "
        f"state hash{final} matches."
    )


def check(
    header: dict[str, Any], rows: list[dict[str, Any]], source: str = "the export"
) -> tuple[bool, str, AuditReport]:
    """The audit report, then the replay (skipped when the audit already failed)."""
    report = audit(header, rows)
    text = format_report(report)
    if not report.ok:
        return False, text + "\nReplay: skipped (the log failed the audit above).", report
    ok, line = replay_check(header, rows, source)
    return ok, f"{text}\n{line}", report


def verify_file(path: str | Path) -> tuple[bool, str]:
    """`pbem audit --verify FILE`: (ok, the report)."""
    header, rows = read_export(path)
    ok, text, _ = check(header, rows, str(path))
    return ok, text


__all__ = ["audit_game", "check", "export", "export_doc", "replay_check", "verify_file"]

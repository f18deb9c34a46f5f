"""Offline checks of a game's log: the audit (storage.audit) plus a replay through the rules.

`verify_file` needs no database: it reads an exported JSONL file, audits it (chain, seeds, every
roll) and, when that holds, re-adjudicates the effective orders with the current rules code,
checking every row's events and state hash and the final state against the header's
`state_sha256`. `pbem audit NAME` and the chat `audit` run the same checks on a stored game.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.core.scenario import ScenarioError
from adjudicator.grammar import Lexicon
from adjudicator.hells_gate.rules import HellsGate
from adjudicator.hells_gate.scenario import parse_scenario
from bots.fold import ReplayMismatch, replay
from storage.audit import AuditReport, audit, effective_orders, format_report, read_export
from storage.store import state_hash

GAMES = ("hells-gate",)


def replay_check(header: dict, rows: list[dict], source: str = "the export") -> tuple[bool, str]:
    """Re-adjudicate the effective orders of an audited log: (ok, one line saying so)."""
    if header.get("game") not in GAMES:
        return False, f"Replay: FAILED: unknown game {header.get('game')!r}"
    try:
        scenario = parse_scenario(header["scenario_text"], f"{source} (scenario)")
    except (ScenarioError, KeyError, TypeError) as exc:
        return False, f"Replay: FAILED: the scenario does not load: {exc}"
    rules, lexicon = HellsGate(scenario), Lexicon.from_scenario(scenario)
    try:
        state = replay(rules, lexicon, rows, check=True)
    except ReplayMismatch as exc:
        return False, f"Replay: FAILED at row {exc.index}: {exc}"
    n = len(effective_orders(rows))
    expected = header.get("state_sha256")
    if expected is not None and state_hash(state.to_dict()) != expected:
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
    header: dict, rows: list[dict], source: str = "the export"
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

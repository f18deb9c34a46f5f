"""The moderator's text of an audit report: verdict and first failure, epochs, hidden
information, fixed rolls, dice statistics and warnings."""

from __future__ import annotations

from storage.audit.state import AuditReport
from storage.audit.stats import MIN_ROLLS_FOR_P


def _fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, str) and len(value) > 72:
        return value[:69] + "..."
    return str(value)


def _stat_line(label: str, s: dict) -> str:
    counts = " ".join(f"{c:>5}" for c in s["counts"])
    mean = f"{s['mean']:.2f}" if s["mean"] is not None else "  -"
    return f"  {label:<18}{s['n']:>6} {counts} {mean:>5} {s['chi2']:>7.2f} {s['p']:>6.3f}"


def _title(report: AuditReport) -> str:
    g = report.game
    head = g.get("head_hash")
    shown = f"{head[:16]}..." if isinstance(head, str) else head
    return (
        f"Audit of game {g.get('name')!r} ({g.get('game') or '?'}, uid {g.get('game_uid')}):"
        + f" {report.rows} rows, head hash {shown}"
    )


def _verdict(report: AuditReport) -> list[str]:
    if report.ok:
        ok = (
            f"OK: the chain holds, {len(report.epochs_revealed)} revealed seed(s) match"
            f" their commitments, {report.rolls_checked} roll(s) recomputed exactly."
        )
        return [ok]
    f = report.first_failure
    where = "in the header" if f["index"] is None else f"at row {f['index']}"
    problem = f["problem"]
    for prefix in (f"row {f['index']}: ", "header: "):
        problem = problem.removeprefix(prefix)
    out = [
        f"FAILED {where}: {problem}",
        f"  expected: {_fmt(f['expected'])}",
        f"  found:    {_fmt(f['found'])}",
    ]
    if len(report.failures) > 1:
        out.append(f"  ({len(report.failures) - 1} more problem(s) after it; the first one counts)")
    return out


def _epochs(report: AuditReport) -> list[str]:
    rev = ", ".join(map(str, report.epochs_revealed)) or "none"
    line = f"Epochs: revealed {rev}"
    if report.epochs_open:
        line += (
            f"; not revealed yet {', '.join(map(str, report.epochs_open))}"
            f" ({report.rolls_pending} roll(s) pending until the seed is revealed)"
        )
    out = [line]
    if report.hidden_revealed:
        out.append(
            f"Hidden information: hidden seed revealed, {report.hidden_checked} hidden"
            " draw(s)/value(s) checked."
        )
    elif report.hidden_pending:
        out.append(
            f"Hidden information: {report.hidden_pending} hidden draw(s)/value(s) sealed"
            " until the game ends."
        )
    return out


def _fixed(report: AuditReport) -> list[str]:
    if not report.fixed:
        return ["Fixed rolls: none."]
    title = (
        f"Fixed by a moderator ({report.rolls_fixed}; not random, never recomputed,"
        " not in the statistics):"
    )
    out = [title]
    for fx in report.fixed:
        out.append(
            f"  row {fx['index']:>4}  {fx['actor']:<8} {fx['purpose']} = {fx['value']}  (fixed)"
        )
    return out


def _statistics(report: AuditReport) -> list[str]:
    stats = report.stats
    out = [
        "Dice statistics (random rolls only; chi-square against a fair d6, df 5):",
        f"  {'group':<18}{'n':>6} "
        + " ".join(f"{i:>5}" for i in range(1, 7))
        + f" {'mean':>5} {'chi2':>7} {'p':>6}",
        _stat_line("all", stats["all"]),
    ]
    for side, s in stats["by_side"].items():
        out.append(_stat_line(f"side {side}", s))
    for kind, s in stats["by_kind"].items():
        out.append(_stat_line(f"purpose {kind}", s))
    if 0 < stats["all"]["n"] < MIN_ROLLS_FOR_P:
        out.append(f"  (with fewer than {MIN_ROLLS_FOR_P} rolls a p-value says little)")
    return out


def format_report(report: AuditReport) -> str:
    """A moderator's text: verdict and first failure, epochs, fixed rolls, dice statistics."""
    out = [_title(report), *_verdict(report), *_epochs(report), *_fixed(report)]
    out += _statistics(report)
    out += [f"Warning: {w}" for w in report.warnings]
    return "\n".join(out)

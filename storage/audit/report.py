"""The moderator's text of an audit report: verdict and first failure, epochs, hidden
information, fixed rolls, dice statistics and warnings."""

from __future__ import annotations

from storage.audit.state import AuditReport
from storage.audit.stats import min_rolls_for_p

WIDEST_TABLE = 20  # a die of more faces is listed without its counts per face


def _fmt(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, str) and len(value) > 72:
        return value[:69] + "..."
    return str(value)


def _stat_line(label: str, s: dict) -> str:
    wide = len(s["counts"]) > WIDEST_TABLE
    counts = "" if wide else " ".join(f"{c:>5}" for c in s["counts"]) + " "
    mean = f"{s['mean']:.2f}" if s["mean"] is not None else "  -"
    return f"  {label:<18}{s['n']:>6} {counts}{mean:>5} {s['chi2']:>7.2f} {s['p']:>6.3f}"


def _title(report: AuditReport) -> str:
    g = report.game
    head = g.get("head_hash")
    shown = f"{head[:16]}..." if isinstance(head, str) else head
    return (
        f"Audit of game {g.get('name')!r} ({g.get('game') or '?'}, uid {g.get('game_uid')}):"
        + f" {report.rows} rows, head hash {shown}"
    )


def plural(count: int, word: str) -> str:
    """ "1 roll", "2 rolls" (the audit reads no module beyond its own)."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _verdict(report: AuditReport) -> list[str]:
    if report.ok:
        ok = (
            f"OK: the chain holds, {plural(len(report.epochs_revealed), 'revealed seed')}"
            f" {'matches its commitment' if len(report.epochs_revealed) == 1 else 'match their commitments'},"
            f" {plural(report.rolls_checked, 'roll')} recomputed exactly."
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
        out.append(
            f"  ({plural(len(report.failures) - 1, 'more problem')} after it; the first one counts)"
        )
    return out


def _epochs(report: AuditReport) -> list[str]:
    rev = ", ".join(map(str, report.epochs_revealed)) or "none"
    line = f"Epochs: revealed {rev}"
    if report.epochs_open:
        line += (
            f"; not revealed yet {', '.join(map(str, report.epochs_open))}"
            f" ({plural(report.rolls_pending, 'roll')} pending until the seed is revealed)"
        )
    out = [line]
    if report.hidden_revealed:
        out.append(
            f"Hidden information: hidden seed revealed, {plural(report.hidden_checked, 'hidden value')}"
            " checked."
        )
    elif report.hidden_pending:
        out.append(
            f"Hidden information: {plural(report.hidden_pending, 'hidden value')} sealed"
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


def _table_head(label: str, faces: int) -> str:
    heads = " ".join(f"{i:>5}" for i in range(1, faces + 1)) + " " if faces <= WIDEST_TABLE else ""
    return f"  {label:<18}{'n':>6} " + heads + f"{'mean':>5} {'chi2':>7} {'p':>6}"


def _stat_title(groups: list[dict]) -> str:
    if len(groups) == 1:
        f = groups[0]["faces"]
        against = f"a fair d{f}, df {f - 1}"
    else:
        against = "a fair die of its size, df = faces - 1"
    return f"Dice statistics (random rolls only; chi-square against {against}):"


def _group_table(group: dict) -> list[str]:
    """One die size's table: its head naming the die, all rolls, by side, by purpose kind."""
    faces = group["faces"]
    out = [_table_head(f"d{faces}", faces), _stat_line("all", group["all"])]
    out += [_stat_line(f"side {side}", s) for side, s in group["by_side"].items()]
    out += [_stat_line(f"purpose {kind}", s) for kind, s in group["by_kind"].items()]
    if 0 < group["all"]["n"] < min_rolls_for_p(faces):
        out.append(f"  (with fewer than {min_rolls_for_p(faces)} rolls a p-value says little)")
    return out


def _statistics(report: AuditReport) -> list[str]:
    stats = report.stats
    d6 = {"faces": 6, **{k: stats[k] for k in ("all", "by_side", "by_kind")}}
    groups = list(stats.get("by_die", {}).values()) or [d6]
    upto = report.stats_rows
    if upto == 0:
        return ["Dice statistics: none (the log fails at its start: no roll in it is trusted)."]
    out = [_stat_title(groups)]
    if upto is not None:
        out.append(
            f"  Only rows 0-{upto - 1} are counted, before the failure: nothing from row {upto}"
            " on is trusted."
        )
    for group in groups:
        out += _group_table(group)
    return out


def format_report(report: AuditReport) -> str:
    """A moderator's text: verdict and first failure, epochs, fixed rolls, dice statistics."""
    out = [_title(report), *_verdict(report), *_epochs(report), *_fixed(report)]
    out += _statistics(report)
    out += [f"Warning: {w}" for w in report.warnings]
    return "\n".join(out)

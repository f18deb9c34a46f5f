"""The moderator's text of an audit report: verdict and first failure, epochs, hidden
information, fixed rolls, dice statistics and warnings."""

from __future__ import annotations

from typing import Any

from storage.audit.state import AuditReport
from storage.audit.stats import min_rolls_for_p
from storage.chain import AT_ROW, IN_HEADER
from texts.i18n import Msg, cat, lines, t, tn
from texts.text import plural

WIDEST_TABLE = 20  # a die of more faces is listed without its counts per face


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, str) and len(value) > 72:
        return value[:69] + "..."
    return value if isinstance(value, str) else str(value)  # a Msg stays one


def _stat_line(label: str, s: dict[str, Any]) -> str:
    wide = len(s["counts"]) > WIDEST_TABLE
    counts = "" if wide else " ".join(f"{c:>5}" for c in s["counts"]) + " "
    mean = f"{s['mean']:.2f}" if s["mean"] is not None else "  -"
    rest = f"{s['n']:>6} {counts}{mean:>5} {s['chi2']:>7.2f} {s['p']:>6.3f}"
    return t("  {label:<18}{rest}", label=label, rest=rest)  # the label padded as said


def _title(report: AuditReport) -> str:
    g = report.game
    return tn(
        "Audit of game {name} ({game}, uid {uid}): {n} rows, head hash {head}",
        "Audit of game {name} ({game}, uid {uid}): {n} rows, head hash {head}",
        report.rows,
        name=repr(g.get("name")),
        game=g.get("game") or "?",
        uid=g.get("game_uid"),
        head=g.get("head_hash"),  # whole: the audit is where a kept prefix is checked
    )


def _verdict(report: AuditReport) -> list[str]:
    if report.ok:
        seeds = len(report.epochs_revealed)
        ok = t(
            "OK: the chain holds, {seeds}, {rolls} recomputed exactly.",
            seeds=tn(
                "{n} revealed seed matches its commitment",
                "{n} revealed seeds match their commitments",
                seeds,
            ),
            rolls=plural(report.rolls_checked, "roll"),
        )
        return [ok]
    f = report.first_failure
    if f is None:
        raise ValueError("a failed audit report names its first failure")
    where = t("in the header") if f["index"] is None else t("at row {row}", row=f["index"])
    problem = _without_prefix(f["problem"], (f"row {f['index']}: ", "header: "))
    out: list[str] = [
        t("FAILED {where}: {problem}", where=where, problem=problem),
        t("  expected: {value}", value=_fmt(f["expected"])),
        t("  found:    {value}", value=_fmt(f["found"])),
    ]
    if len(report.failures) > 1:
        more = plural(len(report.failures) - 1, "more problem")
        out.append(t("  ({more} after it; the first one counts)", more=more))
    return out


def _without_prefix(problem: str, prefixes: tuple[str, ...]) -> str:
    """The problem without a leading "row N: " or "header: " (a Msg made by at_row or
    in_header: its inner text, so that it is still said in every language)."""
    if isinstance(problem, Msg) and problem.template in (AT_ROW, IN_HEADER):
        inner: str = problem.args["problem"]
        return inner
    for prefix in prefixes:
        problem = problem.removeprefix(prefix)
    return problem


def _epochs(report: AuditReport) -> list[str]:
    out: list[str] = []
    if report.epochs_revealed:
        rev = cat(*map(str, report.epochs_revealed), sep=", ")
        out.append(t("Epochs: revealed {epochs}", epochs=rev))
    if report.epochs_open:
        out.append(
            t(
                "Epochs not revealed yet: {epochs} ({rolls} pending until the seed is revealed)",
                epochs=", ".join(map(str, report.epochs_open)),
                rolls=plural(report.rolls_pending, "roll"),
            )
        )
    if report.hidden_revealed:
        out.append(
            t(
                "Hidden information: hidden seed revealed, {values} checked.",
                values=plural(report.hidden_checked, "hidden value"),
            )
        )
    elif report.hidden_pending:
        out.append(
            t(
                "Hidden information: {values} sealed until the game ends.",
                values=plural(report.hidden_pending, "hidden value"),
            )
        )
    return out


def _fixed(report: AuditReport) -> list[str]:
    if not report.fixed:
        return [t("No roll was fixed by a moderator.")]
    title = t(
        "Fixed by a moderator ({n}; not random, never recomputed, not in the statistics):",
        n=report.rolls_fixed,
    )
    out: list[str] = [title]
    for fx in report.fixed:
        out.append(
            t(
                "  row {row}  {actor} {purpose} = {value}  (fixed)",
                row=f"{fx['index']:>4}",
                actor=f"{fx['actor']:<8}",
                purpose=fx["purpose"],
                value=fx["value"],
            )
        )
    return out


def _table_head(label: str, faces: int) -> str:
    heads = " ".join(f"{i:>5}" for i in range(1, faces + 1)) + " " if faces <= WIDEST_TABLE else ""
    return t(
        "  {label:<18}{n:>6} {heads}{mean:>5} {chi2:>7} {p:>6}",
        label=label,
        n="n",
        heads=heads,
        mean=t("mean"),
        chi2="chi2",
        p="p",
    )


def _stat_title(groups: list[dict[str, Any]]) -> str:
    if len(groups) == 1:
        f = groups[0]["faces"]
        against = t("a fair d{faces}, df {df}", faces=f, df=f - 1)
    else:
        against = t("a fair die of its size, df = faces - 1")
    return t("Dice statistics (random rolls only; chi-square against {against}):", against=against)


def _group_table(group: dict[str, Any]) -> list[str]:
    """One die size's table: its head naming the die, all rolls, by side, by purpose kind."""
    faces = group["faces"]
    out = [_table_head(f"d{faces}", faces), _stat_line(t("all"), group["all"])]
    out += [_stat_line(t("side {side}", side=side), s) for side, s in group["by_side"].items()]
    out += [_stat_line(t("purpose {kind}", kind=kind), s) for kind, s in group["by_kind"].items()]
    if 0 < group["all"]["n"] < min_rolls_for_p(faces):
        out.append(
            t("  (with fewer than {n} rolls a p-value says little)", n=min_rolls_for_p(faces))
        )
    return out


def _statistics(report: AuditReport) -> list[str]:
    stats = report.stats
    d6 = {"faces": 6, **{k: stats[k] for k in ("all", "by_side", "by_kind")}}
    groups = list(stats.get("by_die", {}).values()) or [d6]
    upto = report.stats_rows
    if upto == 0:
        return [t("Dice statistics: none (the log fails at its start: no roll in it is trusted).")]
    out = [_stat_title(groups)]
    if upto is not None:
        out.append(
            t(
                "  Only rows 0-{last} are counted, before the failure: nothing from row {upto}"
                " on is trusted.",
                last=upto - 1,
                upto=upto,
            )
        )
    for group in groups:
        out += _group_table(group)
    return out


def format_report(report: AuditReport) -> str:
    """A moderator's text: verdict and first failure, epochs, fixed rolls, dice statistics."""
    out = [_title(report), *_verdict(report), *_epochs(report), *_fixed(report)]
    out += _statistics(report)
    out += [t("Warning: {warning}", warning=w) for w in report.warnings]
    return lines(out)

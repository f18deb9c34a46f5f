"""What `pbem repair` tells the operator: sentences, in his language (never a payload's dict)."""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import Msg, t, tn
from app.repairs import Repaired


def _bare(problem: Any, row: int) -> Any:
    """A problem without its "row N: " when the sentence names the row already."""
    said_row = isinstance(problem, Msg) and problem.template == "row {row}: {problem}"
    if said_row and problem.args.get("row") == row:
        return problem.args.get("problem")
    return problem


def _rows(indexes: list[int]) -> str:
    """Row numbers as a reader takes them in: "4, 7, 9" (runs as "4-9")."""
    runs: list[list[int]] = []
    for i in indexes:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def repair_report(name: str, done: Repaired, again: bool) -> list[str]:
    """The lines that say what the repair did (app/repairs.py Repaired)."""
    said = [_found(done), _rebuilt(name, done)]
    if done.cut_more is not None:
        said.append(
            t(
                "Revealing the seed of the open dice epoch showed an earlier row bad too (row"
                " {row}: {problem}): the repair cut there.",
                row=done.cut_more.index,
                problem=_bare(done.cut_more.problem, done.cut_more.index),
            )
        )
    said += _orders(name, done, again)
    return said


def _found(done: Repaired) -> str:
    bad = done.bad
    if bad is None:
        return t("The full audit found no bad row; every cache was rewritten from the chain.")
    if not bad.cut:
        return t(
            "The full audit names row {row} ({problem}): a cache, rewritten from the chain;"
            " no row is dropped for it.",
            row=bad.index,
            problem=_bare(bad.problem, bad.index),
        )
    return t(
        "The full audit names row {row} as the first bad row: {problem}.",
        row=bad.index,
        problem=_bare(bad.problem, bad.index),
    )


def _not_reapplied(row: int, why: object) -> str:
    """One order not given again, as one sentence (a rules' refusal ends with its own stop)."""
    if str(why).rstrip()[-1:] in (".", "!", "?"):
        return t("Not re-applied: the order of row {row}: {why}", row=row, why=why)
    return t("Not re-applied: the order of row {row}: {why}.", row=row, why=why)


def _rebuilt(name: str, done: Repaired) -> str:
    n = len(done.dropped)
    return tn(
        "Repaired {game}: rebuilt from row {row}, {n} row after it dropped; the repair is logged"
        " at row {logged}, and the game's full audit passes.",
        "Repaired {game}: rebuilt from row {row}, {n} rows after it dropped; the repair is logged"
        " at row {logged}, and the game's full audit passes.",
        n,
        game=name,
        row=done.from_row,
        logged=done.logged_at,
    )


def _orders(name: str, done: Repaired, again: bool) -> list[str]:
    orders = done.dropped_orders
    if not orders:
        return []
    said: list[str] = []
    if not again:
        said.append(
            tn(
                "The dropped rows hold {n} order (row {rows}); it was not given again."
                " `pbem repair {game} --reapply`, run now, re-applies it with the dice its row"
                " rolled, where the rules still accept it.",
                "The dropped rows hold {n} orders (rows {rows}); they were not given again."
                " `pbem repair {game} --reapply`, run now, re-applies them with the dice their"
                " rows rolled, where the rules still accept them.",
                len(orders),
                rows=_rows(orders),
                game=name,
            )
        )
    elif done.reapplied is not None:
        kept = done.reapplied.applied
        said.append(
            tn(
                "Re-applied {n} of the {total} dropped orders with the dice its row rolled:"
                " row {rows} (now row {now}).",
                "Re-applied {n} of the {total} dropped orders with the dice their rows rolled:"
                " rows {rows} (now rows {now}).",
                len(kept),
                total=len(orders),
                rows=_rows([old for old, _ in kept]),
                now=_rows([new for _, new in kept]),
            )
            if kept
            else t("Re-applied none of the {total} dropped orders.", total=len(orders))
        )
        for old, why in done.reapplied.refused:
            said.append(_not_reapplied(old, why))
    said.append(
        t(
            "Only order rows are re-applied: salts, seats, moderation, undo and rewind rows are"
            " not (a moderator gives them again)."
        )
    )
    return said


__all__ = ["repair_report"]

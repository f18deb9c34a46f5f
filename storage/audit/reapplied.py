"""The auditor's checks of re-applied orders (`pbem repair NAME --reapply`, app/reapply.py).

A repair row (a `moderation` row, action "repair") holds the rows it dropped whole
(`dropped_rows`). An `order` row whose payload names one of them (`reapplies`) gives that order
again after the repair, with the dice its dropped row rolled: it must be that row's order (same
side, user and text), re-applied once, and carry exactly its drawn rolls; each such roll must be
of an epoch whose seed the log has revealed by then (its commitment chained before), numbered
after that epoch's draws in the log and after the rolls re-applied before it, and recompute from
the seed, the epoch's salts and its number. Its fixed rolls are listed as fixed.
"""

from __future__ import annotations

from typing import Any

from storage.audit.rolls import RollChecks
from storage.audit.state import _is_int
from storage.audit.stats import purpose_kind
from storage.chain import at_row
from storage.dice import roll_value, salt_digest
from texts.i18n import t


def _drawn(rolls: object) -> list[Any]:
    if not isinstance(rolls, list):
        return []
    return [r for r in rolls if not (isinstance(r, dict) and r.get("fixed") is True)]


class ReappliedChecks(RollChecks):
    """The dropped rows of the last repair, and each re-applied order against them."""

    def __init__(self, header: object, rows: list[Any]) -> None:
        super().__init__(header, rows)
        self.dropped_rows: dict[Any, dict[str, Any]] = {}  # the last repair's, by index
        self.reapplied_rows: set[int] = set()
        self.reapplied_n: dict[int, int] = {}  # epoch -> the last number a re-applied roll used

    def on_moderation(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        if p.get("action") != "repair":
            return
        given = p.get("dropped_rows")
        kept = given if isinstance(given, list) else []
        self.dropped_rows = {r.get("index"): r for r in kept if isinstance(r, dict)}
        self.reapplied_rows = set()
        self.reapplied_n = {}

    def on_reapplied(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        src_index = p.get("reapplies")
        src = self.dropped_rows.get(src_index) if _is_int(src_index) else None
        if src is None or src.get("kind") != "order" or not _is_int(src_index):
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "it re-applies row {row}, no order row the last repair dropped",
                        row=repr(src_index),
                    ),
                ),
                t("an order row the last repair dropped"),
                src_index,
            )
            return
        if src_index in self.reapplied_rows:
            self.fail(
                pos,
                at_row(pos, t("row {row} is re-applied twice", row=src_index)),
                t("once"),
                t("row {pos}", pos=pos),
            )
            return
        self.reapplied_rows.add(src_index)
        if any(src.get(f) != row.get(f) for f in ("actor", "user", "text")):
            self.fail(
                pos,
                at_row(
                    pos, t("it is not the order of the dropped row {row} it names", row=src_index)
                ),
                src.get("text"),
                row.get("text"),
            )
            return
        raw = src.get("payload")
        payload: dict[str, Any] = raw if isinstance(raw, dict) else {}
        mine, theirs = _drawn(p.get("rolls")), _drawn(payload.get("rolls"))
        if mine != theirs:
            self.fail(
                pos,
                at_row(
                    pos, t("its dice are not the rolls of the dropped row {row}", row=src_index)
                ),
                theirs,
                mine,
            )
            return
        side = row["actor"] if isinstance(row["actor"], str) and row["actor"] else "-"
        for rec in p.get("rolls") or []:
            if isinstance(rec, dict) and rec.get("fixed") is True:
                faces = rec.get("faces", 6)
                self.on_fixed_roll(pos, t("row {pos}", pos=pos), rec, side, faces)
        for rec in mine:
            if not self._reapplied_roll(pos, rec, side):
                return

    def _reapplied_roll(self, pos: int, rec: Any, side: str) -> bool:
        k = rec.get("epoch") if isinstance(rec, dict) else None
        ep = self.epochs.get(k) if _is_int(k) else None
        purpose = rec.get("purpose") if isinstance(rec, dict) else None
        if (
            not isinstance(rec, dict)
            or not _is_int(k)
            or ep is None
            or ep.seed is None
            or rec.get("hidden")
            or not isinstance(purpose, str)
        ):
            self.fail(
                pos,
                at_row(pos, t("a re-applied roll is of no epoch whose seed is revealed")),
                t("a revealed epoch"),
                k,
            )
            return False
        n, value, faces = rec.get("n"), rec.get("value"), rec.get("faces", 6)
        last = max(ep.last_n, self.reapplied_n.get(k, 0))
        if not _is_int(n) or n <= last:
            self.fail(
                pos,
                at_row(
                    pos,
                    t("a re-applied roll is numbered out of sequence in epoch {number}", number=k),
                ),
                f"n > {last}",
                f"n {n}",
            )
            return False
        try:
            expected = roll_value(
                ep.seed, self.uid or "", k, n, purpose, salt_digest(ep.salts), faces
            )
        except (TypeError, ValueError):
            expected = None
        if self.uid is not None and expected != value:
            self.fail(
                pos,
                at_row(
                    pos,
                    t(
                        "a re-applied roll does not recompute (epoch {number}, n {n})",
                        number=k,
                        n=n,
                    ),
                ),
                expected,
                value,
            )
            return False
        self.reapplied_n[k] = n
        self.rolls_checked += 1
        if _is_int(value) and _is_int(faces):  # in the dice statistics, as any checked roll
            self.public.append((side, purpose_kind(purpose), value, faces))
            self.public_rows.append(pos)
        return True

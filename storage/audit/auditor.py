"""The audit of a log: the walk over its rows, each kind's checks, and the final report.

`audit(header, rows)` checks, and names the FIRST failing row (by the index it should carry):
- the chain (index order, prev_hash links, each row's hash), the header's row count and head hash;
- the header against the setup row (scenario_sha256 of scenario_text; game_uid, name, game and
  sandbox when the setup payload carries them);
- epochs numbered 1, 2, ...; salts only before the epoch's first draw; draws numbered n = 1, 2, ...
  per epoch (public and hidden share the counter); no draw in an epoch after its reveal;
- each revealed seed against its commitment; every non-fixed roll of a revealed epoch recomputed;
- the hidden seed against its commitment once revealed, every hidden draw recomputed then, and
  every hidden value's salted commitment;
- an order a repair re-applied against the dropped row it names (storage/audit/reapplied.py).
Fixed rolls are listed as fixed, never recomputed, never counted. Rolls of epochs whose seed is not
revealed yet are pending, not failures.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from storage.audit.epochs import EpochChecks
from storage.audit.export import GAME_END_KIND, ROW_FIELDS, SECRET_FIELD
from storage.audit.header import HeaderChecks
from storage.audit.reapplied import ReappliedChecks
from storage.audit.state import ALLOWED_ROW_KEYS, PAYLOAD_KINDS, AuditReport, _is_int
from storage.audit.stats import dice_stats
from storage.chain import at_row, chain_failure, row_defect
from texts.i18n import t, tn

UNCHECKED: Any = object()  # audit's `chained` when the caller has not checked the chain
_Handler = Callable[["_Auditor", int, dict[str, Any], dict[str, Any]], None]  # a kind's checks


class _Auditor(HeaderChecks, ReappliedChecks):
    """One audit: header checks, the chain, then every row by its kind, then the report."""

    def walk(self) -> None:
        for pos, row in enumerate(self.rows):
            self.check_row(pos, row)
        self.finish()

    def check_row(self, pos: int, row: dict[str, Any]) -> None:
        if row_defect(row):
            return  # the chain check reports it
        extra = sorted(set(row) - ALLOWED_ROW_KEYS, key=str)
        if extra:
            self.fail(
                pos,
                at_row(
                    pos,
                    tn(
                        "field {join} is no part of a log row",
                        "fields {join} are no part of a log row",
                        len(extra),
                        join=", ".join(map(str, extra)),
                    ),
                ),
                t("only {fields} and secret", fields=", ".join(ROW_FIELDS)),
                extra,
            )
        kind, payload = row["kind"], row["payload"]
        self.check_place(pos, kind, payload)
        if kind in PAYLOAD_KINDS and not (isinstance(payload, dict)):
            self.fail(
                pos,
                at_row(pos, t("{kind} row without a payload object", kind=kind)),
                t("an object"),
                payload,
            )
            return
        handler = self.KIND_HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler:
            handler(self, pos, row, payload)
        if isinstance(payload, dict):
            if kind == "order" and "reapplies" in payload:  # after a repair: reapplied.py
                self.on_reapplied(pos, row, payload)
            elif "rolls" in payload:
                self.on_rolls(pos, row, payload["rolls"])
            if "hidden" in payload:
                self.on_hidden_values(pos, payload["hidden"])
        if row.get(SECRET_FIELD) is not None:
            self.on_secret(pos, row)

    def check_place(self, pos: int, kind: object, payload: object) -> None:
        """The setup row is row 0, and only row 0."""
        if pos == 0:
            if kind != "setup":
                self.fail(0, t("row 0 is not the setup row"), t("setup"), kind)
            else:
                self.check_setup(payload)
        elif kind == "setup":
            self.fail(
                pos, at_row(pos, t("a second setup row")), t("no setup row after row 0"), kind
            )

    def on_undo(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        targets = p.get("targets")
        if not isinstance(targets, list) or not all(
            _is_int(q)
            and 0 <= q < pos
            and isinstance(self.rows[q], dict)
            and self.rows[q].get("kind") == "order"
            for q in targets
        ):
            self.fail(
                pos,
                at_row(pos, t("undo must name earlier order rows")),
                t("order row indexes"),
                targets,
            )

    def on_rewind(self, pos: int, row: dict[str, Any], p: dict[str, Any]) -> None:
        to = p.get("to")
        if not _is_int(to) or not 0 <= to < pos:
            self.fail(
                pos, at_row(pos, t("rewind target is not an earlier row")), f"0..{pos - 1}", to
            )

    KIND_HANDLERS: ClassVar[dict[str, _Handler]] = {
        "epoch": EpochChecks.on_epoch,
        "salt": EpochChecks.on_salt,
        "reveal": EpochChecks.on_reveal,
        GAME_END_KIND: EpochChecks.on_reveal_hidden,
        "undo": on_undo,
        "rewind": on_rewind,
        "moderation": ReappliedChecks.on_moderation,
    }

    def finish(self) -> None:
        self.finish_hidden()
        numbers = sorted(self.epochs)
        for k in numbers:
            ep = self.epochs[k]
            if ep.reveal_row is None and k != numbers[-1]:
                self.warnings.append(
                    t(
                        "epoch {k} ended (epoch {value} opened at row {row}) but its seed is not revealed",
                        k=k,
                        value=k + 1,
                        row=self.epochs[k + 1].row,
                    )
                )

    def report(self, chained: Any = UNCHECKED) -> AuditReport:
        self.check_header()
        cf = chain_failure(self.rows) if chained is UNCHECKED else chained
        if cf:
            self.fail(cf["index"], cf["problem"], cf["expected"], cf["found"], rank=0)
        self.walk()
        ordered = sorted(self.failures, key=lambda pair: pair[0])
        failures = [f for _, f in ordered]
        upto = max(ordered[0][0][0], 0) if ordered else None  # the row the first failure shows at
        trusted = [
            roll
            for roll, q in zip(self.public, self.public_rows, strict=True)
            if upto is None or q < upto
        ]
        revealed = [k for k, ep in sorted(self.epochs.items()) if ep.seed is not None]
        open_ = [k for k, ep in sorted(self.epochs.items()) if ep.reveal_row is None]
        h = self.header
        return AuditReport(
            ok=not failures,
            rows=len(self.rows),
            first_failure=failures[0] if failures else None,
            epochs_revealed=revealed,
            epochs_open=open_,
            rolls_checked=self.rolls_checked,
            rolls_fixed=len(self.fixed),
            stats=dice_stats(trusted),
            stats_rows=upto,
            rolls_pending=sum(len(self.epochs[k].rolls) for k in open_),
            fixed=self.fixed,
            hidden_revealed=self.hidden_seed is not None,
            hidden_checked=self.hidden_checked,
            hidden_pending=self.hidden_pending,
            failures=failures,
            warnings=self.warnings,
            game={k: h.get(k) for k in ("name", "game", "game_uid", "head_hash")},
        )


def audit(header: object, rows: list[Any], chained: Any = UNCHECKED) -> AuditReport:
    """Check an exported (or stored) log; the report names the first failing row. chained:
    storage.chain.chain_failure(rows), where the caller has it already (the stored game's
    audit hashes its rows once: storage/audit_read.py)."""
    return _Auditor(header, rows).report(chained)

"""The auditor's header checks: format, game uid, row count, head hash, and the setup row."""

from __future__ import annotations

import hashlib

from storage.audit.export import FORMAT
from storage.audit.state import AuditState, _is_int
from storage.chain import in_header
from texts.i18n import t


class HeaderChecks(AuditState):
    """The export header against the rows it heads and against the setup row."""

    def check_header(self) -> None:
        h = self.header
        if "_error" in h:
            self.fail(
                None,
                t("header unreadable: {error}", error=h["_error"]),
                t("a header object"),
                h["_error"],
            )
            return
        if h.get("format") != FORMAT:
            self.fail(None, in_header(t("unknown export format")), FORMAT, h.get("format"))
        uid = h.get("game_uid")
        if not isinstance(uid, str) or not uid or "|" in uid:
            self.fail(
                None,
                in_header(t("no usable game_uid (rolls cannot be recomputed)")),
                t("a game uid"),
                uid,
            )
        else:
            self.uid = uid
        declared, n = h.get("rows"), len(self.rows)
        self._check_row_count(declared, n)
        self._check_head_hash(h.get("head_hash"), declared, n)
        if not self.rows:
            self.fail(0, t("the log is empty (no setup row)"), t("a setup row"), None)

    def _check_row_count(self, declared: object, n: int) -> None:
        if declared == n:
            return
        if _is_int(declared) and declared > n:
            self.fail(
                n,
                t(
                    "row {n} is missing: the header says {declared} rows, the file holds {n}",
                    n=n,
                    declared=declared,
                ),
                t("{declared} rows", declared=declared),
                t("{n} rows", n=n),
            )
        elif _is_int(declared):
            self.fail(
                declared,
                t(
                    "row {declared} is beyond the header's {declared} rows (appended after the export?)",
                    declared=declared,
                ),
                t("{declared} rows", declared=declared),
                t("{n} rows", n=n),
            )
        else:
            self.fail(None, in_header(t("row count missing")), n, declared)

    def _check_head_hash(self, head: object, declared: object, n: int) -> None:
        hashes = [r.get("hash") if isinstance(r, dict) else None for r in self.rows]
        if not self.rows or head == hashes[-1] or (_is_int(declared) and declared > n):
            return
        q = hashes.index(head) if head in hashes else None
        if q is None:
            self.fail(
                n - 1,
                t(
                    "head hash mismatch: the header's head hash is not row {value}'s hash (the last row was changed or rows after it were removed, or the header was edited)",
                    value=n - 1,
                ),
                head,
                hashes[-1],
            )
        elif not (_is_int(declared) and declared == q + 1):
            self.fail(
                q + 1,
                t(
                    "rows from {value} on come after the header's head hash (row {q}'s): added after the export",
                    value=q + 1,
                    q=q,
                ),
                head,
                hashes[-1],
            )

    def check_setup(self, payload: object) -> None:
        h = self.header
        if "_error" in h or not isinstance(payload, dict):
            return
        digest = payload.get("scenario_sha256")
        text = h.get("scenario_text")
        if digest is not None and isinstance(text, str):
            found = hashlib.sha256(text.encode()).hexdigest()
            if found != digest:
                self.fail(
                    None,
                    in_header(t("scenario_text does not match the setup row's scenario_sha256")),
                    digest,
                    found,
                    at=0,
                )
        for key in ("game_uid", "name", "game", "sandbox"):
            if key in payload and key in h and payload[key] != h[key]:
                self.fail(
                    None,
                    in_header(t("{key} does not match the setup row", key=key)),
                    payload[key],
                    h[key],
                    at=0,
                )

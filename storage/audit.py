"""The offline audit of a game's log: chain, seeds, every roll, hidden values, dice statistics.

Pure standard library (no database): `pbem audit --verify FILE.jsonl` runs it on any machine.

Export (JSONL, UTF-8, one canonical JSON object per line, storage.chain.canonical):
  line 1: the header {"format": "pbem-audit/1", "game_uid", "name", "game", "scenario_text",
          "sandbox", "created_at", "head_hash", "rows": N, ...}
  then one line per log row, in index order: the chained fields (storage.chain.CHAINED_FIELDS) plus
  "prev_hash" and "hash"; once the game has ended (a "reveal-hidden" row exists) also the row's
  off-chain "secret" list of {"commitment", "value", "salt"} entries. Unrevealed seeds are never in
  an export: only "reveal" rows hold seeds.

`audit(header, rows)` checks, and names the FIRST failing row (by the index it should carry):
- the chain (index order, prev_hash links, each row's hash), the header's row count and head hash;
- the header against the setup row (scenario_sha256 of scenario_text; game_uid, name, game and
  sandbox when the setup payload carries them);
- epochs numbered 1, 2, ...; salts only before the epoch's first draw; draws numbered n = 1, 2, ...
  per epoch (public and hidden share the counter); no draw in an epoch after its reveal;
- each revealed seed against its commitment; every non-fixed roll of a revealed epoch recomputed;
- the hidden seed against its commitment once revealed, every hidden draw recomputed then, and
  every hidden value's salted commitment.
Fixed rolls are listed as fixed, never recomputed, never counted. Rolls of epochs whose seed is not
revealed yet are pending, not failures.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from storage.chain import CHAINED_FIELDS, GENESIS, LINK_FIELDS, canonical, chain_failure, row_defect
from storage.dice import (
    HEX64,
    HIDDEN_PREFIX,
    check_hidden,
    commitment,
    roll_value,
    salt_digest,
)

FORMAT = "pbem-audit/1"
ROW_FIELDS = CHAINED_FIELDS + LINK_FIELDS
SECRET_FIELD = "secret"
GAME_END_KIND = "reveal-hidden"
ALLOWED_ROW_KEYS = frozenset(ROW_FIELDS + (SECRET_FIELD,))
PAYLOAD_KINDS = frozenset(("order", "epoch", "salt", "reveal", GAME_END_KIND, "undo", "rewind"))
MIN_ROLLS_FOR_P = 30  # below this (expected < 5 per face) the chi-square p-value means little


# --------------------------------------------------------------------------- export file


def export_lines(header: dict, rows: list[dict]) -> list[str]:
    """The lines of an export (without newlines); see write_export."""
    header = dict(header)
    for key in header:
        if "seed" in key.lower() or "secret" in key.lower():
            raise ValueError(f"refusing to export a header field named {key!r}")
    header.setdefault("format", FORMAT)
    header.setdefault("rows", len(rows))
    header.setdefault("head_hash", rows[-1]["hash"] if rows else GENESIS)
    ended = any(r.get("kind") == GAME_END_KIND for r in rows)
    lines = [canonical(header).decode()]
    for r in rows:
        out = {f: r[f] for f in ROW_FIELDS}
        if ended and r.get(SECRET_FIELD):
            out[SECRET_FIELD] = r[SECRET_FIELD]
        lines.append(canonical(out).decode())
    return lines


def write_export(path, header: dict, rows: list[dict], *, forbidden=()) -> None:
    """Write the export: header line, then each row's chained fields + prev_hash + hash.

    Missing header fields "format", "rows" and "head_hash" are filled in from the rows. A row's
    off-chain "secret" is written only when the log holds a "reveal-hidden" row (the game ended);
    any other extra field of a row is dropped. `forbidden`: strings that must not appear anywhere
    in the file (pass the unrevealed seeds); if one does, nothing is written and ValueError says so.
    """
    lines = export_lines(header, rows)
    text = "\n".join(lines) + "\n"
    for secret in forbidden:
        if secret and secret in text:
            raise ValueError("refusing to export: an unrevealed secret would appear in the file")
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(text.encode())
    tmp.replace(path)


def _parse_line(number: int, raw: bytes) -> dict:
    """One JSONL line as a dict; an unreadable or non-canonical line gets an "_error" key."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return {"_error": f"line {number} is not UTF-8 ({exc.reason})"}
    try:
        obj = json.loads(text)
    except ValueError as exc:
        return {"_error": f"line {number} is not valid JSON ({exc})"}
    if not isinstance(obj, dict):
        return {"_error": f"line {number} is not a JSON object"}
    try:
        same = canonical(obj) == raw
    except (TypeError, ValueError):
        same = False
    if not same:
        obj = dict(obj)
        obj["_error"] = f"line {number} is not in canonical form (edited by hand?)"
    return obj


def parse_export(data: bytes) -> tuple[dict, list[dict]]:
    """(header, rows) from the bytes of an export. Never raises on bad content: an unreadable line
    becomes a row (or header) carrying "_error", which the audit reports at its position."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        return {"_error": "the file is empty"}, []
    header = _parse_line(1, lines[0])
    rows = [_parse_line(i + 2, raw) for i, raw in enumerate(lines[1:])]
    return header, rows


def read_export(path) -> tuple[dict, list[dict]]:
    """(header, rows) of an export file written by write_export."""
    return parse_export(Path(path).read_bytes())


# --------------------------------------------------------------------------- statistics


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with integer df >= 1 (closed forms, no SciPy).

    Odd df: erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) sum_{k=1}^{(df-1)/2} x^(k-1) / (1*3*...*(2k-1));
    even df: e^(-x/2) sum_{k=0}^{df/2-1} (x/2)^k / k!. For df = 5 this is the design's
    Q(x) = erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) (1 + x/3).
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"df must be a positive integer, got {df!r}")
    if x <= 0:
        return 1.0
    if df % 2:
        total, term = 0.0, 1.0
        for k in range(1, (df - 1) // 2 + 1):
            if k > 1:
                term *= x / (2 * k - 1)
            total += term
        p = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * total
    else:
        total, term = 0.0, 1.0
        for k in range(df // 2):
            if k:
                term *= (x / 2) / k
            total += term
        p = math.exp(-x / 2) * total
    return min(1.0, max(0.0, p))


def chi_square_p(counts: list[int]) -> tuple[float, float]:
    """(chi2, p) of face counts 1-6 against a fair d6 (df = 5). No rolls: (0.0, 1.0)."""
    if len(counts) != 6:
        raise ValueError(f"need 6 face counts, got {len(counts)}")
    n = sum(counts)
    if n == 0:
        return 0.0, 1.0
    expected = n / 6
    chi2 = sum((c - expected) ** 2 for c in counts) / expected
    return chi2, chi2_sf(chi2, 5)


def face_stats(values) -> dict:
    """{"counts": [c1..c6], "n", "mean", "chi2", "p"} of die faces 1-6."""
    counts = [0] * 6
    for v in values:
        counts[v - 1] += 1
    n = sum(counts)
    chi2, p = chi_square_p(counts)
    mean = sum((i + 1) * c for i, c in enumerate(counts)) / n if n else None
    return {"counts": counts, "n": n, "mean": mean, "chi2": chi2, "p": p}


def purpose_kind(purpose: str) -> str:
    """The first word of a roll's purpose: "combat C6" -> "combat"."""
    words = purpose.split()
    return words[0] if words else "?"


# --------------------------------------------------------------------------- the audit


@dataclass
class AuditReport:
    ok: bool
    rows: int
    first_failure: dict | None  # {"index" (None = the header), "problem", "expected", "found"}
    epochs_revealed: list[int]
    epochs_open: list[int]
    rolls_checked: int  # non-fixed public rolls recomputed from their revealed seed
    rolls_fixed: int
    stats: dict  # {"all": s, "by_side": {side: s}, "by_kind": {kind: s}}, s = face_stats(...)
    rolls_pending: int = 0  # rolls of epochs whose seed is not revealed yet
    fixed: list[dict] = field(default_factory=list)  # {"index","actor","purpose","value"}
    hidden_revealed: bool = False
    hidden_checked: int = 0  # hidden draws recomputed and hidden values matched, at game end
    hidden_pending: int = 0  # hidden draws and values sealed until the game ends
    failures: list[dict] = field(default_factory=list)  # every problem found, first one first
    warnings: list[str] = field(default_factory=list)
    game: dict = field(default_factory=dict)  # name, game, game_uid, head_hash from the header


@dataclass
class _Epoch:
    number: int
    row: int
    commitment: str
    salts: list[str] = field(default_factory=list)
    first_draw_row: int | None = None
    last_n: int = 0
    rolls: list[tuple[int, str, int, int]] = field(default_factory=list)  # (row, purpose, n, value)
    reveal_row: int | None = None
    seed: str | None = None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_hex64(value) -> bool:
    return isinstance(value, str) and len(value) == 64 and HEX64.issuperset(value)


class _Auditor:
    def __init__(self, header, rows):
        self.header = header if isinstance(header, dict) else {"_error": "header is not an object"}
        self.rows = rows
        self.failures: list[dict] = []
        self.warnings: list[str] = []
        self.epochs: dict[int, _Epoch] = {}
        self.hidden_commitment: str | None = None
        self.hidden_commitment_row: int | None = None
        self.hidden_seed: str | None = None
        self.hidden_rolls: list[tuple[int, dict, int, int]] = []  # (row, record, epoch, n)
        self.hidden_values: list[tuple[int, str]] = []  # (row, commitment)
        self.secrets: dict[int, dict[str, object]] = {}  # row -> {commitment: value}
        self.fixed: list[dict] = []
        self.public: list[tuple[str, str, int]] = []  # (side, kind, value) of non-fixed rolls
        self.rolls_checked = 0
        self.hidden_checked = 0
        self.uid = None

    def fail(self, index, problem, expected=None, found=None, *, at=None, rank=1):
        """Record a problem at row `index` (None: the header). Failures are ordered by `at` (the
        row position the problem shows at: the index, or for a header/setup disagreement row 0,
        -1 for the header alone), then `rank` (0: the chain itself, which is reported first)."""
        if at is None:
            at = -1 if index is None else index
        self.failures.append(
            (
                (at, rank, len(self.failures)),
                {"index": index, "problem": problem, "expected": expected, "found": found},
            )
        )

    # -- header, count, head

    def check_header(self):
        h = self.header
        if "_error" in h:
            self.fail(None, f"header unreadable: {h['_error']}", "a header object", h["_error"])
            return
        if h.get("format") != FORMAT:
            self.fail(None, "header: unknown export format", FORMAT, h.get("format"))
        uid = h.get("game_uid")
        if not isinstance(uid, str) or not uid or "|" in uid:
            self.fail(
                None, "header: no usable game_uid (rolls cannot be recomputed)", "a game uid", uid
            )
        else:
            self.uid = uid
        declared, n = h.get("rows"), len(self.rows)
        if declared != n:
            if _is_int(declared) and declared > n:
                self.fail(
                    n,
                    f"row {n} is missing: the header says {declared} rows, the file holds {n}",
                    f"{declared} rows",
                    f"{n} rows",
                )
            elif _is_int(declared):
                self.fail(
                    declared,
                    f"row {declared} is beyond the header's {declared} rows"
                    " (appended after the export?)",
                    f"{declared} rows",
                    f"{n} rows",
                )
            else:
                self.fail(None, "header: row count missing", n, declared)
        head = h.get("head_hash")
        hashes = [r.get("hash") if isinstance(r, dict) else None for r in self.rows]
        if self.rows and head != hashes[-1] and not (_is_int(declared) and declared > n):
            q = hashes.index(head) if head in hashes else None
            if q is not None:
                if not (_is_int(declared) and declared == q + 1):
                    self.fail(
                        q + 1,
                        f"rows from {q + 1} on come after the header's head hash"
                        f" (row {q}'s): added after the export",
                        head,
                        hashes[-1],
                    )
            else:
                self.fail(
                    n - 1,
                    f"head hash mismatch: the header's head hash is not row {n - 1}'s"
                    " hash (the last row was changed or rows after it were removed, or"
                    " the header was edited)",
                    head,
                    hashes[-1],
                )
        if not self.rows:
            self.fail(0, "the log is empty (no setup row)", "a setup row", None)

    def check_setup(self, payload):
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
                    "header: scenario_text does not match the setup row's scenario_sha256",
                    digest,
                    found,
                    at=0,
                )
        for key in ("game_uid", "name", "game", "sandbox"):
            if key in payload and key in h and payload[key] != h[key]:
                self.fail(
                    None, f"header: {key} does not match the setup row", payload[key], h[key], at=0
                )

    # -- the walk over the rows

    def walk(self):
        for pos, row in enumerate(self.rows):
            if row_defect(row):
                continue  # the chain check reports it
            extra = sorted(set(row) - ALLOWED_ROW_KEYS, key=str)
            if extra:
                self.fail(
                    pos,
                    f"row {pos}: field(s) {', '.join(map(str, extra))} are no part of a log row",
                    "only " + ", ".join(ROW_FIELDS) + " and secret",
                    extra,
                )
            kind, payload = row["kind"], row["payload"]
            if pos == 0:
                if kind != "setup":
                    self.fail(0, "row 0 is not the setup row", "setup", kind)
                else:
                    self.check_setup(payload)
            elif kind == "setup":
                self.fail(pos, f"row {pos}: a second setup row", "no setup row after row 0", kind)
            if kind in PAYLOAD_KINDS and not (isinstance(payload, dict)):
                self.fail(
                    pos, f"row {pos}: {kind} row without a payload object", "an object", payload
                )
                continue
            handler = self.KIND_HANDLERS.get(kind) if isinstance(kind, str) else None
            if handler:
                handler(self, pos, row, payload)
            if isinstance(payload, dict):
                if "rolls" in payload:
                    self.on_rolls(pos, row, payload["rolls"])
                if "hidden" in payload:
                    self.on_hidden_values(pos, payload["hidden"])
            if row.get(SECRET_FIELD) is not None:
                self.on_secret(pos, row)
        self.finish()

    def on_epoch(self, pos, row, p):
        k = p.get("epoch")
        expected = len(self.epochs) + 1
        if k != expected or not _is_int(k):
            self.fail(pos, f"row {pos}: epochs must be numbered 1, 2, ... in order", expected, k)
            return
        c = p.get("commitment")
        if not _is_hex64(c):
            self.fail(
                pos,
                f"row {pos}: epoch {k} commitment is not a SHA-256 hex digest",
                "64 hex digits",
                c,
            )
            return
        self.epochs[k] = _Epoch(k, pos, c)
        hc = p.get("hidden_commitment")
        if hc is not None:
            if not _is_hex64(hc):
                self.fail(
                    pos,
                    f"row {pos}: hidden commitment is not a SHA-256 hex digest",
                    "64 hex digits",
                    hc,
                )
            elif self.hidden_commitment is None:
                self.hidden_commitment, self.hidden_commitment_row = hc, pos
            elif hc != self.hidden_commitment:
                self.fail(
                    pos,
                    f"row {pos}: the hidden seed's commitment changed (it was"
                    f" committed at row {self.hidden_commitment_row})",
                    self.hidden_commitment,
                    hc,
                )

    def _open_epoch(self, pos, k, what):
        ep = self.epochs.get(k) if _is_int(k) else None
        if ep is None:
            self.fail(
                pos,
                f"row {pos}: {what} for epoch {k!r}, which has no commitment before it",
                f"an epoch opened before row {pos}",
                k,
            )
            return None
        if ep.reveal_row is not None:
            self.fail(
                pos,
                f"row {pos}: {what} in epoch {k} after its seed was revealed at row"
                f" {ep.reveal_row}",
                f"a roll before row {ep.reveal_row}",
                f"row {pos}",
            )
            return None
        return ep

    def on_salt(self, pos, row, p):
        k = p.get("epoch")
        ep = self._open_epoch(pos, k, "salt")
        if ep is None:
            return
        if not isinstance(p.get("salt"), str):
            self.fail(pos, f"row {pos}: salt is not text", "text", p.get("salt"))
            return
        if ep.first_draw_row is not None:
            self.fail(
                pos,
                f"row {pos}: salt after epoch {k}'s first roll (row {ep.first_draw_row})",
                f"a salt before row {ep.first_draw_row}",
                f"row {pos}",
            )
            return
        ep.salts.append(p["salt"])

    def on_reveal(self, pos, row, p):
        k = p.get("epoch")
        ep = self.epochs.get(k) if _is_int(k) else None
        if ep is None:
            self.fail(
                pos,
                f"row {pos}: reveal of epoch {k!r}, which has no commitment before it",
                "an opened epoch",
                k,
            )
            return
        if ep.reveal_row is not None:
            self.fail(
                pos,
                f"row {pos}: epoch {k} revealed twice (first at row {ep.reveal_row})",
                "one reveal",
                f"row {pos}",
            )
            return
        seed = p.get("seed")
        if not _is_hex64(seed):
            self.fail(
                pos,
                f"row {pos}: epoch {k}'s revealed seed is not 64 hex digits",
                "64 hex digits",
                seed,
            )
            ep.reveal_row = pos
            return
        ep.reveal_row = pos
        found = commitment(seed)
        if found != ep.commitment:
            self.fail(
                pos,
                f"row {pos}: epoch {k}'s revealed seed does not match its commitment"
                f" (row {ep.row})",
                ep.commitment,
                found,
            )
            return
        ep.seed = seed
        self.recompute(ep)

    def recompute(self, ep: _Epoch):
        if self.uid is None:
            return
        dig = salt_digest(ep.salts)
        for q, purpose, n, value in ep.rolls:
            try:
                expected = roll_value(ep.seed, self.uid, ep.number, n, purpose, dig)
            except (TypeError, ValueError) as exc:
                self.fail(q, f"row {q}: roll cannot be recomputed ({exc})", None, value)
                continue
            self.rolls_checked += 1
            if expected != value:
                self.fail(
                    q,
                    f"row {q}: roll does not recompute ({purpose!r}, epoch {ep.number}, n {n})",
                    expected,
                    value,
                )

    def on_reveal_hidden(self, pos, row, p):
        seed = p.get("hidden_seed")
        if self.hidden_commitment is None:
            self.fail(
                pos,
                f"row {pos}: hidden seed revealed but never committed",
                "a hidden commitment in an epoch row",
                None,
            )
            return
        if self.hidden_seed is not None:
            self.fail(pos, f"row {pos}: hidden seed revealed twice", "one reveal", f"row {pos}")
            return
        if not _is_hex64(seed):
            self.fail(
                pos, f"row {pos}: revealed hidden seed is not 64 hex digits", "64 hex digits", seed
            )
            return
        found = commitment(seed)
        if found != self.hidden_commitment:
            self.fail(
                pos,
                f"row {pos}: revealed hidden seed does not match its commitment (row"
                f" {self.hidden_commitment_row})",
                self.hidden_commitment,
                found,
            )
            return
        self.hidden_seed = seed

    def on_undo(self, pos, row, p):
        targets = p.get("targets")
        if not isinstance(targets, list) or not all(
            _is_int(t)
            and 0 <= t < pos
            and isinstance(self.rows[t], dict)
            and self.rows[t].get("kind") == "order"
            for t in targets
        ):
            self.fail(
                pos, f"row {pos}: undo must name earlier order rows", "order row indexes", targets
            )

    def on_rewind(self, pos, row, p):
        to = p.get("to")
        if not _is_int(to) or not 0 <= to < pos:
            self.fail(pos, f"row {pos}: rewind target is not an earlier row", f"0..{pos - 1}", to)

    def on_rolls(self, pos, row, rolls):
        if not isinstance(rolls, list):
            self.fail(pos, f"row {pos}: rolls is not a list", "a list", rolls)
            return
        side = row["actor"] if isinstance(row["actor"], str) and row["actor"] else "-"
        for i, rec in enumerate(rolls):
            where = f"row {pos}, roll {i + 1}"
            if not isinstance(rec, dict) or not isinstance(rec.get("purpose"), str):
                self.fail(pos, f"{where}: not a roll record", "{purpose, value, ...}", rec)
                continue
            purpose = rec["purpose"]
            if rec.get("fixed") is True:
                value = rec.get("value")
                if not _is_int(value) or not 1 <= value <= 6:
                    self.fail(pos, f"{where}: fixed roll value is not 1-6", "1-6", value)
                self.fixed.append({"index": pos, "actor": side, "purpose": purpose, "value": value})
                continue
            hidden = purpose.startswith(HIDDEN_PREFIX)
            if bool(rec.get("hidden", False)) != hidden:
                self.fail(
                    pos,
                    f"{where}: hidden flag disagrees with the purpose {purpose!r}",
                    hidden,
                    rec.get("hidden"),
                )
                continue
            ep = self._open_epoch(pos, rec.get("epoch"), "roll")
            if ep is None:
                continue
            n = rec.get("n")
            if not _is_int(n) or n != ep.last_n + 1:
                self.fail(
                    pos,
                    f"{where}: draw out of sequence in epoch {ep.number} (a draw is"
                    " missing, repeated or renumbered)",
                    f"n {ep.last_n + 1}",
                    f"n {n}",
                )
                if _is_int(n):
                    ep.last_n = max(ep.last_n, n)
                continue
            ep.last_n = n
            if ep.first_draw_row is None:
                ep.first_draw_row = pos
            if hidden:
                self.on_hidden_roll(pos, where, rec, ep, n)
                continue
            value = rec.get("value")
            if not _is_int(value) or not 1 <= value <= 6:
                self.fail(pos, f"{where}: roll value is not 1-6", "1-6", value)
                continue
            ep.rolls.append((pos, purpose, n, value))
            self.public.append((side, purpose_kind(purpose), value))

    def on_hidden_roll(self, pos, where, rec, ep, n):
        if self.hidden_commitment is None:
            self.fail(
                pos,
                f"{where}: hidden draw before any hidden seed was committed",
                "a hidden commitment in an earlier epoch row",
                None,
            )
            return
        if self.hidden_seed is not None:
            self.fail(
                pos,
                f"{where}: hidden draw after the hidden seed was revealed",
                "no hidden draw after the game ended",
                f"row {pos}",
            )
            return
        if rec.get("value") is not None:
            self.warnings.append(f"{where}: a hidden draw's value is stored in the clear")
        elif not _is_hex64(rec.get("commitment")):
            self.fail(
                pos,
                f"{where}: hidden draw without a commitment",
                "64 hex digits",
                rec.get("commitment"),
            )
            return
        self.hidden_rolls.append((pos, rec, ep.number, n))

    def on_hidden_values(self, pos, commitments):
        if not isinstance(commitments, list) or not all(_is_hex64(c) for c in commitments):
            self.fail(
                pos,
                f"row {pos}: hidden values must be listed as commitments",
                "a list of 64-hex commitments",
                commitments,
            )
            return
        for c in commitments:
            self.hidden_values.append((pos, c))

    def on_secret(self, pos, row):
        entries = row[SECRET_FIELD]
        payload = row["payload"] if isinstance(row["payload"], dict) else {}
        committed = set()
        if isinstance(payload.get("hidden"), list):
            committed.update(c for c in payload["hidden"] if isinstance(c, str))
        if isinstance(payload.get("rolls"), list):
            committed.update(r.get("commitment") for r in payload["rolls"] if isinstance(r, dict))
        found = self.secrets.setdefault(pos, {})
        if not isinstance(entries, list):
            self.fail(pos, f"row {pos}: secret is not a list", "a list", type(entries).__name__)
            return
        for entry in entries:
            c = entry.get("commitment") if isinstance(entry, dict) else None
            if c not in committed:
                self.fail(
                    pos,
                    f"row {pos}: a disclosed hidden value names no commitment of this row",
                    "a commitment of this row's payload",
                    c,
                )
                continue
            if not check_hidden(c, entry.get("value"), entry.get("salt")):
                self.fail(
                    pos,
                    f"row {pos}: a hidden value does not match its commitment",
                    c,
                    "a value and salt hashing elsewhere",
                )
                continue
            found[c] = entry.get("value")

    # -- after the walk

    def finish(self):
        uid = self.uid
        pending_hidden = 0
        if self.hidden_seed is not None:
            for pos, rec, k, n in self.hidden_rolls:
                ep = self.epochs[k]
                purpose = rec["purpose"]
                if rec.get("value") is not None:
                    value = rec["value"]
                elif rec.get("commitment") in self.secrets.get(pos, {}):
                    value = self.secrets[pos][rec["commitment"]]
                else:
                    self.fail(
                        pos,
                        f"row {pos}: hidden draw {purpose!r} not disclosed although the game ended",
                        "its value and salt",
                        None,
                    )
                    continue
                if uid is None:
                    continue
                expected = roll_value(self.hidden_seed, uid, k, n, purpose, salt_digest(ep.salts))
                self.hidden_checked += 1
                if expected != value:
                    self.fail(
                        pos,
                        f"row {pos}: hidden draw does not recompute ({purpose!r},"
                        f" epoch {k}, n {n})",
                        expected,
                        value,
                    )
            for pos, c in self.hidden_values:
                if c in self.secrets.get(pos, {}):
                    self.hidden_checked += 1
                else:
                    self.fail(
                        pos,
                        f"row {pos}: hidden value {c[:12]}... not disclosed although"
                        " the game ended",
                        "its value and salt",
                        None,
                    )
        else:
            pending_hidden = len(self.hidden_rolls) + len(self.hidden_values)
        self.hidden_pending = pending_hidden
        numbers = sorted(self.epochs)
        for k in numbers:
            ep = self.epochs[k]
            if ep.reveal_row is None and k != numbers[-1]:
                self.warnings.append(
                    f"epoch {k} ended (epoch {k + 1} opened at row"
                    f" {self.epochs[k + 1].row}) but its seed is not revealed"
                )

    KIND_HANDLERS: ClassVar[dict] = {
        "epoch": on_epoch,
        "salt": on_salt,
        "reveal": on_reveal,
        GAME_END_KIND: on_reveal_hidden,
        "undo": on_undo,
        "rewind": on_rewind,
    }

    def report(self) -> AuditReport:
        self.check_header()
        cf = chain_failure(self.rows)
        if cf:
            self.fail(cf["index"], cf["problem"], cf["expected"], cf["found"], rank=0)
        self.walk()
        failures = [f for _, f in sorted(self.failures, key=lambda pair: pair[0])]
        revealed = [k for k, ep in sorted(self.epochs.items()) if ep.seed is not None]
        open_ = [k for k, ep in sorted(self.epochs.items()) if ep.reveal_row is None]
        pending = sum(len(self.epochs[k].rolls) for k in open_)
        by_side: dict[str, list[int]] = {}
        by_kind: dict[str, list[int]] = {}
        for side, kind, value in self.public:
            by_side.setdefault(side, []).append(value)
            by_kind.setdefault(kind, []).append(value)
        stats = {
            "all": face_stats(v for _, _, v in self.public),
            "by_side": {s: face_stats(v) for s, v in sorted(by_side.items())},
            "by_kind": {k: face_stats(v) for k, v in sorted(by_kind.items())},
        }
        h = self.header
        return AuditReport(
            ok=not failures,
            rows=len(self.rows),
            first_failure=failures[0] if failures else None,
            epochs_revealed=revealed,
            epochs_open=open_,
            rolls_checked=self.rolls_checked,
            rolls_fixed=len(self.fixed),
            stats=stats,
            rolls_pending=pending,
            fixed=self.fixed,
            hidden_revealed=self.hidden_seed is not None,
            hidden_checked=self.hidden_checked,
            hidden_pending=self.hidden_pending,
            failures=failures,
            warnings=self.warnings,
            game={k: h.get(k) for k in ("name", "game", "game_uid", "head_hash")},
        )


def audit(header: dict, rows: list[dict]) -> AuditReport:
    """Check an exported (or stored) log; the report names the first failing row."""
    return _Auditor(header, rows).report()


def effective_orders(rows: list[dict]) -> list[dict]:
    """The order rows that make the game state: an "undo" row removes the rows it names, a
    "rewind" row removes every effective order row after its target index."""
    effective: list[int] = []
    for pos, row in enumerate(rows):
        kind = row.get("kind")
        payload = row.get("payload") if isinstance(row.get("payload"), dict) else {}
        if kind == "order":
            effective.append(pos)
        elif kind == "undo":
            gone = set(payload.get("targets") or [])
            effective = [i for i in effective if rows[i].get("index") not in gone]
        elif kind == "rewind":
            to = payload.get("to")
            if isinstance(to, int):
                effective = [i for i in effective if rows[i].get("index") <= to]
    return [rows[i] for i in effective]


# --------------------------------------------------------------------------- the text report


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


def format_report(report: AuditReport) -> str:
    """A moderator's text: verdict and first failure, epochs, fixed rolls, dice statistics."""
    g = report.game
    head = g.get("head_hash")
    shown = f"{head[:16]}..." if isinstance(head, str) else head
    out = [
        f"Audit of game {g.get('name')!r} ({g.get('game') or '?'}, uid {g.get('game_uid')}):"
        + f" {report.rows} rows, head hash {shown}"
    ]
    if report.ok:
        out.append(
            f"OK: the chain holds, {len(report.epochs_revealed)} revealed seed(s) match"
            f" their commitments, {report.rolls_checked} roll(s) recomputed exactly."
        )
    else:
        f = report.first_failure
        where = "in the header" if f["index"] is None else f"at row {f['index']}"
        problem = f["problem"]
        for prefix in (f"row {f['index']}: ", "header: "):
            problem = problem.removeprefix(prefix)
        out.append(f"FAILED {where}: {problem}")
        out.append(f"  expected: {_fmt(f['expected'])}")
        out.append(f"  found:    {_fmt(f['found'])}")
        if len(report.failures) > 1:
            out.append(
                f"  ({len(report.failures) - 1} more problem(s) after it; the first one counts)"
            )
    rev = ", ".join(map(str, report.epochs_revealed)) or "none"
    line = f"Epochs: revealed {rev}"
    if report.epochs_open:
        line += (
            f"; not revealed yet {', '.join(map(str, report.epochs_open))}"
            f" ({report.rolls_pending} roll(s) pending until the seed is revealed)"
        )
    out.append(line)
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
    if report.fixed:
        out.append(
            f"Fixed by a moderator ({report.rolls_fixed}; not random, never recomputed,"
            " not in the statistics):"
        )
        for fx in report.fixed:
            out.append(
                f"  row {fx['index']:>4}  {fx['actor']:<8} {fx['purpose']} = {fx['value']}  (fixed)"
            )
    else:
        out.append("Fixed rolls: none.")
    stats = report.stats
    out.append("Dice statistics (random rolls only; chi-square against a fair d6, df 5):")
    out.append(
        f"  {'group':<18}{'n':>6} "
        + " ".join(f"{i:>5}" for i in range(1, 7))
        + f" {'mean':>5} {'chi2':>7} {'p':>6}"
    )
    out.append(_stat_line("all", stats["all"]))
    for side, s in stats["by_side"].items():
        out.append(_stat_line(f"side {side}", s))
    for kind, s in stats["by_kind"].items():
        out.append(_stat_line(f"purpose {kind}", s))
    if 0 < stats["all"]["n"] < MIN_ROLLS_FOR_P:
        out.append(f"  (with fewer than {MIN_ROLLS_FOR_P} rolls a p-value says little)")
    for w in report.warnings:
        out.append(f"Warning: {w}")
    return "\n".join(out)

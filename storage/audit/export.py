"""The export file of a game's log: writing it, and reading it back without ever raising.

Export (JSONL, UTF-8, one canonical JSON object per line, storage.chain.canonical):
  line 1: the header {"format": "pbem-audit/1", "game_uid", "name", "game", "scenario_text",
          "sandbox", "created_at", "head_hash", "rows": N, ...}
  then one line per log row, in index order: the chained fields (storage.chain.CHAINED_FIELDS) plus
  "prev_hash" and "hash"; once the game has ended (a "reveal-hidden" row exists) also the row's
  off-chain "secret" list of {"commitment", "value", "salt"} entries. Unrevealed seeds are never in
  an export: only "reveal" rows hold seeds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from storage.chain import CHAINED_FIELDS, GENESIS, LINK_FIELDS, canonical
from texts.i18n import t

FORMAT = "pbem-audit/1"
ROW_FIELDS = CHAINED_FIELDS + LINK_FIELDS
SECRET_FIELD = "secret"
GAME_END_KIND = "reveal-hidden"


def export_lines(header: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    """The lines of an export (without newlines); see write_export."""
    header = dict(header)
    for key in header:
        if "seed" in key.lower() or "secret" in key.lower():
            raise ValueError(t("refusing to export a header field named {key}", key=repr(key)))
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


def write_export(
    path: str | Path,
    header: dict[str, Any],
    rows: list[dict[str, Any]],
    *,
    forbidden: Iterable[str] = (),
) -> None:
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
            raise ValueError(t("refusing to export: an unrevealed secret would appear in the file"))
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(text.encode())
    tmp.replace(path)


def _parse_line(number: int, raw: bytes) -> dict[str, Any]:
    """One JSONL line as a dict; an unreadable or non-canonical line gets an "_error" key."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return {
            "_error": t("line {number} is not UTF-8 ({reason})", number=number, reason=exc.reason)
        }
    try:
        obj = json.loads(text)
    except ValueError as exc:
        return {"_error": t("line {number} is not valid JSON ({exc})", number=number, exc=exc)}
    if not isinstance(obj, dict):
        return {"_error": t("line {number} is not a JSON object", number=number)}
    try:
        same = canonical(obj) == raw
    except (TypeError, ValueError):
        same = False
    if not same:
        obj = dict(obj)
        obj["_error"] = t("line {number} is not in canonical form (edited by hand?)", number=number)
    return obj


def parse_export(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, rows) from the bytes of an export. Never raises on bad content: an unreadable line
    becomes a row (or header) carrying "_error", which the audit reports at its position."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        return {"_error": t("the file is empty")}, []
    header = _parse_line(1, lines[0])
    rows = [_parse_line(i + 2, raw) for i, raw in enumerate(lines[1:])]
    return header, rows


def read_export(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(header, rows) of an export file written by write_export."""
    return parse_export(Path(path).read_bytes())

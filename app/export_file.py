"""An audit export read back from its file (`pbem audit --verify FILE`, `pbem replay
--from-export FILE`): its header and rows, or one sentence saying why the file is none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from adjudicator.core.errors import TextError
from adjudicator.core.i18n import t
from storage.audit import FORMAT, parse_export


class ExportUnreadable(TextError):
    """The file to verify is missing, unreadable, no audit export, or cut short."""


def _truncation(data: bytes, header: dict[str, Any], rows: list[dict[str, Any]]) -> str | None:
    """Why the file was cut short, or None: its last line ends mid-way, or every row is whole
    and in order but fewer than the header declares (a deleted row in the middle is no
    truncation: the audit names it)."""
    if rows and not data.endswith(b"\n") and "_error" in rows[-1]:
        return t("its last line (line {line}) is cut off in the middle", line=len(rows) + 1)
    declared = header.get("rows")
    whole = all("_error" not in r and r.get("index") == k for k, r in enumerate(rows))
    if isinstance(declared, int) and declared > len(rows) and whole:
        return t(
            "the header says {declared} rows, the file holds only {n} (rows"
            " {n}..{last} are missing at its end)",
            declared=declared,
            n=len(rows),
            last=declared - 1,
        )
    return None


def load_export(path: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]], bytes]:
    """(header, rows, bytes) of an export file, or ExportUnreadable saying what is wrong."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ExportUnreadable(t("{path}: no such file", path=str(path))) from None
    except OSError as exc:
        why = str(exc.strerror or exc)
        raise ExportUnreadable(t("{path} cannot be read: {why}", path=str(path), why=why)) from None
    if not data.strip():
        raise ExportUnreadable(t("{path} is empty: not a pbem audit export", path=str(path)))
    header, rows = parse_export(data)
    if "_error" in header and not isinstance(header.get("format"), str):
        raise ExportUnreadable(
            t(
                "{path} is not a pbem audit export ({error}); an export is the JSONL "
                "file `pbem audit NAME --export FILE` or the chat's `audit export` writes",
                path=str(path),
                error=header["_error"],
            )
        )
    if header.get("format") != FORMAT:
        raise ExportUnreadable(
            t(
                "{path} is not a pbem audit export: its first line has format"
                " {format}, not {wanted}",
                path=str(path),
                format=repr(header.get("format")),
                wanted=repr(FORMAT),
            )
        )
    cut = _truncation(data, header, rows)
    if cut:
        raise ExportUnreadable(
            t("{path} is truncated: {cut}; nothing in it was checked", path=str(path), cut=cut)
        )
    return header, rows, data


__all__ = ["ExportUnreadable", "load_export"]

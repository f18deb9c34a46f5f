"""The offline audit of a game's log: chain, seeds, every roll, hidden values, dice statistics.

Pure standard library (no database): `pbem audit --verify FILE.jsonl` runs it on any machine.
The parts: `export` (the JSONL export file, its format described there), `stats` (chi-square
against a fair die, per die size), `auditor` (the checks, listed there, split over `header`,
`epochs` and `rolls`, sharing `state`), `orders` (the effective orders after undo/rewind) and
`report` (the text).
Every name callers use is importable from `storage.audit` itself.
"""

from storage.audit.auditor import audit
from storage.audit.export import (
    FORMAT,
    GAME_END_KIND,
    ROW_FIELDS,
    SECRET_FIELD,
    export_lines,
    parse_export,
    read_export,
    write_export,
)
from storage.audit.report import format_report
from storage.audit.state import ALLOWED_ROW_KEYS, PAYLOAD_KINDS, AuditReport
from storage.audit.stats import (
    MIN_ROLLS_FOR_P,
    chi2_sf,
    chi_square_p,
    dice_stats,
    face_stats,
    min_rolls_for_p,
    purpose_kind,
)

__all__ = [
    "ALLOWED_ROW_KEYS",
    "FORMAT",
    "GAME_END_KIND",
    "MIN_ROLLS_FOR_P",
    "PAYLOAD_KINDS",
    "ROW_FIELDS",
    "SECRET_FIELD",
    "AuditReport",
    "audit",
    "chi2_sf",
    "chi_square_p",
    "dice_stats",
    "export_lines",
    "face_stats",
    "format_report",
    "min_rolls_for_p",
    "parse_export",
    "purpose_kind",
    "read_export",
    "write_export",
]

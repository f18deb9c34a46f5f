"""The hash chain of a game's log: every row stores the hash of the row before it.

Pure standard library (no database): `pbem audit --verify` checks an exported file with this module
alone, on any machine.

hash(row) = SHA-256(prev_hash + canonical JSON of the row's chained fields), hex. Row 0 chains to
GENESIS (64 zeros). The chained fields are exactly CHAINED_FIELDS; `prev_hash`, `hash` and the
non-chained `secret` column are not part of the hashed text. `created_at` must be the very ISO 8601
string that was hashed (store it as text or re-render it identically; a datetime is refused).

Editing any chained field changes the row's hash; deleting, inserting or reordering rows breaks the
index sequence and the prev_hash links. `chain_failure` names the first row that does not fit and
says what was expected there.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from texts.i18n import Msg, t, tn

AT_ROW = "row {row}: {problem}"  # a problem at a row; the audit report shows the problem alone
IN_HEADER = "header: {problem}"


ROW_TEMPLATE = "row {row}: {problem}"


def at_row(index: object, problem: object) -> str:
    """ "row 12: <problem>" (the problem a text of its own, said in the reader's language)."""
    return t("row {row}: {problem}", row=index, problem=problem)  # ROW_TEMPLATE


def without_row(index: object, problem: object) -> object:
    """The problem as said after "at row N:": its own "row N: " left out when it names the
    same row (never "at row 10: row 10: ...")."""
    if not isinstance(problem, Msg) or problem.template != ROW_TEMPLATE:
        return problem
    return problem.args.get("problem") if str(problem.args.get("row")) == str(index) else problem


def in_header(problem: object) -> str:
    """ "header: <problem>"."""
    return t("header: {problem}", problem=problem)


GENESIS = "0" * 64
CHAINED_FIELDS = ("index", "kind", "actor", "user", "text", "payload", "key", "created_at")
LINK_FIELDS = ("prev_hash", "hash")


# json.dumps with these arguments makes this very encoder at every call: made once, the same text
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode


def canonical(obj: object) -> bytes:
    """The one byte form of a JSON value that is hashed: sorted keys, no spaces, UTF-8."""
    return _CANONICAL(obj).encode()


def row_hash(prev_hash: str, row: Mapping[str, Any]) -> str:
    """The hash a row must carry, given the previous row's hash (GENESIS for row 0)."""
    return hashlib.sha256(
        prev_hash.encode() + canonical({f: row[f] for f in CHAINED_FIELDS})
    ).hexdigest()


def link(rows: list[dict[str, Any]], prev_hash: str = GENESIS) -> list[dict[str, Any]]:
    """Set prev_hash and hash on each row in order (in place) and return the rows.

    For building a new log (or a test's synthetic one); a stored log is never re-linked.
    """
    for row in rows:
        row["prev_hash"] = prev_hash
        row["hash"] = prev_hash = row_hash(prev_hash, row)
    return rows


def _is_index(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(h: object) -> str:
    return f"{h[:12]}..." if isinstance(h, str) and len(h) > 16 else repr(h)


def row_defect(row: object) -> str | None:
    """Why a row cannot be hashed at all (unreadable line, missing field), or None."""
    if not isinstance(row, dict):
        return t("not a JSON object ({name})", name=type(row).__name__)
    if "_error" in row:
        error = row["_error"]
        return error if isinstance(error, str) else str(error)
    missing = [f for f in CHAINED_FIELDS + LINK_FIELDS if f not in row]
    if missing:
        return tn(
            "missing field {fields}",
            "missing fields {fields}",
            len(missing),
            fields=", ".join(missing),
        )
    for f in LINK_FIELDS:
        if not isinstance(row[f], str):
            return t("{f} is not a string", f=f)
    return None


def _misplaced(rows: Sequence[Any], pos: int, found: Any) -> dict[str, Any]:
    """Row `pos` holds the wrong index: say whether rows were deleted, inserted or reordered."""
    row = rows[pos]
    expected_prev = GENESIS if pos == 0 else rows[pos - 1].get("hash")
    fail = {
        "index": pos,
        "expected": t("row {pos}", pos=pos),
        "found": t("row {found}", found=repr(found)),
    }
    if not _is_index(found):
        return fail | {"problem": at_row(pos, t("index field is not an integer"))}
    if row.get("prev_hash") == expected_prev:
        return fail | {
            "problem": at_row(
                pos,
                t(
                    "index field changed (the row links to row {value} but says it is row {found})",
                    value=pos - 1,
                    found=found,
                ),
            )
        }
    later = [
        q
        for q in range(pos + 1, len(rows))
        if isinstance(rows[q], dict) and rows[q].get("index") == pos
    ]
    if found > pos:
        if later:
            return fail | {
                "problem": t(
                    "rows reordered: row {found} stands where row {pos} should (row {pos} is at position {value})",
                    found=found,
                    pos=pos,
                    value=later[0],
                )
            }
        return fail | {
            "problem": t(
                "row {pos} is missing (deleted): the log jumps to row {found}", pos=pos, found=found
            )
            if found == pos + 1
            else t(
                "rows {pos}..{value} are missing (deleted): the log jumps to row {found}",
                pos=pos,
                value=found - 1,
                found=found,
            )
        }
    return fail | {
        "problem": t(
            "row {found} out of place at position {pos} (a row was inserted, duplicated or reordered)",
            found=found,
            pos=pos,
        )
    }


def chain_failure(rows: Sequence[Any], start_hash: str = GENESIS) -> dict[str, Any] | None:
    """The first row that breaks the chain: {"index", "problem", "expected", "found"}, or None.

    `index` is the position the failing row occupies, which is the index it should carry.
    """
    prev = start_hash
    for pos, row in enumerate(rows):
        defect = row_defect(row)
        if defect:
            return {
                "index": pos,
                "problem": t("row {pos} is unreadable: {defect}", pos=pos, defect=defect),
                "expected": t("a complete log row"),
                "found": defect,
            }
        if not _is_index(row["index"]) or row["index"] != pos:
            # An inserted row that itself links and hashes correctly is only noticed at the row
            # after it, which still links to the row before the intruder: name the intruder.
            if (
                pos >= 1
                and _is_index(row["index"])
                and row["index"] == pos - 1
                and row["hash"] == rows[pos - 1].get("hash")
            ):
                return {
                    "index": pos,
                    "problem": t(
                        "row {value} appears twice (a copy stands at position {pos})",
                        value=pos - 1,
                        pos=pos,
                    ),
                    "expected": t("row {pos}", pos=pos),
                    "found": t("a second row {value}", value=pos - 1),
                }
            if (
                pos >= 2
                and _is_index(row["index"])
                and row["index"] == pos - 1
                and row["prev_hash"] == rows[pos - 2].get("hash")
            ):
                return {
                    "index": pos - 1,
                    "problem": t(
                        "row {value} was inserted: the next row links past it to row {value2}",
                        value=pos - 1,
                        value2=pos - 2,
                    ),
                    "expected": t(
                        "row {value} = {short}", value=pos - 1, short=_short(row["hash"])
                    ),
                    "found": t("an extra row {short}", short=_short(rows[pos - 1].get("hash"))),
                }
            return _misplaced(rows, pos, row["index"])
        if row["prev_hash"] != prev:
            if pos >= 1 and row["prev_hash"] == rows[pos - 1]["prev_hash"]:
                return {
                    "index": pos - 1,
                    "problem": t(
                        "row {value} was inserted: row {pos} links to the row before it",
                        value=pos - 1,
                        pos=pos,
                    ),
                    "expected": t("prev_hash {prev}", prev=prev),
                    "found": t("prev_hash {prev_hash}", prev_hash=row["prev_hash"]),
                }
            return {
                "index": pos,
                "problem": at_row(pos, t("prev_hash does not link to row {value}", value=pos - 1))
                if pos
                else at_row(0, t("prev_hash is not the genesis hash")),
                "expected": prev,
                "found": row["prev_hash"],
            }
        try:
            computed = row_hash(prev, row)
        except (TypeError, ValueError) as exc:
            return {
                "index": pos,
                "problem": at_row(pos, t("fields are not plain JSON ({exc})", exc=exc)),
                "expected": t("JSON values"),
                "found": str(exc),
            }
        if computed != row["hash"]:
            nxt = rows[pos + 1] if pos + 1 < len(rows) else None
            if isinstance(nxt, dict) and nxt.get("prev_hash") == computed:
                # the content still hashes to what the next row links to
                return {
                    "index": pos,
                    "problem": at_row(pos, t("hash mismatch (its hash field was edited)")),
                    "expected": computed,
                    "found": row["hash"],
                }
            return {
                "index": pos,
                "problem": at_row(
                    pos,
                    t(
                        "hash mismatch (its content was edited: it no longer hashes to its recorded hash)"
                    ),
                ),
                "expected": row["hash"],
                "found": computed,
            }
        prev = row["hash"]
    return None


def verify_chain(rows: Sequence[Any]) -> tuple[int, str] | None:
    """First bad row index and what was expected there, or None when the chain holds."""
    fail = chain_failure(rows)
    if fail is None:
        return None
    return fail["index"], t(
        "{problem}: expected {expected}, found {found}",
        problem=fail["problem"],
        expected=fail["expected"],
        found=fail["found"],
    )

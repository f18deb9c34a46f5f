"""Hashes as a phone shows them, and a kept head hash checked against the log.

A post, a reply and `status` give a hash's first 20 hex characters (80 bits: short enough to read
on a phone, far too long for a host to grind a row or a seed whose hash starts alike);
`status full`, the audit and the audit page give the whole value, and so does the post that
opens a dice epoch, once. `expect_head(rows, text)` (`pbem audit --expect-head`) takes what a
player kept: a post's "Log row N, head hash H" or a bare hash, whole or a prefix of at least 20
hex characters, matched against the start of the real hashes.
"""

from __future__ import annotations

import re
from typing import Any

from adjudicator.core.i18n import t, tn
from storage import chain

SHORT = 20  # hex characters: 80 bits


def short(value: object) -> str:
    """The first SHORT characters of a hash (a value that is not a string: as it reads)."""
    return value[:SHORT] if isinstance(value, str) else str(value)


def shown(value: object, full: bool) -> str:
    """A hash whole (`full`) or short."""
    return str(value) if full else short(value)


def starts(full: object, kept: str) -> bool:
    """Whether `kept` (at least SHORT hex characters) is the start of the hash `full`."""
    return isinstance(full, str) and len(kept) >= SHORT and full.lower().startswith(kept.lower())


_HASH = r"(?:head hash|хеш вершины)\s+([0-9a-f]+)\b"
_POSTED = re.compile(  # a post in English or in Russian ("Строка журнала N, хеш вершины H")
    r"(?:log row|row|строка журнала|строка)\s+(\d+)\D{0,20}?" + _HASH, re.IGNORECASE
)
_COUNTED = re.compile(  # status: "Log: N rows, head hash H" / "Журнал: строк N, хеш вершины H"
    r"(?:(\d+)\s+rows?|строк\s+(\d+)),\s*" + _HASH, re.IGNORECASE
)
_NAMED = re.compile(_HASH, re.IGNORECASE)
_BARE = re.compile(r"\b[0-9a-f]+\b", re.IGNORECASE)


def parse_head(text: str) -> tuple[int | None, str]:
    """(row index or None, hash or its prefix) of what a player kept: a bare hash, or a post's
    "Log row N, head hash H" / status's "Log: N rows, head hash H"; H whole or at least its
    first SHORT hex characters (ValueError: none, or a shorter one)."""
    index: int | None = None
    if m := _POSTED.search(text):
        index, digest = int(m.group(1)), m.group(2)
    elif m := _COUNTED.search(text):
        index, digest = int(m.group(1) or m.group(2)) - 1, m.group(3)
    elif m := _NAMED.search(text):
        digest = m.group(1)
    else:
        found = sorted(_BARE.findall(text), key=len)
        if not found or len(found[-1]) < 8:
            raise ValueError(
                t(
                    "no head hash in it: give the head hash (at least its first {n} hex "
                    'characters), or the text of a post ("Log row N, head hash H")',
                    n=SHORT,
                )
            )
        digest = found[-1]
    if len(digest) < SHORT:
        raise ValueError(
            tn(
                "the head hash {hash} is {n} hex character long: give at least its first "
                "{short}, as a post shows it (a shorter prefix proves too little)",
                "the head hash {hash} is {n} hex characters long: give at least its first "
                "{short}, as a post shows it (a shorter prefix proves too little)",
                len(digest),
                hash=digest,
                short=SHORT,
            )
        )
    return index, digest.lower()[:64]


def expect_head(rows: list[dict[str, Any]], text: str) -> tuple[bool, str]:
    """Whether the log still holds the kept head at its position (and still chains to it)."""
    index, digest = parse_head(text)
    held = [r["index"] for r in rows if starts(r.get("hash"), digest)]
    at = index if index in held else next(iter(held), None)
    head = short(digest)
    where = t("row {row}", row=index) if index is not None else t("its row")
    if at is None:
        if index is not None and index >= len(rows):
            why = t("the log has only {n} rows now: it was truncated", n=len(rows))
        elif index is not None:
            why = t(
                "row {row} now has hash {hash}...: rewritten",
                row=index,
                hash=short(str(rows[index].get("hash"))),
            )
        else:
            why = t("no row has it: the log was truncated or rewritten")
        return False, t(
            "Expected head {head}... at {where}: NOT in the log ({why}).",
            head=head,
            where=where,
            why=why,
        )
    if index is not None and at != index:
        return False, t(
            "Expected head {head}... at row {row}: it stands at row {at}.",
            head=head,
            row=index,
            at=at,
        )
    bad = chain.chain_failure(rows)
    if bad is not None and bad["index"] <= at:
        return False, t(
            "Expected head {head}... is at row {at}, but {problem}.",
            head=head,
            at=at,
            problem=bad["problem"],
        )
    if bad is not None:
        return True, t(
            "Expected head {head}... at row {at}: the log still holds it; a later row "
            "breaks the chain ({problem}).",
            head=head,
            at=at,
            problem=bad["problem"],
        )
    return True, tn(
        "Expected head {head}... at row {at}: the log still holds it, and its "
        "{n} later row chains from it.",
        "Expected head {head}... at row {at}: the log still holds it, and its "
        "{n} later rows chain from it.",
        len(rows) - at - 1,
        head=head,
        at=at,
    )


__all__ = ["SHORT", "expect_head", "parse_head", "short", "shown", "starts"]

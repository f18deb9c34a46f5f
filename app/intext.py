"""Incoming text is data: what every message's text goes through before any grammar sees it.

    text, refusal = normalise(raw)

- Code points that cannot be stored or sent (lone surrogates, NUL and the other C0/C1 control
  characters but tab and newline, the Unicode non-characters) are replaced by U+FFFD, so no
  encoder (SQLite, JSON, a platform's HTTP client) ever fails on a user's text; CR LF, CR and
  the Unicode line and paragraph separators become LF (so the lines counted are the lines the
  grammar reads).
- A message longer than MAX_CHARS characters or MAX_LINES lines is refused as a whole, with a
  clear message (the grammar never sees it; nothing is changed).

Decision: the limits are one long chat message (Telegram allows 4096 UTF-16 units, Discord
2000 characters, 4000 with Nitro) and far more lines than any real order message.
"""

from __future__ import annotations

from adjudicator.core.i18n import tn

MAX_CHARS = 4096
MAX_LINES = 100
REPLACEMENT = "\ufffd"


def _bad(cp: int) -> bool:
    if 0xD800 <= cp <= 0xDFFF:  # a surrogate: never a character on its own
        return True
    if cp < 0x20:
        return cp not in (0x09, 0x0A)
    if 0x7F <= cp <= 0x9F:
        return True
    return 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE  # the non-characters


def clean(text: str) -> str:
    """The text with every code point that is not a storable character replaced."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\u2028", "\n").replace("\u2029", "\n")  # lines as str.splitlines
    if text.isascii() and text.isprintable():
        return text
    return "".join(REPLACEMENT if _bad(ord(ch)) else ch for ch in text)


def normalise(text: object) -> tuple[str, str | None]:
    """(the cleaned text, None) or (the cleaned text, the refusal when it is too long)."""
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    text = clean(text)
    if len(text) > MAX_CHARS:
        return text, tn(
            "the message has {n} characters; at most {limit} are read. "
            "Send it in parts (orders of one phase may go in several messages).",
            "the message has {n} characters; at most {limit} are read. "
            "Send it in parts (orders of one phase may go in several messages).",
            len(text),
            limit=MAX_CHARS,
        )
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        return text, tn(
            "the message has {n} lines; at most {limit} are read (one order a line). "
            "Send it in parts.",
            "the message has {n} lines; at most {limit} are read (one order a line). "
            "Send it in parts.",
            lines,
            limit=MAX_LINES,
        )
    return text, None


__all__ = ["MAX_CHARS", "MAX_LINES", "clean", "normalise"]

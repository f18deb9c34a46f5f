"""Helpers shared by the chat platform adapters (Telegram, Discord).

Nothing here imports a platform library: plain text in, plain text out.
"""

from __future__ import annotations

from collections.abc import Callable

TELEGRAM_LIMIT = 4096  # characters after entity parsing (counted here in UTF-16 code units)
DISCORD_LIMIT = 2000


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: how Telegram counts text (an emoji outside the BMP counts 2)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def split_message(text: str, limit: int, *, length: Callable[[str], int] = len) -> list[str]:
    """Split `text` into chunks of at most `limit` (as measured by `length`), on line boundaries.

    Lines are kept whole and joined back with "\\n" while they fit; a single line longer than
    `limit` is cut hard into pieces that fit. Joining the chunks with "\\n" gives back the text,
    except that blank chunks are dropped (platforms refuse empty messages): empty or all-blank
    text gives no chunks at all.
    """
    if limit < 1:
        raise ValueError(f"limit must be positive, got {limit}")
    if not text.strip():
        return []
    chunks: list[str] = []
    current: list[str] = []
    size = 0  # length of "\n".join(current)

    def flush() -> None:
        nonlocal current, size
        if current:
            chunks.append("\n".join(current))
        current, size = [], 0

    for line in text.split("\n"):
        if length(line) > limit:  # an over-long line: flush, then cut hard
            flush()
            pieces = _cut(line, limit, length)
            chunks.extend(pieces[:-1])
            line = pieces[-1]
        added = length(line) + (1 if current else 0)
        if current and size + added > limit:
            flush()
            added = length(line)
        current.append(line)
        size += added
    flush()
    return [c for c in chunks if c.strip()]


def _cut(line: str, limit: int, length: Callable[[str], int]) -> list[str]:
    """Cut one line into pieces of at most `limit`, greedily, character by character."""
    if length is len:
        return [line[i : i + limit] for i in range(0, len(line), limit)]
    pieces: list[str] = []
    start, size = 0, 0
    for i, ch in enumerate(line):
        w = length(ch)
        if size + w > limit and i > start:
            pieces.append(line[start:i])
            start, size = i, 0
        size += w
    pieces.append(line[start:])
    return pieces


def hosts_a_game(text: str) -> bool:
    """`new ...` or `link CODE`: a message that makes its chat host a game (after which each bot
    checks its permissions there)."""
    words = text.lower().split()
    return bool(words) and (words[0] == "new" or (words[0] == "link" and len(words) > 1))


FENCE = "```"


def split_markdown(text: str, limit: int, *, length: Callable[[str], int] = len) -> list[str]:
    """`split_message`, keeping ``` code blocks valid across chunks.

    A chunk that ends inside a code block gets a closing fence, and the next chunk reopens the
    block with the same opening line (language tag included). Room for the added fences is kept
    under `limit` (Discord counts the markup; Telegram only the rendered text, so there it is just
    a small margin). A fence is a line starting with ```.
    """
    openers = [ln for ln in text.split("\n") if ln.startswith(FENCE)]
    if not openers:
        return split_message(text, limit, length=length)
    reserve = max(length(ln) for ln in openers) + 1 + length("\n" + FENCE)
    chunks = split_message(text, max(1, limit - reserve), length=length)
    out: list[str] = []
    reopen: str | None = None  # the opening fence line of a block left open by the last chunk
    for chunk in chunks:
        if reopen is not None:
            chunk = f"{reopen}\n{chunk}"
        opener: str | None = None
        for ln in chunk.split("\n"):
            if not ln.startswith(FENCE):
                continue
            if opener is not None:
                opener = None  # a fence line inside a block closes it
            elif not (len(ln.rstrip()) > 2 * len(FENCE) and ln.rstrip().endswith(FENCE)):
                opener = ln  # opens a block (unless it is a one-line ```code```)
        if opener is not None:
            chunk = f"{chunk}\n{FENCE}"
        reopen = opener
        out.append(chunk)
    return out


class DeliveryError(Exception):
    """An Outgoing could not be (fully) delivered. Raised by the adapters' `send`.

    `parts_sent` counts the parts (text chunks, image) of the Outgoing delivered before the
    failure, so a retry can resume after them instead of sending them twice.
    """

    def __init__(self, message: str, *, parts_sent: int = 0, retry_after: float | None = None):
        super().__init__(message)
        self.parts_sent = parts_sent
        self.retry_after = retry_after


class RetryLater(DeliveryError):
    """Transient: rate limited past the adapter's own patience, or a network error. Retry after
    `retry_after` seconds (None: use your own backoff). After a timeout the part may have been
    delivered after all."""


class Undeliverable(DeliveryError):
    """Permanent for this Outgoing: the bot was removed from the chat, the chat does not exist,
    a private message with no chat to post the notice in, or the platform refused the content."""


class DmClosed(Undeliverable):
    """A private message the user's settings refuse: on Telegram the user never started a private
    chat with the bot (or blocked it), on Discord he does not accept direct messages from the
    server's members. Not the message's fault: the outbox keeps it (and the user's later private
    messages) waiting until the user opens his private messages, and tells the group once."""


class NoPermission(DeliveryError):
    """The chat refuses the bot for a permission (Discord 403 Missing Permissions / Access,
    Telegram "not enough rights"), or, with `kicked`, the bot is no longer a member of the
    group. Not the message's fault: the outbox keeps the chat's posts waiting until the right
    returns (bots/chat_wait.py)."""

    def __init__(self, message: str, *, parts_sent: int = 0, kicked: bool = False):
        super().__init__(message, parts_sent=parts_sent)
        self.kicked = kicked


class NoticeOnce:
    """At most one notice per key and period, remembered by this process (an adapter's "the
    map could not be posted here" per chat and day)."""

    def __init__(self, period: float = 86400.0):
        self.period = period
        self._said: dict[str, float] = {}

    def due(self, key: str, now: float) -> bool:
        """True (and remembered) when no notice for `key` was given in the last period."""
        last = self._said.get(key)
        if last is not None and now - last < self.period:
            return False
        self._said[key] = now
        return True

"""What the outbox sender records after a failed send: a retry (when), or the row given up.

Pure: `after_failure(row, exc, now, limits)` -> the row's new values. `RetryLater(retry_after=s)`
(a 429 the adapter did not wait out, or a library's rate limit with `retry_after`) waits exactly
s seconds and is not a failure (after `max_waits` such waits the row fails); `Undeliverable`, or
an HTTP 403/404 from a library's error, fails the row at once; any other error backs off
exponentially (base, 2 base, 4 base ... at most `max_backoff`) until `max_attempts` failures.
An error's `parts_sent` (the parts of the post already delivered) is kept, so a retry resumes
after them.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.post_queue import Row
from bots.platforms.common import DeliveryError, Undeliverable
from storage.outbox import FAILED

log = logging.getLogger("bots.outbox")


@dataclass(frozen=True)
class Limits:
    max_attempts: int
    max_waits: int
    base_backoff: float
    max_backoff: float


def backoff(attempts: int, base: float, cap: float) -> float:
    return min(base * 2.0 ** max(attempts - 1, 0), cap)


def permanent(exc: BaseException) -> bool:
    """A platform library's error that retrying cannot fix (HTTP 403 / 404)."""
    status = getattr(exc, "status", None)
    if status is None:
        status = getattr(getattr(exc, "response", None), "status", None)
    return status in (403, 404)


def retry_after(exc: BaseException) -> float | None:
    """The seconds a platform's 429 asked to wait, or None: an error's `retry_after` (our
    `RetryLater`, PTB's `RetryAfter`, discord.py's `RateLimited`), else the Retry-After (or
    X-RateLimit-Reset-After) header of a 429 response (a discord.py `HTTPException` it did not
    wait out itself)."""
    wait = getattr(exc, "retry_after", None)
    if isinstance(wait, timedelta):
        return wait.total_seconds()
    if isinstance(wait, int | float):
        return float(wait)
    response = getattr(exc, "response", None)
    if getattr(exc, "status", None) != 429 or response is None:
        return None
    headers = getattr(response, "headers", None) or {}
    for name in ("Retry-After", "X-RateLimit-Reset-After"):
        try:
            return max(0.0, float(headers[name]))
        except (KeyError, TypeError, ValueError):
            continue
    return None


def after_failure(row: Row, exc: BaseException, now: datetime, limits: Limits) -> dict[str, object]:
    """The values to record on the row after `exc` (see the module doc)."""
    parts = max(row.parts_sent, getattr(exc, "parts_sent", 0) or 0)
    error = f"{type(exc).__name__}: {exc}"[:2000]
    done: dict[str, object] = {"parts_sent": parts, "last_error": error}
    if isinstance(exc, Undeliverable) or (not isinstance(exc, DeliveryError) and permanent(exc)):
        log.warning("outbox row %d undeliverable: %s", row.id, error)
        return done | {"status": FAILED}
    wait = retry_after(exc)
    if wait is not None:
        waits = row.waits + 1
        if waits > limits.max_waits:
            return done | {"status": FAILED, "waits": waits}
        log.info("outbox row %d: rate limited, retry in %gs", row.id, wait)
        return done | {"waits": waits, "next_attempt_at": now + timedelta(seconds=wait)}
    attempts = row.attempts + 1
    if attempts >= limits.max_attempts:
        log.error("outbox row %d failed after %d attempts: %s", row.id, attempts, error)
        return done | {"status": FAILED, "attempts": attempts}
    delay = backoff(attempts, limits.base_backoff, limits.max_backoff)
    log.info("outbox row %d: attempt %d failed (%s); retry in %gs", row.id, attempts, error, delay)
    return done | {"attempts": attempts, "next_attempt_at": now + timedelta(seconds=delay)}


__all__ = ["Limits", "after_failure", "backoff", "permanent", "retry_after"]

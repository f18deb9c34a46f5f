"""How updates flow through the Telegram adapter: concurrently across chats, in order per chat,
under Telegram's limits.

- `PerChatProcessor` (PTB's `concurrent_updates`): the updates of different chats are handled
  at the same time, those of one chat one after the other in the order they arrived. A flood
  wait (429) while answering in one group holds back only that group's later updates.
- `rate_limiter`: PTB's `AIORateLimiter`, so that the limits hold before they bite: about 30
  messages a second overall and 20 a minute in one group. Its own retries are off (a 429 it
  retried would pause every chat): the adapter waits a 429 out in the one chat it concerns
  (telegram_send.py), or hands the message to the outbox.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import AIORateLimiter, BaseUpdateProcessor


def _not_a_handled_429(record: logging.LogRecord) -> bool:
    """The limiter logs every 429 it hands on as an ERROR with a traceback; the adapter waits
    it out or gives the message to the outbox, and logs that itself."""
    return "Rate limit hit after maximum of" not in record.getMessage()


logging.getLogger("telegram.ext.AIORateLimiter").addFilter(_not_a_handled_429)

MAX_CONCURRENT = 256  # updates handled at once (of as many chats)
OVERALL_PER_SECOND = 30
GROUP_PER_MINUTE = 20


def chat_key(update: object) -> object:
    """The chat an update belongs to (None: no chat; such updates share one lane)."""
    if isinstance(update, Update) and update.effective_chat is not None:
        return update.effective_chat.id
    return None


class PerChatProcessor(BaseUpdateProcessor):
    """Concurrent across chats, sequential within one chat (asyncio.Lock is first come, first
    served, and PTB starts the updates' tasks in arrival order)."""

    def __init__(self, max_concurrent_updates: int = MAX_CONCURRENT):
        super().__init__(max_concurrent_updates)
        self._locks: dict[object, asyncio.Lock] = {}
        self._waiting: dict[object, int] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = chat_key(update)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with lock:
                await coroutine
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:  # no other update of this chat: forget its lock
                del self._waiting[key]
                self._locks.pop(key, None)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


def rate_limiter() -> AIORateLimiter:
    return AIORateLimiter(
        overall_max_rate=OVERALL_PER_SECOND,
        overall_time_period=1,
        group_max_rate=GROUP_PER_MINUTE,
        group_time_period=60,
        max_retries=0,
    )

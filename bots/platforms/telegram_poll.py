"""What Telegram's long polling answers, watched: a 409 Conflict is a fault, never silent.

Telegram serves one long poll per token. A second process polling the same token (or a webhook
set on it) makes getUpdates answer 409 Conflict, and the updates are split between the two
processes: half of the players' orders would go to the other one. The adapter's getUpdates
requests go through `PollRequest`, which tells `PollWatch` each answer:

- a 409 before any getUpdates succeeded is a refused start (`refused` is set, `refusal` holds
  the error): this process is the newcomer, and `pbem serve` refuses to start it (exit 1 when it
  is the only bot; bots/supervise.py);
- a 409 after that (another process started polling beside this running one) is logged at ERROR
  once when it begins, `conflict` holds it and `/healthz` answers 503 until a getUpdates
  succeeds again (logged at WARNING). The policy is to keep polling, with python-telegram-bot's
  growing pause (1 s, then 1.5 times longer each time, at most 30 s): the running process is
  the one that holds the players' games, and stopping it would hand the token to the other
  process, the newcomer, which is the mistake in the usual case (a second `pbem serve` started
  by hand, an old deployment left running); a newcomer that is `pbem serve` refuses its own
  start, and the conflict ends by itself.

`UPDATES` are the update types asked for: messages, `my_chat_member` (a user who starts or
unblocks the bot in his private chat; the bot added to or removed from a group) and
`callback_query` (a key of an inline keyboard pressed: bots/platforms/telegram_taps.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from telegram import Update
from telegram.error import Conflict, TelegramError
from telegram.request import HTTPXRequest

log = logging.getLogger("bots.platforms.telegram")

UPDATES = [Update.MESSAGE, Update.MY_CHAT_MEMBER, Update.CALLBACK_QUERY]


class PollWatch:
    """The answers to this bot's getUpdates calls (see the module doc)."""

    def __init__(self) -> None:
        self.polled = False  # a getUpdates succeeded once
        self.conflict: TelegramError | None = None  # the 409 of a running bot, until a success
        self.conflicts = 0  # 409s of the present conflict
        self.refusal: TelegramError | None = None  # a 409 before the first success
        self.refused = asyncio.Event()

    def request(self, read_timeout: float) -> PollRequest:
        """The HTTP request object of the getUpdates calls (one connection, as PTB's own)."""
        return PollRequest(self, connection_pool_size=1, read_timeout=read_timeout)

    def answered(self, status: int) -> None:
        """A getUpdates call was answered with this HTTP status."""
        if status != 200:
            return
        self.polled = True
        if self.conflict is not None:
            log.warning(
                "telegram: getUpdates answers again after %d conflicts; updates come to this "
                "process alone",
                self.conflicts,
            )
            self.conflict, self.conflicts = None, 0

    def before_stop(self, updater: Any) -> None:
        """A bot that never polled successfully fetched no update: PTB's last getUpdates at
        stop (which confirms the updates fetched) is skipped, as it would only answer the
        409 again, logged by PTB with a traceback beside the refused start's one line."""
        if not self.polled:
            setattr(updater, "_Updater__polling_cleanup_cb", None)  # noqa: B010 - PTB's private

    def on_error(self, exc: TelegramError) -> None:
        """PTB's polling error callback (PTB retries after it, with its growing pause)."""
        if not isinstance(exc, Conflict):
            log.warning("telegram: polling failed (%s); retried", exc)
            return
        if not self.polled:
            if self.refusal is None:
                self.refusal = exc
                self.refused.set()
            return
        self.conflicts += 1
        if self.conflict is None:
            log.error(
                "telegram: getUpdates answered 409 Conflict (%s): another process polls this "
                "token (or a webhook is set on it), and the updates are split between them; "
                "check that only one `pbem serve` runs with TELEGRAM_TOKEN; this one polls on, "
                "retrying with a growing pause, and /healthz answers 503 until it ends",
                exc.message,
            )
        self.conflict = exc


class PollRequest(HTTPXRequest):
    """PTB's HTTP request, telling `PollWatch` the status of each getUpdates answer."""

    def __init__(self, watch: PollWatch, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.watch = watch

    async def do_request(self, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        status, payload = await super().do_request(*args, **kwargs)
        self.watch.answered(status)
        return status, payload


__all__ = ["UPDATES", "PollRequest", "PollWatch"]

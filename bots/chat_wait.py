"""Posts that wait for a chat: what the outbox sender does when a chat refuses the bot for a
permission (`NoPermission`: Discord 403 Missing Permissions / Access, Telegram "not enough
rights"), or the bot was removed from a Telegram group (`NoPermission(kicked=True)`).

- The row does not fail: it stays pending at the head of its lane (the chat), so the chat's
  later posts wait behind it, in order; other chats are not held up (each lane waits alone).
- A refused permission is retried after 1 min, 2 min, 4 min ... at most 30 min: it is sent
  once the host grants it again. A group the bot was removed from is not polled: its posts wait
  for the bot to be added again (Telegram's `my_chat_member` update, `bot_back`), with one last
  try when the wait ends.
- After `GIVE_UP` (7 days) of refusals the chat's waiting posts are marked failed (a host may
  re-send them: `pbem outbox --resend`).
- The chat cannot be told (it refuses the bot): the host's log is, once per period of refusals
  (a WARNING saying which permission to grant); a post that goes through ends the period.

The state of a refusing chat is kept in storage (storage.outbox_waits); no column of its own.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Any

from app.post_queue import Row
from bots import retry
from bots.platforms.common import NoPermission
from storage import Store
from storage import outbox_waits as sql
from storage.outbox import FAILED

log = logging.getLogger("bots.outbox")

BASE_WAIT = 60.0  # seconds before the first retry of a refused post
MAX_WAIT = 1800.0
GIVE_UP = timedelta(days=7)
GRANT = {
    "discord": "grant the bot View Channel and Send Messages (Send Messages in Threads in a "
    "thread) in the channel's permissions",
    "telegram": "allow the bot Send Messages (group > Edit > Permissions) or make it an "
    "administrator",
}
ADD_BACK = "add the bot to the group again (group > Add members)"


class ChatWait:
    """The outbox sender's policy for chats that refuse the bot (see the module doc)."""

    def __init__(self, store: Store):
        self.store = store

    def after_failure(self, row: Row, exc: BaseException, now: datetime) -> dict[str, Any] | None:
        """The values to record on the row after a `NoPermission`; None for any other error."""
        if not isinstance(exc, NoPermission):
            return None
        platform, chat = row.outgoing.platform, row.lane
        state = sql.note_chat_refusal(
            self.store, platform, chat, row_id=row.id, now=now, kicked=exc.kicked
        )
        since = datetime.fromisoformat(state["since"])
        done = {
            "parts_sent": max(row.parts_sent, exc.parts_sent or 0),
            "last_error": f"{type(exc).__name__}: {exc}"[:2000],
        }
        if now - since >= GIVE_UP:
            return done | self._give_up(row, since)
        if state["tries"] == 1:
            how = ADD_BACK if exc.kicked else GRANT.get(platform, "grant the bot its permissions")
            log.warning(
                "%s chat %s refuses the bot (%s): its posts wait until you %s",
                platform,
                chat,
                exc,
                how,
            )
        delay = timedelta(seconds=retry.backoff(int(state["tries"]), BASE_WAIT, MAX_WAIT))
        due = since + GIVE_UP if exc.kicked else min(now + delay, since + GIVE_UP)
        log.info("outbox row %d: chat %s refuses the bot; next try %s", row.id, chat, due)
        return done | {"next_attempt_at": due}

    def _give_up(self, row: Row, since: datetime) -> dict[str, Any]:
        platform, chat = row.outgoing.platform, row.lane
        error = f"the chat refused the bot since {since.isoformat()}"
        others = sql.fail_lane(self.store, platform, chat, error)
        sql.clear_chat_refusal(self.store, platform, chat)
        log.error(
            "%s chat %s refused the bot for %d days: %d posts marked failed (`pbem outbox --failed`)",
            platform,
            chat,
            GIVE_UP.days,
            others + 1,
        )
        return {"status": FAILED}

    def delivered(self, row: Row) -> None:
        """A row was sent: one that had been refused ends its chat's period of refusals."""
        if not (row.last_error or "").startswith(NoPermission.__name__):
            return
        if sql.clear_chat_refusal(self.store, row.outgoing.platform, row.lane):
            log.warning("%s chat %s takes the bot's posts again", row.outgoing.platform, row.lane)


def bot_back(store: Store, platform: str, chat: str, now: datetime | None = None) -> int:
    """The bot was added to the chat again: its waiting posts are due now (the count)."""
    sql.clear_chat_refusal(store, platform, chat)
    count = sql.wake_lane(store, platform, chat, now or datetime.now(UTC))
    log.warning("%s chat %s has the bot again: %d waiting posts sent", platform, chat, count)
    return count


__all__ = ["GIVE_UP", "MAX_WAIT", "ChatWait", "bot_back"]

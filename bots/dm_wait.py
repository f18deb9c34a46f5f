"""Private messages that wait: what the outbox sender does when a platform refuses a private
message because of the user's settings (`DmClosed`: on Telegram he never pressed Start or blocked
the bot, on Discord he does not accept direct messages from server members).

- The row does not fail: it stays pending in its lane ("dm:<user>", so the user's later private
  messages wait behind it), retried after 1 min, 2 min, 4 min ... at most 30 min, never given up
  for this reason (`DmWait.after_failure`; any other failure: bots/retry.py).
- The user's failing state is kept in storage (storage.outbox `note_dm_failure`: the first
  failing row, the tries), and the chat the message came from (`chat_id`, else the row's
  `fallback_chat_id`, on the same platform) is told ONCE per user and period of failing, without
  the content: a public outbox row deduped by the user and the first failing row.
- A private message to the user that goes through ends the period (`DmWait.delivered`).
- The user seen again (`seen(platform, user)`: any update from him on that platform, or on
  Telegram his pressing Start or unblocking the bot, told by the adapters): his waiting rows are
  tried at once (`DmWait.retry_seen`, at the sender's next step, which `seen` wakes), not at the
  next retry of the timer. `seen` costs no database work on the adapter's path.
- `notes(store, [(user, name)])`: the warning `join`, `seat` and `start` add for a player whose
  private messages are known to fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from adjudicator.core.i18n import cat, t
from app import post_queue as posts
from app.messages import Outgoing
from app.post_queue import Row
from bots import retry
from bots.platforms.common import DmClosed
from storage import Store, chat_store
from storage import outbox as sql
from storage.outbox_wake import retry_waiting

log = logging.getLogger("bots.outbox")

DM_BASE_BACKOFF = 60.0  # seconds before the first retry of a refused private message
DM_MAX_BACKOFF = 1800.0
WAITING_ERROR = f"{DmClosed.__name__}:"  # how a row that waits for its user's DMs ends its error
NOTICE = (
    "A private message for {mention} could not be delivered: open a private chat with the bot "
    "({how}), and it will be sent."
)
NOTE = (
    "Note: private messages to {name} cannot be delivered yet ({how}); hidden information and "
    "private answers will wait until they can."
)


def _notice(mention: str, how: str) -> str:
    return t(
        "A private message for {mention} could not be delivered: open a private chat with the "
        "bot ({how}), and it will be sent.",
        mention=mention,
        how=how,
    )


def how_to_open(platform: str, bot: str | None = None) -> str:
    """What the user does so that the bot's private messages reach him."""
    if platform == "telegram":
        if bot:
            return t("press Start in @{bot}", bot=bot)
        return t("press Start in a private chat with the bot")
    if platform == "discord":
        return t("allow direct messages from server members")
    return t("open your private messages to the bot")


def _how(platform: str, stored: str | None) -> str:
    """How to open, as said when it was stored (in English), made a text again."""
    bot = re.fullmatch(r"press Start in @(\w+)", stored or "")
    return how_to_open(platform, bot.group(1) if bot else None)


def bot_name(send: Callable[..., Any]) -> str | None:
    """The username of the bot behind a sender: a Telegram adapter's bound `send`, else None."""
    with contextlib.suppress(Exception):  # not an adapter's method, or its bot not started
        name = send.__self__.app.bot.username  # type: ignore[attr-defined]
        return name if isinstance(name, str) and name else None
    return None


def notes(store: Store, users: Iterable[tuple[str, str]]) -> str:
    """For (user "platform:id", display name) pairs: the lines (each after a newline) warning
    that the user's private messages cannot be delivered yet; "" when none is known to fail."""
    said = []
    for user, name in users:
        platform, _, uid = user.partition(":")
        state = sql.dm_failure(store, platform, uid) if uid else None
        if state is not None:
            how = _how(platform, state.get("how"))
            note = t(
                "Note: private messages to {name} cannot be delivered yet ({how}); hidden "
                "information and private answers will wait until they can.",
                name=name,
                how=how,
            )
            said.append(t("\n{line}", line=note))
    return cat(*said) if said else ""


class DmWait:
    """The outbox sender's policy for refused private messages (see the module doc)."""

    def __init__(
        self,
        store: Store,
        senders: Mapping[str, Callable[..., Any]],
        bot_names: Mapping[str, str] | None = None,
        *,
        base: float = DM_BASE_BACKOFF,
        cap: float = DM_MAX_BACKOFF,
    ):
        self.store = store
        self.senders = senders
        self.bot_names = dict(bot_names or {})
        self.base = base
        self.cap = cap
        self.wake: Callable[[], Any] | None = None  # wakes the sender (set while it runs)
        self._seen: set[tuple[str, str]] = set()  # (platform, user) seen since the last step
        self._lock = threading.Lock()

    def after_failure(
        self, row: Row, exc: BaseException, now: datetime, limits: retry.Limits
    ) -> dict[str, object]:
        """The values to record on the row after `exc` (a DM refusal waits; else bots/retry)."""
        out = row.outgoing
        if not (isinstance(exc, DmClosed) and out.private and out.user_id):
            return retry.after_failure(row, exc, now, limits)
        how = how_to_open(out.platform, self._bot(out.platform))
        state = sql.note_dm_failure(
            self.store, out.platform, out.user_id, row_id=row.id, now=now, how=how
        )
        self._notice(row, state, how, now)
        delay = retry.backoff(int(state["tries"]), self.base, self.cap)
        log.info("outbox row %d: private messages refused (%s); retry in %gs", row.id, exc, delay)
        return {
            "parts_sent": max(row.parts_sent, exc.parts_sent or 0),
            "last_error": f"{type(exc).__name__}: {exc}"[:2000],
            "next_attempt_at": now + timedelta(seconds=delay),
        }

    def delivered(self, row: Row) -> None:
        """A row was sent: a private one ends its user's period of failing."""
        out = row.outgoing
        if not (out.private and out.user_id):
            return
        if sql.clear_dm_failure(self.store, out.platform, out.user_id):
            log.info("private messages to %s %s are delivered again", out.platform, out.user_id)

    # ---- the user seen again
    def saw(self, platform: str, user: str) -> None:
        """`user` was seen on `platform` (any thread): his waiting rows are tried at once."""
        if platform not in self.senders:
            return
        with self._lock:
            new = (platform, user) not in self._seen
            self._seen.add((platform, user))
        if new and self.wake is not None:
            self.wake()

    async def retry_seen_now(self, now: datetime) -> None:
        """`retry_seen` in a worker thread, when a user was seen."""
        if self._seen:
            await asyncio.to_thread(self.retry_seen, now)

    def retry_seen(self, now: datetime) -> list[int]:
        """Make the rows waiting for the users seen since the last call due `now` (the
        sender's step, in a worker thread); their ids."""
        with self._lock:
            seen, self._seen = self._seen, set()
        lanes = [(platform, f"dm:{user}") for platform, user in seen]
        ids = retry_waiting(self.store, lanes, now, WAITING_ERROR)
        if ids:
            log.info("outbox rows %s: their user was seen again; tried now", ids)
        return ids

    def _bot(self, platform: str) -> str | None:
        send = self.senders.get(platform)
        return self.bot_names.get(platform) or (bot_name(send) if send else None)

    def _notice(self, row: Row, state: dict[str, Any], how: str, now: datetime) -> None:
        """Tell the chat the message came from, once per user and period (idempotent)."""
        out = row.outgoing
        user = out.user_id or ""
        group = out.chat_id or row.fallback_chat_id
        if group is None or group.removeprefix("dm:") == user:
            log.info("outbox row %d: no group to tell that its user's DMs fail", row.id)
            return
        notice = Outgoing(
            out.platform,
            group,
            _notice(self._mention(out.platform, user), how),
            mentions=[user],
        )
        key = f"dm-notice:{out.platform}:{user}:{state.get('row', row.id)}"
        posts.write(self.store, row.game, [notice], key=key, now=now)

    def _mention(self, platform: str, user: str) -> str:
        """The user in the notice's text (Telegram pings him by the mention put before it)."""
        if platform == "discord":
            return f"<@{user}>"
        key = f"{platform}:{user}"
        return chat_store.user_names(self.store, [key]).get(key) or t("you")


# -- the running senders' DmWaits, told by the adapters who is seen
_running: list[DmWait] = []
_running_lock = threading.Lock()


def attach(wait: DmWait, wake: Callable[[], Any]) -> None:
    """A sender runs with `wait`: `seen` reaches it, and `wake` wakes the sender."""
    wait.wake = wake
    with _running_lock:
        _running.append(wait)


def detach(wait: DmWait) -> None:
    with _running_lock:
        if wait in _running:
            _running.remove(wait)
    wait.wake = None


def seen(platform: str, user: str) -> None:
    """A user was seen on a platform (an update from him; Telegram: he started or unblocked the
    bot): the private messages waiting for him are sent at once (any thread; no database)."""
    with _running_lock:
        waits = list(_running)
    for wait in waits:
        wait.saw(platform, user)


__all__ = [
    "DM_BASE_BACKOFF",
    "DM_MAX_BACKOFF",
    "NOTE",
    "NOTICE",
    "WAITING_ERROR",
    "DmWait",
    "attach",
    "detach",
    "how_to_open",
    "notes",
    "seen",
]

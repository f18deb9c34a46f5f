"""A frozen game's notice: the text that says a game fails its checks, and the listener that tells
the moderators of every game the store freezes (app/integrity.py holds the checks and the repair).

Every `Core` registers the listener when it is made (`listen(store, now)`, once per store); this
module needs only the store and the clock, so it sits below `app.context`.

A freeze is the database's (storage/freeze_records.py), not a process's: the notice's outbox key
is "frozen:<game>:<the freeze's number>", so every process that finds the same freeze (a running
service, a fresh one, `pbem audit`), whatever row its check names, writes one post per chat
between them; `pbem repair` closes the freeze and the next one is told again. `failure_of`
names the freeze in the answers to questions (app/queries.py)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from adjudicator.core.i18n import t
from app import notify
from storage import Store, freeze_records
from storage.caches import derive
from storage.chain import without_row


def frozen_text(failure: dict[str, Any], name: str) -> str:
    return t(
        "Game {name} is FROZEN: its stored log fails its checks at row {row}: "
        "{problem}. No order is taken until a moderator runs `pbem repair {name}` "
        "(docs/threat-model.md); `pbem audit` shows the same.",
        name=name,
        row=failure["index"],
        problem=without_row(failure["index"], failure["problem"]),
    )


def notice_key(name: str, freeze: int) -> str:
    """The outbox key of a freeze's notice (post_queue adds the platform and chat to it)."""
    return f"frozen:{name}:{freeze}"


def failure_of(store: Store, name: str) -> dict[str, Any] | None:
    """The failure a game is frozen by, or None. The database's record decides, the same in
    every process: an open freeze is named as it was first found (also when another process
    found it), a freeze a repair closed is not (though this process remembers it until its
    next write checks the game again); with no record at all, what this process found."""
    record = freeze_records.read(store, name)
    if record is None:
        return store.frozen.get(name)
    if not record.get("open"):
        return None
    return {"index": record.get("index"), "problem": str(record.get("problem") or "")}


def tell_moderators(
    store: Store, now: Callable[[], datetime], name: str, failure: dict[str, Any]
) -> None:
    """One post to every chat bound to the game, pinging the moderators the chain names, once
    per chat per freeze (the freeze's number in the outbox key)."""
    at = now()
    n, new = freeze_records.open_freeze(store, name, failure, at)
    if not new:  # told when the freeze was opened, by whichever process found it first
        return
    try:
        mods = list(derive(store.rows(name))["moderators"])
    except Exception:  # noqa: BLE001 - a log that cannot be read names no moderator: told still
        mods = []
    outs = notify.outgoings(store, name, frozen_text(failure, name), mods)
    if outs:
        notify.write(store, name, outs, key=notice_key(name, n), now=at)


def thawed(store: Store, now: Callable[[], datetime], name: str) -> None:
    """The game is back in service (`pbem repair`): its freeze is closed for every process."""
    freeze_records.close_freeze(store, name, now())


def listen(store: Store, now: Callable[[], datetime]) -> None:
    """Tell the moderators of every game the store freezes (registered once per store; the store
    calls it at every freeze found, the database's record makes it one post per chat per
    freeze)."""
    if not any(getattr(fn, "pbem_integrity", False) for fn in store.tamper_listeners):

        def told(name: str, failure: dict[str, Any]) -> None:
            try:
                tell_moderators(store, now, name, failure)
            except Exception:  # the freeze stands even when the post cannot be written
                logging.getLogger(__name__).exception("could not tell %s's moderators", name)

        told.pbem_integrity = True  # type: ignore[attr-defined]
        store.tamper_listeners.append(told)


__all__ = ["failure_of", "frozen_text", "listen", "notice_key", "tell_moderators", "thawed"]

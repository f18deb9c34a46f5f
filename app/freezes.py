"""A frozen game's notice: the text that says a game fails its checks, and the listener that tells
the moderators of every game the store freezes (app/integrity.py holds the checks and the repair).

Every `Core` registers the listener when it is made (`listen(store, now)`, once per store); this
module needs only the store and the clock, so it sits below `app.context`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from adjudicator.core.i18n import t
from app import notify
from storage import Store
from storage.caches import derive


def frozen_text(failure: dict[str, Any], name: str) -> str:
    return t(
        "Game {name} is FROZEN: its stored log fails its checks at row {row}: "
        "{problem}. No order is taken until a moderator runs `pbem repair {name}` "
        "(docs/threat-model.md); `pbem audit` shows the same.",
        name=name,
        row=failure["index"],
        problem=failure["problem"],
    )


def tell_moderators(
    store: Store, now: Callable[[], datetime], name: str, failure: dict[str, Any]
) -> None:
    """One post to every chat bound to the game, pinging the moderators the chain names."""
    mods = list(derive(store.rows(name))["moderators"])
    outs = notify.outgoings(store, name, frozen_text(failure, name), mods)
    if outs:
        key = f"frozen:{name}:{failure['index']}:{failure['problem'][:40]}"
        notify.write(store, name, outs, key=key, now=now())


def listen(store: Store, now: Callable[[], datetime]) -> None:
    """Tell the moderators of every game the store freezes (once per store)."""
    if not any(getattr(fn, "pbem_integrity", False) for fn in store.tamper_listeners):

        def told(name: str, failure: dict[str, Any]) -> None:
            try:
                tell_moderators(store, now, name, failure)
            except Exception:  # the freeze stands even when the post cannot be written
                logging.getLogger(__name__).exception("could not tell %s's moderators", name)

        told.pbem_integrity = True  # type: ignore[attr-defined]
        store.tamper_listeners.append(told)


__all__ = ["frozen_text", "listen", "tell_moderators"]

"""The freezes of a game as the database records them (service_state "freeze:<game>"), so that
every process serving the database agrees on which freeze a game is in: its FROZEN notice is
posted once per chat per freeze (its outbox dedupe key carries the freeze's number), not once
per process, and a question in any process names it.

JSON {"n": the freeze's number (1, 2, ... per game, never reused), "open": whether the game is
still frozen, "index", "problem": the failure first found, "since"}.

- `open_freeze(store, game, failure, now)`: (n, new): the open freeze, or a new one numbered
  after the last; `new` says this call opened it.
- `open_failure(store, game)`: the failure of the game's open freeze, or None.
- `close_freeze(store, game, now)`: the game is back in service (`pbem repair`); its number stays.

Not chained: a host who edits the record can at most make a notice be posted again or not at
all (docs/threat-model.md); the freeze itself is the chain's, decided by every write's checks.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from storage.chat_models import ServiceState
from storage.models import table
from storage.store import Store

log = logging.getLogger(__name__)

STATE = table(ServiceState)
PREFIX = "freeze:"


def key_of(game: str) -> str:
    return f"{PREFIX}{game}"


def _parsed(value: str | None) -> dict[str, Any] | None:
    """The record, or None when there is none or it is no record (a host's edit)."""
    if value is None:
        return None
    try:
        doc = json.loads(value)
    except ValueError:
        log.warning("the freeze record holds text that is not JSON: %.60r", value)
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("n"), int):
        return None
    return doc


def read(store: Store, game: str) -> dict[str, Any] | None:
    with store.reader.connect() as conn:
        value = conn.execute(select(STATE.c.value).where(STATE.c.key == key_of(game))).scalar()
    return _parsed(value)


def open_failure(store: Store, game: str) -> dict[str, Any] | None:
    """The failure ({"index", "problem"}) of the game's open freeze, or None."""
    doc = read(store, game)
    if doc is None or not doc.get("open"):
        return None
    return {"index": doc.get("index"), "problem": str(doc.get("problem") or "")}


def open_freeze(
    store: Store, game: str, failure: dict[str, Any], now: datetime
) -> tuple[int, bool]:
    """(the number of the game's open freeze, whether this call opened it)."""
    key = key_of(game)
    for _ in range(3):  # another process may insert the first record at the same moment
        try:
            with store.engine.begin() as conn:
                value = conn.execute(select(STATE.c.value).where(STATE.c.key == key)).scalar()
                doc = _parsed(value)
                if doc is not None and doc.get("open"):
                    return int(doc["n"]), False
                n = (doc["n"] if doc is not None else 0) + 1
                text = json.dumps(
                    {
                        "n": n,
                        "open": True,
                        "index": failure.get("index"),
                        "problem": str(failure.get("problem", "")),
                        "since": now.isoformat(),
                    }
                )
                if value is None:
                    conn.execute(insert(STATE).values(key=key, value=text, updated_at=now))
                else:
                    conn.execute(
                        update(STATE).where(STATE.c.key == key).values(value=text, updated_at=now)
                    )
            return n, True
        except IntegrityError:
            continue
    doc = read(store, game)
    return (int(doc["n"]) if doc else 1), False


def close_freeze(store: Store, game: str, now: datetime) -> bool:
    """The game is back in service: its open freeze is closed (True if one was open)."""
    with store.engine.begin() as conn:
        doc = _parsed(
            conn.execute(select(STATE.c.value).where(STATE.c.key == key_of(game))).scalar()
        )
        if doc is None or not doc.get("open"):
            return False
        doc |= {"open": False, "closed": now.isoformat()}
        conn.execute(
            update(STATE)
            .where(STATE.c.key == key_of(game))
            .values(value=json.dumps(doc), updated_at=now)
        )
    return True


__all__ = ["close_freeze", "key_of", "open_failure", "open_freeze", "read"]

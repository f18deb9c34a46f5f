"""The game row's pause flag is a cache of the chain: `paused` and `paused_why` are what the last
`pause` or `resume` moderation row of the log says (a moderator's command, chained with his
reason), or running when there is none.

`pause_failure` checks it before every write (storage/trust.py `check_head`, so also with the
whole log's check and the audit): it reads the last pause or resume row among the `moderation`
rows the head check prefetched in its one statement (storage/trust_rows.py; a row past the head
is no chained row and is passed over), checks that the row is genuine (its own hash, and the
next row's link to it when the head check read that row: no statement more; a pause row further
back that a host re-hashed is a row edited in the middle of the log, which the whole-log check
finds), and compares the flag with it. A
flag flipped in the table either way freezes the game at its next write, naming the row, and
nothing is written meanwhile; `pbem repair` rewrites the flag from the chain
(storage/caches.py `fill_caches`). No column is needed: the moderation rows are read anyway
(a change's linked identities), and the game row has no cache pointer a host could move.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from sqlmodel import Session

from storage.chain import at_row
from storage.models import GameColumns
from storage.trust_rows import MODERATION, cache, entries
from storage.tx_rows import OF_KIND
from texts.i18n import t

ACTIONS = ("pause", "resume")
Failure = dict[str, Any]


def action_of(payload: object) -> tuple[str | None, Any]:
    """(pause or resume, its reason) of a moderation row's payload (text or parsed), or None."""
    if isinstance(payload, str):
        if '"pause"' not in payload and '"resume"' not in payload:
            return None, None  # most moderation rows: no parse
        try:
            payload = json.loads(payload)
        except ValueError:
            return None, None
    if not isinstance(payload, dict) or payload.get("action") not in ACTIONS:
        return None, None
    return payload["action"], payload.get("why")


def derive_pause(rows: Iterable[dict[str, Any]]) -> tuple[bool, Any]:
    """(paused, paused_why) as the chained rows leave them."""
    paused, why = False, None
    for row in rows:
        if row.get("kind") == "moderation":
            action, reason = action_of(row.get("payload"))
            if action is not None:
                paused, why = action == "pause", (reason if action == "pause" else None)
    return paused, why


def pause_failure(
    s: Session, g: GameColumns, checked: Callable[[Any], tuple[dict[str, Any], str | None]]
) -> Failure | None:
    """The pause flag against the last pause or resume row (checked: storage/trust.py's own
    hash check of a row)."""
    mods = cache(s, g).get(MODERATION)
    if mods is None:  # (the head check prefetches them; read them when asked alone)
        mods = entries(s, OF_KIND, {"g": g.id, "kind": "moderation"})
    src = None
    for e in reversed(mods):
        if e.index <= g.head_index and action_of(e.payload)[0] is not None:
            src = e
            break
    if src is None:
        if g.paused or g.paused_why is not None:
            return {
                "index": g.head_index,
                "problem": t(
                    "the game row says the game is paused ({why}), and no chained `pause` row "
                    "paused it",
                    why=g.paused_why,
                ),
            }
        return None
    row, problem = checked(src)
    if problem:
        return {"index": src.index, "problem": problem}
    nxt = cache(s, g).get(src.index + 1)  # read with the head: no statement more
    if src.index < g.head_index and nxt is not None and nxt.prev_hash != src.hash:
        return {
            "index": src.index,
            "problem": at_row(src.index + 1, t("prev_hash does not link to the row before")),
        }
    action, reason = action_of(row["payload"])
    want = (action == "pause", reason if action == "pause" else None)
    if (bool(g.paused), g.paused_why) != want:
        return {
            "index": src.index,
            "problem": at_row(
                src.index,
                t(
                    "the game row says the game is {said}, and this `{action}` row says it is "
                    "{chained} (its pause flag was edited)",
                    said=_said(bool(g.paused), g.paused_why),
                    action=action,
                    chained=_said(*want),
                ),
            ),
        }
    return None


def _said(paused: bool, why: Any) -> str:
    return t("paused ({why})", why=why) if paused else t("running")


__all__ = ["ACTIONS", "action_of", "derive_pause", "pause_failure"]

"""A game that fails its checks is frozen; moderators are told; `pbem repair` brings it back.

- `check_snapshot(tx, system, state)`, before every write (constant time): the snapshot hashes to
  the state hash the last state-recording row chained (of the public view for a system with
  hidden information, app/sealing.py state_digest), that row is a chained row, and for a system
  with hidden information the full snapshot matches the row's `state_hmac` commitment.
- the store tells the moderators once per freeze (app/freezes.py): a post to every chat bound to
  the game, naming the first bad row and pinging the moderators the chain names; the freeze is
  recorded in the database, so no other process posts it again, and a repair closes it.
- `repair(core, name, user)`: rebuild from the first bad row as the full audit names it, and
  commit only a game whose full audit passes (app/repairs.py, which says how).
- `expect_head(rows, text)`: whether the log still holds a head hash a player kept from a post
  (app/hashes.py; a prefix of at least 20 hex characters, as posts show it, is enough).
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem
from app import fold, sealing, state_memory
from app.hashes import expect_head, parse_head
from app.repairs import CannotRepair, Repaired, repair
from storage import GameTx, Tampered, trust

FROZEN = "frozen"


def check_snapshot(tx: GameTx, system: GameSystem, state: Any) -> None:
    """The snapshot is the state the log recorded last (Tampered names the row, if not): its
    state hash (of the public view where the system hides information) and, where the row
    commits one, the full state's commitment (app/sealing.py `state_hmac`)."""
    row = tx.state_row()
    if row is None:
        return
    if trust.chained_row(tx.s, tx.g, row.hash) is None:
        raise Tampered(
            tx.name, {"index": row.index, "problem": t("row {row} is not chained", row=row.index)}
        )
    recorded = row.payload.get("state_sha256")
    if sealing.snapshot_digest(system, tx.g.snapshot, state) != recorded:
        raise Tampered(
            tx.name,
            {
                "index": row.index,
                "problem": t(
                    "the stored snapshot is not the state row {row} recorded "
                    "(state_sha256 {digest}...): the snapshot was changed",
                    row=row.index,
                    digest=str(recorded)[:12],
                ),
            },
        )
    if not system.hidden_information:
        return
    committed_hmac = row.payload.get(sealing.STATE_HMAC)
    if committed_hmac is None:  # a repair's row, or one written before the commitments
        if row.kind != "moderation" or row.payload.get("action") != "repair":
            return  # an earlier version's row: the next state row commits the hidden state

        def rebuilt() -> Any:  # what the repair wrote: the replay of the rows it kept
            return system.state_to_json(fold.replay(system, fold.with_secrets(tx.rows())))

        if sealing.replays_to(row.hash, tx.g.snapshot, tx.snapshot, rebuilt):
            return
        problem = t(
            "the stored snapshot's hidden part is not the state the rows up to the repair row "
            "{row} give: the hidden state was changed",
            row=row.index,
        )
        raise Tampered(tx.name, {"index": row.index, "problem": problem})
    seed = sealing.live_seed(tx)
    if seed is None or not sealing.hmac_is(seed, tx.snapshot, committed_hmac):
        raise Tampered(
            tx.name,
            {
                "index": row.index,
                "problem": t(
                    "the stored snapshot's hidden part is not the state row {row} committed "
                    "(state_hmac {digest}...): the hidden state was changed",
                    row=row.index,
                    digest=str(committed_hmac)[:12],
                ),
            },
        )


def checked_state(tx: GameTx, system: GameSystem) -> Any:
    """The snapshot's state, once it is known to be the state the log recorded (the state
    itself when this process wrote that very snapshot: app/state_memory.py)."""
    try:
        state = state_memory.recall(system, tx.g.snapshot)
        if state is None:
            state = system.state_from_json(tx.snapshot)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        row = tx.state_row()
        at = row.index if row is not None else tx.head_index
        problem = t(
            "the stored snapshot is no state of the game ({error}: {why})",
            error=type(exc).__name__,
            why=str(exc),
        )
        raise Tampered(tx.name, {"index": at, "problem": problem}) from exc
    check_snapshot(tx, system, state)
    return state


__all__ = [
    "FROZEN",
    "CannotRepair",
    "Repaired",
    "check_snapshot",
    "checked_state",
    "expect_head",
    "parse_head",
    "repair",
]

"""A stored game against its log: every effective order re-applied with the current rules (each
row's events and state hash checked), then the final state against the snapshot.

`pbem replay` and GameService.verify run it. It needs only the store, the fold and the bound
system, so a `pbem replay` process and its workers import no chat, render or order-path code.
"""

from __future__ import annotations

from adjudicator.core.i18n import t
from app import fold, games
from storage import Store, audit_read, state_hash, state_hash_is


def verify(store: Store, name: str) -> None:
    """Raise fold.ReplayMismatch unless replaying the log gives its events and the snapshot."""
    rec = audit_read.replayed(store, name)  # one read: no ORM instance, each row decoded once
    system = games.bind(rec.game, rec.scenario_text)  # (read with the rows)
    state = fold.replay(system, rec.rows, check=True)
    doc = system.state_to_json(state)
    same = fold.same_json(doc, rec.snapshot)  # the snapshot is read back from its JSON already
    if not same and not state_hash_is(doc, state_hash(rec.snapshot)):
        raise fold.ReplayMismatch(
            rec.head_index,
            t("game {name}: replaying the log does not give the snapshot", name=repr(name)),
        )


__all__ = ["verify"]

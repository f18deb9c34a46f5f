"""The audit of a game's hidden-state commitments (app/sealing.py `state_hmac`).

A game with hidden information records in each state row the hash of the state's public view
and a commitment to the full state, keyed by the game's hidden seed. What the audit can say
depends on whether that key is revealed:

- during the game (the key is secret): the public part of every row is checked by the replay;
  the hidden part is committed and checked by the service before every write (app/integrity.py)
  and here against the stored snapshot (`snapshot_failure`, on the host only);
- after the game's end (the key is in the `reveal-hidden` row): the replay checks every order's
  and the setup's commitment against the full state it replays (app/fold.py), and `check_rows`
  does the same for the other rows that record a state (an undo, a rewind): the first row
  whose replayed full state is not the one it committed is named.

Rows written before the commitments existed carry none: the audit says from which row on the
hidden state is committed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem
from app import fold, sealing

REPLAYED_ELSEWHERE = ("setup", "order")  # checked by fold.replay itself


def _state_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if "state_sha256" in (r.get("payload") or {})]


def check_rows(system: GameSystem, rows: list[dict[str, Any]], seeds: dict[int, str]) -> str | None:
    """The first failure, as one line, of the commitments of the rows that record a state but
    are no order (an undo's, a rewind's): each against the state replayed up to it."""
    checked = [
        row
        for row in _state_rows(rows)
        if row.get("kind") not in REPLAYED_ELSEWHERE
        and row["payload"].get(sealing.STATE_HMAC) is not None
        and seeds.get(row["index"]) is not None
    ]
    states = _states_at(system, rows, [row["index"] for row in checked])
    for row, state in zip(checked, states, strict=False):  # lazily: the first failure ends it
        committed = row["payload"][sealing.STATE_HMAC]
        if not sealing.hmac_is(seeds[row["index"]], system.state_to_json(state), committed):
            return t(
                "Replay: FAILED at row {row}: the full state after it (its hidden part) is not"
                " the one the row committed (state_hmac)",
                row=row["index"],
            )
    return None


def _states_at(system: GameSystem, rows: list[dict[str, Any]], indices: list[int]) -> Iterator[Any]:
    """fold.state_at(system, rows, index) for each of `indices` in turn, from one walk: the
    effective orders a row's state shares with the state before it (its first ones, the same
    rows) are not applied again, the others are applied as state_at applies them."""
    start: Any = None
    applied: list[tuple[dict[str, Any], Any]] = []  # (order row, the state after it)
    for index in indices:
        kept = [r for r in rows if r["index"] <= index or r["index"] == 1 and r["kind"] == "epoch"]
        if start is None:
            start = fold.setup(system, kept).state  # rows 0 and 1, kept for every index
        orders = fold.effective_orders(kept)
        k = 0
        while k < min(len(orders), len(applied)) and orders[k] is applied[k][0]:
            k += 1
        del applied[k:]
        for step in fold.walk(system, orders[k:], applied[-1][1] if applied else start):
            applied.append((step.row, step.outcome.state))
        yield applied[-1][1] if applied else start


def audit_lines(
    system: GameSystem, rows: list[dict[str, Any]], replayed: bool
) -> tuple[bool, list[str]]:
    """(ok, the audit's lines on the hidden state): `replayed` when the replay re-applied every
    effective order with its commitments checked (app/fold.py), i.e. nothing was sealed."""
    if not system.hidden_information:
        return True, []
    first = sealing.committed_from(rows)
    if first is None:
        return True, [
            t(
                "Hidden state: no row commits it (every state row was written by an earlier"
                " version); only its public part is checked."
            )
        ]
    said: list[str] = []
    state_rows = _state_rows(rows)
    if state_rows and state_rows[0]["index"] < first:
        said.append(
            t(
                "The hidden state is committed from row {row} on (rows before it were written"
                " by an earlier version).",
                row=first,
            )
        )
    seeds = sealing.state_seeds(rows)
    keyed = all(r["index"] in seeds for r in state_rows if sealing.STATE_HMAC in r["payload"])
    if replayed and keyed:
        failure = check_rows(system, rows, seeds)
        if failure is not None:
            return False, [*said, failure]
        said.append(
            t(
                "Hidden state: the key is revealed; every row's commitment (state_hmac, from row"
                " {row} on) matches the full state replayed.",
                row=first,
            )
        )
        return True, said
    said.append(
        t(
            "Hidden state: the public part of every row is checked above; the hidden part is"
            " committed in every state row (from row {row} on), checked by the service before"
            " every write, and by this audit once the game has ended and its key is revealed.",
            row=first,
        )
    )
    return True, said


def snapshot_failure(
    system: GameSystem, snapshot: Any, rows: list[dict[str, Any]], hidden_seed: str | None
) -> dict[str, Any] | None:
    """The stored snapshot against the last state row's commitment (as app/integrity.py's
    check before a write): None when it holds or the row commits nothing."""
    recorded = _state_rows(rows)
    if not system.hidden_information or not recorded:
        return None
    last = recorded[-1]
    committed = last["payload"].get(sealing.STATE_HMAC)
    if committed is None:
        return None
    if hidden_seed is not None and sealing.hmac_is(hidden_seed, snapshot, committed):
        return None
    problem = t(
        "the stored snapshot's hidden part is not the state row {row} committed "
        "(state_hmac {digest}...): the hidden state was changed",
        row=last["index"],
        digest=str(committed)[:12],
    )
    return {"index": last["index"], "problem": problem}


__all__ = ["audit_lines", "check_rows", "snapshot_failure"]

"""The orders of the rows a repair drops, given again (`pbem repair NAME --reapply`).

A repair drops every row from the first bad one on; the orders in them are in the log's text, so
the operator may have them re-applied: each dropped order row that was still effective is
replayed, in log order, through the rules on the rebuilt state, as its side and by its user (the
role and seat checks of a new order), with its committed dice only. Those dice are the rolls its dropped row recorded,
and a roll is used only when the repaired log proves it: its epoch was opened by a kept row
(its commitment is chained), the repair reveals that epoch's seed, and the value recomputes from
the seed, the kept salts and the roll's number (a number after the kept rows' draws, each used
once, in order). No fresh die is ever drawn for a re-applied order.

Each re-applied row is an ordinary `order` row whose payload names the dropped row it gives
again (`reapplies`) and carries exactly the dropped row's rolls; the repair row holds the dropped
rows whole (`dropped_rows`), so `pbem audit` and `pbem audit --verify` check every re-applied roll
against the revealed seed and against the dropped row (storage/audit/reapplied.py). Only order
rows are re-applied: salts, seats, moderation, undo and rewind rows are not (a moderator gives
them again); an order a later dropped row undid or rewound is not either. An order that no
longer applies is reported with the rules' refusal, or with the dice it lacks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.dice import DiceExhausted, FixedDice
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from adjudicator.core.system import SYSTEM_ACTOR, GameSystem
from app import changes, edits, fold, roles, sealing
from storage import GameTx
from storage.dice import roll_value, salt_digest


@dataclass
class Reapplied:
    """What re-application did: (dropped row, new row) of each order given again, and (dropped
    row, why) of each that was not."""

    applied: list[tuple[int, int]] = field(default_factory=list)
    refused: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Dice:
    """The dice a re-applied order may use: the epoch the repair revealed, its seed, the kept
    salts, and the last number drawn so far."""

    epoch: int
    seed: str | None
    salts: list[str]
    last_n: int
    uid: str


def dropped_orders(dropped: list[dict[str, Any]]) -> list[int]:
    """The indexes of the dropped order rows."""
    return [r["index"] for r in dropped if r.get("kind") == "order"]


def reapply(
    tx: GameTx,
    system: GameSystem,
    state: Any,
    kept: list[dict[str, Any]],
    dropped: list[dict[str, Any]],
    dice: Dice,
    seeds: Any,
) -> tuple[Reapplied, Any]:
    """Re-apply the dropped order rows (module doc): what was done, and the state after it."""
    done = Reapplied()
    effective = {r["index"] for r in fold.effective_orders([*kept, *dropped])}
    for row in dropped:
        if row.get("kind") != "order":
            continue
        why = _cannot(system, row, effective)
        if why is None:
            why, state = _one(tx, system, state, row, dice, seeds, done)
        if why is not None:
            done.refused.append((row["index"], why))
    return done, state


def _cannot(system: GameSystem, row: dict[str, Any], effective: set[int]) -> str | None:
    """Why a dropped order row is not given again at all, or None."""
    payload = row.get("payload") if isinstance(row.get("payload"), dict) else None
    if payload is None or not isinstance(row.get("text"), str):
        return t("its row is not an order pbem wrote")
    if row["index"] not in effective:
        return t("a later dropped row undid or rewound it")
    actor = row.get("actor")
    if actor != SYSTEM_ACTOR and actor not in {s.id for s in system.sides}:
        return t("only a side's orders are re-applied, not a moderator's")
    if "sealed_order" in payload or payload.get("hidden"):
        return t("it holds hidden values, which a repair cannot carry over")
    if any(isinstance(r, dict) and r.get("hidden") for r in payload.get("rolls") or []):
        return t("it drew hidden dice, which a repair cannot carry over")
    return None


def _drawn(row: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        r for r in row["payload"].get("rolls") or [] if isinstance(r, dict) and not r.get("fixed")
    ]


def _proven(drawn: list[dict[str, Any]], dice: Dice) -> str | None:
    """Why the dropped row's dice are not proven by the repaired log, or None."""
    last = dice.last_n
    digest = salt_digest(dice.salts)
    for r in drawn:
        k, n = r.get("epoch"), r.get("n")
        if k != dice.epoch or dice.seed is None:
            return t("its dice come from epoch {epoch}, which only a dropped row commits", epoch=k)
        if not isinstance(n, int) or n <= last:
            return t("its dice are numbered out of sequence in epoch {epoch}", epoch=k)
        try:
            value = roll_value(dice.seed, dice.uid, k, n, r["purpose"], digest, r.get("faces", 6))
        except (KeyError, TypeError, ValueError):
            value = None
        if value != r.get("value"):
            return t(
                "its dice do not recompute from the seed of epoch {epoch} and the kept salts",
                epoch=k,
            )
        last = n
    return None


def _one(
    tx: GameTx,
    system: GameSystem,
    state: Any,
    row: dict[str, Any],
    dice: Dice,
    seeds: Any,
    done: Reapplied,
) -> tuple[str | None, Any]:
    """Give one dropped order again: (why not, or None; the state after it)."""
    drawn = _drawn(row)
    why = _proven(drawn, dice)
    if why is not None:
        return why, state
    try:
        item = system.grammar.parse(row["text"])
        if edits.is_edit(system, item):
            return t("an edit of the position is not re-applied: a moderator gives it again"), state
        if row["actor"] != SYSTEM_ACTOR:  # the role and seat checks, as for a new order
            roles.actor_for(tx, system, state, row["actor"], row.get("user"), item)
        fixed = FixedDice([r["value"] for r in drawn])
        out = system.apply(state, row["actor"], item, fixed)
    except Rejection as rej:
        return rej.message, state  # the rules' own text, said in the reader's language
    except DiceExhausted:
        return t("needs dice the dropped row did not roll"), state
    now = [r for r in out.rolls if not r.fixed]
    if fixed.used != len(drawn) or [(r.purpose, r.value, r.faces) for r in now] != [
        (r["purpose"], r["value"], r.get("faces", 6)) for r in drawn
    ]:
        return t("it now rolls other dice than the dropped row rolled"), state
    rolls = _records(out.rolls, drawn, tx.epoch)
    text, new, digest = sealing.serialised(system, out.state)
    events, sealed, opened = sealing.seal(out.events)
    payload: dict[str, Any] = {
        "rolls": rolls,
        "events": events,
        "state_sha256": digest,
        **sealing.tx_fields(system, tx, new, read_back=True),  # the full state, committed
        "combat": out.combat,
        "reapplies": row["index"],
    }
    if sealed:
        payload["hidden"] = sealed
    written = tx.append(
        "order",
        row["actor"],
        row["text"],
        payload,
        user=row.get("user"),
        key=row.get("key"),
        epoch=drawn[0]["epoch"] if drawn else (tx.epoch or None),
        secret=opened or None,
    )
    tx.set_snapshot(new, text)
    if drawn:
        dice.last_n = drawn[-1]["n"]
    ch = changes.Change(system, row["actor"], row.get("user"), None, seeds)
    changes.next_epoch(tx, ch, out.state, state)
    done.applied.append((row["index"], written.index))
    return None, out.state


def _records(rolls: Any, drawn: list[dict[str, Any]], epoch: int) -> list[dict[str, Any]]:
    """The re-applied row's rolls: the dropped row's drawn ones as it recorded them, and the
    fixed ones (results the state fixes) as the rules give them now."""
    out: list[dict[str, Any]] = []
    draws = iter(drawn)
    for r in rolls:
        out.append(changes.fixed_record(r, epoch) if r.fixed else next(draws))
    return out


__all__ = ["Dice", "Reapplied", "dropped_orders", "reapply"]

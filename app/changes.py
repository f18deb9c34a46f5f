"""The changes a line of a message makes, each inside the game's one transaction (storage.GameTx).

An order goes through the game system with the open epoch's committed dice; the shared commands
(salt, undo, rewind, pause, resume, seat, unseat, moderator) are carried out here, the same for
every system. Each writes chained log rows and the new snapshot; nothing is written before every
check has passed, so a refused line leaves the transaction as it found it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.dice import DiceExhausted, DiceMethods, Roll
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Event
from adjudicator.core.i18n import Msg, t
from adjudicator.core.system import GameSystem
from app import edits, fold, opponent_seat, rewinds, roles, sealing, seat_secrets, state_memory
from storage import GameTx
from storage import dice as committed


@dataclass
class Change:
    """What a change needs beside the transaction: the system, who speaks, the key, the seeds."""

    system: GameSystem
    actor: str
    user: str | None
    key: str | None
    seeds: Callable[[], str]
    now: datetime | None = None  # the message's time (a rewind proposal's expiry)
    private: bool | None = None  # said in a private chat (False: a group; None: off any chat)


class NoDice(DiceMethods):
    """The dice source where no die may be rolled (the setup; a game with no open epoch)."""

    def __init__(self, why: str):
        self.why = why
        self.drawn: list[dict[str, Any]] = []

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        raise DiceExhausted(
            t("no die may be rolled for {purpose}: {why}", purpose=repr(purpose), why=self.why)
        )


def apply(tx: GameTx, ch: Change, state: Any, item: object) -> Any:
    """Carry out one parsed line; the state after it."""
    handler: Callable[..., Any] = HANDLERS.get(type(item), order)
    return handler(tx, ch, state, item)


class _Rolled(Exception):
    """An edit being checked reached its first roll: every check before it passed."""


class _Probe(DiceMethods):
    """The dice of an edit checked before it is proposed: nothing is drawn."""

    def __init__(self) -> None:
        self.drawn: list[dict[str, Any]] = []

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        raise _Rolled()


def order(
    tx: GameTx, ch: Change, state: Any, item: object, extra: dict[str, Any] | None = None
) -> Any:
    """An order through the game system (extra: fields of its payload, for a confirmed edit).
    A moderator's edit outside a sandbox is checked, then only proposed (app/edits.py)."""
    edit = edits.is_edit(ch.system, item)
    if edit and extra is None:
        edits.check_where(ch.system, item, ch.private)
        if edits.needs_confirmation(tx, ch.user):
            try:
                ch.system.apply(state, ch.actor, item, _Probe())
            except _Rolled:
                pass  # every check before its first roll passed
            except DiceExhausted as exc:
                raise Rejection("no-dice", str(exc), None) from exc
            if (no := opponent_seat.edit_refusal(tx, ch.user)) is not None:
                raise no
            edits.propose(tx, ch, item, ch.now or datetime.now(UTC))
            return state
    seed = tx.seed()
    dice: Any
    if seed is not None:
        dice = committed.CommittedDice(
            seed, tx.uid, tx.epoch, tx.next_n, tx.salt_digest, tx.hidden_seed()
        )
    else:
        dice = NoDice(t("the game is over: no dice epoch is open"))
    try:
        out = ch.system.apply(state, ch.actor, item, dice)
    except (DiceExhausted, committed.HiddenSeedMissing) as exc:
        said = exc.args[0] if exc.args and isinstance(exc.args[0], Msg) else str(exc)
        raise Rejection("no-dice", said, None) from exc
    rolls, secret = roll_records(out.rolls, dice.drawn, tx.epoch)
    text, new, digest = sealing.serialised(ch.system, out.state)  # serialised once
    events, sealed, opened = sealing.seal(out.events)  # private events: commitments only
    payload: dict[str, Any] = {
        "rolls": rolls,
        "events": events,
        "state_sha256": digest,
        **sealing.tx_fields(ch.system, tx, new, read_back=True),  # the full state, committed
        "combat": out.combat,
    }
    if sealed:
        payload["hidden"] = sealed
    if out.notes:  # the reply's own lines (Outcome.notes): stored, never replayed
        payload["notes"] = [Event("Note", note).to_dict() for note in out.notes]
    canonical = ch.system.grammar.format(out.order or item)  # as applied: paths, flips filled in
    if edit and ch.system.is_secret(item):  # its text in the row's secret (app/edits.py)
        canonical, fields, entry = edits.sealed_text(canonical)
        payload |= fields
        payload["hidden"] = [*payload.get("hidden", []), fields["sealed_order"]]
        opened = [*opened, entry]
    payload |= extra or {}
    secrets = [*(secret or []), *opened] or None
    tx.append(
        "order",
        ch.actor,
        canonical,
        payload,
        user=ch.user,
        key=ch.key,
        epoch=tx.epoch or None,
        secret=secrets,
    )
    if seed is not None:
        tx.set_next_n(dice.next_n)
    tx.set_snapshot(new, text)
    state_memory.remember(ch.system, text, out.state)
    next_epoch(tx, ch, out.state, state)
    return out.state


def next_epoch(tx: GameTx, ch: Change, new: Any, old: Any) -> None:
    """A turn change ends the epoch (its seed is revealed) and opens the next; the end of the
    game reveals the last seed and the hidden seed. An order that ends a phase (or the game) is
    where the map of now starts telling events (the game row's frame_row, app/map_now.py)."""
    after, before = ch.system.situation(new), ch.system.situation(old)
    if (after.turn, after.phase) != (before.turn, before.phase) or after.over:
        tx.g.frame_before, tx.g.frame_row = tx.g.frame_row, tx.g.head_index  # app/map_now.py
    if after.over and not before.over:
        tx.reveal_epoch()
        tx.reveal_hidden()
    elif tx.epoch and after.turn != tx.epoch_turn:
        tx.reveal_epoch()
        tx.open_epoch(after.turn, ch.seeds())  # a system without turns: turn None


def _is_player(ch: Change) -> bool:
    return ch.actor in {s.id for s in ch.system.sides}


def salt(tx: GameTx, ch: Change, state: Any, item: C.Salt) -> Any:
    if not _is_player(ch):
        raise Rejection("not-a-player", t("only the players add salts to the dice"), None)
    k, turn = tx.epoch, tx.epoch_turn
    if not k:
        raise Rejection("no-epoch", t("the game is over: no dice epoch is open"), None)
    if tx.next_n > 1:
        raise Rejection(
            "salts-closed",
            t(
                "dice epoch {epoch} (turn {turn}) has already rolled, so its salts are closed; "
                "salts open again with epoch {next}, when turn {next_turn} begins (or after a "
                "moderator's rewind)",
                epoch=k,
                turn=turn,
                next=k + 1,
                next_turn=(turn or 0) + 1,
            ),
            None,
        )
    salts = [*tx.salts(k), item.text]
    tx.append(
        "salt",
        ch.actor,
        ch.system.grammar.format(item),
        {"epoch": k, "salt": item.text},
        user=ch.user,
        key=ch.key,
        epoch=k,
    )
    tx.set_salt_digest(committed.salt_digest(salts))
    return state


def undo(tx: GameTx, ch: Change, state: Any, item: C.Undo) -> Any:
    if not _is_player(ch):
        raise Rejection("not-a-player", t("only a player undoes, and only his own orders"), None)
    rows = fold.with_secrets(tx.rows())
    effective = fold.effective_orders(rows)
    mine = [r for r in effective if r["actor"] == ch.actor]
    if not mine:
        raise Rejection(
            "nothing-to-undo", t("{side} has no order to undo", side=_side_name(ch)), None
        )
    target = mine[-1]
    roles.check_undo(target, rows, effective)
    new = fold.replay(ch.system, [r for r in rows if r["index"] != target["index"]])
    doc = ch.system.state_to_json(new)
    digest = sealing.state_digest(ch.system, new)
    payload = {"targets": [target["index"]], "why": None, "state_sha256": digest}
    payload |= sealing.tx_fields(ch.system, tx, doc)
    tx.append("undo", ch.actor, "undo", payload, user=ch.user, key=ch.key)
    tx.set_snapshot(doc)
    return new


def _side_name(ch: Change) -> str:
    return next((s.name for s in ch.system.sides if s.id == ch.actor), ch.actor.title())


def rewind(tx: GameTx, ch: Change, state: Any, item: C.Rewind) -> Any:
    rows = fold.with_secrets(tx.rows())
    if item.index >= tx.head_index:
        raise Rejection(
            "bad-row",
            t("row {row} is not before the last row ({last})", row=item.index, last=tx.head_index),
            None,
        )
    if not any(r["index"] > item.index for r in fold.effective_orders(rows)):
        raise Rejection(
            "nothing-to-rewind",
            t("no order after row {row} counts: nothing to rewind", row=item.index),
            None,
        )
    rolls = rewinds.discarded_rolls(rows, item.index)
    if rewinds.needs_confirmation(tx, ch.user, rolls):  # a re-roll needs a second person
        need = rewinds.needed(tx, ch.user, rolls)
        if (no := opponent_seat.consent_refusal(tx, need, "rewind")) is not None:
            raise no
        rewinds.propose(tx, ch, item, rolls, ch.now or datetime.now(UTC))
        return state
    return apply_rewind(tx, ch, state, item, {"discarded": rolls}, rows)


def apply_rewind(
    tx: GameTx,
    ch: Any,
    state: Any,
    item: C.Rewind,
    extra: dict[str, Any],
    rows: list[dict[str, Any]] | None = None,
) -> Any:
    """The rewind itself: the row, the replayed snapshot, and a fresh dice epoch."""
    rows = rows if rows is not None else fold.with_secrets(tx.rows())
    kept = [*rows, {"index": None, "kind": "rewind", "payload": {"to": item.index}}]
    new = fold.replay(ch.system, kept)
    doc = ch.system.state_to_json(new)
    payload = {
        "to": item.index,
        "why": item.reason,
        "state_sha256": sealing.state_digest(ch.system, new),
        **sealing.tx_fields(ch.system, tx, doc),
        **extra,
    }
    text = ch.system.grammar.format(item)
    tx.append("rewind", "moderator", text, payload, user=ch.user, key=ch.key)
    tx.set_snapshot(doc)
    tx.reveal_epoch()  # nothing may be rolled again from a seed that decided rewound rolls
    tx.open_epoch(ch.system.situation(new).turn or 1, ch.seeds())
    return new


def moderation(tx: GameTx, ch: Change, state: Any, item: Any) -> Any:
    if isinstance(item, C.Seat):
        opponent_seat.check_seat(ch.system, item.user)
    action, extra = roles.moderate(tx, ch.user, item)
    payload = {"action": action, "why": item.reason, **extra}
    text = ch.system.grammar.format(item)
    row = tx.append("moderation", "moderator", text, payload, user=ch.user, key=ch.key)
    if action == "seat":  # the player seated is sent the setup's private events for his side
        seat_secrets.tell_seated(tx, row, now=ch.now or datetime.now(UTC))
    return state


HANDLERS: dict[type, Callable[..., Any]] = {
    C.Salt: salt,
    C.Undo: undo,
    C.Rewind: rewind,
    C.Pause: moderation,
    C.Resume: moderation,
    C.Seat: moderation,
    C.Unseat: moderation,
    C.Moderator: moderation,
}


def fixed_record(r: Roll, epoch: int) -> dict[str, Any]:
    """The chained record of a fixed roll (a result the state fixes, no die drawn); it names
    its die's faces only when it is not a d6."""
    record: dict[str, Any] = {
        "purpose": r.purpose,
        "value": r.value,
        "fixed": True,
        "epoch": epoch or None,
        "n": None,
        "hidden": r.hidden,
    }
    if r.faces != 6:
        record["faces"] = r.faces
    return record


def roll_records(
    rolls: Iterable[Roll], drawn: list[dict[str, Any]], epoch: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """The engine's rolls joined with the committed draws: the chained records, and the
    off-chain secrets of hidden draws (None when there are none). A record names its die's
    faces only when it is not a d6, and a hidden draw's record holds no value."""
    draws = iter(drawn)
    records: list[dict[str, Any]] = []
    secrets: list[dict[str, Any]] = []
    for r in rolls:
        if r.fixed:
            records.append(fixed_record(r, epoch))
            continue
        draw = next(draws)
        found = (draw["purpose"], draw["value"], draw.get("faces", 6), bool(draw.get("hidden")))
        if found != (r.purpose, r.value, r.faces, r.hidden):
            raise AssertionError(f"roll {r} is not the committed draw {draw}")
        record, secret = committed.roll_entry(draw)
        records.append(record)
        if secret is not None:
            secrets.append(secret)
    return records, secrets or None


__all__ = ["HANDLERS", "Change", "NoDice", "apply", "fixed_record", "roll_records"]

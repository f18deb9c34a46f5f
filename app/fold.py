"""The state as the fold of the log: the one walk behind replay, undo, rewind, audit and images.

Works on log rows as dicts (storage.LogRecord.to_dict, or the lines of an exported file), so the
same code serves the service and the offline `pbem audit --verify`, which has no database. Each
effective order is re-applied through the game system with the die results it recorded
(FixedDice); moderator-fixed results come back through the state, as they did the first time.
An "undo" row removes the rows it names; a "rewind" row removes every effective order after its
target. With check=True every replayed row must give the events and the state hash it recorded;
the first that does not raises ReplayMismatch naming that row.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from adjudicator.core.dice import DiceExhausted, FixedDice
from adjudicator.core.errors import Rejection, TextError
from adjudicator.core.events import ALL, I18N, Event, Viewer, audience_of
from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem, Outcome, start
from app import edits, sealing
from app.state_bytes import StateBytes, canonical


class ReplayMismatch(TextError):
    """Re-applying the log does not give what it recorded; `index` is the first such row."""

    def __init__(self, index: int | None, message: str):
        super().__init__(message)
        self.index = index


class Sealed(ReplayMismatch):
    """The log holds hidden draws whose values are not at hand (an export before the game
    ends): it can be replayed once they are revealed."""


@dataclass
class Step:
    """One effective order re-applied: its row, the state before it, and what it gave."""

    row: dict[str, Any]
    before: Any
    outcome: Outcome


def with_secrets(records: Iterable[Any]) -> list[dict[str, Any]]:
    """Log records (storage.LogRecord) as rows with their off-chain secrets: what the server
    replays with (hidden draws and private events included)."""
    return [r.to_dict() | ({"secret": r.secret} if r.secret else {}) for r in records]


def effective_orders(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The order rows that make the game state: an "undo" row removes the rows it names, a
    "rewind" row removes every effective order row after its target index."""
    effective: list[int] = []
    for pos, row in enumerate(rows):
        kind = row.get("kind")
        raw = row.get("payload")
        payload: dict[str, Any] = raw if isinstance(raw, dict) else {}
        if kind == "order":
            effective.append(pos)
        elif kind == "undo":
            gone = set(payload.get("targets") or [])
            effective = [i for i in effective if rows[i].get("index") not in gone]
        elif kind == "rewind":
            to = payload.get("to")
            if isinstance(to, int):
                effective = [i for i in effective if rows[i]["index"] <= to]
    return [rows[i] for i in effective]


def events_since(rows: list[dict[str, Any]], after: int | None) -> list[dict[str, Any]]:
    """The events of the effective orders after log row `after` (None: from the setup on): what
    an after-phase post tells and draws. Cheap: the stored events, no replay."""
    events = list(rows[0]["payload"].get("events", [])) if after is None and rows else []
    for row in effective_orders(rows):
        if after is None or row["index"] > after:
            events += row["payload"].get("events", [])
    return events


def drawn(rolls: list[dict[str, Any]], secrets: list[Any] | None = None) -> list[int]:
    """The results that came from the dice source (fixed ones come from the state itself). A
    hidden draw's value comes from the row's off-chain secret entries ({"commitment", "value",
    "salt"}) by its commitment; without them (an export before the game ends) ReplayMismatch,
    its message starting "sealed:"."""
    opened: dict[Any, Any] = {
        s.get("commitment"): s.get("value") for s in secrets or [] if isinstance(s, dict)
    }
    values: list[int] = []
    for r in rolls:
        if r.get("fixed", False):
            continue
        if r.get("hidden") and r.get("value") is None:
            if r.get("commitment") not in opened:
                raise Sealed(
                    None,
                    t(
                        "sealed: the hidden draw {purpose} cannot be replayed yet:"
                        " the hidden draws are revealed when the game ends",
                        purpose=repr(r.get("purpose")),
                    ),
                )
            values.append(opened[r["commitment"]])
        else:
            values.append(r["value"])
    return values


def setup(
    system: GameSystem,
    rows: list[dict[str, Any]],
    *,
    check: bool = False,
    seeds: dict[int, str] | None = None,
) -> Outcome:
    """The setup of row 0, with the dice it drew from epoch 1 (recorded in row 1, the epoch
    row that commits their seeds: app/lifecycle.py)."""
    if not rows or rows[0].get("kind") != "setup":
        raise ReplayMismatch(0, t("row 0 is not the setup row"))
    epoch = rows[1] if len(rows) > 1 and rows[1].get("kind") == "epoch" else {"payload": {}}
    try:
        dice = FixedDice(drawn(epoch["payload"].get("rolls", []), epoch.get("secret")))
    except Sealed as exc:
        raise Sealed(1, t("{error} (the setup's dice, row 1)", error=str(exc))) from exc
    try:
        payload = rows[0]["payload"]
        out = start(system, bool(payload.get("sandbox")), dice, payload.get("rules", 1))
    except (DiceExhausted, ValueError) as exc:
        raise ReplayMismatch(0, t("the setup: {error}", error=str(exc))) from exc
    if check:
        _check(system, rows[0], out, dice, seeds)
    return out


def walk(
    system: GameSystem,
    rows: list[dict[str, Any]],
    start: Any,
    *,
    check: bool = False,
    seeds: dict[int, str] | None = None,
) -> Iterator[Step]:
    """Re-apply every effective order of `rows` from the state `start` (after the setup);
    seeds: the revealed keys of the rows' hidden-state commitments (app/sealing.py)."""
    state = start
    encode = StateBytes() if check else None  # the state hashes' bytes, entry by entry
    for row in effective_orders(rows):
        try:
            dice = FixedDice(drawn(row["payload"].get("rolls", []), row.get("secret")))
        except Sealed as exc:
            where = t("row {row} ({text})", row=row["index"], text=repr(row["text"]))
            raise Sealed(row["index"], t("{error} ({where})", error=str(exc), where=where)) from exc
        text = edits.opened_text(row)  # a secret edit's text: sealed in the row's secret
        if text is None:
            raise Sealed(
                row["index"],
                t(
                    "sealed: the edit at row {row} sets a hidden value; its text is revealed "
                    "when the game ends",
                    row=row["index"],
                ),
            )
        try:
            order = system.grammar.parse(text)
            out = system.apply(state, row["actor"], order, dice)
        except (Rejection, DiceExhausted) as exc:
            raise ReplayMismatch(
                row["index"],
                t(
                    "row {row} ({text}): {error}",
                    row=row["index"],
                    text=repr(row["text"]),
                    error=str(exc),
                ),
            ) from exc
        if check:
            _check(system, row, out, dice, seeds, encode)
        yield Step(row, state, out)
        state = out.state


def replay(system: GameSystem, rows: list[dict[str, Any]], *, check: bool = False) -> Any:
    """The state after the effective orders of `rows` (a whole log, row 0 first). With check,
    a row's hidden-state commitment is checked too once its key is revealed (the game's end)."""
    seeds = sealing.state_seeds(rows) if check and system.hidden_information else None
    state = setup(system, rows, check=check, seeds=seeds).state
    for step in walk(system, rows, state, check=check, seeds=seeds):
        state = step.outcome.state
    return state


def state_at(system: GameSystem, rows: list[dict[str, Any]], index: int) -> Any:
    """The state as it stood right after log row `index` (the rows after it not yet written)."""
    kept = [r for r in rows if r["index"] <= index or r["index"] == 1 and r["kind"] == "epoch"]
    return replay(system, kept)  # row 1 written with row 0: the setup's dice


def _jsonish(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _where(row: dict[str, Any]) -> str:
    return t("row {row} ({text})", row=row["index"], text=repr(row["text"]))


def _check(
    system: GameSystem,
    row: dict[str, Any],
    out: Outcome,
    dice: FixedDice | None,
    seeds: dict[int, str] | None = None,
    encode: StateBytes | None = None,
) -> None:
    if dice is not None and dice.used != len(dice._values):
        raise ReplayMismatch(
            row["index"],
            t(
                "{where}: the rules now roll {now} dice, the log holds {logged}",
                where=_where(row),
                now=dice.used,
                logged=len(dice._values),
            ),
        )
    secrets = row.get("secret")
    if secrets:
        known = _opened_values(secrets)
        opened = sealing.opened(row["payload"].get("events", []), secrets)
        logged = [_comparable_event(e, known) for e in opened]
    else:  # nothing sealed is opened: what sealing.opened and _comparable_event give then
        known = []
        logged = [
            {k: v for k, v in e.items() if k != I18N}
            if type(e) is dict and e.get("audience", ALL) in _PUBLIC and e.get("kind") != _SEALED
            else _comparable_event(e, known)
            for e in row["payload"].get("events", [])
        ]
    events = [_replayed_event(e, known) for e in out.events]
    if events != logged:  # equal as they are, equal read back from JSON; else read them back
        events = _jsonish(events)
    if events != logged:
        first = next(
            (i for i, (a, b) in enumerate(zip(events, logged, strict=False)) if a != b),
            min(len(events), len(logged)),
        )
        raise ReplayMismatch(
            row["index"],
            t(
                "{where}: events differ on replay at event {n}: logged {logged}, now {now}",
                where=_where(row),
                n=first + 1,
                logged=str(logged[first : first + 1]),
                now=str(events[first : first + 1]),
            ),
        )
    recorded = row["payload"].get("state_sha256")
    if recorded is not None and not _state_is(system, out.state, recorded, encode):
        raise ReplayMismatch(
            row["index"], t("{where}: the state after it differs on replay", where=_where(row))
        )
    seed = (seeds or {}).get(row["index"])
    committed = row["payload"].get(sealing.STATE_HMAC)
    full = system.state_to_json(out.state) if seed is not None and committed is not None else None
    if seed is not None and full is not None and not _hmac_is(seed, full, committed):
        raise ReplayMismatch(
            row["index"],
            t(
                "{where}: the full state after it (its hidden part) is not the one the row"
                " committed (state_hmac)",
                where=_where(row),
            ),
        )


def _opened_values(secrets: list[Any] | None) -> list[Any]:
    """The values a row's off-chain secret entries open (hidden draws, private events)."""
    return [s.get("value") for s in secrets or [] if isinstance(s, dict)]


def _state_is(
    system: GameSystem, state: Any, digest: object, encode: StateBytes | None = None
) -> bool:
    """sealing.state_is: a state that hashes to `digest` at the first encoding is it (the bytes
    that state_is hashes first); anything else sealing.state_is itself decides."""
    view = system.view(state, Viewer.public()) if system.hidden_information else state
    data = (encode or canonical)(system.state_to_json(view))
    if data is not None and hashlib.sha256(data).hexdigest() == digest:
        return True
    return sealing.state_is(system, state, digest)


def same_json(doc: Any, read_back: Any) -> bool:
    """Whether `doc` encodes to the very bytes of `read_back` (a value read from JSON): then
    their storage.state_hash agree (False: not found so; storage.state_hash_is decides)."""
    data = canonical(doc)
    return data is not None and data == canonical(read_back)


@lru_cache(maxsize=64)
def _state_key(seed: str) -> bytes:
    return sealing.state_key(seed)


def _hmac_is(seed: str, doc: Any, recorded: object) -> bool:
    """sealing.hmac_is: a full state whose first encoding gives `recorded` is the one committed
    (the bytes hmac_is keys first); anything else sealing.hmac_is itself decides."""
    data = canonical(doc)
    if data is not None and isinstance(recorded, str):
        try:
            mac = hmac.new(_state_key(seed), data, "sha256").hexdigest()
        except (TypeError, ValueError):
            mac = None
        if mac is not None and hmac.compare_digest(mac, recorded):
            return True
    return sealing.hmac_is(seed, doc, recorded)


def _comparable_event(event: dict[str, Any], known: list[Any]) -> dict[str, Any]:
    """A private event whose opening is not at hand (`known`: the row's opened values)
    compares by its audience only; an event's translation (its I18N key) is presentation and
    is not compared (its English text is). The logged events are read with the row's sealed
    ones opened where its secrets are at hand (sealing.opened)."""
    private = not audience_of(event).public
    if sealing.is_sealed(event) or (private and event not in known):
        return {"sealed": event.get("audience")}
    return {k: v for k, v in event.items() if k != I18N}


_PUBLIC = (None, ALL)  # the audiences of a public event (Audience.from_json)
_SEALED = sealing.SEALED
_RESERVED = frozenset(("kind", "audience"))  # data keys that would change what compares


def _replayed_event(event: Event, known: list[Any]) -> dict[str, Any]:
    """_comparable_event of a replayed event's to_dict, without rendering the translation a
    public event's comparison drops (Event.to_dict less its I18N key, the same dict)."""
    if not event.audience.public or event.kind == sealing.SEALED or _RESERVED & event.data.keys():
        return _comparable_event(event.to_dict(), known)
    doc: dict[str, Any] = {"kind": event.kind, "text": str.__str__(event.text), **event.data}
    doc.pop(I18N, None)
    return doc


__all__ = [
    "ReplayMismatch",
    "Sealed",
    "Step",
    "drawn",
    "effective_orders",
    "events_since",
    "replay",
    "same_json",
    "setup",
    "state_at",
    "walk",
    "with_secrets",
]

"""Private events in a public chain: sealed with a salted commitment, opened for their audience.

An event whose audience is not everyone enters a log row's chained payload as a placeholder,
{"kind": "Sealed", "audience": "side:north", "commitment": c}, with c = SHA-256(salt + canonical
event) also listed in the payload's `hidden` commitments; the event itself and its salt go into
the row's off-chain `secret` list (the same shape as a hidden die: commitment, value, salt),
which leaves the server only in the export of a finished game. So neither the export nor a
published head hash gives a private event away, and the audit checks every one once revealed.

The state hash a row records is, for a system with hidden information, the hash of the public
view of the state (a hash of the whole state would give a hidden value away to anyone who tries
the few values it can take); the full state is checked against the snapshot, on the server.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from adjudicator.core.events import Event, Viewer, audience_of
from adjudicator.core.system import GameSystem
from storage import chain, state_hash, state_hash_is
from storage.dice import hidden_commit
from storage.engine import dump

SEALED = "Sealed"


def seal(events: list[Event]) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
    """(the payload's events, its hidden commitments, the secret entries) of a change."""
    shown: list[dict[str, Any]] = []
    commitments: list[str] = []
    secrets: list[dict[str, Any]] = []
    for event in events:
        doc = event.to_dict()
        if event.audience.public:
            shown.append(doc)
            continue
        c, salt = hidden_commit(doc)
        shown.append({"kind": SEALED, "audience": event.audience.to_json(), "commitment": c})
        commitments.append(c)
        secrets.append({"commitment": c, "value": doc, "salt": salt})
    return shown, commitments, secrets


def is_sealed(event: dict[str, Any]) -> bool:
    return event.get("kind") == SEALED


def opened(events: list[dict[str, Any]], secrets: list[Any] | None) -> list[dict[str, Any]]:
    """The events of a row with the sealed ones replaced by what they seal (where known)."""
    by_commitment = {
        s.get("commitment"): s.get("value") for s in secrets or [] if isinstance(s, dict)
    }
    return [by_commitment.get(e.get("commitment"), e) if is_sealed(e) else e for e in events]


def visible(
    events: list[dict[str, Any]], secrets: list[Any] | None, viewer: Viewer
) -> list[dict[str, Any]]:
    """The events `viewer` may see, in order: public ones, and the sealed ones of his audience
    opened (when the row's secrets are at hand)."""
    out: list[dict[str, Any]] = []
    for event in opened(events, secrets):
        if is_sealed(event):
            continue
        if audience_of(event).sees(viewer):
            out.append(event)
    return out


def state_digest(system: GameSystem, state: Any) -> str:
    """The state hash a log row records (see the module doc)."""
    if system.hidden_information:
        state = system.view(state, Viewer.public())
    return state_hash(system.state_to_json(state))


def state_is(system: GameSystem, state: Any, digest: object) -> bool:
    """Whether state_digest(system, state) == digest: what a replay checks on every row that
    records a state hash (storage.engine.state_hash_is: one encoding instead of three)."""
    if system.hidden_information:
        state = system.view(state, Viewer.public())
    return state_hash_is(system.state_to_json(state), digest)


# (system id, SHA-256 of a snapshot's text) -> the state hash of the state that text holds: the
# state hash is a pure function of the text, so an order's check of the snapshot it reads back
# (app/integrity.py) costs a SHA-256 of the text when this process wrote that text.
_DIGESTS: OrderedDict[tuple[str, str], str] = OrderedDict()
_KEPT = 4096


def _key(system: GameSystem, text: str) -> tuple[str, str]:
    return system.id, hashlib.sha256(text.encode()).hexdigest()


def _remember(key: tuple[str, str], digest: str) -> None:
    _DIGESTS[key] = digest
    _DIGESTS.move_to_end(key)
    while len(_DIGESTS) > _KEPT:
        _DIGESTS.popitem(last=False)


def snapshot_digest(system: GameSystem, text: str, state: Any) -> str:
    """The state hash of `state`, which is the state the snapshot `text` holds."""
    key = _key(system, text)
    known = _DIGESTS.get(key)
    if known is None:
        known = state_digest(system, state)
        _remember(key, known)
    return known


def serialised(system: GameSystem, state: Any) -> tuple[str, dict[str, Any], str]:
    """A state serialised once: (the snapshot's text, its JSON as read back, its state hash)."""
    text = dump(system.state_to_json(state))
    doc = json.loads(text)
    if system.hidden_information:
        digest = state_digest(system, state)
    else:  # what storage.state_hash computes, from the one serialisation
        digest = hashlib.sha256(chain.canonical(doc)).hexdigest()
    _remember(_key(system, text), digest)
    return text, doc, digest


__all__ = [
    "SEALED",
    "is_sealed",
    "opened",
    "seal",
    "serialised",
    "snapshot_digest",
    "state_digest",
    "state_is",
    "visible",
]

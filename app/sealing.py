"""Private events in a public chain: sealed with a salted commitment, opened for their audience.

An event whose audience is not everyone enters a log row's chained payload as a placeholder,
{"kind": "Sealed", "audience": "side:north", "commitment": c}, with c = SHA-256(salt + canonical
event) also listed in the payload's `hidden` commitments; the event itself and its salt go into
the row's off-chain `secret` list (the same shape as a hidden die: commitment, value, salt),
which leaves the server only in the export of a finished game. So neither the export nor a
published head hash gives a private event away, and the audit checks every one once revealed.

The state hash a row records is, for a system with hidden information, the hash of the public
view of the state (a hash of the whole state would give a hidden value away to anyone who tries
the few values it can take). The full state is committed beside it, in the same payload:
`state_hmac` = HMAC-SHA256(key, canonical JSON of the full state, the snapshot's own bytes),
with the game's state key = HMAC-SHA256(hidden seed bytes, b"pbem state commitment"). So the key
is kept, committed and revealed as the hidden seed is (the `dicesecret` row of kind "hidden",
its `hidden_commitment` in an `epoch` row, the `reveal-hidden` row at the game's end): nobody
without it learns anything of the hidden part, a host cannot swap it, and once it is revealed
anyone checks every row's commitment by replaying the log (app/fold.py). The service checks the
stored snapshot against the last state row's commitment before every write (app/integrity.py).
A row written before this existed carries no `state_hmac`: the hidden state of such a game is
committed from its first state row written since (`committed_from`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from adjudicator.core.events import Event, Viewer, audience_of
from adjudicator.core.system import GameSystem
from storage import GameTx, chain, state_hash, state_hash_is
from storage import dice as committed
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


STATE_KEY = b"pbem state commitment"  # no draw's message: those start with a game uid and "|"
STATE_HMAC = "state_hmac"


def state_key(hidden_seed: str) -> bytes:
    """The key of a game's state commitments, from its hidden seed (see the module doc)."""
    return hmac.digest(bytes.fromhex(hidden_seed), STATE_KEY, "sha256")


def doc_hmac(hidden_seed: str, doc: Any, *, read_back: bool = False) -> str:
    """The commitment to a full state given as its JSON: the HMAC of the canonical bytes of
    `doc` read back from JSON (the snapshot's own; read_back: `doc` is read back already)."""
    data = chain.canonical(doc if read_back else json.loads(dump(doc)))
    return hmac.new(state_key(hidden_seed), data, "sha256").hexdigest()


def hmac_fields(
    system: GameSystem, doc: Any, hidden_seed: str | None, *, read_back: bool = False
) -> dict[str, str]:
    """The payload's `state_hmac` for a row recording the state whose JSON is `doc` (nothing for
    a system without hidden information, or a game with no hidden seed to key it)."""
    if not system.hidden_information or hidden_seed is None:
        return {}
    return {STATE_HMAC: doc_hmac(hidden_seed, doc, read_back=read_back)}


def hmac_is(hidden_seed: str, doc: Any, recorded: object) -> bool:
    """Whether `doc` is the full state `recorded` commits: one encoding where its keys are all
    strings (a snapshot read back, every system's state_to_json), the exact one otherwise (as
    storage.engine.state_hash_is)."""
    if not isinstance(recorded, str):
        return False
    try:
        if hmac.compare_digest(doc_hmac(hidden_seed, doc, read_back=True), recorded):
            return True
    except (TypeError, ValueError):
        pass
    return hmac.compare_digest(doc_hmac(hidden_seed, doc), recorded)


def live_seed(tx: GameTx) -> str | None:
    """The hidden seed that keys the commitments of the rows written now: the unrevealed one (checked
    against its commitment), or after the game's end the one its `reveal-hidden` row published."""
    seed = tx.hidden_seed()
    if seed is None:
        ends = tx.rows_of_kind("reveal-hidden")
        found = ends[-1].payload.get("hidden_seed") if ends else None
        seed = found if isinstance(found, str) else None
    return seed


def tx_fields(
    system: GameSystem, tx: GameTx, doc: Any, *, read_back: bool = False
) -> dict[str, str]:
    """hmac_fields for a row written in `tx` (its key: live_seed)."""
    if not system.hidden_information:
        return {}
    return hmac_fields(system, doc, live_seed(tx), read_back=read_back)


_REPLAYED: OrderedDict[tuple[str, str], None] = OrderedDict()  # (row hash, snapshot sha) found


def replays_to(row_hash: str, text: str, doc: Any, replay: Callable[[], Any]) -> bool:
    """Whether the full snapshot `doc` (stored as `text`) is the state `replay()` gives (its
    JSON), the state the row `row_hash` recorded without a commitment (a repair's): replayed
    once per process for each such row and snapshot."""
    key = (row_hash, hashlib.sha256(text.encode()).hexdigest())
    if key in _REPLAYED:
        return True
    if chain.canonical(json.loads(dump(replay()))) != chain.canonical(doc):
        return False
    _REPLAYED[key] = None
    while len(_REPLAYED) > _KEPT:
        _REPLAYED.popitem(last=False)
    return True


def committed_from(rows: list[dict[str, Any]]) -> int | None:
    """The first row that carries a hidden-state commitment (None: none does)."""
    return next((r["index"] for r in rows if STATE_HMAC in (r.get("payload") or {})), None)


def _is_seed(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and committed.HEX64.issuperset(value)


def state_seeds(rows: list[dict[str, Any]]) -> dict[int, str]:
    """Row index -> the revealed hidden seed that keys its `state_hmac`: the seed of the latest
    `hidden_commitment` chained at or before the row (row 1's for the setup, written with it),
    once a `reveal-hidden` row has published it. Rows whose seed is not revealed are left out."""
    revealed: dict[str, str] = {}
    for r in rows:
        seed = (r.get("payload") or {}).get("hidden_seed")
        if r.get("kind") == "reveal-hidden" and _is_seed(seed):
            revealed[committed.commitment(str(seed))] = str(seed)
    seeds: dict[int, str] = {}
    current: str | None = None
    for r in rows:
        p = r.get("payload") or {}
        if r.get("kind") == "epoch" and p.get("hidden_commitment"):
            current = revealed.get(str(p["hidden_commitment"]))
            if r["index"] == 1 and current is not None and rows[0]["index"] == 0:
                seeds[0] = current  # the setup row, keyed by the seed its epoch row commits
        if STATE_HMAC in p and current is not None:
            seeds[r["index"]] = current
    return seeds


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
    """A state serialised once: (the snapshot's text, its JSON as read back, its state hash).

    The snapshot keeps the order of the state's keys (a state read back from it iterates its
    collections as the state did: the rules' order of units, reinforcements, blocks), so its
    hash is that of the canonical form of what it reads back as, not of the text itself."""
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
    "STATE_HMAC",
    "committed_from",
    "doc_hmac",
    "hmac_fields",
    "hmac_is",
    "is_sealed",
    "live_seed",
    "opened",
    "replays_to",
    "seal",
    "serialised",
    "snapshot_digest",
    "state_digest",
    "state_is",
    "state_key",
    "state_seeds",
    "tx_fields",
    "visible",
]

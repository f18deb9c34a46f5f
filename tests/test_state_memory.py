"""The states an order starts from: kept by this process under the very snapshot text it wrote
(app/state_memory.py), decoded afresh from any other text; and the snapshot's one canonical
encoding (app/sealing.py `serialised`), whose SHA-256 is the state hash."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from adjudicator.core import registry
from app import games, sealing, state_memory
from app.service import GameService
from bots.demo import DemoSeeds, choose, demo_uid, legal_texts
from contract.drivers import installed
from contract.play import bound_system, direct_play
from storage import Store, chain, state_hash

SYSTEMS = sorted(installed())


def _keys_are_strings(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and _keys_are_strings(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return all(_keys_are_strings(v) for v in value)
    return True


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_snapshot_is_its_states_canonical_json_and_hashes_to_the_state_hash(
    system_id: str,
) -> None:
    system = bound_system(installed()[system_id])
    seen = 0
    for state, _, _ in direct_play(system, 5, installed()[system_id].bound):
        doc = system.state_to_json(state)
        assert _keys_are_strings(doc)  # what makes the text's canonical form the text
        text, back, digest = sealing.serialised(system, state)
        assert text.encode() == chain.canonical(back)  # the text is canonical as read back
        assert back == json.loads(json.dumps(doc))
        if not system.hidden_information:
            assert digest == state_hash(back) == hashlib.sha256(text.encode()).hexdigest()
        else:
            assert digest == sealing.state_digest(system, state)
        seen += 1
    assert seen > 5


def _snapshot_text(store: Store, name: str) -> str:
    """The snapshot's text as the game row holds it."""
    with store.engine.connect() as conn:
        found = conn.exec_driver_sql("SELECT snapshot FROM game WHERE name = ?", (name,))
        return str(found.scalar())


def _play(store: Store, system_id: str, orders: int) -> tuple[GameService, str]:
    service = GameService(store, seeds=DemoSeeds(7), uids=lambda: demo_uid(7, system_id))
    name = system_id
    service.new_game(name, system=system_id)
    system, rng = service.system(name), random.Random(7)
    for _ in range(orders):
        here = system.situation(service.state(name))
        if here.over:
            break
        side = here.to_move[0]
        text = choose(rng, legal_texts(system, service.state(name), side))
        (reply, *_) = service.say(name, side, text)
        assert reply.ok, reply.reply
        stored, text = store.snapshot(name), _snapshot_text(store, name)
        kept = state_memory.recall(system, text)
        assert kept is not None  # the state this process wrote, kept by its text
        assert system.state_to_json(kept) == json.loads(json.dumps(system.state_to_json(kept)))
        assert json.loads(json.dumps(system.state_to_json(kept))) == stored  # nothing changed it
    return service, name


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_the_state_kept_for_a_snapshot_is_still_the_stored_state_after_every_order(
    tmp_path: Any, system_id: str
) -> None:
    store = Store(str(tmp_path / "g.db"))
    try:
        _play(store, system_id, 40)
    finally:
        store.close()


def test_a_snapshot_text_of_another_binding_or_changed_in_a_byte_is_decoded_afresh(
    tmp_path: Any,
) -> None:
    store = Store(str(tmp_path / "g.db"))
    try:
        service, name = _play(store, "hells-gate", 3)
        system = service.system(name)
        text = _snapshot_text(store, name)
        assert state_memory.recall(system, text) is not None
        other = games.bind("hells-gate", *games.default_scenario(registry.get("hells-gate")))
        if other is not system:  # a binding made apart (not the cached one) finds nothing
            assert state_memory.recall(other, text) is None
        assert state_memory.recall(system, text.replace(":", ": ", 1)) is None
        state_memory.forget()
        assert state_memory.recall(system, text) is None
    finally:
        store.close()


def test_an_edited_snapshot_still_freezes_the_game_at_the_next_order(tmp_path: Any) -> None:
    """The kept state saves the decoding only: a snapshot edited behind the service's back is
    a text kept nowhere, checked against the log's state row and refused (app/integrity.py)."""
    store = Store(str(tmp_path / "g.db"))
    try:
        service, name = _play(store, "hells-gate", 3)
        system = service.system(name)
        doc = store.snapshot(name)
        doc["turn"] = int(doc.get("turn", 1)) + 1
        with store.engine.begin() as conn:
            conn.exec_driver_sql(
                "UPDATE game SET snapshot = ? WHERE name = ?", (json.dumps(doc), name)
            )
        here = system.situation(service.state(name))
        side = here.to_move[0]
        text = choose(random.Random(1), legal_texts(system, service.state(name), side))
        (reply, *_) = service.say(name, side, text)
        assert not reply.ok
        assert "snapshot" in reply.reply
    finally:
        store.close()

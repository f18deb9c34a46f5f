"""The states an order starts from: kept by this process under the very snapshot text it wrote
(app/state_memory.py), decoded afresh from any other text, and a state read back from its
snapshot playing exactly as the state itself."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from adjudicator.core import registry
from adjudicator.core.dice import HashDice
from app import games, sealing, state_memory
from app.service import GameService
from bots.demo import DemoSeeds, choose, demo_uid, legal_texts
from contract.drivers import installed
from contract.play import bound_system, direct_play
from storage import Store, state_hash
from storage.engine import dump

SYSTEMS = sorted(installed())


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_a_state_read_back_from_its_snapshot_plays_as_the_state_itself(system_id: str) -> None:
    """What lets an order start from the kept state instead of its snapshot (and a process that
    did not write the snapshot from the snapshot): the same order with the same dice gives the
    same events and the same next snapshot, byte for byte (the order of every collection kept:
    a snapshot with its keys sorted read back as another order of units and played otherwise)."""
    driver = installed()[system_id]
    system, rng = bound_system(driver), random.Random(11)
    seen = 0
    for n, (state, side, _) in enumerate(direct_play(system, 5, driver.bound)):
        text, doc, digest = sealing.serialised(system, state)
        back = system.state_from_json(json.loads(text))
        assert dump(system.state_to_json(back)) == text
        if not system.hidden_information:
            assert digest == state_hash(doc)
        order = rng.choice(system.legal_orders(state, side))
        kept = system.apply(state, side, order, HashDice(n))
        read = system.apply(back, side, order, HashDice(n))
        assert [e.to_dict() for e in read.events] == [e.to_dict() for e in kept.events]
        assert dump(system.state_to_json(read.state)) == dump(system.state_to_json(kept.state))
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

"""The hidden state is committed in every state row (app/sealing.py `state_hmac`), checked
before every write and, once the game has ended and its key is revealed, by the audit's replay
(docs/threat-model.md, "What is checked, and when").

A careful host forges only the hidden part of the stored snapshot (a Stalin's War hand card
swapped with the deck's top, a Northern War block's strength): the public view, and so the
state hash the last row chained, stays the same. The next write is refused `frozen`, naming
the row whose commitment the snapshot fails; a forged state re-chained into a finished game's
log is named by the audit. Nothing of the key or the commitments reaches a player before the
end."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from sqlalchemy import text

from adjudicator.core.errors import Rejection
from app import audit, fold, integrity, lifecycle, sealing
from app.chain_watch import watch
from app.service import GameService
from bots.demo import DemoSeeds
from storage import chain
from storage import outbox as outbox_rows
from storage.audit import export_lines
from tests.host_edits import host_execute
from tests.playing import legal_text, play_random

UID = "0123456789abcdef0123456789abcdef"  # fixed: the draws depend on it
SEATED = {"axis": "telegram:1", "soviet": "telegram:2"}


def snapshot(service: GameService, name: str) -> dict:
    with service.store.engine.connect() as conn:
        raw = conn.execute(text("SELECT snapshot FROM game WHERE name = :n"), {"n": name})
        return json.loads(raw.scalar())


def forge(service: GameService, name: str, doc: dict) -> None:
    """The host writes the snapshot back (the game row is no chained table: no guard)."""
    host_execute(
        service.store, "UPDATE game SET snapshot = :s WHERE name = :n", s=json.dumps(doc), n=name
    )


def last_state_row(service: GameService, name: str) -> int:
    rows = service.store.load(name).log
    return max(r.index for r in rows if "state_sha256" in r.payload)


def swap_hand_and_deck(doc: dict) -> dict:
    """A hand card of the side with the fuller deck swapped with its deck's top (before the
    first draw, when no hand holds a card: the deck's top two cards swapped)."""
    side = max(doc["players"], key=lambda s: (len(doc["players"][s]["deck"]), s))
    player = doc["players"][side]
    assert len(player["deck"]) > 1, player
    if player["hand"]:
        player["hand"][0], player["deck"][0] = player["deck"][0], player["hand"][0]
    else:
        player["deck"][0], player["deck"][1] = player["deck"][1], player["deck"][0]
    return doc


def weaken_a_block(doc: dict) -> dict:
    block = next(b for b, s in sorted(doc["strength"].items()) if s > 1)
    doc["strength"][block] -= 1
    return doc


def public_digest(service: GameService, name: str, doc: dict) -> str:
    system = service.system(name)
    return sealing.state_digest(system, system.state_from_json(doc))


@pytest.fixture
def stalin(db_url, stores):
    """Stalin's War in its first turns: both sides seated, some cards played."""
    service = GameService(stores(db_url), seeds=DemoSeeds(4), uids=lambda: UID)
    service.new_game("s", creator="mod", system="stalins-war")
    for side, user in SEATED.items():
        assert service.say("s", None, f"seat {side} {user} seating", user="mod")[0].ok
    play_random(service, "s", 12, seed=4)
    return service


@pytest.fixture
def northern(db_url, stores):
    service = GameService(stores(db_url), seeds=DemoSeeds(5), uids=lambda: UID)
    service.new_game("n", creator="mod", system="northern-war")
    play_random(service, "n", 6, seed=5)
    return service


def forged_write(service: GameService, name: str, which: str):
    """One write of each kind after the forgery: (ok, code, message)."""
    if which == "order":
        side, order = legal_text(service, name, random.Random(1))
        (reply, *_) = service.say(name, side, order)
    elif which == "salt":
        (reply, *_) = service.say(name, None, "salt pepper", user=SEATED["axis"])
    else:  # a moderator's seat
        (reply, *_) = service.say(name, None, "seat soviet telegram:7 swap", user="mod")
    return reply.ok, (reply.error or {}).get("code"), (reply.error or {}).get("message", "")


def assert_names_row(message: str, row: int) -> None:
    assert f"at row {row}:" in message, message
    assert "hidden state was changed" in message and f"row {row} committed" in message, message


@pytest.mark.parametrize("which", ["order", "salt", "seat"])
def test_a_forged_hand_freezes_the_game_at_its_next_write_naming_the_row(stalin, which):
    before = snapshot(stalin, "s")
    row = last_state_row(stalin, "s")
    forged = swap_hand_and_deck(json.loads(json.dumps(before)))
    assert forged != before
    assert public_digest(stalin, "s", forged) == public_digest(stalin, "s", before)  # hidden only
    forge(stalin, "s", forged)
    head = stalin.record("s").head_index
    ok, code, message = forged_write(stalin, "s", which)
    assert not ok and code == "frozen", message
    assert_names_row(message, row)
    assert stalin.record("s").head_index == head  # nothing chained onto the forged snapshot
    assert snapshot(stalin, "s") == forged  # and no snapshot written over it
    ok, said, _ = stalin.audit("s")
    assert not ok and "hidden state was changed" in said, said


def test_a_forged_hand_freezes_a_join_too(db_url, stores):
    """The lifecycle's writes (join, leave, start) check the snapshot as an order does."""
    service = GameService(stores(db_url), seeds=DemoSeeds(4), uids=lambda: UID)
    service.new_game("s", creator="mod", system="stalins-war")
    row = last_state_row(service, "s")
    forge(service, "s", swap_hand_and_deck(snapshot(service, "s")))
    with pytest.raises(Rejection) as refused:
        lifecycle.join(service.core, "s", "telegram:5", "axis", key=None)
    assert refused.value.code == "frozen"
    assert "hidden state was changed" in str(refused.value) and f"row {row}" in str(refused.value)


def test_a_forged_block_strength_freezes_the_game_naming_the_row(northern):
    before = snapshot(northern, "n")
    row = last_state_row(northern, "n")
    forged = weaken_a_block(json.loads(json.dumps(before)))
    assert public_digest(northern, "n", forged) == public_digest(northern, "n", before)
    forge(northern, "n", forged)
    ok, code, message = forged_write(northern, "n", "order")
    assert not ok and code == "frozen", message
    assert_names_row(message, row)


def test_a_repair_commits_the_rebuilt_state_and_a_forged_one_freezes_again(stalin):
    """The repair rebuilds the snapshot from the chain, closes the freeze and commits the
    rebuilt full state in its row: a hidden part forged right after it freezes the game again,
    naming the repair row; play goes on once it is repaired again."""
    forge(stalin, "s", swap_hand_and_deck(snapshot(stalin, "s")))
    assert forged_write(stalin, "s", "order")[1] == "frozen"
    integrity.repair(stalin.core, "s", user="mod")
    assert forged_write(stalin, "s", "salt")[0]  # no state row after the repair row yet
    row = last_state_row(stalin, "s")
    payload = stalin.store.load("s").log[row].payload
    assert payload.get("action") == "repair" and sealing.STATE_HMAC in payload
    forge(stalin, "s", swap_hand_and_deck(snapshot(stalin, "s")))
    ok, code, message = forged_write(stalin, "s", "order")
    assert not ok and code == "frozen", message
    assert_names_row(message, row)
    integrity.repair(stalin.core, "s", user="mod")
    assert forged_write(stalin, "s", "order")[0]


def test_after_a_repair_row_without_a_commitment_the_snapshot_is_checked_by_replay(
    stalin, monkeypatch
):
    """A repair row of an earlier version commits no full state: the snapshot after it is
    checked against the replay of the rows it kept, and a forged hidden part names it."""
    with monkeypatch.context() as earlier:
        earlier.setattr(sealing, "tx_fields", lambda *args, **kwargs: {})
        integrity.repair(stalin.core, "s", user="mod")
    row = last_state_row(stalin, "s")
    assert sealing.STATE_HMAC not in stalin.store.load("s").log[row].payload
    assert forged_write(stalin, "s", "salt")[0]  # the rebuilt snapshot is the replayed state
    forge(stalin, "s", swap_hand_and_deck(snapshot(stalin, "s")))
    ok, code, message = forged_write(stalin, "s", "order")
    assert not ok and code == "frozen", message
    assert f"the repair row {row} give: the hidden state was changed" in message, message


def finished(service: GameService, name: str) -> None:
    play_random(service, name, 2000, seed=6)
    assert service.system(name).situation(service.state(name)).over


def rechained(rows: list[dict], at: int, payload: dict) -> list[dict]:
    """The log as a host who holds the key rewrites it: row `at` with another payload, every
    hash from it on computed again (so the chain holds)."""
    out = [dict(r) for r in rows]
    out[at] = out[at] | {"payload": payload}
    for k in range(at, len(out)):
        prev = out[k - 1]["hash"] if k else chain.GENESIS
        out[k] = out[k] | {"prev_hash": prev}
        out[k]["hash"] = chain.row_hash(prev, out[k])
    return out


def test_a_game_played_normally_passes_the_audit_during_and_after_the_end_and_a_forged_row_does_not(
    stalin, tmp_path
):
    ok, during, _ = stalin.audit("s")
    assert ok, during
    assert "the hidden part is committed in every state row (from row 0 on)" in during, during
    assert "its hidden part the state the last state row committed" in during
    assert "the key is revealed" not in during
    finished(stalin, "s")
    rows = stalin.record("s").log
    assert all(sealing.STATE_HMAC in r.payload for r in rows if "state_sha256" in r.payload)
    ok, after, _ = stalin.audit("s")
    assert ok, after
    assert "every row's commitment (state_hmac, from row 0 on) matches" in after, after
    path = tmp_path / "s.jsonl"
    assert stalin.export("s", path)[0]
    ok, verified = audit.verify_file(path)  # `pbem audit --verify`, no database
    assert ok and "every row's commitment" in verified, verified
    the_audit_after_the_end_names_a_row_whose_hidden_state_was_forged(stalin, tmp_path)


def the_audit_after_the_end_names_a_row_whose_hidden_state_was_forged(stalin, tmp_path) -> None:
    """(The same finished game: playing one to its end is the costly part.)"""
    header, rows = stalin.export_doc("s")
    seed = next(r["payload"]["hidden_seed"] for r in rows if r["kind"] == "reveal-hidden")
    orders = [r for r in rows if r["kind"] == "order"]
    target = orders[len(orders) // 2]
    system = stalin.system("s")
    state = swap_hand_and_deck(system.state_to_json(fold.state_at(system, rows, target["index"])))
    payload = target["payload"] | {sealing.STATE_HMAC: sealing.doc_hmac(seed, state)}
    forged = rechained(rows, target["index"], payload)
    header = header | {"head_hash": forged[-1]["hash"]}
    ok, said, report = audit.check(header, forged)
    assert report.ok, said  # the chain, the seeds and the rolls hold: only the replay finds it
    assert not ok, said
    assert f"Replay: FAILED at row {target['index']}:" in said, said
    assert "is not the one the row committed (state_hmac)" in said
    path = tmp_path / "forged.jsonl"
    path.write_text("\n".join(export_lines(header, forged)) + "\n", encoding="utf-8")
    ok, verified = audit.verify_file(path)
    assert not ok and f"FAILED at row {target['index']}" in verified, verified


def test_a_game_in_progress_at_the_upgrade_is_committed_from_its_next_state_row(
    db_url, stores, monkeypatch
):
    """Rows written by the earlier version carry no commitment: the game plays on, its next
    state row commits the hidden state (keyed by the hidden seed row 1 committed), and the
    audit says from which row on; a forgery after that freezes the game."""
    service = GameService(stores(db_url), seeds=DemoSeeds(4), uids=lambda: UID)
    with monkeypatch.context() as earlier:  # the earlier version: no state_hmac anywhere
        earlier.setattr(sealing, "hmac_fields", lambda *args, **kwargs: {})
        service.new_game("s", creator="mod", system="stalins-war")
        play_random(service, "s", 6, seed=4)
    rows = service.store.load("s").log
    assert not any(sealing.STATE_HMAC in r.payload for r in rows)
    ok, said, _ = service.audit("s")
    assert ok and "no row commits it" in said, said
    play_random(service, "s", 4, seed=7)
    first = next(r.index for r in service.store.load("s").log if sealing.STATE_HMAC in r.payload)
    assert first > max(r.index for r in rows)
    ok, said, _ = service.audit("s")
    assert ok, said
    assert (
        f"The hidden state is committed from row {first} on (rows before it were written by an"
        " earlier version)." in said
    ), said
    row = last_state_row(service, "s")
    forge(service, "s", swap_hand_and_deck(snapshot(service, "s")))
    ok, code, message = forged_write(service, "s", "order")
    assert not ok and code == "frozen"
    assert_names_row(message, row)


def test_the_key_and_the_commitments_give_nothing_away_before_the_end(stalin):
    """The hidden seed (the commitments' key) and the key derived from it reach no message and
    no export before the end; a commitment is no hash of the state anyone can recompute."""
    secrets = [s["seed"] for s in stalin.store.dice_secrets("s") if s["kind"] == "hidden"]
    (seed,) = secrets
    keys = [seed, sealing.state_key(seed).hex()]
    said = [r["text"] for r in outbox_rows.select_rows(stalin.store, game="s")]
    said += [stalin.status("s", view=v) for v in ("public", "axis", "soviet")]
    said += [stalin.log_text("s", view="axis")]
    header, rows = stalin.export_doc("s")
    data = "\n".join(export_lines(header, rows))
    for key in keys:
        assert all(key not in text_ for text_ in said)
        assert key not in data
    doc = snapshot(stalin, "s")
    last = next(r for r in reversed(rows) if "state_sha256" in r["payload"])
    committed = last["payload"][sealing.STATE_HMAC]
    plain = hashlib.sha256(chain.canonical(doc)).hexdigest()
    assert committed not in {plain, sealing.doc_hmac("0" * 64, doc)}
    assert committed == sealing.doc_hmac(seed, doc)  # the host's key, and only it, opens it
    with pytest.raises(audit.Withheld):
        audit.player_export(stalin.store, "s")


def warm_pass_freezes(service: GameService, name: str, forgery) -> None:
    """The serving process that holds the game (no restart, no order after the forgery) finds
    a forged hidden part within the background check's period: one pass."""
    row = last_state_row(service, name)
    assert watch(service.store).run_round() == [] and name not in service.store.frozen
    forge(service, name, forgery(snapshot(service, name)))
    assert name not in service.store.frozen  # nothing has looked yet
    watch(service.store).run_round()
    found = service.store.frozen.get(name)
    assert found is not None and found["index"] == row, found
    assert "hidden state was changed" in str(found["problem"]), found


def test_a_warm_process_freezes_a_forged_hand_in_one_background_pass(stalin):
    warm_pass_freezes(stalin, "s", swap_hand_and_deck)


def test_a_warm_process_freezes_a_forged_block_strength_in_one_background_pass(northern):
    warm_pass_freezes(northern, "n", weaken_a_block)

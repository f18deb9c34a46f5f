"""A frozen game still answers questions, and says it is frozen (docs/threat-model.md):

- after a seat or a moderator table edit, `status`, `log`, `rolls` and `help` are answered to
  anyone as the public sees the game, naming the freeze; a moderator's `audit` names it; a
  side's own question and every order are refused with the freeze's reason;
- the FROZEN notice is posted once per chat per freeze, however many processes find the freeze
  and whichever row their checks name (two services on one database, and a restart); after
  `pbem repair` the next freeze is told again.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from app.service import GameService
from bots.cli import main
from bots.demo import DemoSeeds
from storage import chat_store, freeze_records
from storage import outbox as outbox_rows
from tests.playing import play_random
from tests.test_tamper import USERS, execute, next_order, scalar

FORGED = "telegram:666"
EDITS = {
    "seat": ("UPDATE seat SET \"user\" = 'telegram:666' WHERE side = 'soviet'",
             "seat table gives soviet to telegram:666"),
    "moderator": ("INSERT INTO moderator (game_id, \"user\") VALUES (:g, 'telegram:666')",
                  "moderator table names telegram:666"),
}  # fmt: skip


@pytest.fixture
def game(db_url, stores):
    """A game of two seated players with a moderator, some rolls made, bound to two chats."""
    service = GameService(stores(db_url), seeds=DemoSeeds(2))  # the same game on every backend
    service.new_game("g", creator="mod")
    for side, user in USERS.items():
        assert service.say("g", None, f"seat {side} {user} seating", user="mod")[0].ok
    play_random(service, "g", 60, seed=2)
    now = datetime.now(UTC)
    for chat in ("-1001", "-1002"):
        chat_store.bind(service.store, "telegram", chat, "g", now=now)
    return service


def tamper(service: GameService, which: str) -> str:
    sql, reason = EDITS[which]
    execute(service.store, sql, g=scalar(service.store, "SELECT id FROM game"))
    return reason


def notices(service: GameService) -> list[dict]:
    rows = outbox_rows.select_rows(service.store, game="g")
    return [r for r in rows if "FROZEN" in r["text"]]


@pytest.mark.parametrize("which", sorted(EDITS))
def test_questions_are_answered_in_a_frozen_game_and_every_order_is_refused(game, which):
    reason = tamper(game, which)
    for user in (FORGED, USERS["soviet"], USERS["german"], "mod", "telegram:5"):
        for question in ("status", "log 3", "rolls 2", "help"):
            (reply,) = game.say("g", None, question, user=user)
            assert reply.ok, (user, question, reply.reply)
            assert "Game g is FROZEN" in reply.reply and reason in reply.reply, reply.reply
            assert not reply.private  # the public's view: a forged seat sees no side's
        (own,) = game.say("g", None, "options", user=user)  # a side's own possibilities
        assert not own.ok and own.error["code"] == "frozen" and reason in own.error["message"]
    (audit,) = game.say("g", None, "audit", user="mod")
    assert not audit.ok and "FROZEN" in audit.reply
    status = game.say("g", None, "status", user=FORGED)[0].reply
    assert re.search(r"(Soviet|German) to move|Waiting for (Soviet|German)", status), status
    for user in (USERS["soviet"], USERS["german"], "mod", FORGED):
        for order in ("end", "pause tea", "seat german telegram:9 new", "salt x"):
            (reply,) = game.say("g", None, order, user=user)
            assert not reply.ok and reply.error["code"] == "frozen", (user, order, reply.reply)
            assert "is FROZEN" in reply.error["message"]
    reply = next_order(game)
    assert not reply.ok and reply.error["code"] == "frozen"


def test_a_running_game_names_no_freeze(game):
    for question in ("status", "log 3", "rolls 2", "help"):
        (reply,) = game.say("g", None, question, user=USERS["soviet"])
        assert reply.ok and "FROZEN" not in reply.reply, reply.reply


@pytest.mark.parametrize("which", sorted(EDITS))
def test_one_frozen_notice_per_chat_per_freeze_across_processes(game, stores, which):
    tamper(game, which)
    other = GameService(stores(game.store.url))  # a second process on the same database
    assert game.say("g", None, "status", user="telegram:5")[0].ok  # found by the question's check
    assert not next_order(other).ok  # found by the write's check (another sentence, same freeze)
    assert not next_order(game).ok
    restarted = GameService(stores(game.store.url))
    assert not next_order(restarted).ok
    assert not restarted.audit("g")[0]
    told = notices(game)
    assert sorted(r["chat_id"] for r in told) == ["-1001", "-1002"], told
    record = freeze_records.read(game.store, "g")
    assert record is not None and record["open"] and record["n"] == 1
    # a question in a process that never checked the game names the freeze the database records
    fresh = GameService(stores(game.store.url))
    assert "is FROZEN" in fresh.say("g", None, "log 2", user="telegram:5")[0].reply

    assert main(["repair", "g", "--db", game.store.url, "--by", "mod"]) == 0
    assert not freeze_records.read(game.store, "g")["open"]
    assert "FROZEN" not in fresh.say("g", None, "log 2", user="telegram:5")[0].reply
    assert next_order(other).ok
    tamper(game, which)  # a second freeze is told again, once per chat
    assert not next_order(fresh).ok
    assert not next_order(restarted).ok
    assert len(notices(game)) == 4
    assert freeze_records.read(game.store, "g")["n"] == 2


def test_a_freeze_record_that_is_no_record_is_a_new_freeze(game):
    now = datetime.now(UTC)
    with game.store.engine.begin() as conn:
        conn.execute(
            outbox_rows.insert(outbox_rows.STATE).values(
                key=freeze_records.key_of("g"), value="{not json", updated_at=now
            )
        )
    assert freeze_records.open_failure(game.store, "g") is None
    tamper(game, "seat")
    assert not next_order(game).ok
    assert len(notices(game)) == 2


def test_a_warm_process_tells_a_second_freeze_after_a_repair_by_another(game, stores):
    """The service that found the first freeze, then `pbem repair` in another process, then a
    second edit before the service wrote again: the service tells the second freeze too, and
    between the repair and the edit its questions name no freeze."""
    tamper(game, "seat")
    assert not next_order(game).ok
    assert main(["repair", "g", "--db", game.store.url, "--by", "mod"]) == 0
    assert "FROZEN" not in game.say("g", None, "log 2", user="telegram:5")[0].reply
    tamper(game, "moderator")
    assert not next_order(game).ok
    told = notices(game)
    assert len(told) == 4 and "moderator table" in told[-1]["text"], told
    assert "moderator table" in game.say("g", None, "log 2", user="telegram:5")[0].reply


def test_two_services_finding_one_freeze_at_once_post_one_notice_per_chat(game, stores):
    import threading

    services = [game, GameService(stores(game.store.url)), GameService(stores(game.store.url))]
    tamper(game, "seat")
    start = threading.Barrier(len(services))
    refused: list[bool] = []

    def write(service: GameService) -> None:
        start.wait()
        refused.append(not next_order(service).ok)

    threads = [threading.Thread(target=write, args=(s,)) for s in services]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert refused == [True] * len(services)
    assert sorted(r["chat_id"] for r in notices(game)) == ["-1001", "-1002"]


def test_a_forged_seat_in_a_game_with_hidden_information_sees_only_the_public(tmp_path):
    """Stalin's War: the Axis seat given in the table to a stranger; his `status` is the
    public's (no card of the Axis hand), with the freeze named; `hand` and `options` are refused."""
    from storage import Store

    store = Store(str(tmp_path / "sw.db"))
    try:
        service = GameService(store)
        service.new_game("s", creator="mod", system="stalins-war")
        for side, user in {"axis": "telegram:1", "soviet": "telegram:2"}.items():
            assert service.say("s", None, f"seat {side} {user} seating", user="mod")[0].ok
        assert service.say("s", None, "draw", user="telegram:1")[0].ok
        own = service.say("s", None, "hand", user="telegram:1")[0].reply
        shown = re.findall(r"^- (#\d+ [^:]+):", own, re.MULTILINE)  # "#3 Rail Gauge Conversion"
        assert len(shown) == len(service.state("s").players["axis"].hand) == 6, own
        public = service.say("s", None, "status", user="telegram:9")[0].reply
        execute(store, "UPDATE seat SET \"user\" = 'telegram:666' WHERE side = 'axis'")
        (status,) = service.say("s", None, "status", user=FORGED)
        assert status.ok and not status.private and "Game s is FROZEN" in status.reply
        assert not any(card in status.reply for card in shown), status.reply
        assert status.reply.startswith(public.splitlines()[0])
        for question in ("hand", "options"):
            (reply,) = service.say("s", None, question, user=FORGED)
            assert not reply.ok and reply.error["code"] == "frozen", reply.reply
    finally:
        store.close()

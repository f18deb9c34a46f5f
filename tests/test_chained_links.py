"""Identity links are rows of the service's one chained table, and the pause flag is a cache of
the chain (docs/threat-model.md, "What a host's edit of the service tables can and cannot do"):

- a link a host inserts into the identity table, or edits there, or leaves in (or puts into) the
  old key/value table lets no stranger act for a seat: his order is refused with a message
  naming the problem and nothing is chained; a broken identity chain honours no link until the
  host repairs it (storage/identity_chain.py);
- a link made by its owner (`identity link`, then `identity confirm CODE` on the other
  platform) still plays his side, recorded in the game's log with its chain row;
- migration 0009 moves the links of a database at revision 0008 into the chain;
- a pause flag flipped in the game table (either way) freezes the game at its next write,
  naming the pause row; `pbem repair` rebuilds it from the chain and the audit passes.
"""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime

import pytest
from sqlalchemy import text

from adjudicator.core.errors import Rejection
from app import identities
from app.service import GameService
from bots.cli import main
from bots.demo import DemoSeeds  # fixed dice seeds: the same game on every run
from storage import Store, identity_chain, identity_repair
from storage.engine import HEAD_REVISION
from tests.host_edits import host_execute
from tests.playing import legal_text

USERS = {"soviet": "telegram:1", "german": "telegram:2"}
STRANGER = "discord:666"
NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


@pytest.fixture
def service(db_url, stores):
    """Game g, both sides seated, Soviet to move."""
    played = GameService(stores(db_url), seeds=DemoSeeds(3))
    played.new_game("g", creator="mod")
    for side, user in USERS.items():
        assert played.say("g", None, f"seat {side} {user} seating", user="mod")[0].ok
    return played


def scalar(store: Store, sql: str, **params):
    with store.engine.connect() as conn:
        return conn.execute(text(sql), params).scalar()


def soviet_order(service: GameService, user: str):
    """A legal Soviet order said by `user`."""
    side, said = legal_text(service, "g", random.Random(7))
    assert side == "soviet"
    (reply,) = service.say("g", None, said, user=user)
    return reply


def link(store: Store, asker: str, confirmer: str) -> None:
    """What `identity link` (said by the asker) and `identity confirm CODE` do."""
    code, _ = identities.new_code(store, asker, now=NOW)
    assert identities.confirm(store, confirmer, code, now=NOW) == asker


def forged_row(store: Store, index: int, user: str, other: str, prev: str = "0" * 64) -> None:
    """A host's INSERT of a link row: no guard refuses an insert, so he lifts none."""
    row = {"index": index, "action": "link", "user": user, "other": other, "how": "code"}
    row |= {"created_at": NOW.isoformat(), "prev_hash": prev}
    row["hash"] = "f" * 64
    with store.engine.begin() as conn:
        conn.execute(
            text(
                'INSERT INTO identitylink ("index", action, "user", other, how, created_at, '
                "prev_hash, hash) VALUES (:index, :action, :user, :other, :how, :created_at, "
                ":prev_hash, :hash)"
            ),
            row,
        )


def identity_rows(service: GameService) -> list:
    return [r for r in service.store.log("g") if r.payload.get("action") == "identity"]


def assert_refused_and_nothing_chained(service: GameService, user: str, said: str) -> str:
    head = service.record("g").head_index
    reply = soviet_order(service, user)
    assert not reply.ok and reply.error["code"] == "forged-identity-link", reply.reply
    message = reply.error["message"]
    assert "not honoured" in message and said in message, message
    assert service.record("g").head_index == head and identity_rows(service) == []
    return message


# -- forged links
def test_a_link_row_a_host_inserts_lets_no_stranger_play_a_side(service, caplog):
    forged_row(service.store, 0, STRANGER, USERS["soviet"])
    with caplog.at_level(logging.ERROR, logger="pbem.identity"):
        message = assert_refused_and_nothing_chained(service, STRANGER, "identity row 0")
    assert f"{STRANGER} may not act as {USERS['soviet']}" in message
    logged = " ".join(r.getMessage() for r in caplog.records if r.name == "pbem.identity")
    assert "identity row 0" in logged and "repair" in logged, logged
    assert soviet_order(service, USERS["soviet"]).ok  # the game itself is not frozen


def test_a_row_inserted_after_genuine_links_without_its_place_in_the_chain_is_refused(service):
    link(service.store, USERS["german"], "discord:22")  # row 0, genuine: checked whole, held
    assert identities.partners(service.store, "discord:22") == [USERS["german"]]
    forged_row(service.store, 1, STRANGER, USERS["soviet"])  # a prev_hash that links nowhere
    assert_refused_and_nothing_chained(service, STRANGER, "identity row 1")
    assert identities.partners(service.store, STRANGER) == []
    with service.store.engine.connect() as conn:
        assert identity_chain.identity_failure(conn) is not None


def test_an_edited_link_row_is_found_and_not_honoured(service):
    link(service.store, USERS["german"], STRANGER)  # genuinely German's second account
    host_execute(service.store, "UPDATE identitylink SET other = :u", u=USERS["soviet"])
    assert_refused_and_nothing_chained(service, STRANGER, "hash mismatch")
    with service.store.engine.connect() as conn:
        fail = identity_chain.identity_failure(conn)
    assert fail is not None and fail["index"] == 0 and "edited" in fail["problem"]


def test_a_link_left_in_the_old_key_value_table_is_refused(service):
    from storage import chat_store

    for key, value in ((STRANGER, USERS["soviet"]), (USERS["soviet"], STRANGER)):
        chat_store.set_state(service.store, "identity:" + key, value, now=NOW)
    assert_refused_and_nothing_chained(service, STRANGER, "outside the chain")
    assert identities.partners(service.store, STRANGER) == []


def test_a_broken_chain_honours_no_link_until_the_host_repairs_it(service, capsys):
    link(service.store, USERS["soviet"], "discord:11")  # row 0: genuine
    forged_row(service.store, 1, STRANGER, USERS["german"])  # row 1 breaks the chain
    with service.store.engine.connect() as conn:
        assert identity_chain.identity_failure(conn)["index"] == 1
    reply = soviet_order(service, "discord:11")  # a genuine link, of a broken chain
    assert not reply.ok and "the identity chain is broken at" in reply.error["message"]
    with pytest.raises(Rejection, match="chain of identity links is broken"):
        link(service.store, "telegram:3", "discord:33")  # nor is one made meanwhile
    assert identity_repair.main(["--db", service.store.url]) == 0
    said = capsys.readouterr().out
    assert "1 identity rows dropped" in said and f"{STRANGER} with {USERS['german']}" in said
    assert scalar(service.store, "SELECT COUNT(*) FROM identitylink") == 1
    assert service.store.unguarded() == []  # the repair put this table's guards back
    assert soviet_order(service, "discord:11").ok
    ok, report, _ = service.audit("g")
    assert ok, report


# -- a genuine link
def test_a_link_made_by_identity_link_and_confirm_plays_the_side_end_to_end(service):
    link(service.store, USERS["soviet"], "discord:11")
    with service.store.engine.connect() as conn:
        (row,) = [dict(r._mapping) for r in conn.execute(text("SELECT * FROM identitylink"))]
    made = (row["index"], row["user"], row["other"], row["how"])
    assert made == (0, "discord:11", USERS["soviet"], "code")
    assert row["hash"] == identity_chain.row_hash("0" * 64, row)
    assert soviet_order(service, "discord:11").ok
    (recorded,) = identity_rows(service)
    assert recorded.payload["link_row"] == 0 and recorded.payload["link_hash"] == row["hash"]
    assert identities.partners(service.store, USERS["soviet"]) == ["discord:11"]
    ok, report, _ = service.audit("g")
    assert ok, report


# -- the migration
def test_migration_0009_moves_a_link_of_revision_0008_into_the_chain(service, stores):
    from alembic import command
    from alembic.config import Config

    from storage import chat_store
    from storage.engine import MIGRATIONS

    store = service.store
    with store.engine.connect() as conn:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0008")
        conn.commit()
    assert scalar(store, "SELECT version_num FROM alembic_version") == "0008"
    with store.engine.begin() as conn:  # as pbem 0008 kept a link: both ways
        for key, value in (("discord:11", USERS["soviet"]), (USERS["soviet"], "discord:11")):
            conn.execute(
                text("INSERT INTO service_state (key, value, updated_at) VALUES (:k, :v, :t)"),
                {"k": "identity:" + key, "v": value, "t": NOW.replace(tzinfo=None)},
            )
    fresh = GameService(stores(store.url), seeds=DemoSeeds(4))  # migrates to the head (0009 on)
    assert scalar(fresh.store, "SELECT version_num FROM alembic_version") == HEAD_REVISION
    assert scalar(fresh.store, 'SELECT how FROM identitylink WHERE "index" = 0') == "moved"
    assert chat_store.get_state(fresh.store, "identity:discord:11") is None  # moved, not copied
    assert identities.partners(fresh.store, "discord:11") == [USERS["soviet"]]
    assert soviet_order(fresh, "discord:11").ok
    assert fresh.store.unguarded() == []


# -- the pause flag
@pytest.mark.parametrize("flip", ["paused-to-running", "running-to-paused"])
def test_a_flipped_pause_flag_freezes_the_game_until_repair(service, flip):
    store = service.store
    assert service.say("g", None, "pause lunch break", user="mod")[0].ok
    if flip == "running-to-paused":
        assert service.say("g", None, "resume back", user="mod")[0].ok
        host_execute(store, "UPDATE game SET paused = :t, paused_why = 'host'", t=True)
    else:
        host_execute(store, "UPDATE game SET paused = :f, paused_why = NULL", f=False)
    pause_row = max(
        r.index for r in store.log("g") if r.payload.get("action") in ("pause", "resume")
    )
    head = service.record("g").head_index
    reply = soviet_order(service, USERS["soviet"])
    assert not reply.ok and reply.error["code"] == "frozen", reply.reply
    assert f"row {pause_row}" in reply.error["message"], reply.error["message"]
    assert "pause flag was edited" in reply.error["message"], reply.error["message"]
    (moderator,) = service.say("g", None, "resume go", user="mod")  # no write gets through
    assert not moderator.ok and service.record("g").head_index == head
    ok, report, _ = service.audit("g")
    assert not ok and "pause flag was edited" in report, report
    assert main(["repair", "g", "--db", store.url, "--by", "mod"]) == 0
    assert service.record("g").paused is (flip == "paused-to-running")
    reply = soviet_order(service, USERS["soviet"])
    if flip == "paused-to-running":
        assert not reply.ok and reply.error["code"] == "paused", reply.reply
        assert service.say("g", None, "resume back", user="mod")[0].ok
        reply = soviet_order(service, USERS["soviet"])
    assert reply.ok, reply.reply
    ok, report, _ = service.audit("g")
    assert ok, report


def test_a_pause_flag_set_on_a_game_never_paused_freezes_it(service):
    host_execute(service.store, "UPDATE game SET paused = :t, paused_why = 'host'", t=True)
    reply = soviet_order(service, USERS["soviet"])
    assert not reply.ok and reply.error["code"] == "frozen", reply.reply
    assert "no chained `pause` row" in reply.error["message"], reply.error["message"]
    assert main(["repair", "g", "--db", service.store.url, "--by", "mod"]) == 0
    assert soviet_order(service, USERS["soviet"]).ok
    ok, report, _ = service.audit("g")
    assert ok, report

"""Trust in the chat (issue 13, items 4-7), through `ChatService.handle`:

- seats after the start are filled only by a moderator's `seat`: `join` of a running game's
  free seat is refused for anyone (a spectator, a stranger, the unseated player), and a free
  seat shows as free in `status` and in the phase post;
- a rewind that discards rolls is only proposed outside a sandbox: `confirm rewind` by the
  other side's player applies it (never the proposer, never the side whose rolls it discards,
  not a second moderator while that seat is filled: tests/test_rewind_consent.py), `cancel rewind` withdraws it, it lapses after 24 h or when the game
  moves on; the discarded rolls are announced in every chat and counted per moderator in the
  audit; the re-given order rolls from a fresh commitment;
- the open epoch's commitment is in every post (the start's, a deadline default's that ends
  the turn) in every linked chat, and `status` shows it with the salts received;
- text is data: lone surrogates and other unstorable code points in pause, resume, salt, seat,
  unseat and rewind reasons are replaced, never raised; too long a message is refused whole.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from adjudicator.hells_gate import grammar
from adjudicator.hells_gate import orders as O
from app import clock as C
from app import deadlines as D
from app import intext, outage
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store
from tests.test_chat_service import DC_CHANNEL, Chat, game_of, posts


@pytest.fixture
def clock():
    return FakeClock(datetime.now(UTC).replace(microsecond=0))  # near the log's wall clock


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path / "games.db"))
    yield s
    s.close()


@pytest.fixture
def chat(store, clock):
    return ChatService(GameService(store), clock=clock, images=False)


@pytest.fixture
def tg(chat):
    return Chat(chat, "telegram", "-100600")


def begin(c: Chat, *, sandbox: bool, mod: int = 1, soviet: int = 1, german: int = 2) -> str:
    assert "New game" in c.text(mod, "new hells-gate" + (" sandbox" if sandbox else ""))
    assert "now plays soviet" in c.text(soviet, "join soviet")
    assert "now plays german" in c.text(german, "join german")
    assert "begins" in c.text(mod, "start")
    return game_of(c.service, c)


def head(chat: ChatService, game: str) -> tuple[int, str]:
    rec = chat.service.record(game)
    return rec.head_index, rec.head_hash


def first_attack(chat: ChatService, game: str) -> str:
    state = chat.service.state(game)
    legal = chat.service.rules(game).legal_orders(state, "soviet")
    attacks = [o for o in legal if isinstance(o, O.Attack)]
    return grammar.format_order(min(attacks, key=grammar.format_order))


# -- 4. seats after the start
def test_join_after_the_start_is_refused_for_anyone_and_says_to_ask_a_moderator(chat, tg):
    game = begin(tg, sandbox=False)
    assert "no longer plays german" in tg.text(1, "unseat german left the game")
    before = head(chat, game)
    for who in (3, 2, 99):  # a spectator, the unseated player, a stranger
        text = tg.text(who, "join german")
        assert text.startswith("Refused: the game has started: german is free")
        assert "only by a moderator (user1), who says `seat german @USER`" in text
    assert "already play soviet" in tg.text(1, "join soviet")
    assert head(chat, game) == before  # nothing written by any refusal
    assert chat.service.record(game).seats["german"] is None
    status = tg.text(3, "status")
    assert "Free seat: German (nobody plays it" in status and "`seat german @USER`" in status
    assert "now plays german" in tg.text(1, "seat german telegram:3 takes over")
    assert "Free seat" not in tg.text(3, "status")


def test_a_free_seat_shows_as_free_in_the_phase_post(chat, tg, store):
    game = begin(tg, sandbox=True)
    tg.text(1, "unseat german gone")
    n = len(posts(store))
    tg.text(1, "dice 6")
    tg.text(1, "attack A1 with 47rc")  # a hit: German's losses decision, posted
    (post,) = [r for r in posts(store)[n:] if "must decide" in r.outgoing.text]
    assert "Free seat: German (nobody plays it" in post.outgoing.text
    assert game


# -- 5. rewinds over rolls
def test_a_rewind_over_a_roll_waits_for_the_other_side_and_rerolls_from_a_new_commitment(
    chat, tg, store
):
    game = begin(tg, sandbox=False)
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    dc = Chat(chat, "discord", DC_CHANNEL)
    assert "now follows" in dc.text(222, f"link {code}")
    base = chat.service.record(game).head_index
    attack = first_attack(chat, game)
    tg.text(1, attack)
    (rolled,) = [r for r in store.log(game) if r.kind == "order"]
    die = rolled.rolls[0]
    assert die["epoch"] == 1 and die["n"] == 1

    proposed = tg.text(1, f"rewind {base} the attack was a misclick")
    assert "Rewind to row" in proposed and "proposed by user1" in proposed
    assert f"1 roll is discarded: row {rolled.index} {die['purpose']} {die['value']}" in proposed
    assert "`confirm rewind`" in proposed
    assert [r.kind for r in store.log(game)][-1] == "moderation"  # a proposal only
    assert chat.service.record(game).epoch == 1  # nothing rewound yet

    before = head(chat, game)
    assert "does not confirm it himself" in tg.text(1, "confirm rewind")
    assert "only the player of german confirms this rewind" in tg.text(3, "confirm rewind")
    assert head(chat, game) == before

    n = len(posts(store))
    done = tg.text(2, "confirm rewind")  # German: the other side's player
    assert "confirmed by user2" in done and "1 roll is discarded" in done
    announced = [r.outgoing for r in posts(store)[n:]]
    assert {(o.platform, o.chat_id) for o in announced} == {
        ("telegram", tg.chat_id),
        ("discord", DC_CHANNEL),
    }
    rec = chat.service.record(game)
    assert rec.epoch == 2
    for out in announced:  # every chat: the rolls discarded, and the new commitment first
        assert "1 roll is discarded" in out.text
        assert f"commitment {rec.epoch_commitment}" in out.text
    reveal = [r for r in store.log(game) if r.kind == "reveal"]
    assert reveal[-1].payload["epoch"] == 1  # the seed that decided the die is public now

    tg.text(1, attack)  # given again: its die comes from epoch 2's commitment
    again = [r for r in store.log(game) if r.kind == "order"][-1]
    assert again.rolls[0]["epoch"] == 2 and again.rolls[0]["n"] == 1
    epoch2 = next(r for r in store.log(game) if r.kind == "epoch" and r.payload["epoch"] == 2)
    assert epoch2.index < again.index and epoch2.payload["commitment"] == rec.epoch_commitment
    epoch1 = next(r for r in store.log(game) if r.kind == "epoch" and r.payload["epoch"] == 1)
    assert epoch1.payload["commitment"] != rec.epoch_commitment  # a new seed, not the revealed

    ok, text, _ = chat.service.audit(game)
    assert ok, text
    assert "Rolls discarded by rewinds, per moderator (the proposer): telegram:1 1." in text


def test_the_side_whose_roll_is_discarded_does_not_confirm_nor_a_second_moderator(chat, tg, store):
    """Issue 27: a second moderator no longer confirms while the other side's seat is filled
    (it did before: a moderator could approve his own re-roll with a second account)."""
    game = begin(tg, sandbox=False, mod=5, soviet=1, german=2)
    base = chat.service.record(game).head_index
    tg.text(1, first_attack(chat, game))
    assert "is now a moderator" in tg.text(5, "moderator add telegram:6")
    assert "proposed by user5" in tg.text(5, f"rewind {base} wrong hex")
    assert "discards rolls of your side (soviet)" in tg.text(1, "confirm rewind")
    refused = tg.text(6, "confirm rewind")
    assert "a moderator's confirmation does not count while that seat is filled" in refused
    assert chat.service.record(game).epoch == 1
    assert "confirmed by user2" in tg.text(2, "confirm rewind")  # the other side's player
    assert chat.service.record(game).epoch == 2


def test_a_rewind_proposal_is_cancelled_or_expires(chat, tg, clock):
    game = begin(tg, sandbox=False)
    base = chat.service.record(game).head_index
    tg.text(1, first_attack(chat, game))
    tg.text(1, f"rewind {base} oops")
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    dc = Chat(chat, "discord", DC_CHANNEL)
    dc.text(222, f"link {code}")
    assert "is cancelled" in tg.text(1, "cancel rewind")
    assert "is cancelled" in posts(chat.store, DC_CHANNEL)[-1].outgoing.text  # told there too
    assert "no rewind waits" in tg.text(2, "confirm rewind")
    tg.text(1, f"rewind {base} oops")
    before = head(chat, game)
    clock.advance(hours=25)
    assert "expired" in tg.text(2, "confirm rewind")
    assert head(chat, game) == before
    assert chat.service.record(game).epoch == 1


def test_in_a_sandbox_one_moderator_rewinds_at_once_and_the_rolls_are_announced(chat, tg):
    game = begin(tg, sandbox=True)
    base = chat.service.record(game).head_index
    tg.text(1, first_attack(chat, game))
    text = tg.text(1, f"rewind {base} try again")
    assert "Rewound to row" in text and "1 roll is discarded" in text
    assert chat.service.record(game).epoch == 2


def test_help_documents_the_rewind_confirmation(chat, tg):
    begin(tg, sandbox=False)
    text = tg.text(1, "help rewind")
    assert "confirm rewind" in text and "the other side's player" in text
    assert "only while that seat is free" in text  # not a second moderator while it is filled


# -- 6. commitments
def test_every_post_carries_the_commitment_in_every_linked_chat_also_after_a_default(store, clock):
    seeds = iter(f"{n:064x}" for n in range(1, 1000))
    service = GameService(store, seeds=lambda: next(seeds), now=clock.now)
    chat = ChatService(service, clock=clock, images=False)
    tg = Chat(chat, "telegram", "-100601")
    tg.text(1, "new hells-gate sandbox")
    code = re.search(r"`([A-Z0-9]{8})`", tg.text(1, "link")).group(1)
    dc = Chat(chat, "discord", DC_CHANNEL)
    dc.text(222, f"link {code}")
    tg.text(1, "join soviet")
    tg.text(2, "join german")
    n = len(posts(store))
    tg.text(1, "start")
    game = game_of(chat, tg)
    rec = service.record(game)
    start_posts = [r.outgoing for r in posts(store)[n:]]
    assert len(start_posts) == 2
    for out in start_posts:
        assert f"Dice: epoch 1 (turn 1), commitment {rec.epoch_commitment}" in out.text
    status = tg.text(3, "status")
    assert f"commitment {rec.epoch_commitment[:20]};" in status  # short on a phone
    assert f"commitment {rec.epoch_commitment}" in tg.text(3, "status full")
    assert "Salts received" not in status  # no "none" line
    tg.text(2, "salt rye bread")
    assert "Salts received for epoch 1: 'rye bread' (german)." in tg.text(3, "status")

    for _ in range(60):  # deadline defaults until one of them ends the turn
        clock.set(C.load(store, game).deadline_at)
        outage.heartbeat(store, clock)
        n = len(posts(store))
        D.adjudicate_due(store, clock.now(), core=service.core)
        if service.record(game).epoch == 2:
            break
    rec = service.record(game)
    assert rec.epoch == 2 and rec.epoch_turn == 2
    turn_posts = [r.outgoing for r in posts(store)[n:] if "deadline" in r.outgoing.text.lower()]
    assert {(o.platform, o.chat_id) for o in turn_posts} == {
        ("telegram", tg.chat_id),
        ("discord", DC_CHANNEL),
    }
    for out in turn_posts:
        assert "passed" in out.text  # a default's post
        assert f"Dice: epoch 2 (turn 2), commitment {rec.epoch_commitment}" in out.text
        assert "salts open" in out.text
    assert not [r for r in store.log(game) if r.epoch == 2 and r.rolls]  # shown before any roll


# -- 7. text is data
@pytest.mark.parametrize(
    "line",
    [
        "pause \ud800",
        "resume \udfff tea",
        "salt \ud83d",
        "seat german telegram:2 \udc00",
        "unseat german \ud800",
        "rewind 1 \ud800",
        "\ud800",
        "pause a\x00b\x1bc",
    ],
)
def test_unstorable_code_points_are_replaced_never_raised(chat, tg, line):
    game = begin(tg, sandbox=True)
    if line.startswith("resume"):
        tg.text(1, "pause for tea")
    outs = tg.say(1 if not line.startswith("salt") else 2, line)
    assert len(outs) == 1  # an answer, no exception
    for row in chat.store.log(game):
        row.text.encode("utf-8")  # every stored text is valid UTF-8
        assert "\x00" not in row.text


def test_a_surrogate_in_a_pause_reason_is_stored_as_the_replacement_character(chat, tg):
    game = begin(tg, sandbox=True)
    assert "paused" in tg.text(1, "pause \ud800 lunch")
    assert chat.service.record(game).paused_why == "\ufffd lunch"


def test_too_long_a_message_is_refused_whole_and_changes_nothing(chat, tg):
    game = begin(tg, sandbox=True)
    before = head(chat, game)
    text = tg.text(1, "pause " + "x" * intext.MAX_CHARS)
    assert text.startswith("Refused: the message has") and f"at most {intext.MAX_CHARS}" in text
    lines = tg.text(1, "\n".join(["pause a"] + ["status"] * intext.MAX_LINES))
    assert lines.startswith("Refused: the message has") and "lines" in lines
    assert head(chat, game) == before
    assert not chat.service.record(game).paused


def test_cr_lf_line_ends_are_one_line_each(chat, tg):
    begin(tg, sandbox=True)
    text = tg.text(3, "status\r\nlog 1")
    assert "Turn 1" in text and "Refused" not in text

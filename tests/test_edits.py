"""A moderator's edits of the position (issue 26, app/edits.py), through `ChatService.handle` on
a real SQLite store:

- in a sandbox game an edit applies at once: a chained "order" row by the moderator, replayed by
  the fold, audited clean;
- in any other game it is a proposal (a chained `moderation` row): `confirm edit` from a player
  applies it (never the proposer, nor an account linked with him, nor a spectator; a second
  moderator only while no other player is seated: tests/test_rewind_consent.py), `cancel edit` withdraws it, it lapses when the game moves on or after 24 h; the
  applied row names the proposer and the confirmer and audits clean;
- a secret edit (one that sets a hidden value) is refused in a group chat with the reason and
  taken in a private chat; its text is sealed in the chain, the log, the replies and the posts:
  the group, a spectator and the other side's player never receive the value.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from adjudicator.core import registry
from app import edits, post_queue
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds  # fixed dice seeds: the same game on every run
from storage import Store, state_hash
from tests.systems import secret_edit
from tests.test_chat_service import Chat, game_of

GROUP = "-100700"
MOD, RED, BLUE, WATCHER = 9, 1, 2, 3  # the moderator holds no seat; WATCHER is a spectator


@pytest.fixture
def clock():
    return FakeClock(datetime.now(UTC).replace(microsecond=0))


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path / "games.db"))
    yield s
    s.close()


@pytest.fixture
def chat(store, clock):
    return ChatService(GameService(store, seeds=DemoSeeds(3)), clock=clock, images=False)


@pytest.fixture
def group(chat):
    return Chat(chat, "telegram", GROUP)


@pytest.fixture
def secret_system():
    registry.register(secret_edit.SYSTEM)
    yield
    registry.unregister(secret_edit.SYSTEM.id)


def begin(c: Chat, system: str, sides: tuple[str, str], *, sandbox: bool) -> str:
    assert "New game" in c.text(MOD, f"new {system}" + (" sandbox" if sandbox else ""))
    assert f"now plays {sides[0]}" in c.text(RED, f"join {sides[0]}")
    assert f"now plays {sides[1]}" in c.text(BLUE, f"join {sides[1]}")
    assert "begins" in c.text(MOD, "start")
    return game_of(c.service, c)


def hells_gate(c: Chat, *, sandbox: bool) -> str:
    return begin(c, "hells-gate", ("soviet", "german"), sandbox=sandbox)


def clean(chat: ChatService, game: str) -> None:
    """The state is the fold of the log, and the log audits clean."""
    service = chat.service
    assert state_hash(service.system(game).state_to_json(service.replay(game))) == state_hash(
        service.record(game).snapshot
    )
    service.verify(game)
    ok, text, _ = service.audit(game)
    assert ok, text


def last(store: Store, game: str):
    return store.log(game)[-1]


# -- sandbox: at once
def test_a_sandbox_edit_applies_at_once_as_a_chained_order_row_that_audits_clean(chat, group):
    game = hells_gate(group, sandbox=True)
    said = group.text(MOD, "set weather mud")
    assert "Moderator sets the weather to mud." in said and "proposed" not in said
    assert chat.service.state(game).weather == "mud"
    row = last(chat.store, game)
    assert (row.kind, row.actor, row.user, row.text) == (
        "order",
        "moderator",
        "telegram:9",
        "set weather mud",
    )
    clean(chat, game)


def test_a_players_edit_is_refused_as_a_moderators_command(chat, group):
    game = hells_gate(group, sandbox=False)
    rows = chat.store.count_rows(game)
    said = group.text(RED, "set weather mud")
    assert said.startswith("Refused:") and "not a moderator" in said
    assert chat.store.count_rows(game) == rows


# -- outside a sandbox: a proposal
def test_an_edit_outside_a_sandbox_is_a_proposal_the_other_player_confirms(chat, group, store):
    game = hells_gate(group, sandbox=False)
    said = group.text(MOD, "set weather mud")
    assert "Edit `set weather mud` proposed by user9" in said and "`confirm edit`" in said
    proposal = last(store, game)
    assert (proposal.kind, proposal.payload["action"], proposal.payload["order"]) == (
        "moderation",
        edits.PROPOSED,
        "set weather mud",
    )
    assert chat.service.state(game).weather == "snow"  # nothing applied yet

    refusal = group.text(MOD, "confirm edit")
    assert "does not confirm it himself" in refusal
    refusal = group.text(WATCHER, "confirm edit")
    assert "only the player of german or soviet confirms this edit" in refusal
    assert chat.service.state(game).weather == "snow"

    said = group.text(BLUE, "confirm edit")
    assert "applied, proposed by user9, confirmed by user2" in said
    assert chat.service.state(game).weather == "mud"
    row = last(store, game)
    assert (row.kind, row.actor, row.user, row.text) == (
        "order",
        "moderator",
        "telegram:9",
        "set weather mud",
    )
    assert row.payload["proposal"] == proposal.index
    assert row.payload["confirmed_by"] == "telegram:2"
    assert "no edit waits" in group.text(RED, "confirm edit")  # applied once
    clean(chat, game)


def test_the_proposers_own_side_confirms_too_but_not_a_second_moderator(chat, group):
    """Decision (app/edits.py): any seated player but the proposer confirms an edit; a second
    moderator no longer does while a player is seated (issue 27: he did before)."""
    game = hells_gate(group, sandbox=False)
    group.text(MOD, "flip 20tk")
    assert "applied" in Chat(chat, "telegram", GROUP).text(RED, "подтвердить правку")
    assert "now a moderator" in group.text(MOD, "moderator add telegram:5")
    group.text(MOD, "set weather mud")
    refused = group.text(5, "confirm edit")
    assert "a moderator's confirmation does not count while that seat is filled" in refused
    assert chat.service.state(game).weather == "snow"
    assert "confirmed by user1" in group.text(RED, "confirm edit")
    assert chat.service.state(game).weather == "mud"
    clean(chat, game)


def test_an_account_linked_with_the_proposer_does_not_confirm(chat, group):
    game = hells_gate(group, sandbox=False)
    linking = group.say(MOD, "identity link")
    code = re.search(r"identity confirm ([A-Z0-9]{8})", linking[-1].text).group(1)
    dm = Chat(chat, "discord", "999", private=True)
    assert "Linked" in dm.text(999, f"identity confirm {code}")
    group.text(MOD, "set weather mud")
    refusal = dm.text(999, "confirm edit")  # his Discord account, in a private chat
    assert "does not confirm it himself" in refusal
    assert chat.service.state(game).weather == "snow"


def test_cancel_edit_withdraws_the_proposal(chat, group, store):
    game = hells_gate(group, sandbox=False)
    group.text(MOD, "set weather mud")
    proposal = last(store, game).index
    assert "the proposer or a moderator cancels an edit" in group.text(RED, "cancel edit")
    said = group.text(MOD, "отменить правку")
    assert f"The edit proposed at row {proposal} is cancelled; nothing changed." in said
    assert last(store, game).payload == {
        "action": edits.CANCELLED,
        "proposal": proposal,
        "why": None,
    }
    assert "no edit waits" in group.text(BLUE, "confirm edit")
    assert chat.service.state(game).weather == "snow"
    clean(chat, game)


def test_a_proposal_lapses_when_the_game_moves_on(chat, group):
    game = hells_gate(group, sandbox=False)
    group.text(MOD, "set weather mud")
    assert "soviet-movement" in group.text(RED, "end")  # Soviet ends its combat phase
    assert "no edit waits for confirmation" in group.text(BLUE, "confirm edit")
    assert chat.service.state(game).weather == "snow"
    clean(chat, game)


def test_a_proposal_expires_after_24_hours(chat, group, clock):
    game = hells_gate(group, sandbox=False)
    group.text(MOD, "set weather mud")
    clock.advance(hours=25)
    assert "expired" in group.text(BLUE, "confirm edit")
    assert chat.service.state(game).weather == "snow"


def test_an_edit_the_position_refuses_proposes_nothing(chat, group, store):
    game = hells_gate(group, sandbox=False)
    rows = store.count_rows(game)
    said = group.text(MOD, "place 20tk zz99")
    assert said.startswith("Refused:")
    assert store.count_rows(game) == rows


# -- a secret edit
SECRET_TEXT = "set secret red 4"
VALUE = re.compile(r"secret red 4|secret die to 4")  # the value, in the command or its event


def secret_game(group: Chat, *, sandbox: bool) -> str:
    return begin(group, "secret-edit", ("red", "blue"), sandbox=sandbox)


def seen_by(store: Store, chat_id: str) -> list[str]:
    """What a chat reads (a group: its posts; a user: his private messages too)."""
    return [r.outgoing.text for r in post_queue.rows(store) if reader(r.outgoing) == chat_id]


def reader(out) -> str:
    """Who reads an outgoing: a private message's user, else its chat."""
    return str(out.user_id) if out.private and out.user_id else out.chat_id


def test_a_secret_edit_is_refused_in_a_group_with_the_reason(chat, group, store, secret_system):
    game = secret_game(group, sandbox=False)
    rows = store.count_rows(game)
    said = group.text(MOD, SECRET_TEXT)
    assert said == (
        "Refused: this edit sets a hidden value: give it in a private chat with the bot"
    )
    assert store.count_rows(game) == rows
    assert "set score blue 7" in group.text(MOD, "set score blue 7")  # a public edit: proposed


def test_a_secret_edit_in_a_sandbox_applies_at_once_its_text_sealed(
    chat, group, store, secret_system
):
    game = secret_game(group, sandbox=True)
    mod = Chat(chat, "telegram", str(MOD), private=True)  # the moderator holds no seat
    (reply,) = mod.say(MOD, SECRET_TEXT)
    assert reply.text.startswith(f"OK: {SECRET_TEXT}") and reply.chat_id == str(MOD)
    assert chat.service.state(game).secret["red"] == 4
    row = last(store, game)
    assert (row.kind, row.actor, row.text) == ("order", "moderator", edits.SEALED_TEXT)
    assert SECRET_TEXT not in str(row.payload)  # in the row's off-chain secret only
    assert [m for m in seen_by(store, GROUP) if edits.SEALED_DONE in m]
    assert not [m for m in seen_by(store, GROUP) if VALUE.search(m)]
    clean(chat, game)


def test_a_secret_edit_proposed_privately_and_confirmed_never_reaches_the_others(
    chat, group, store, secret_system
):
    game = secret_game(group, sandbox=False)
    assert "now a moderator" in group.text(MOD, "moderator add telegram:5")
    mod = Chat(chat, "telegram", str(MOD), private=True)
    (reply,) = mod.say(MOD, SECRET_TEXT)
    assert "proposed by user9" in reply.text and f"Your edit: {SECRET_TEXT}" in reply.text
    assert [m for m in seen_by(store, "5") if f"`{SECRET_TEXT}`" in m]  # a second moderator
    proposal = last(store, game)
    assert proposal.text == edits.SEALED_TEXT and proposal.payload["order"] is None

    said = group.text(BLUE, "confirm edit")  # the other side's player, in the group
    assert "applied, proposed by user9, confirmed by user2" in said
    assert "hidden value" in said and not VALUE.search(said)
    assert chat.service.state(game).secret["red"] == 4
    row = last(store, game)
    assert (row.kind, row.text, row.payload["confirmed_by"]) == (
        "order",
        edits.SEALED_TEXT,
        "telegram:2",
    )

    for who in (WATCHER, BLUE, RED):  # the public log: the text sealed
        assert not VALUE.search(group.text(who, "log"))
    assert not VALUE.search(chat.service.log_text(game, view="blue"))
    told = {reader(r.outgoing) for r in post_queue.rows(store) if VALUE.search(r.outgoing.text)}
    assert told == {str(RED), "5"}  # red's private messages, and the second moderator's
    for c in (GROUP, str(BLUE), str(WATCHER)):
        assert not [m for m in seen_by(store, c) if VALUE.search(m)]
    clean(chat, game)


# -- the operator of the command line
def test_the_operators_edit_applies_at_once_and_its_sealed_text_opens_when_the_game_ends(
    secret_system,
):
    service = GameService(Store(":memory:"))
    service.new_game("g", system="secret-edit")  # not a sandbox
    (reply,) = service.say("g", "moderator", SECRET_TEXT)  # the trusted operator: at once
    assert reply.ok and reply.reply.startswith(f"OK: {SECRET_TEXT}")
    assert service.state("g").secret["red"] == 4
    assert SECRET_TEXT not in service.log_text("g")
    assert "A moderator changed red's secret die." in service.log_text("g")  # its public event
    while not service.system("g").situation(service.state("g")).over:
        side = service.system("g").situation(service.state("g")).to_move[0]
        assert service.say("g", side, "pass")[0].ok
    assert SECRET_TEXT in service.log_text("g")  # the game is over: every secret revealed
    _, rows = service.export_doc("g")
    assert [r["secret"] for r in rows if r["text"] == edits.SEALED_TEXT]  # in the export now
    ok, text, _ = service.audit("g")
    assert ok, text
    service.verify("g")


# -- a real system's secret edit: the Northern War's hidden block strength (2.4)
NW_VALUE = re.compile(r"(?i)strength of repnin to 2|set strength repnin")


def test_2_4_a_northern_war_strength_set_privately_reaches_the_coalition_only(chat, group, store):
    game = begin(group, "northern-war", ("sweden", "coalition"), sandbox=False)
    assert chat.service.system(game).is_secret(
        chat.service.system(game).grammar.parse("set strength repnin 2")
    )
    refusal = group.text(MOD, "set strength repnin 2")
    assert refusal == "Refused: " + edits.PRIVATE_ONLY
    mod = Chat(chat, "telegram", str(MOD), private=True)
    (reply,) = mod.say(MOD, "set strength repnin 2")
    assert "Your edit: set strength repnin 2" in reply.text
    said = group.text(RED, "confirm edit")  # Sweden's player, in the group
    assert "applied" in said and not NW_VALUE.search(said)
    assert chat.service.state(game).strength["repnin"] == 2
    for who in (WATCHER, RED):
        assert not NW_VALUE.search(group.text(who, "log"))
    told = {reader(r.outgoing) for r in post_queue.rows(store) if NW_VALUE.search(r.outgoing.text)}
    assert str(BLUE) in told and told <= {str(BLUE), str(MOD)}  # the Coalition, the moderator
    clean(chat, game)

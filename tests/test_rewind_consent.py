"""Who confirms a rewind across dice and a moderator's edit (issue 27; app/rewinds.py,
app/edits.py), through `ChatService.handle` on a real SQLite store:

- a moderator with a second moderator account (linked with him or not) cannot discard a die
  without the other side's player's confirmation; that player can, the side whose rolls it
  discards cannot;
- both sides' rolls discarded: any player confirms, still not a moderator;
- dice of no side (the deadline's `system` rolled them): every seated player confirms, each
  confirmation a chained row, the rewind applied when the last one arrives;
- no player in the confirming seat: a moderator who held the role before the first discarded
  roll confirms; one made moderator after it, and the side whose roll it is, cannot;
- an edit: any seated player but the proposer; a second moderator only while no other player
  is seated.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from adjudicator.core import registry
from app import rewinds
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds  # fixed dice seeds: the same game on every run
from storage import Store
from tests.systems import race
from tests.test_chat_service import DC_CHANNEL, Chat, game_of, posts
from tests.test_trust_chat import first_attack

GROUP = "-100800"
MOD, RED, BLUE, WATCHER = 9, 1, 2, 3  # the moderator holds no seat


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
def dice_race():
    registry.register(race.SYSTEM)
    yield
    registry.unregister(race.SYSTEM.id)


def begin(c: Chat, system: str, sides: tuple[str, str]) -> str:
    assert "New game" in c.text(MOD, f"new {system}")
    assert f"now plays {sides[0]}" in c.text(RED, f"join {sides[0]}")
    assert f"now plays {sides[1]}" in c.text(BLUE, f"join {sides[1]}")
    assert "begins" in c.text(MOD, "start")
    return game_of(c.service, c)


def head(chat: ChatService, game: str) -> tuple[int, str]:
    rec = chat.service.record(game)
    return rec.head_index, rec.head_hash


def rewound(store: Store, game: str) -> int:
    return sum(r.kind == "rewind" for r in store.log(game))


def clean(chat: ChatService, game: str) -> None:
    ok, text, _ = chat.service.audit(game)
    assert ok, text


def link_discord(chat: ChatService, group: Chat, user: int, discord: int) -> Chat:
    """Link `user`'s Telegram account with a Discord account; his Discord private chat."""
    said = group.say(user, "identity link")
    code = re.search(r"identity confirm ([A-Z0-9]{8})", said[-1].text).group(1)
    dm = Chat(chat, "discord", str(discord), private=True)
    assert "Linked" in dm.text(discord, f"identity confirm {code}")
    return dm


# -- the other side's player, never a second moderator while that seat is filled
def test_a_moderator_with_a_second_moderator_account_cannot_discard_a_die_alone(chat, group):
    """The done-when line of issue 27: neither his linked account nor an unlinked second
    moderator confirms his rewind of Soviet's attack; German's player does."""
    game = begin(group, "hells-gate", ("soviet", "german"))
    dm = link_discord(chat, group, MOD, 999)
    assert "now a moderator" in group.text(MOD, "moderator add discord:999")
    assert "now a moderator" in group.text(MOD, "moderator add telegram:6")
    base = chat.service.record(game).head_index
    group.text(RED, first_attack(chat, game))
    proposed = group.text(MOD, f"rewind {base} misclick")
    assert "It needs `confirm rewind` from the player of german" in proposed
    assert "second moderator" not in proposed
    before = head(chat, game)
    assert "does not confirm it himself" in dm.text(999, "confirm rewind")  # his own account
    refused = group.text(6, "confirm rewind")  # a second moderator, not linked
    assert "only the player of german confirms this rewind" in refused
    assert "a moderator's confirmation does not count while that seat is filled" in refused
    assert "discards rolls of your side (soviet)" in group.text(RED, "confirm rewind")
    assert "only the player of german" in group.text(WATCHER, "confirm rewind")
    assert head(chat, game) == before  # no refusal wrote anything
    assert chat.service.record(game).epoch == 1
    assert "confirmed by user2" in group.text(BLUE, "confirm rewind")
    assert chat.service.record(game).epoch == 2
    clean(chat, game)


def test_when_both_sides_rolled_any_player_confirms_but_not_a_moderator(
    chat, group, store, dice_race
):
    game = begin(group, "dice-race", ("red", "blue"))
    assert "now a moderator" in group.text(MOD, "moderator add telegram:6")
    base = chat.service.record(game).head_index
    group.text(RED, "roll")
    group.text(BLUE, "roll")
    proposed = group.text(MOD, f"rewind {base} both rolled twice")
    assert "2 rolls are discarded" in proposed
    assert "from the player of blue or red" in proposed
    assert "does not count while that seat is filled" in group.text(6, "confirm rewind")
    assert "confirmed by user1" in group.text(RED, "confirm rewind")  # his own side rolled too
    assert rewound(store, game) == 1
    clean(chat, game)


# -- dice of no side: every seated player
def test_dice_of_no_side_need_every_seated_player_each_a_chained_row(chat, group, store, dice_race):
    game = begin(group, "dice-race", ("red", "blue"))
    code = re.search(r"`([A-Z0-9]{8})`", group.text(MOD, "link")).group(1)
    dc = Chat(chat, "discord", DC_CHANNEL)
    assert "now follows" in dc.text(222, f"link {code}")
    base = chat.service.record(game).head_index
    (done,) = chat.service.say(game, "system", "roll")  # the deadline's default rolls
    assert done.ok, done.reply
    (rolled,) = [r for r in store.log(game) if r.kind == "order"]
    assert rolled.actor == "system" and rolled.rolls

    proposed = group.text(MOD, f"rewind {base} the default rolled for an absent player")
    assert "It needs `confirm rewind` from every player (blue and red)" in proposed
    proposal = store.log(game)[-1]
    assert proposal.payload["needs"] == {
        "sides": ["blue", "red"],
        "every": True,
        "before": rolled.index,
    }
    assert "a spectator may follow it" in group.text(WATCHER, "confirm rewind")

    n = len(posts(store))
    said = group.text(RED, "confirm rewind")
    assert "user1 confirms the rewind proposed at row" in said and "It waits for blue" in said
    consent = store.log(game)[-1]
    assert (consent.kind, consent.user, consent.payload) == (
        "moderation",
        "telegram:1",
        {"action": rewinds.CONSENTED, "proposal": proposal.index, "sides": ["red"], "why": None},
    )
    assert [p.outgoing.chat_id for p in posts(store)[n:]] == [DC_CHANNEL]  # the other chat told
    assert rewound(store, game) == 0  # not yet applied
    assert "you have confirmed it already; it waits for blue" in group.text(RED, "confirm rewind")
    assert "red (user1): confirm rewind" in group.text(WATCHER, "log 2")  # the log shows it

    said = group.text(BLUE, "confirm rewind")
    assert "confirmed by user1, user2" in said
    rewind = [r for r in store.log(game) if r.kind == "rewind"][-1]
    assert rewind.payload["consents"] == [consent.index]
    assert rewind.payload["confirmed_by"] == "telegram:2"
    assert rewound(store, game) == 1
    clean(chat, game)


def test_dice_of_no_side_are_cancelled_after_a_consent(chat, group, store, dice_race):
    game = begin(group, "dice-race", ("red", "blue"))
    base = chat.service.record(game).head_index
    chat.service.say(game, "system", "roll")
    group.text(MOD, f"rewind {base} oops")
    assert "It waits for blue" in group.text(RED, "confirm rewind")
    assert "is cancelled" in group.text(MOD, "cancel rewind")
    assert "no rewind waits" in group.text(BLUE, "confirm rewind")
    assert rewound(store, game) == 0
    clean(chat, game)


# -- nobody in the confirming seat: a moderator who held the role before the roll
def test_with_the_seat_free_a_moderator_from_before_the_roll_confirms(chat, group, store):
    game = begin(group, "hells-gate", ("soviet", "german"))
    assert "now a moderator" in group.text(MOD, "moderator add telegram:7")  # before the roll
    base = chat.service.record(game).head_index
    group.text(RED, first_attack(chat, game))
    (rolled,) = [r for r in store.log(game) if r.kind == "order"]
    assert "now a moderator" in group.text(MOD, "moderator add telegram:8")  # after it
    assert "no longer plays german" in group.text(MOD, "unseat german left the game")
    proposed = group.text(MOD, f"rewind {base} misclick")
    assert f"from a moderator who has held the role since before row {rolled.index}" in proposed
    before = head(chat, game)
    refused = group.text(8, "confirm rewind")
    assert f"a moderator who has held the role since before row {rolled.index}" in refused
    assert "discards rolls of your side (soviet)" in group.text(RED, "confirm rewind")
    assert head(chat, game) == before
    assert "confirmed by user7" in group.text(7, "confirm rewind")
    assert chat.service.record(game).epoch == 2
    clean(chat, game)


def test_a_moderator_removed_and_added_again_after_the_roll_does_not_confirm(chat, group):
    game = begin(group, "hells-gate", ("soviet", "german"))
    group.text(MOD, "moderator add telegram:7")
    base = chat.service.record(game).head_index
    group.text(RED, first_attack(chat, game))
    assert "no longer a moderator" in group.text(MOD, "moderator remove telegram:7 a break")
    group.text(MOD, "moderator add telegram:7")
    group.text(MOD, "unseat german gone")
    group.text(MOD, f"rewind {base} misclick")
    assert "held the role since before row" in group.text(7, "confirm rewind")
    assert chat.service.record(game).epoch == 1


# -- edits
def test_an_edit_needs_a_player_other_than_the_proposer_and_a_moderator_only_without_one(
    chat, group
):
    game = begin(group, "hells-gate", ("soviet", "german"))
    assert "now a moderator" in group.text(MOD, "moderator add telegram:6")
    said = group.text(MOD, "set weather mud")
    assert "It needs `confirm edit` from the player of german or soviet" in said
    assert "does not count while that seat is filled" in group.text(6, "confirm edit")
    assert "confirmed by user2" in group.text(BLUE, "confirm edit")
    assert chat.service.state(game).weather == "mud"

    # the proposer plays soviet himself, german's seat is free: a second moderator confirms
    group.text(MOD, "unseat german gone")
    group.text(MOD, "seat soviet telegram:9 the moderator plays")
    said = group.text(MOD, "set weather snow")
    assert "from a moderator who has held the role since before row" in said
    assert "does not confirm it himself" in group.text(MOD, "confirm edit")
    assert "confirmed by user6" in group.text(6, "confirm edit")
    assert chat.service.state(game).weather == "snow"
    clean(chat, game)


def test_dice_of_no_side_the_proposers_own_seat_needs_no_consent_of_his(
    chat, group, store, dice_race
):
    """Decision (app/rewinds.py): his proposal is his consent; the other player confirms."""
    game = begin(group, "dice-race", ("red", "blue"))
    assert "now plays red" in group.text(MOD, "seat red telegram:9 the moderator plays")
    base = chat.service.record(game).head_index
    chat.service.say(game, "system", "roll")
    assert "from every player (blue)" in group.text(MOD, f"rewind {base} oops")
    assert "does not confirm it himself" in group.text(MOD, "confirm rewind")
    assert "confirmed by user2" in group.text(BLUE, "confirm rewind")
    assert not [r for r in store.log(game) if r.payload.get("action") == rewinds.CONSENTED]
    assert rewound(store, game) == 1
    clean(chat, game)

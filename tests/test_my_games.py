"""A player's games and his private reminders, through the chat service (bots/chat.py):
`games` in a private chat (every game he plays, across his linked accounts) and in a group (the
chat's game), in English and Russian; `remind on|off` and the private "your move" and
deadline messages the scheduler's pass writes into the outbox (app/move_reminders.py), once per
situation and player, also after a restart; and the names of new games (app/game_names.py).

Driven with plain Incoming messages and a FakeClock; seeds fixed (bots.demo.DemoSeeds)."""

from __future__ import annotations

import itertools
import re
from datetime import timedelta

import pytest

from adjudicator.core.i18n import EN, say
from app import deadlines, identities, notify, post_queue
from app.messages import Incoming, Outgoing
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds
from storage import Store, chat_store

GROUP = "-100500"
GROUP_RU = "-100600"


class Chat:
    """One chat on one platform: `text` says a message as a user and returns the answer."""

    _ids = itertools.count(1)

    def __init__(self, service: ChatService, platform: str, chat_id: str, private=False):
        self.service, self.platform, self.chat_id = service, platform, chat_id
        self.private = private

    def say(self, user: int | str, text: str) -> list[Outgoing]:
        msg = f"{self.platform}:{self.chat_id}:{next(self._ids)}"
        inc = Incoming(
            self.platform,
            self.chat_id,
            str(user),
            f"user{user}",
            text,
            message_id=msg,
            private=self.private,
        )
        return self.service.handle(inc)

    def text(self, user: int | str, text: str) -> str:
        (out,) = self.say(user, text)
        assert not out.private, out
        return out.text


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "games.db")


@pytest.fixture
def store(path):
    s = Store(path)
    yield s
    s.close()


def service(store: Store, clock: FakeClock) -> ChatService:
    return ChatService(GameService(store, seeds=DemoSeeds(7)), clock=clock, images=False)


@pytest.fixture
def chat(store, clock):
    return service(store, clock)


def started(c: Chat, system: str = "hells-gate", a=1, b=2, sides=("soviet", "german")) -> str:
    """A started game in chat c: user a created it and plays the first side, b the second."""
    said = c.text(a, f"new {system}")
    assert "New game" in said, said
    name = chat_store.binding(c.service.store, c.platform, c.chat_id)
    assert name is not None
    assert "now plays" in c.text(a, f"join {sides[0]}")
    assert "now plays" in c.text(b, f"join {sides[1]}")
    assert "begins" in c.text(a, "start")
    return name


def private(chat: ChatService, user: int) -> Chat:
    return Chat(chat, "telegram", str(user), private=True)


def dms(store: Store) -> list[post_queue.Row]:
    return [r for r in post_queue.rows(store) if r.outgoing.private]


def reminders(store: Store) -> list[post_queue.Row]:
    """The private reminders written into the outbox (not the side maps and secrets)."""
    return [r for r in dms(store) if (r.dedupe_key or "").startswith(("move:", "reminder:"))]


def scheduler_pass(store: Store, clock: FakeClock) -> None:
    """One pass of the scheduler (the fake clock jumps: no outage is seen in a jump)."""
    core = GameService(store).core
    deadlines.adjudicate_due(store, clock.now(), core=core, outage_after=timedelta(days=999))


# ------------------------------------------------------------------ names
def test_a_new_game_is_named_by_its_system_and_a_number_never_by_a_platform_id(chat):
    first = Chat(chat, "discord", "1577597652416069635")
    assert "New game **hells-gate-1**" in first.text(1, "new hells-gate")
    second = Chat(chat, "telegram", "-1001234567890")
    assert "New game **hells-gate-2**" in second.text(2, "new hg sandbox")
    third = Chat(chat, "telegram", "-1009")
    assert "New game **northern-war-1**" in third.text(3, "new northern-war")
    for name in ("hells-gate-1", "hells-gate-2", "northern-war-1"):
        assert chat.service.record(name).name == name


def test_the_creator_may_name_the_game_and_a_taken_or_bad_name_is_refused(chat):
    one = Chat(chat, "telegram", "-1001")
    assert "New game **korsun-1944**" in one.text(1, "new hells-gate sandbox Korsun-1944")
    assert chat.service.record("korsun-1944").sandbox
    two = Chat(chat, "telegram", "-1002")
    taken = two.text(2, "new hells-gate korsun-1944")
    assert taken.startswith("Refused:") and "taken" in taken
    assert chat_store.binding(chat.store, "telegram", "-1002") is None  # nothing reserved
    for bad in ("1577597652416069635", "a", "no_underscores", "-x-", "sandbox x"):
        said = two.text(2, f"new hells-gate {bad}")
        assert said.startswith("Refused:"), (bad, said)
    assert "New game **корсунь**" in two.text(2, "новая hells-gate Корсунь")
    three = Chat(chat, "telegram", "-1003")  # the numbers go on past a chosen name
    assert "New game **hells-gate-1**" in three.text(3, "new hells-gate")


def test_a_number_taken_by_a_reserved_chat_is_skipped(chat, clock):
    chat_store.bind(chat.store, "telegram", "-1", "hells-gate-1", now=clock.now())
    c = Chat(chat, "telegram", "-2")
    assert "New game **hells-gate-2**" in c.text(1, "new hells-gate")


# ------------------------------------------------------------------ games
def test_games_in_a_private_chat_lists_every_game_with_whose_move_and_the_deadline(chat):
    one = started(Chat(chat, "telegram", GROUP))
    two = started(Chat(chat, "telegram", "-1007"), a=2, b=1)  # user 1 plays German there
    said = private(chat, 1).text(1, "games")
    rows = said.split("\n")
    assert rows[0] == "You play 2 games:"
    assert rows[1].startswith(f"**{one}** (Soviet): your move, turn 1, ")
    assert rows[2].startswith(f"**{two}** (German): waiting for Soviet (user2), turn 1, ")
    assert "; deadline 20" in rows[1] and "UTC (in 48 h)" in rows[1]
    assert rows[3].startswith("Private reminders: off")
    assert len(rows) == 4 and all(len(r) < 130 for r in rows)  # a phone's lines


def test_games_counts_the_games_of_a_linked_account(chat, clock):
    name = started(Chat(chat, "telegram", GROUP))
    code, _ = identities.new_code(chat.store, "telegram:1", now=clock.now())
    identities.confirm(chat.store, "discord:55", code, now=clock.now())
    said = Chat(chat, "discord", "dm55", private=True).text(55, "games")
    assert said.split("\n")[:2] == [
        "You play 1 game:",
        said.split("\n")[1],
    ] and said.split("\n")[1].startswith(f"**{name}** (Soviet): your move")


def test_games_in_a_group_is_that_chat_s_game(chat):
    group = Chat(chat, "telegram", GROUP)
    assert "No game is played in this chat yet" in group.text(9, "games")
    name = started(group)
    said = group.text(9, "games")  # a spectator
    assert said.startswith(f"**{name}**: waiting for Soviet (user1), turn 1, ")
    assert "\n" not in said
    assert group.text(1, "games").startswith(f"**{name}** (Soviet): your move")


def test_games_in_russian_in_a_private_chat_and_in_a_group(chat):
    group = Chat(chat, "telegram", GROUP_RU)
    name = started(group)
    assert group.text(1, "язык ru")
    said = group.text(9, "игры")
    assert said.startswith(f"**{name}**: ждём СССР (user1), ход 1, ") and "; срок 20" in said, said
    me = private(chat, 1)
    me.text(1, "language ru")
    said = me.text(1, "игры")
    assert said.startswith("Вы играете в 1 игру:"), said
    assert "ваш ход" in said and "Напоминания в личку: выкл" in said, said


def test_games_with_no_game_and_a_game_not_started(chat):
    me = private(chat, 1)
    assert me.text(1, "games").startswith("You play no game yet")
    group = Chat(chat, "telegram", GROUP)
    group.text(1, "new hells-gate")
    group.text(1, "join soviet")
    said = me.text(1, "games")
    assert "(Soviet): not started; free: German" in said


# ------------------------------------------------------------------ remind
def test_remind_on_then_a_phase_change_sends_one_private_message_to_the_opted_in_player_only(
    path, store, chat, clock
):
    group = Chat(chat, "telegram", GROUP)
    name = started(group)
    assert "Reminders on" in private(chat, 1).text(1, "remind on")
    assert "Reminders off" in private(chat, 2).text(2, "remind off")
    scheduler_pass(store, clock)
    scheduler_pass(store, clock)  # a second pass adds nothing
    (first,) = reminders(store)
    assert "soviet-combat" in say(first.outgoing.text, EN)
    assert "phase ends" not in group.text(1, "end")  # the game waits for the next phase
    assert "soviet-movement" in notify.standing(store, name).situation.label
    scheduler_pass(store, clock)
    scheduler_pass(store, clock)
    (_, row) = reminders(store)  # one more: for the new phase, to user 1 only
    out = row.outgoing
    assert (out.platform, out.user_id, out.chat_id, out.private) == ("telegram", "1", GROUP, True)
    text = say(out.text, EN)
    assert text.startswith(f"**{name}**: your move (Soviet), turn 1, ") and "Deadline" in text
    assert all(r.outgoing.user_id == "1" for r in reminders(store))  # never to user 2
    # a restart: a new store and service on the same database, outbox purged of sent rows
    store.close()
    again = Store(path)
    try:
        with again.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE outbox SET status = 'sent', sent_at = created_at")
        from storage import outbox

        outbox.purge_sent(again, before=clock.now() + timedelta(days=1))
        scheduler_pass(again, clock)
        assert reminders(again) == []
    finally:
        again.close()


def test_a_deadline_near_is_told_privately_to_the_opted_in_player(store, chat, clock):
    group = Chat(chat, "telegram", GROUP)
    name = started(group)
    private(chat, 1).text(1, "remind on")
    scheduler_pass(store, clock)
    assert [r.dedupe_key.split(":")[0] for r in reminders(store)] == ["move"]
    clock.advance(hours=25)  # 23 h left: the 24 h reminder
    scheduler_pass(store, clock)
    scheduler_pass(store, clock)
    near = [r for r in reminders(store) if r.dedupe_key.startswith("reminder:")]
    assert len(near) == 1 and near[0].outgoing.user_id == "1"
    text = say(near[0].outgoing.text, EN)
    assert text.startswith(f"**{name}**: 23 h left for your move (Soviet), turn 1, ")


def test_remind_alone_says_whether_it_is_on_and_a_bad_word_is_refused(chat):
    me = private(chat, 3)
    assert me.text(3, "remind").startswith("Private reminders: off")
    me.text(3, "remind on")
    assert me.text(3, "remind").startswith("Private reminders: on")
    assert me.text(3, "remind maybe").startswith("Refused: say `remind on` or `remind off`")
    me.text(3, "language ru")
    assert me.text(3, "напоминать выкл").startswith("Напоминания выключены")
    assert me.text(3, "remind").startswith("Напоминания в личку: выкл")


# ------------------------------------------------------------------ hidden information
def test_games_and_reminders_tell_only_what_every_chat_is_told(store, chat, clock):
    """Northern War hides each side's block strengths: `games` and the reminders name the
    game, the side, the phase and the deadline, and nothing more."""
    group = Chat(chat, "telegram", GROUP)
    name = started(group, "northern-war", sides=("sweden", "coalition"))
    for user in (1, 2):
        private(chat, user).text(user, "remind on")
    scheduler_pass(store, clock)
    clock.advance(hours=25)
    scheduler_pass(store, clock)
    said = [say(r.outgoing.text, EN) for r in reminders(store)]
    said += private(chat, 1).text(1, "games").split("\n")[1:2]
    said += private(chat, 2).text(2, "games").split("\n")[1:2]
    assert len(said) == 4
    label = r"[\w ,-]+"  # "1700, turn 1, entry": public, as every post says it
    deadline = r"\d{4}-\d\d-\d\d \d\d:\d\d UTC \(in [\d hmin]+\)"
    shapes = [
        (
            rf"\*\*{name}\*\*: your move \((Sweden|Coalition)\), {label}\. Deadline {deadline}\. "
            r"\(`remind off` stops these messages\.\)"
        ),
        (
            rf"\*\*{name}\*\*: [\d hmin]+ left for your move \((Sweden|Coalition)\), {label}\. "
            rf"Deadline {deadline}\."
        ),
        (
            rf"\*\*{name}\*\* \((Sweden|Coalition)\): (your move|waiting for \w+ \(user\d\)), "
            rf"{label}; deadline {deadline}"
        ),
    ]
    for text in said:
        assert any(re.fullmatch(s, text) for s in shapes), text


# ------------------------------------------------------------------ end to end on Telegram
def test_games_and_remind_end_to_end_on_telegram(tmp_path):
    """The REAL python-telegram-bot against the local fake of the Bot API: `/games` in the
    group and in a private chat, `/remind on` there, and the private "your move" the
    scheduler's pass sends, once."""
    from tests import e2e_support as E
    from tests.fakes.telegram_api import FakeTelegramAPI

    alice = E.TG_USERS["alice"].id

    async def scenario():
        clock = E.now_clock()
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), clock, telegram=api) as w,
        ):
            group = E.TelegramChat(w, E.TG_GROUP)
            game = await E.started_game(w, group)
            a = await group.say("carol", "games", via="command")  # `/games`
            assert a.public.startswith(f"{game}: waiting for Soviet (alice), turn 1, ")
            dm = E.TelegramChat(w, alice)
            a = await dm.say("alice", "remind on", via="command")  # `/remind on`
            assert a.seen[0].where == "dm" and "Reminders on" in a.text
            a = await dm.say("alice", "games", via="plain")
            assert a.text.startswith("You play 1 game:") and "your move" in a.text
            assert "Private reminders: on" in a.text
            since = len(api.calls)
            await w.tick()
            await w.tick()
            await w.drained()
            told = [
                c
                for c in api.calls[since:]
                if c.ok and c.chat_id == alice and "your move (Soviet)" in (c.rendered or "")
            ]
            assert len(told) == 1 and told[0].rendered.startswith(f"{game}: your move")

    E.run(scenario())

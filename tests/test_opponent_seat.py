"""The built-in opponent in a seat, through the chat service (bots/chat.py) as players use it:
`join <SIDE> ai [LEVEL]` and `seat <SIDE> ai [LEVEL]` with their permissions and refusals, its
moves as due work (app/opponent_turns.py) submitted through the one path of every change, a
duplicate and a stale decision refused, pause and replacement, no private message to its seat,
rewinds across rolls refused while it plays, and Russian commands.

The decisions here are made in this process (`think`, the worker process's function, called
directly): what runs in a worker process is tests/test_e2e_opponent.py's and
tests/test_opponent_seat_runner.py's."""

from __future__ import annotations

import itertools
import random

import pytest

from adjudicator import opponent
from adjudicator.grammar.ai_words import AI_LEVELS
from app import opponent_turns
from app.messages import Incoming, Outgoing
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.opponent_worker import think
from storage import Store, chat_store
from storage import outbox as outbox_rows

GROUP = "-100777"
MOD, OTHER = "1", "2"


class Group:
    _ids = itertools.count(1)

    def __init__(self, chat: ChatService, chat_id: str = GROUP):
        self.chat, self.chat_id = chat, chat_id

    def say(self, user: str, text: str) -> list[Outgoing]:
        inc = Incoming(
            "telegram", self.chat_id, user, f"user{user}", text, message_id=f"m{next(self._ids)}"
        )
        return self.chat.handle(inc)

    def text(self, user: str, text: str) -> str:
        return "\n".join(str(o.text) for o in self.say(user, text) if not o.private)

    @property
    def game(self) -> str:
        name = chat_store.binding(self.chat.store, "telegram", self.chat_id)
        assert name is not None
        return name


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path / "games.db"))
    yield s
    s.close()


@pytest.fixture
def chat(store):
    return ChatService(GameService(store), clock=FakeClock(), images=False)


@pytest.fixture
def group(chat):
    return Group(chat)


def opponent_game(group: Group, system: str = "hells-gate", start: bool = True) -> str:
    """alice (MOD, the creator) plays soviet; the opponent (easy) plays german."""
    group.text(MOD, f"new {system}")
    group.text(MOD, "join soviet")
    assert "Opponent (easy) now plays german" in group.text(MOD, "join german ai easy")
    if start:
        assert "against German (Opponent (easy))" in group.text(MOD, "start")
    return group.game


def to_german(chat: ChatService, group: Group) -> opponent_turns.Job:
    """The person plays random legal orders until the game waits for the opponent."""
    rng = random.Random(3)
    for _ in range(200):
        jobs = opponent_turns.due_jobs(chat.store)
        if jobs:
            return jobs[0]
        system = chat.service.system(group.game)
        state = system.state_from_json(chat.store.snapshot(group.game))
        order = rng.choice(list(system.legal_orders(state, "soviet")))
        group.say(MOD, system.grammar.format(order))
    raise AssertionError("the game never waited for the opponent")


def test_the_ai_words_name_the_opponent_levels():
    assert set(AI_LEVELS.values()) == set(opponent.LEVELS)
    assert opponent.DEFAULT_LEVEL in opponent.LEVELS


def test_seat_ai_is_written_back_as_typed_in_english_and_russian(chat, group):
    game = opponent_game(group, start=False)
    grammar = chat.service.system(game).grammar
    for said, user in [
        ("seat german ai", "ai:normal"),
        ("seat german AI easy", "ai:easy"),
        ("назначить german ии лёгкий", "ai:easy"),
        ("seat german ai normal replaces bob", "ai:normal"),
    ]:
        item = grammar.parse(said)
        assert item.user == user
        assert grammar.parse(grammar.format(item)) == item
    assert grammar.format(grammar.parse("seat german ai")) == "seat german ai normal"


def test_only_the_creator_joins_the_opponent_and_only_before_the_start(group):
    group.text(MOD, "new hells-gate")
    refused = group.text(OTHER, "join german ai")
    assert "only the game's creator" in refused and "`seat german ai`" in refused
    group.text(MOD, "join soviet")
    assert "Opponent (normal) now plays german" in group.text(MOD, "join german ai")
    group.text(MOD, "start")
    assert group.text(MOD, "join german ai easy").startswith("Refused")


def test_the_opponent_is_refused_in_a_system_it_does_not_play(group):
    group.text(MOD, "new borodino")
    refused = group.text(MOD, "join french ai")
    assert "does not play Borodino" in refused
    assert "Hell's Gate" in refused and "Northern War" in refused
    assert "does not play Borodino" in group.text(MOD, "seat french ai easy")


def test_an_unknown_level_is_refused(group):
    group.text(MOD, "new hells-gate")
    assert "no level hard" in group.text(MOD, "seat german ai:hard")


def test_russian_join_and_seat(group):
    group.text(MOD, "новая hells-gate")
    group.text(MOD, "язык ru")
    said = group.text(MOD, "вступить german ии лёгкий")
    assert "Соперник-программа (easy)" in said, said
    record = group.chat.service.record(group.game)
    assert record.seats["german"] == "ai:easy"
    group.text(MOD, "назначить german ии обычный")
    assert group.chat.service.record(group.game).seats["german"] == "ai:normal"
    said = group.text(OTHER, "вступить soviet ии")
    assert "только создатель игры" in said, said


def test_its_move_is_submitted_once_as_its_seat_and_logged_canonically(chat, group):
    game = opponent_game(group)
    job = to_german(chat, group)
    assert (job.side, job.user, job.level) == ("german", "ai:easy", "easy")
    assert job.seed == opponent_turns.seed_of(job.uid, "german", job.head)
    text = think(job)
    assert think(job) == text  # the same position, side and seed: the same decision
    rows = chat.store.count_rows(game)
    reply = opponent_turns.play(chat.core, job, text)
    assert reply.ok and not reply.duplicate
    assert chat.store.count_rows(game) > rows
    row = next(r for r in chat.store.log(game) if r.key == opponent_turns.key_of(job))
    assert (row.actor, row.user, row.text) == ("german", "ai:easy", text)
    again = opponent_turns.play(chat.core, job, text)  # the same decision once more
    assert again.duplicate
    assert chat.store.count_rows(game) == rows + (len(chat.store.log(game)) - rows)
    ok, _, _ = chat.service.audit(game)
    assert ok


def test_a_decision_made_before_the_game_moved_on_is_dropped(chat, group):
    game = opponent_game(group)
    job = to_german(chat, group)
    group.text(MOD, "pause a break")  # a row after the one the decision was made for
    rows = chat.store.count_rows(game)
    reply = opponent_turns.play(chat.core, job, think(job))
    assert not reply.ok and reply.error["code"] == "opponent-stale"
    assert chat.store.count_rows(game) == rows


def test_a_paused_game_waits_and_a_replaced_seat_is_a_persons(chat, group):
    game = opponent_game(group)
    to_german(chat, group)
    group.text(MOD, "pause a break")
    assert opponent_turns.due_jobs(chat.store) == []
    group.text(MOD, "resume back")
    assert [j.game for j in opponent_turns.due_jobs(chat.store)] == [game]
    said = group.text(MOD, f"seat german telegram:{OTHER} a person takes over")
    assert not said.startswith("Refused"), said
    assert opponent_turns.due_jobs(chat.store) == []
    assert chat.service.record(game).seats["german"] == f"telegram:{OTHER}"
    assert not group.text(MOD, "seat german ai easy back to the machine").startswith("Refused")
    assert [j.game for j in opponent_turns.due_jobs(chat.store)] == [game]


def test_an_unstarted_chat_game_does_not_wait_for_it(chat, group):
    opponent_game(group, start=False)
    assert opponent_turns.due_jobs(chat.store) == []


def test_no_private_message_is_ever_written_for_its_seat(store):
    """The Northern War sends each seated side its own map privately: the person's seat gets
    it, the opponent's seat (platform "ai", which no chat is on) nothing, so no notice of an
    undelivered message can be posted for it either."""
    group = Group(ChatService(GameService(store), clock=FakeClock(), images=True))
    group.text(MOD, "new northern-war")
    group.text(MOD, "join sweden")
    group.text(MOD, "join coalition ai easy")
    group.text(MOD, "start")
    rows = outbox_rows.select_rows(store)
    private = [(r["platform"], r["user_id"]) for r in rows if r["private"]]
    assert private == [("telegram", MOD)]
    assert not any("could not" in (r["text"] or "") for r in rows)


def test_a_rewind_across_rolls_is_refused_while_it_plays_one_without_rolls_applies(chat, group):
    game = opponent_game(group)
    rolled = None
    rng = random.Random(5)
    for _ in range(300):  # until one of the person's orders rolled a die
        rows = chat.store.log(game)
        rolled = next((r for r in rows if r.payload.get("rolls") and r.actor == "soviet"), None)
        if rolled is not None:
            break
        if jobs := opponent_turns.due_jobs(chat.store):
            opponent_turns.play(chat.core, jobs[0], think(jobs[0]))
            continue
        system = chat.service.system(game)
        state = system.state_from_json(chat.store.snapshot(game))
        group.say(
            MOD, system.grammar.format(rng.choice(list(system.legal_orders(state, "soviet"))))
        )
    assert rolled is not None
    refused = group.text(MOD, f"rewind {rolled.index - 1} a misclick")
    assert "the opponent playing german cannot give" in refused
    assert "`seat german <USER>`" in refused
    head = chat.store.load(game, with_log=False).head_index
    assert chat.store.count_rows(game) == head + 1  # nothing written


def test_a_rewind_that_discards_no_roll_applies_with_the_opponent_seated(chat, group):
    game = opponent_game(group)
    assert "ends the soviet-combat phase" in group.text(MOD, "end")  # no die rolled
    ended = chat.store.log(game)[-1]
    assert ended.actor == "soviet" and not ended.payload.get("rolls")
    said = group.text(MOD, f"rewind {ended.index - 1} the phase ended too soon")
    assert "Rewound to row" in said and "Orders after row" in said


def test_an_edit_only_the_opponent_could_confirm_is_refused_at_once(chat, group):
    game = opponent_game(group)
    rows = chat.store.count_rows(game)
    refused = group.text(MOD, "set weather mud")
    assert "the opponent playing german cannot give" in refused, refused
    assert chat.store.count_rows(game) == rows  # no proposal no one could confirm


def test_an_edit_a_person_may_confirm_is_proposed_with_the_opponent_seated(chat, group):
    """The moderator plays no side: the person on soviet confirms it, as without the opponent."""
    group.text(MOD, "new hells-gate")
    group.text(OTHER, "join soviet")
    group.text(MOD, "join german ai easy")
    group.text(MOD, "start")
    assert "proposed by" in group.text(MOD, "set weather mud")
    assert "Refused" not in group.text(OTHER, "confirm edit")


def counting_reads(monkeypatch) -> list[str]:
    """The games a pass reads whole (opponent_turns.job_of), in order."""
    read: list[str] = []
    job_of = opponent_turns.job_of

    def counted(store, game):
        read.append(game)
        return job_of(store, game)

    monkeypatch.setattr(opponent_turns, "job_of", counted)
    return read


def test_a_pass_reads_only_the_games_that_changed_since_they_waited_for_no_one(
    chat, group, monkeypatch
):
    """A pass does not grow with the games the opponent ever sat in: a game that waited for no
    one is read again only once its row moved (an order, a pause, a resume) or it started."""
    game = opponent_game(group, start=False)
    read = counting_reads(monkeypatch)
    idle: dict = {}
    assert opponent_turns.due_jobs(chat.store, idle) == [] and read == [game]
    assert opponent_turns.due_jobs(chat.store, idle) == [] and read == [game]  # not read again
    group.text(MOD, "start")  # the row's version does not move; its start does
    assert opponent_turns.due_jobs(chat.store, idle) == [] and read == [game, game]
    monkeypatch.undo()
    job = to_german(chat, group)  # the person's orders move the row
    read = counting_reads(monkeypatch)
    group.text(MOD, "pause a break")
    assert opponent_turns.due_jobs(chat.store, idle) == [] and read == [game]
    assert opponent_turns.due_jobs(chat.store, idle) == [] and read == [game]
    group.text(MOD, "resume back")
    assert [j.game for j in opponent_turns.due_jobs(chat.store, idle)] == [game]
    assert [j.game for j in opponent_turns.due_jobs(chat.store, idle)] == [game]  # still due
    assert read == [game, game, game] and game not in idle
    assert opponent_turns.play(chat.core, job, think(job)).ok is False  # stale: paused since


def test_a_game_the_opponent_left_is_forgotten_by_the_pass(chat, group):
    game = opponent_game(group, start=False)
    idle: dict = {}
    opponent_turns.due_jobs(chat.store, idle)
    assert game in idle
    said = group.text(MOD, f"seat german telegram:{OTHER} a person takes over")
    assert not said.startswith("Refused"), said
    assert opponent_turns.due_jobs(chat.store, idle) == [] and idle == {}

"""Rule 2.19 with the opponent seated: it adds nothing to what the other side and the group
receive. A Northern War chat game, Sweden played by a person's random legal orders and the
coalition by the opponent (its decisions made in this process by the worker process's own
function), is played again with the same dice by two people giving the same order texts. Every
line the group and the Swedish player receive at each step of the first (direct replies, posts,
private messages) is one they receive at that step of the second, the seat's name aside (a
person also gets his own direct replies, which the opponent does not); what people receive in
a block game is scanned for hidden values by tests/northern_war/test_chat_scan.py. And an order
line of the opponent that names a block Sweden may not see is in nothing they receive (such
lines occur: checked)."""

from __future__ import annotations

import random
import re

from adjudicator.core.events import Viewer
from app import opponent_turns
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds
from bots.opponent_worker import think
from contract.leaks import DIGEST
from storage import Store
from storage import outbox as outbox_rows
from tests.test_opponent_seat import MOD, OTHER, Group

MAX_STEPS = 400  # orders of both sides at most (a whole game is fewer)
UID = "0123456789abcdef0123456789abcdef"


def table(path, coalition: str) -> tuple[Store, ChatService, Group]:
    store = Store(str(path))
    service = GameService(store, seeds=DemoSeeds("scan"), uids=lambda: UID)
    chat = ChatService(service, clock=FakeClock(), images=False)
    group = Group(chat)
    group.text(MOD, "new northern-war")
    group.text(MOD, "join sweden")
    if coalition == "ai":
        group.text(MOD, "join coalition ai easy")
    else:
        group.say(coalition, "join coalition")
    return store, chat, group


def received(store: Store, said: list, start: int, game: str) -> list[str]:
    """What the group and the Swedish player got: these direct replies, then the outbox's rows
    from `start` on."""
    texts = [str(o.text) for o in said if not o.private or o.user_id == MOD]
    rows = outbox_rows.select_rows(store, game=game)[start:]
    return texts + [r["text"] or "" for r in rows if not r["private"] or r["user_id"] == MOD]


def hidden_words(chat: ChatService, game: str) -> set[str]:
    """The ids and names of the coalition blocks Sweden may not see now."""
    system = chat.service.system(game)
    state = system.state_from_json(chat.store.snapshot(game))
    seen = system.view(state, Viewer.of(["sweden"]))
    blocks = system.scenario.blocks  # type: ignore[attr-defined]
    return {w for b in state.at if b not in seen.at for w in (b, blocks[b].name) if w}


def test_2_19_the_opponent_adds_nothing_to_what_the_other_side_and_the_group_receive(tmp_path):
    store, chat, group = table(tmp_path / "ai.db", "ai")
    game, rng = group.game, random.Random(11)
    system = chat.service.system(game)
    start = len(outbox_rows.select_rows(store, game=game))
    said, given, ai_seen = group.say(MOD, "start"), [], []
    seen = [received(store, said, start, game)]
    for _ in range(MAX_STEPS):
        state = system.state_from_json(store.snapshot(game))
        if system.situation(state).over:
            break
        start = len(outbox_rows.select_rows(store, game=game))
        if jobs := opponent_turns.due_jobs(store):
            text, hidden = think(jobs[0]), hidden_words(chat, game)
            secret = any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text) for w in hidden)
            assert opponent_turns.play(chat.core, jobs[0], text).ok
            given.append((OTHER, text))
            seen.append(received(store, [], start, game))
            ai_seen.append(secret)
            assert not (secret and any(text in t for t in seen[-1])), (text, seen[-1])
        else:
            text = system.grammar.format(rng.choice(list(system.legal_orders(state, "sweden"))))
            given.append((MOD, text))
            seen.append(received(store, group.say(MOD, text), start, game))
    assert system.situation(system.state_from_json(store.snapshot(game))).over
    store.close()
    assert sum(1 for user, _ in given if user == OTHER) >= 10 and any(ai_seen)

    store, chat, group = table(tmp_path / "people.db", OTHER)
    start = len(outbox_rows.select_rows(store, game=group.game))
    again = [received(store, group.say(MOD, "start"), start, group.game)]
    for user, text in given:
        start = len(outbox_rows.select_rows(store, game=group.game))
        again.append(received(store, group.say(user, text), start, group.game))
    store.close()
    for step, (ai, people) in enumerate(zip(seen, again, strict=True)):
        more = lines(ai) - lines(people)
        assert not more, (step, given[step - 1] if step else "start", sorted(more))


def lines(step: list[str]) -> set[str]:
    """The step's lines but the speaker's header of a change told to the group
    (`**Opponent (easy)**:`, a person's reply has none)."""
    said = {line for text in plain(step) for line in text.splitlines() if line.strip()}
    return said - {"**<coalition>**:"}


PERSON = re.compile(r"Opponent \(easy\)|@?user2")  # the coalition's seat, by its name


def plain(step: list[str]) -> list[str]:
    """A step's texts, the seat's name and the digests (the log's rows differ in their join
    line, so do their hashes) put aside."""
    return [DIGEST.sub("<digest>", PERSON.sub("<coalition>", t)) for t in step]

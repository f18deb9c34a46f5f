"""In a game with hidden information an order's text may name what only its side knows (the
block game's `replace repnin`, `move lewenhaupt courland`): an order given in a private chat is
mirrored to the group without its text (who spoke, and the public result), and the log shows
the text of a side's orders only to that side's view while the game runs (the chat's `log` is
the public one)."""

from __future__ import annotations

import re

from app import post_queue
from app.queries import SEALED_ORDER
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from storage import Store
from tests.test_chat_service import Chat

GROUP = "-100950"
SWEDE, ALLY = "21", "22"


def started():
    store = Store(":memory:")
    service = GameService(store)
    chat = ChatService(service, clock=FakeClock(), images=False)
    group = Chat(chat, "telegram", GROUP)
    group.say(SWEDE, "new northern-war")
    group.say(SWEDE, "join sweden")
    group.say(ALLY, "join coalition")
    group.say(SWEDE, "start")
    group.say(SWEDE, "end")  # the first entry phase: the action rolls
    game = service.store.list_games()[0].name
    return store, service, chat, group, game


def test_an_order_given_privately_is_mirrored_to_the_group_without_its_text():
    store, service, chat, group, game = started()
    system = service.system(game)
    side = system.situation(service.state(game)).to_move[0]
    user = SWEDE if side == "sweden" else ALLY
    order = next(o for o in system.legal_orders(service.state(game), side)
                 if system.grammar.format(o).startswith("move "))  # fmt: skip
    text = system.grammar.format(order)
    seen = len(post_queue.rows(store))
    (reply, *_) = Chat(chat, "telegram", user, private=True).say(user, text)
    assert re.search(r"\d+ blocks? moves? from", reply.text), reply.text
    mirrored = [
        r.outgoing.text for r in post_queue.rows(store)[seen:] if r.outgoing.chat_id == GROUP
    ]
    assert mirrored and all(text not in m for m in mirrored)
    other = ALLY if user == SWEDE else SWEDE
    assert text not in group.say(other, "log")[0].text
    assert SEALED_ORDER in group.say(other, "log")[0].text
    assert text in service.log_text(game, view=side)  # `pbem log --view SIDE`: his own
    assert text not in service.log_text(game)
    store.close()

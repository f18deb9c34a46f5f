"""The hidden-information scan of a game played by taps on Telegram (not a test module): what
the group receives (every message's text, its keys' labels, callback data and links) holds
nothing private, while the private things do reach their player's private chat (so the scan
could fail).

Private: the order texts of a player's menus (of two words or more: `end` is said everywhere),
the lines of his private messages that give a block's strength (the Northern War), and the names
of the cards no player has seen face up yet (Stalin's War: a hand, a deck; looked at step by
step, as a card played face up becomes public)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from adjudicator.stalins_war.data import SET_ASIDE
from tests import e2e_support as E
from tests import tap_support as T
from tests.fakes.telegram_api import Call

PRIVATE_STRENGTH = re.compile(r"\\?\) strength \d|gains a step: strength|strength \d+/\d+")
ANSWER_LABELS = {"My orders", "Answer", "Мои приказы", "Ответить"}


def shown(call: Call) -> str:
    """Everything a message shows or carries: its text, its keys (labels, data, links)."""
    markup = json.dumps(call.reply_markup or {}, ensure_ascii=False)
    params = call.params
    return "\n".join(
        str(x) for x in (call.rendered, params.get("text"), params.get("caption"), markup) if x
    )


def said_in(order: str, text: str) -> bool:
    """The order's text said in `text` as a phrase of its own (not a pile's count as the track
    says it: `hand 5, deck 2, discard 1, removed 0`)."""
    return re.search(rf"(?<![\w-]){re.escape(order)}(?![\w,-])", text) is not None


@dataclass
class Scan:
    tapper: T.Tapper
    game: str
    seen: int = 0  # calls looked at
    group: list[str] = field(default_factory=list)  # what the group was shown
    private: list[str] = field(default_factory=list)  # what the players' private chats were
    orders: set[str] = field(default_factory=set)  # the menus' order texts
    revealed: set[tuple[str, int]] = field(default_factory=set)  # cards seen face up
    cards_private: set[str] = field(default_factory=set)  # unseen cards' names said privately

    @property
    def world(self) -> E.World:
        return self.tapper.world

    def step(self) -> None:
        """Look at the calls made since the last step (call it after every order)."""
        calls = [c for c in self.tapper.api.calls[self.seen :] if c.ok]
        self.seen += len(calls)
        users = {E.TG_USERS[u].id for u in self.tapper.seats.values()}
        group = [c for c in calls if c.chat_id == self.tapper.group]
        private = [c for c in calls if c.chat_id in users]
        for c in group:
            self._answer_keys_only(c)
        for c in private:
            for key in c.keys:
                tap = T.tokens.find(self.tapper.store, key.get("callback_data", ""))
                if tap is not None and tap.kind == "order" and " " in tap.payload["text"]:
                    self.orders.add(str(tap.payload["text"]))
        said_group = [shown(c) for c in group]
        said_private = [shown(c) for c in private]
        self.group += said_group
        self.private += said_private
        self._cards(said_group, said_private)

    def _answer_keys_only(self, call: Call) -> None:
        """A group message's only key is the answer key: its label and token say nothing (a
        token of a moment gone may be dropped already)."""
        assert len(call.keys) <= 1, call.keys
        for key in call.keys:
            assert key.get("text") in ANSWER_LABELS, key
            if "callback_data" in key:
                tap = T.tokens.find(self.tapper.store, key["callback_data"])
                assert tap is None or (tap.kind == "answer" and not tap.payload), (key, tap)

    def _cards(self, group: list[str], private: list[str]) -> None:
        system = self.world.service.system(self.game)
        if system.id != "stalins-war":
            return
        state = self.world.service.state(self.game)
        if state.result is not None:
            return  # the game over, everything may be shown
        for owner, player in state.players.items():
            self.revealed |= {(owner, n) for n, up in player.discard if up and n is not None}
            self.revealed |= {(owner, n) for n in player.removed}
        if state.open is not None and state.open.card is not None:  # played, its round open
            self.revealed.add((state.open.side, state.open.card))
        self.revealed |= {("soviet", n) for n in SET_ASIDE}  # received in public (4.5, 16.5)
        unseen = {
            card.name
            for owner, cards in system.deck.cards.items()
            for n, card in cards.items()
            if (owner, n) not in self.revealed
        }
        public = "\n".join(group)
        leaked = sorted(name for name in unseen if name in public)
        assert not leaked, leaked
        said = "\n".join(private)
        self.cards_private |= {name for name in unseen if name in said}

    def strengths(self) -> set[str]:
        """The lines of the private messages that give a block's strength privately: a
        reconnaissance's findings, a replacement's new strength, one's own block list (a
        battle's report gives strengths to everyone, N24)."""
        return {
            line.strip()
            for text in self.private
            for line in text.splitlines()
            if PRIVATE_STRENGTH.search(line)
        }

    def check(self) -> None:
        """Nothing private in the group, and private things there are (said privately)."""
        self.step()
        public = "\n".join(self.group)
        assert self.group and self.orders, "nothing was scanned"
        leaked = sorted(o for o in self.orders if said_in(o, public))
        assert not leaked, leaked
        system = self.world.service.system(self.game)
        if system.id == "northern-war":
            lines = self.strengths()
            assert lines, "no block's strength was said privately"
            leaked = sorted(line for line in lines if line in public)
            assert not leaked, leaked
        if system.id == "stalins-war":
            assert self.cards_private, "no hand was said privately"


__all__ = ["Scan", "shown"]

"""Every Hell's Gate command typed in Russian, end to end through the REAL python-telegram-bot
Application and discord.py bot on their local fakes (tests/e2e_support.py), in a chat that chose
Russian (`язык ru`): each is understood (never "unknown command"), each reply is Russian, and the
log keeps the canonical English text of every order (issue 17).

A whole game is played: the orders are the legal orders of the side to move (bots.demo's
choice), typed with the Russian command words and keywords; the questions and the sandbox
verbs are typed in Russian too.
"""

from __future__ import annotations

import random
import re

from bots.demo import choose, legal_texts
from tests import e2e_support as E
from tests.i18n_support import english_left

# The Russian words of each command and keyword (docs/languages.md), as a player types them.
VERBS = {"attack": "атака", "move": "ход", "losses": "потери", "retreat": "отход",
         "end": "конец", "enter": "ввод", "rebuild": "пополнить", "breakout": "прорыв"}  # fmt: skip
KEYWORDS = {"with": "силами", "decisive": "решительная", "flip": "переворот", "retreat": "отход"}
QUESTIONS = ["статус", "помощь", "помощь атака", "помощь все", "варианты", "части", "снабжение", "журнал 5",
             "прогноз C6 силами 20tk", "кубики", "броски"]  # fmt: skip
SANDBOX = ["поставить 20tk C6", "перевернуть 20tk", "установить погода снег", "установить ход 2"]
UNKNOWN = "неизвестная команда"
# Not English words but names: users, side ids (typed as they are), platforms, the audit hash
# and the chat commands that have no Russian word (typed as shown)
PROPER = {"alice", "bob", "soviet", "german", "discord", "telegram", "sha256", "whoami",
          "identity", "link", "confirm", "cancel", "rewind"}  # fmt: skip
# the log shows each order's canonical text, one language whatever was typed (issue 17, 3)
CANONICAL = {*VERBS, *KEYWORDS, "salt"}
# the purposes of the rolls, as the chained dice log records them (one language, like orders)
PURPOSES = {"combat", "weather"}
ORDERS = 40  # orders of the game typed in Russian (a few phases of both sides)


def russian(order: str) -> str:
    """A canonical English order typed with the Russian words (ids as they are)."""
    head, *rest = order.split()
    return " ".join([VERBS[head], *(KEYWORDS.get(w, w) for w in rest)])


def ids_of(text: str) -> set[str]:
    """The ids and hexes a reply names (they stay as typed)."""
    return set(re.findall(r"\b[\w-]*\d[\w-]*\b", text))


def test_every_hells_gate_command_in_russian_on_telegram_and_discord(tmp_path):
    async def scenario():
        clock = E.now_clock()
        async with E.both_platforms(tmp_path / "games.db", clock) as (_api, fake, w):
            for chat, one, two, sandbox in (
                (E.TelegramChat(w, E.TG_GROUP), "alice", "bob", False),
                (E.DiscordChat(w, fake.channel_id), "alice", "bob", True),
            ):
                await play(w, chat, one, two, sandbox)
            await w.drained()
            assert fake.unexpected == []

    E.run(scenario())


async def play(w, chat, one: str, two: str, sandbox: bool) -> None:
    async def say(user: str, text: str, also: set[str] = frozenset()) -> str:
        a = await chat.say(user, text)
        reply = a.text
        assert UNKNOWN not in reply, (text, reply)
        names = {*ids_of(reply), *re.findall(r"[a-z]+", game or ""), *PROPER, *unit_ids, *also}
        left = english_left(reply, allowed=names)
        assert left == [], (text, left, reply[-600:])
        return reply

    game, unit_ids = None, set()
    assert (await say(one, "язык ru")).startswith("Язык этого чата теперь — Русский")
    await say(one, "новая hells-gate песочница" if sandbox else "новая hells-gate")
    game = w.game(*chat.key)
    unit_ids = set(w.service.system(game).scenario.units)  # typed as they are
    await say(one, "вступить советские")
    await say(two, "вступить немецкие")
    await say(one, "начать")
    users = {"soviet": one, "german": two}
    rng = random.Random(17)
    for _ in range(ORDERS):
        state = w.service.state(game)
        here = w.service.system(game).situation(state)
        if here.over:
            break
        side = here.to_move[0]
        order = choose(rng, legal_texts(w.service.system(game), state, side))
        reply = await say(users[side], russian(order))
        assert not reply.startswith("Отказано"), (order, reply)
    for question in QUESTIONS:
        also = CANONICAL if question.startswith("журнал") else set()
        also = PURPOSES if question == "броски" else also
        await say(one, question, also=also)
    if sandbox:
        for verb in SANDBOX:
            await say(one, verb)
    typed = [r.text for r in w.store.log(game) if r.kind == "order"]
    assert typed and all(
        not re.search("[а-яё]", t, re.IGNORECASE) for t in typed
    )  # canonical English

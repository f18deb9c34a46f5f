"""Playing by taps on Telegram, end to end: the REAL python-telegram-bot against the local fake
of the Bot API (tests/fakes/telegram_api.py), the real chat service, store and outbox
(tests/e2e_support.py). Players never type an order: every order comes from an inline key of a
menu opened from a post's answer key or `/options` (tests/tap_support.py), chosen at random
(seeded) among the keys offered, or from a line written to a ForceReply prompt the bot asked."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

import pytest

from adjudicator.northern_war.state import ON_MAP
from app import games
from tests import e2e_support as E
from tests import tap_support as T
from tests.fakes.telegram_api import FakeTelegramAPI
from tests.tap_scan import Scan

GROUP = E.TG_GROUP


def run(coro, timeout: float = 300.0) -> None:
    asyncio.run(asyncio.wait_for(coro, timeout))


async def set_up(w: E.World, system: str, seats: dict[str, str], sandbox: str = "") -> str:
    group = E.TelegramChat(w, GROUP)
    for user in {*seats.values(), "carol"}:  # each has a private chat with the bot
        u = E.TG_USERS[user]
        await E.TelegramChat(w, u.id).say(user, "help", via="plain")
    assert "New game" in (await group.say("alice", f"new {system} {sandbox}".strip())).public
    for side, user in seats.items():
        await group.say(user, f"join {side}", via="command")
    await group.say("alice", "start", via="command")
    await w.drained()
    return w.game(*group.key)


def test_a_turn_of_hells_gate_by_taps(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            seats = {"soviet": "alice", "german": "bob"}
            game = await set_up(w, "hells-gate", seats)
            tapper = T.Tapper(w, GROUP, seats, random.Random(1))
            system = w.service.system(game)
            while (system.situation(w.service.state(game)).turn or 0) < 2:
                here = system.situation(w.service.state(game))
                assert not here.over
                await tapper.order(here.to_move[0], T.random_key, game)
                await w.drained()
            assert any(text.startswith("attack") for _, text, _ in tapper.given), tapper.given

    run(scenario())


def test_a_turn_of_borodino_by_taps(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            seats = {"russian": "alice", "french": "bob"}
            game = await set_up(w, "borodino", seats)
            tapper = T.Tapper(w, GROUP, seats, random.Random(5))
            policy = T.Biased(set(), end_weight=0.3)
            system = w.service.system(game)
            first = system.situation(w.service.state(game)).turn
            for _ in range(300):
                here = system.situation(w.service.state(game))
                if here.over or here.turn != first:
                    break
                await tapper.order(here.to_move[0], policy, game)
                await w.drained()
            here = system.situation(w.service.state(game))
            assert here.over or here.turn == first + 1, here.label
            assert len(tapper.given) >= 3, tapper.given
            ok, report, _ = await asyncio.to_thread(w.service.audit, game)
            assert ok, report
            print(f"borodino by taps: {len(tapper.given)} orders, {tapper.presses} presses")

    run(scenario())


async def whole_game(
    w: E.World, game: str, tapper: T.Tapper, policy: T.Biased, scan: Scan | None = None
) -> int:
    """Orders by taps until the game is over (each step scanned, with `scan`): the orders
    given. It audits clean and replays equal."""
    system = w.service.system(game)
    orders = 0
    for _ in range(3000):
        here = system.situation(w.service.state(game))
        if here.over:
            break
        side = here.to_move[0]
        stacks = free_stacks(w, game, side)
        text, taken = await tapper.order(side, policy, game)
        orders += taken
        word = text.split()[0]
        if part_of(tapper.tried[-1], stacks):
            tapper.parts.append(text)
        done = word != "move" or tapper.parts
        if taken and word in policy.wanted and text not in tapper.legal_before and done:
            policy.wanted.discard(word)
        await w.drained()
        if scan is not None:
            scan.step()
    assert system.situation(w.service.state(game)).over
    ok, report, _ = await asyncio.to_thread(w.service.audit, game)
    assert ok, report
    await asyncio.to_thread(w.service.verify, game)
    return orders


def every_verb_given(tapper: T.Tapper, excluded: frozenset[str] = frozenset()) -> None:
    """Every command word of the orders and templates offered in the game was given."""
    assert tapper.offered_verbs, "no order was offered"
    missing = tapper.offered_verbs - tapper.given_verbs - excluded
    assert not missing, (sorted(missing), sorted(tapper.given_verbs))


def free_stacks(w: E.World, game: str, side: str) -> dict[str, set[str]]:
    """The side's unmoved blocks on the map by territory (a Northern War game; {} in others)."""
    system, state = w.service.system(game), w.service.state(game)
    if system.id != "northern-war":
        return {}
    sc = system.scenario
    stacks: dict[str, set[str]] = {}
    for b in sc.blocks:
        free = state.at[b] and b not in state.moved and state.status[b] == ON_MAP
        if sc.side_of(b) == side and free:
            stacks.setdefault(str(state.at[b]), set()).add(b)
    return stacks


def part_of(tried: T.Tried, stacks: dict[str, set[str]]) -> bool:
    """A move built through the template's builder, taken, of some but not all of the blocks
    of a group (the legal orders list each block alone and each whole group)."""
    words = tried.text.split()
    if not (tried.built and tried.taken and words[0] == "move"):
        return False
    blocks = set(words[1].split(","))
    return any(blocks < group for group in stacks.values())


def part_of_a_group(tapper: T.Tapper, side: str) -> list[str]:
    """The keys of a move of part of a group through the template's builder: two blocks of a
    stack of three or more, else one of a stack of two; blocks that may move alone (the
    builder offers the areas that follow the last block named)."""
    game = tapper.world.game("telegram", str(GROUP))
    alone = {t.split()[1] for t in tapper.legal_before if t.startswith("move ") and "," not in t}
    for stack in sorted(free_stacks(tapper.world, game, side).values(), key=len, reverse=True):
        able = sorted(stack & alone)
        some = 2 if len(stack) >= 3 else 1
        if len(stack) >= 2 and len(able) >= some:
            return ["✎ move", *able[:some], "done"]
    return []


def test_a_whole_northern_war_by_taps(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            seats = {"sweden": "alice", "coalition": "bob"}
            game = await set_up(w, "northern-war", seats)
            tapper = T.Tapper(w, GROUP, seats, random.Random(2))
            policy = T.Biased({"move"}, planner=part_of_a_group, fresh_weight=1.0)
            scan = Scan(tapper, game)
            orders = await whole_game(w, game, tapper, policy, scan)
            assert tapper.compared >= {"entry", "action"}, tapper.compared
            assert tapper.parts, [t for t in tapper.tried if t.built]  # part of a group moved
            every_verb_given(tapper)
            scan.check()
            print(
                f"northern-war by taps: {orders} orders, {tapper.presses} presses,",
                f"verbs {sorted(tapper.given_verbs)}, parts {tapper.parts}",
            )

    run(scenario())


def log_length(w: E.World, game: str) -> int:
    return w.store.load(game, with_log=False).head_index


def test_presses_refused_change_nothing_and_a_double_press_applies_once(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            seats = {"soviet": "alice", "german": "bob"}
            game = await set_up(w, "hells-gate", seats)
            tapper = T.Tapper(w, GROUP, seats, random.Random(3))
            post, key = tapper.answer_key("soviet") or (None, None)
            assert post is not None and key is not None and "callback_data" in key
            before = log_length(w, game)
            for user in ("bob", "carol"):  # the other side, a spectator
                pressed = await tapper.press(post, key, user)
                assert pressed.answer.get("show_alert"), pressed.answer
                assert "only the player of Soviet" in pressed.answer["text"]
            assert log_length(w, game) == before
            # -- his menu, in his private chat only; a key pressed twice at once
            since = len(api.calls)
            pressed = await tapper.press(post, key, "alice")
            menu = await tapper.menu_of(pressed.outs, since)
            assert menu.chat_id == E.TG_USERS["alice"].id
            means = {k["callback_data"]: tapper.tap(k["callback_data"]).payload for k in menu.keys}
            step = [
                k for k in menu.keys if means[k["callback_data"]].get("go") == {"prefix": ["end"]}
            ]
            if step:  # `end …` first, then `end`
                since = len(api.calls)
                menu = await tapper.menu_of(
                    (await tapper.press(menu, step[0], "alice")).outs, since
                )
            end = next(
                k for k in menu.keys if tapper.tap(k["callback_data"]).payload.get("text") == "end"
            )
            u = E.TG_USERS["alice"]
            queries = [api.press(menu, end["callback_data"], user_id=u.id) for _ in range(2)]
            answers = [await api.callback_answer(q, timeout=E.CEILING) for q in queries]
            assert log_length(w, game) == before + 1  # applied once
            assert [bool(a.get("show_alert")) for a in answers] == [False, True], answers
            # -- the phase ended: the post's answer key is stale now
            pressed = await tapper.press(post, key, "alice")
            assert pressed.answer.get("show_alert"), pressed.answer
            # a stale key is refused either way, as unknown or as for an earlier situation:
            # which one depends on how far the next phase's post has got (as on Discord)
            stale = ("no longer valid", "for an earlier moment of the game")
            assert any(s in pressed.answer["text"] for s in stale), pressed.answer
            assert log_length(w, game) == before + 1

    run(scenario())


def has_cyrillic(text: str) -> bool:
    return any("а" <= ch.lower() <= "я" for ch in text)


def test_a_russian_group_is_answered_for_every_command_of_the_russian_menu(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            menu = api.menus["ru"]
            assert [c["command"] for c in menu] == [c["command"] for c in api.commands]
            assert all(has_cyrillic(c["description"]) for c in menu)
            assert "o" in {c["command"] for c in menu}
            seats = {"soviet": "alice", "german": "bob"}
            await set_up(w, "hells-gate", seats)
            group = E.TelegramChat(w, GROUP)
            await group.say("alice", "language ru", via="command")
            u = E.TG_USERS["carol"]
            for command in [c["command"] for c in menu]:
                since = len(api.calls)
                update = api.push_message(
                    f"/{command}", chat_id=GROUP, user_id=u.id, user_name=u.name,
                    language_code="ru",
                )  # fmt: skip
                mid = f"tg:{GROUP}:{update['message']['message_id']}"
                _, outs = await w.recorder.answer(mid)
                assert outs, command
                said = await w.until(
                    lambda n=since: [
                        c.rendered for c in api.calls[n:] if c.ok and has_cyrillic(c.rendered or "")
                    ],
                    f"a Russian answer to /{command}",
                )
                assert not any(E.FAILURE_TEXT in s for s in said), (command, said)
            # a Cyrillic /command, where Telegram delivers it (a private chat): an order word
            dm = E.TelegramChat(w, E.TG_USERS["alice"].id)
            answer = await dm.say("alice", "/статус", via="plain")
            assert answer.incoming.text == "статус" and "Turn 1 of 8" in answer.text

    run(scenario())


TURNS = 3  # Stalin's War: the turns of the deck a whole game is played with


def short_deck(monkeypatch: pytest.MonkeyPatch, turns: int = TURNS) -> None:
    """New Stalin's War games take the sample deck with `turns` turns (rule 12.5 ends the game
    after the last; an owner's deck may say so): a whole game by taps, yet a short one."""
    real = games.default_scenario

    def default(system: Any) -> tuple[str, str]:
        text, source = real(system)
        if system.id == "stalins-war":
            text = re.sub(r"(?m)^turns = 18\b", f"turns = {turns}", text)
        return text, source

    monkeypatch.setattr(games, "default_scenario", default)


def test_a_whole_stalins_war_by_taps(tmp_path, monkeypatch):
    short_deck(monkeypatch)

    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "g.db"), E.now_clock(), telegram=api, images=False) as w,
        ):
            seats = {"axis": "alice", "soviet": "bob"}
            game = await set_up(w, "stalins-war", seats)
            assert w.service.system(game).deck.turns == TURNS
            tapper = T.Tapper(w, GROUP, seats, random.Random(4))
            policy = T.Biased({"spend", "roll", "totalwar"})
            scan = Scan(tapper, game)
            orders = await whole_game(w, game, tapper, policy, scan)
            state = w.service.state(game)
            assert state.turn == TURNS and "12.5" in str(state.result), state.result
            built = {t.text.split()[0] for t in tapper.tried if t.taken and t.built}
            assert {"spend", "roll"} <= built, tapper.tried
            written = [line for _, line, how in tapper.given if how == "written"]
            assert "2d6" in written, written  # the roll's dice, written to the bot's prompt
            every_verb_given(tapper)
            scan.check()
            print(
                f"stalins-war by taps: {orders} orders, {tapper.presses} presses,",
                f"verbs {sorted(tapper.given_verbs)}, built {sorted(built)}, written {written}",
            )

    run(scenario())

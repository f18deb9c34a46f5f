"""End to end on Telegram: the REAL python-telegram-bot Application long polling a local fake of
the Bot API (tests/fakes/telegram_api.py), in front of the real chat service, game service,
SQLite store, outbox sender and deadline scheduler, with an injected clock (tests/e2e_support.py).

A whole short game in a group (seats checked, an attack, the hit decided by the other player, a
phase end with its map, a refusal naming its rule, a reminder and a deadline default on the
moved clock, private messages), then every command of the order language, one by one."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bots import delivery
from tests import e2e_support as E
from tests.fakes.telegram_api import FakeTelegramAPI

GROUP = E.TG_GROUP
ALICE, BOB = E.TG_USERS["alice"].id, E.TG_USERS["bob"].id


def mentioned(call, user_id: int) -> bool:
    """The rendered message pings the user (an inline mention: a text_mention entity)."""
    return any(
        e["type"] == "text_mention" and e["user"]["id"] == user_id for e in call.entities or []
    )


def test_a_whole_short_game_in_a_telegram_group(tmp_path):
    async def scenario():
        clock = E.now_clock()
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), clock, telegram=api) as w,
        ):
            group = E.TelegramChat(w, GROUP)

            # -- the chat lifecycle
            a = await group.say("alice", "new hells-gate sandbox")
            assert "New game hells-gate-1: a sandbox game" in a.public
            game = w.game(*group.key)
            assert "alice now plays soviet" in (await group.say("alice", "join soviet")).public
            a = await group.say("bob", "join german", via="command")  # `/join german`
            assert "Both sides are taken" in a.public
            a = await group.say("alice", "start", via="botname")  # `/order@pbem_test_bot start`
            assert "begins: Soviet (alice) against German (bob)" in a.public
            [post] = await w.tg_posts(GROUP, f"{game}: turn 1, soviet-combat", photo=True)
            assert mentioned(post, ALICE) and "Soviet (alice) to move" in post.rendered
            assert w.tg_photos(GROUP)[0].startswith(E.PNG_MAGIC)

            # -- seat checks: nobody orders a side that is not his
            rows = w.store.count_rows(game)
            a = await group.say("bob", "end")
            assert (
                "Refused (rule 4.6)" in a.public and "only the Soviet player acts now" in a.public
            )
            a = await group.say("bob", "attack A1 with 47rc")
            assert a.public.startswith("Refused")
            a = await group.say("carol", "end")
            assert "carol holds no seat in this game: a spectator" in a.public
            assert "Turn 1 of 8" in (await group.say("carol", "status", via="command")).public
            assert w.store.count_rows(game) == rows

            # -- an attack: the moderator fixes the die (a sandbox), the Soviet player attacks
            assert "fixes the next die results: 6" in (await group.say("alice", "dice 6")).public
            since = len(api.calls)
            a = await group.say("alice", "attack A1 with 47rc", via="command")
            assert "Attack on A1 by 47rc: 3:2" in a.public and "die 6: 1 hit" in a.public
            [post] = await w.tg_posts(GROUP, "German (bob) must decide", since=since, photo=True)
            assert mentioned(post, BOB) and "apply 1 hit in A1" in post.rendered
            # Telegram delivers the attack once more: applied once, answered alike, no new post
            rows, posts = w.store.count_rows(game), len(delivery.rows(w.store))
            again = await group.redeliver(a)
            assert again.public == a.public
            assert w.store.count_rows(game) == rows and len(delivery.rows(w.store)) == posts

            # -- a refusal names its rule
            a = await group.say("bob", "end")
            assert "Refused (rule 8.23): first apply 1 hit in A1" in a.public

            # -- a private message: bob's options go to his private chat with the bot
            a = await group.say("bob", "options", via="command")
            [seen] = a.seen
            assert seen.private and seen.where == "dm" and seen.out.user_id == str(BOB)
            assert "losses retreat A2" in a.private
            assert not any("losses retreat A2" in (c.rendered or "") for c in api.sent(None, GROUP))

            # -- the hit decided by the OTHER player
            a = await group.say("bob", "retreat A2")
            assert "34id (34th Infantry Division) retreats A1 → A2" in a.public

            # -- a phase end: the summary, the map (PNG bytes at Telegram), the next player
            since = len(api.calls)
            a = await group.say("alice", "end")
            assert "Soviet ends the soviet-combat phase" in a.public
            [post] = await w.tg_posts(GROUP, "turn 1, soviet-movement", since=since, photo=True)
            assert "What happened:" in post.rendered and "retreats A1 → A2" in post.rendered
            assert mentioned(post, ALICE)
            [image] = w.tg_photos(GROUP, since)
            assert image.startswith(E.PNG_MAGIC) and len(image) > 10_000

            # -- a reminder, 24 h before the deadline
            deadline = w.deadline(game)
            clock.set(deadline - timedelta(hours=24))
            since = len(api.calls)
            await w.tick()
            [post] = await w.tg_posts(GROUP, "Reminder: Soviet has 24 h left", since=since)
            assert mentioned(post, ALICE) and "to finish the soviet-movement phase" in post.rendered

            # -- the deadline passes: the default is applied and the chat told what was done
            clock.set(deadline + timedelta(minutes=1))  # just past it
            since = len(api.calls)
            await w.tick()
            [post] = await w.tg_posts(GROUP, "Done on Soviet's behalf", since=since, photo=True)
            assert "The deadline for Soviet (alice) passed" in post.rendered
            assert "- Deadline default for Soviet: move 5gtk" in post.rendered
            assert "German (bob) to move: turn 1, german-combat" in post.rendered
            assert mentioned(post, BOB)
            assert w.tg_photos(GROUP, since)[0].startswith(E.PNG_MAGIC)
            [applied] = [r for r in w.store.log(game) if r.key and r.key.startswith("deadline:")]
            assert applied.actor == "system" and applied.text == "default"
            assert w.deadline(game) > clock.now()  # the next phase's deadline runs

            # -- a private chat with the bot speaks for the user's one game
            dm = E.TelegramChat(w, ALICE)
            a = await dm.say("alice", "status", via="plain")
            assert a.seen[0].where == "dm" and "Turn 1 of 8" in a.text
            # a user who never started the bot: the group is asked to, without the content
            api.block_private(BOB)
            a = await group.say("bob", "options")
            [seen] = a.seen
            assert seen.out.private and "units may act" in seen.out.text  # what the service said
            assert seen.where == "notice" and not seen.private  # what the group saw
            assert "@bob, please start a private chat with me" in seen.text
            assert all("units may act" not in (c.rendered or "") for c in api.sent())

            # -- the map as a photo, and in full resolution as a document
            a = await group.say("carol", "map", via="command")
            assert a.images and a.images[0].startswith(E.PNG_MAGIC)
            since = len(api.calls)
            a = await group.say("carol", "map full", via="command")
            assert a.images and a.images[0].startswith(E.PNG_MAGIC)
            assert [c.method for c in api.sent(None, GROUP)[-1:]] == ["sendDocument"]
            assert api.sent("sendDocument", GROUP)[-1].document == a.images[0]
            await w.drained()  # every post of the game went out

    E.run(scenario())


def test_a_group_upgraded_to_a_supergroup_keeps_its_game_and_its_posts(tmp_path):
    old, new = -4242, -1004242  # a basic group, and the supergroup it becomes mid-game
    alice = E.TG_USERS["alice"]

    async def scenario():
        clock = E.now_clock()
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), clock, telegram=api) as w,
        ):
            game = await E.started_game(w, E.TelegramChat(w, old))
            await w.drained()
            api.migrate_group(old, new)  # from now on, sends to the old id are refused
            since = len(api.calls)
            # an order sent just before the upgrade: its answer and its post find the new group
            api.push_message("/end", chat_id=old, user_id=alice.id, user_name=alice.name)
            answered = "Soviet ends the soviet-combat phase"  # the reply, and the post tells it
            await w.until(
                lambda: [
                    c
                    for c in api.sent("sendMessage", new)
                    if c.params.get("reply_parameters") and answered in (c.rendered or "")
                ],
                "the answer to the order in the new group",
            )
            await w.tg_posts(new, "turn 1, soviet-movement", since=since, photo=True)
            assert api.sent("sendMessage", old, ok=False)[0].status == 400
            # the game moved with the chat: it is played from the new group
            assert w.game("telegram", str(new)) == game
            a = await E.TelegramChat(w, new).say("alice", "status")
            assert "Turn 1 of 8, soviet-movement phase" in a.public
            clock.set(w.deadline(game) - timedelta(hours=24))
            since = len(api.calls)
            await w.tick()
            [post] = await w.tg_posts(new, "Reminder: Soviet has 24 h left", since=since)
            assert mentioned(post, alice.id)
            await w.drained()

    E.run(scenario())


# ---------------------------------------------------------------- every command, one by one


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    loop = E.LoopFixture()
    try:
        api = loop.enter(FakeTelegramAPI())
        db = str(tmp_path_factory.mktemp("e2e-telegram") / "games.db")
        world = loop.enter(E.World(db, E.now_clock(), telegram=api))
        t = E.Table(world, E.TelegramChat(world, GROUP), E.TelegramChat(world, E.TG_SIDE))
        loop.run(t.prepare())
        yield loop, t
    finally:
        loop.close()


VIAS = ("order", "command", "botname")  # /order <text>, /<text>, /order@bot <text>


@pytest.mark.parametrize("case", E.CASES, ids=[c.id for c in E.CASES])
def test_every_command_reaches_the_service_through_telegram(table, case):
    loop, t = table
    if case.text.split()[0] in ("map", "status", "options", "help"):
        via = "command"  # the short forms: /map, /status, /options, /help
    else:
        via = VIAS[E.CASES.index(case) % len(VIAS)]
    loop.run(E.run_case(t, case, via))

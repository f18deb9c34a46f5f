"""End to end across both platforms, in one process as `pbem serve` runs them: the REAL
discord.py bot and the REAL python-telegram-bot Application on their local fakes, the real chat
service, store, outbox sender and deadline scheduler, with an injected clock
(tests/e2e_support.py).

- One game from a Discord channel and a Telegram group linked together: every post reaches both,
  players on different platforms play against each other.
- The outbox survives a restart: posts pending (or in flight) when the process stops are sent by
  the next process (new Store, ChatService, sender, bots on the same SQLite file), none twice.
- An outage extends a deadline: the next process finds the heartbeat old, moves the deadline by
  the outage's length and tells the chats; nothing is done on anyone's behalf."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta

from app import clock as deadlines
from app import outage
from bots import delivery
from storage import Store
from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

GROUP = E.TG_GROUP
ALICE_TG, BOB_TG = E.TG_USERS["alice"].id, E.TG_USERS["bob"].id


def tg_pings(call, user_id: int) -> bool:
    return any(
        e["type"] == "text_mention" and e["user"]["id"] == user_id for e in call.entities or []
    )


def dc_pings(sent, user: dict) -> bool:
    allowed = [str(u) for u in (sent.allowed_mentions or {}).get("users", [])]
    return f"<@{user['id']}>" in sent.content and user["id"] in allowed


def test_one_game_from_a_discord_channel_and_a_telegram_group(tmp_path):
    """alice plays Soviet from Discord, bob German from Telegram."""

    async def scenario():
        clock = E.now_clock()
        async with E.both_platforms(tmp_path / "games.db", clock) as (api, fake, w):
            channel, group = E.DiscordChat(w, fake.channel_id), E.TelegramChat(w, GROUP)
            alice = fake.user("alice")

            a = await channel.say("alice", "new hells-gate sandbox")
            game = w.game(*channel.key)
            assert f"New game {game}" in a.public
            await channel.say("alice", "join soviet", via="slash")
            a = await channel.say("alice", "link", via="slash")
            code = re.search(r"Link code for \S+: ([A-Z0-9]{8})", a.public).group(1)
            a = await group.say("bob", f"link {code}")
            assert f"This chat now follows {game} (also played in: discord {fake.channel_id})" in (
                a.public
            )
            a = await group.say("bob", "join german", via="command")
            assert "bob now plays german" in a.public
            await w.dc_posts(fake.channel_id, "bob now plays german")  # told in the channel

            # the start, said on Discord: the post (text and map) in both chats
            tg0, dc0 = len(api.calls), len(fake.sent)
            a = await channel.say("alice", "start")
            assert "begins: Soviet (Alice) against German (bob)" in a.public
            head = f"{game}: turn 1, soviet-combat"
            [dc_post] = await w.dc_posts(fake.channel_id, head, since=dc0, image=True)
            [tg_post] = await w.tg_posts(GROUP, head, since=tg0, photo=True)
            assert dc_pings(dc_post, alice)  # pinged where she plays, named elsewhere
            assert "Soviet (Alice) to move" in tg_post.rendered
            assert not any(e["type"] == "text_mention" for e in tg_post.entities)
            assert dc_post.files[0][1] == w.tg_photos(GROUP, tg0)[0]  # the same map

            # both players at the same moment, each from his platform: both applied, in turn
            rows = w.store.count_rows(game)
            a, b = await asyncio.gather(
                channel.say("alice", "salt from the discord side", via="slash"),
                group.say("bob", "salt from the telegram side"),
            )
            assert "Salt added to dice epoch" in a.public and "Salt added to dice epoch" in b.public
            assert w.store.count_rows(game) == rows + 2
            await w.dc_posts(fake.channel_id, "from the telegram side")  # each mirrored
            await w.tg_posts(GROUP, "from the discord side")

            # an order on Discord, mirrored to Telegram; an attack putting a decision to bob
            await channel.say("alice", "dice 6", via="order-mention")
            await w.tg_posts(GROUP, "Moderator fixes the next die results: 6")
            tg0, dc0 = len(api.calls), len(fake.sent)
            a = await channel.say("alice", "attack A1 with 47rc", via="slash")
            assert "die 6: 1 hit" in a.public
            [tg_post] = await w.tg_posts(GROUP, "German (bob) must decide", since=tg0, photo=True)
            [dc_post] = await w.dc_posts(
                fake.channel_id, "German (bob) must decide", since=dc0, image=True
            )
            assert tg_pings(tg_post, BOB_TG) and not dc_post.allowed_mentions["users"]

            # bob decides from Telegram; the channel sees it
            a = await group.say("bob", "end")
            assert "Refused (rule 8.23)" in a.public
            a = await group.say("bob", "losses 34id")
            assert "34id (34th Infantry Division) takes a hit and is reduced" in a.public
            [mirror] = await w.dc_posts(fake.channel_id, "losses 34id", since=dc0)
            assert "takes a hit and is reduced" in mirror.content

            # the phase ends on Discord: the post with the map in both chats
            tg0, dc0 = len(api.calls), len(fake.sent)
            await channel.say("alice", "end", via="slash")
            head = f"{game}: turn 1, soviet-movement"
            [dc_post] = await w.dc_posts(fake.channel_id, head, since=dc0, image=True)
            [tg_post] = await w.tg_posts(GROUP, head, since=tg0, photo=True)
            for text in (dc_post.content, tg_post.rendered):
                assert "Soviet (Alice) to move: turn 1, soviet-movement" in text
            [tg_image] = w.tg_photos(GROUP, tg0)
            assert dc_post.files[0][1] == tg_image and tg_image.startswith(E.PNG_MAGIC)

            # a seat check across platforms: bob may not order the Soviet side
            a = await group.say("bob", "move 20tk D7")
            assert a.public.startswith("Refused")

            # the German turn: the moderator moves the game on, bob plays it from Telegram
            tg0, dc0 = len(api.calls), len(fake.sent)
            await channel.say("alice", "set phase german movement")
            [tg_post] = await w.tg_posts(GROUP, "turn 1, german-movement", since=tg0, photo=True)
            assert tg_pings(tg_post, BOB_TG)
            a = await group.say("bob", "move 3pz A6")
            assert "3pz (3rd Panzer Division) moves" in a.public
            await w.dc_posts(fake.channel_id, "move 3pz A6", since=dc0)
            tg0, dc0 = len(api.calls), len(fake.sent)
            await group.say("bob", "end")
            head = f"{game}: turn 2, soviet-combat"
            [dc_post] = await w.dc_posts(fake.channel_id, head, since=dc0, image=True)
            await w.tg_posts(GROUP, head, since=tg0, photo=True)
            assert dc_pings(dc_post, alice) and "Weather roll" in dc_post.content

            # the reminder reaches both chats, pinging alice where she plays
            clock.set(w.deadline(game) - timedelta(hours=24))
            tg0, dc0 = len(api.calls), len(fake.sent)
            await w.tick()
            [dc_post] = await w.dc_posts(fake.channel_id, "Reminder: Soviet has 24 h", since=dc0)
            [tg_post] = await w.tg_posts(GROUP, "Reminder: Soviet has 24 h", since=tg0)
            assert dc_pings(dc_post, alice) and "(Alice)" in tg_post.rendered
            await w.drained()
            assert fake.unexpected == []

    E.run(scenario())


# ---------------------------------------------------------------- a restart


def delivered(api: FakeTelegramAPI, fake: FakeDiscord, row: delivery.Row) -> int:
    """How many times the post of `row` reached its chat (its first and last lines)."""
    out = row.outgoing
    lines = [ln for ln in out.text.split("\n") if ln.strip()]
    first, last = lines[0], lines[-1]
    if out.platform == "telegram":
        first, last = E.tg_rendered(first), E.tg_rendered(last)
        return sum(
            1
            for c in api.calls
            if c.ok
            and c.method in E.SENDS
            and c.chat_id == int(out.chat_id)
            and first in (c.rendered or "")
            and last in (c.rendered or "")
        )
    return sum(
        1
        for s in fake.sent
        if s.channel_id == out.chat_id and first in s.content and last in s.content
    )


def test_the_outbox_survives_a_restart_and_sends_nothing_twice(tmp_path, monkeypatch):
    monkeypatch.setattr(delivery, "STOP_GRACE", 0.2)  # a stopping sender waits for sends in flight
    db = str(tmp_path / "games.db")

    async def scenario():
        clock = E.now_clock()
        async with FakeTelegramAPI() as api, FakeDiscord() as fake:
            async with E.World(db, clock, telegram=api, discord=fake, label="one") as w:
                group, channel = E.TelegramChat(w, GROUP), E.DiscordChat(w, fake.channel_id)
                game = await E.linked_game(w, group, channel)
                await w.drained()  # the start's posts are out
                before = delivery.rows(w.store, status=delivery.SENT)
                assert {r.outgoing.platform for r in before} == {"telegram", "discord"}

                # the sender of this process will hang in one send per chat, then be stopped
                await w.stop_sender()
                gate, entered = asyncio.Event(), []

                async def tg_send(out, *, start_part=0, fallback_chat_id=None, as_document=False):
                    entered.append(out)
                    await gate.wait()
                    await w.senders["telegram"](out, start_part=start_part)

                async def dc_send(out):
                    entered.append(out)
                    await gate.wait()
                    await w.senders["discord"](out)

                w.start_sender({"telegram": tg_send, "discord": dc_send})
                a = await group.say("alice", "end")  # the adapter answers in place ...
                assert "Soviet ends the soviet-combat phase" in a.public
                await w.until(lambda: len(entered) == 2, "both posts in flight")  # ... posts wait
                clock.set(w.deadline(game) - timedelta(hours=24))
                await w.tick()  # reminders: pending behind them
                await w.stop_sender()  # the process stops: the sends in flight are abandoned
            assert not gate.is_set()

            store = Store(db)
            try:
                pending = delivery.rows(store, status=delivery.PENDING)
            finally:
                store.close()
            assert len(pending) == 4  # the phase post and the reminder, in both chats
            assert (
                sorted(r.outgoing.platform for r in pending)
                == ["discord", "discord"] + ["telegram"] * 2
            )
            assert [delivered(api, fake, r) for r in pending] == [0, 0, 0, 0]
            assert {o.text for o in entered} <= {r.outgoing.text for r in pending}
            # a message sent to the group while no process runs waits at Telegram
            carol = E.TG_USERS["carol"]
            update = api.push_message(
                "/status", chat_id=GROUP, user_id=carol.id, user_name=carol.name
            )
            tg0 = len(api.calls)

            async with E.World(db, clock, telegram=api, discord=fake, label="two") as w:
                await w.recorder.answer(f"tg:{GROUP}:{update['message']['message_id']}")
                await w.tg_posts(GROUP, "Turn 1 of 8, soviet-movement phase", since=tg0)
                await w.drained()
                rows = delivery.rows(w.store)
                assert {r.id for r in pending} <= {r.id for r in rows if r.status == delivery.SENT}
                counts = {r.id: delivered(api, fake, r) for r in rows}
                assert set(counts.values()) == {1}, counts  # each post once, across the restart
                photos = [c for c in api.calls if c.ok and c.photo is not None]
                maps = [r for r in rows if r.outgoing.image and r.outgoing.platform == "telegram"]
                assert len(photos) == len(maps)  # no map twice either
                # and the game goes on in the new process
                a = await E.TelegramChat(w, GROUP).say("alice", "status")
                assert "soviet-movement" in a.public
            assert fake.unexpected == []

    E.run(scenario())


# ---------------------------------------------------------------- an outage


def test_an_outage_extends_the_deadline_instead_of_executing_it(tmp_path):
    db = str(tmp_path / "games.db")

    async def scenario():
        clock = E.now_clock()
        async with FakeTelegramAPI() as api, FakeDiscord() as fake:
            async with E.World(db, clock, telegram=api, discord=fake, label="one") as w:
                group, channel = E.TelegramChat(w, GROUP), E.DiscordChat(w, fake.channel_id)
                game = await E.linked_game(w, group, channel)
                await w.drained()
                deadline = w.deadline(game)
                clock.advance(minutes=10)
                await w.tick()  # the last heartbeat: the process dies after it
                last_seen = outage.last_heartbeat(w.store)
                rows = w.store.count_rows(game)
            assert last_seen == clock.now()

            # down for 50 h 50 min: the deadline passed 3 h ago
            clock.set(deadline + timedelta(hours=3))
            down = clock.now() - last_seen
            tg0, dc0 = len(api.calls), len(fake.sent)
            async with E.World(db, clock, telegram=api, discord=fake, label="two") as w:
                # the new process's scheduler catches up at its start: no tick here
                moved = deadline + down
                text = (
                    f"The service was down for {deadlines.format_duration(down)} (from "
                    f"{last_seen:%Y-%m-%d %H:%M} UTC). The deadline for Soviet passed while it "
                    "was down; nothing was done on anyone's behalf"
                )
                [tg_post] = await w.tg_posts(GROUP, text, since=tg0)
                [dc_post] = await w.dc_posts(fake.channel_id, text, since=dc0)
                left = deadlines.format_duration(moved - clock.now())
                when = f"to {moved:%Y-%m-%d %H:%M} UTC (in {left})"
                assert when in tg_post.rendered and when in dc_post.content
                assert tg_pings(tg_post, ALICE_TG) and "(alice)" in dc_post.content
                assert w.store.count_rows(game) == rows  # not executed
                assert w.deadline(game) == moved
                assert (await E.TelegramChat(w, GROUP).say("carol", "status")).public.startswith(
                    "Turn 1 of 8, soviet-combat phase"
                )
                # a second pass at the same time moves nothing again
                await w.tick(up=False)
                assert w.deadline(game) == moved
                # the moved deadline passes with the service up: now the default is applied
                clock.set(moved)
                tg0 = len(api.calls)
                await w.tick()
                await w.tg_posts(GROUP, "Done on Soviet's behalf", since=tg0, photo=True)
                [default] = [r for r in w.store.log(game) if r.index >= rows]
                assert (default.actor, default.text) == ("system", "default")
                await w.drained()
            assert fake.unexpected == []

    E.run(scenario())

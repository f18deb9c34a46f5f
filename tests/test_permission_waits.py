"""Posts that meet a missing permission (issue 24): sent through the REAL python-telegram-bot
and discord.py against the local fakes (tests/fakes/), by the persisted outbox.

- A chat where the bot may not attach images gets every post as text, and one notice saying
  which right to grant (bots/platforms/discord_send.py, telegram_send.py).
- A chat that refuses the bot's posts (Discord 403 Missing Permissions, a Telegram group the bot
  was removed from) keeps them waiting, in order, without holding up other chats, and they go
  out when the permission returns (bots/chat_wait.py); after 7 days they are marked failed, and
  `pbem outbox` lists and re-sends them.

The outbox sender runs on a FakeClock and is driven pass by pass (`passes`): a pass sends every
lane head due at the clock's time and waits for those sends; the test moves the clock. Nothing
waits on real time but the fakes' answers and the polled `my_chat_member` update.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from app.messages import Outgoing
from bots import chat_wait, delivery
from bots.cli_main import main as pbem
from bots.platforms.discord_send import IMAGE_REFUSED as DC_IMAGE_REFUSED
from bots.platforms.telegram_send import IMAGE_REFUSED as TG_IMAGE_REFUSED
from storage import outbox_waits
from tests.e2e_support import PNG_MAGIC, World, now_clock, until
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

GROUP, OTHER = -1002001, -1002002
PNG = PNG_MAGIC + b"\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10" + b"\x00" * 64
TIMEOUT = 120


def run(coro):  # a ceiling only a missing delivery reaches
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT))


async def passes(sender: delivery.OutboxSender, done=lambda: False, most: int = 20) -> None:
    """Sender passes at the clock's time until nothing due is left (or `done()`)."""
    for _ in range(most):
        if done():
            return
        await sender.step()
        tasks = [task for _, task in sender.inflight.values()]
        if not tasks:
            return
        await asyncio.gather(*tasks)


def sender_of(w: World) -> delivery.OutboxSender:
    return delivery.OutboxSender(w.store, w.senders, w.clock, owner="test")


def post(platform: str, chat, text: str, image: bytes | None = None) -> Outgoing:
    return Outgoing(platform, str(chat), text, image=image)


def statuses(w: World) -> list[str]:
    return [r.status for r in delivery.rows(w.store)]


# ------------------------------------------------------------------------------- images


def test_a_telegram_group_without_photo_rights_gets_every_post_as_text(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg:
            tg.set_bot_member(GROUP, "restricted", can_send_photos=False, can_send_documents=False)
            async with World(str(tmp_path / "g.db"), now_clock(), telegram=tg, sender=False) as w:
                outs = [post("telegram", GROUP, f"Turn {n}: alice to move", PNG) for n in (1, 2)]
                outs.insert(1, post("telegram", GROUP, "", PNG))  # an image alone: nothing left
                delivery.enqueue(w.store, "g", outs, now=w.clock.now())
                await passes(sender_of(w))
                assert statuses(w) == [delivery.SENT] * 3
            texts = [c.rendered for c in tg.sent("sendMessage", GROUP)]
            assert texts == [
                "Turn 1: alice to move",
                str(TG_IMAGE_REFUSED),
                "Turn 2: alice to move",
            ]
            assert not tg.sent("sendPhoto") and not tg.sent("sendDocument")
            refused = [c.method for c in tg.calls if c.method != "sendMessage" and not c.ok]
            assert "sendPhoto" in refused and "sendDocument" in refused  # each step was tried

    run(scenario())


def test_a_discord_channel_without_attach_files_gets_every_post_as_text(tmp_path):
    async def scenario():
        async with FakeDiscord() as fake:
            async with World(str(tmp_path / "g.db"), now_clock(), discord=fake, sender=False) as w:
                ok = post("discord", fake.channel_id, "Turn 1: the map follows", PNG)
                delivery.enqueue(w.store, "g", [ok], now=w.clock.now())
                await passes(sender_of(w))
                await fake.deny_bot("attach_files")  # taken away mid-game
                outs = [post("discord", fake.channel_id, f"Turn {n}", PNG) for n in (2, 3)]
                delivery.enqueue(w.store, "g", outs, now=w.clock.now())
                await passes(sender_of(w))
                assert statuses(w) == [delivery.SENT] * 3
            channel = [s for s in fake.sent if s.channel_id == fake.channel_id]
            assert [s.content for s in channel] == [
                "Turn 1: the map follows",
                "Turn 2",
                str(DC_IMAGE_REFUSED),
                "Turn 3",
            ]
            assert channel[0].files and not any(s.files for s in channel[1:])

    run(scenario())


# ------------------------------------------------------------------------------- waits


def test_a_discord_403_waits_in_order_and_is_delivered_when_the_permission_returns(
    tmp_path, caplog
):
    caplog.set_level(logging.INFO)

    async def scenario():
        async with FakeDiscord() as fake:
            alice = fake.user("alice")
            async with World(str(tmp_path / "g.db"), now_clock(), discord=fake, sender=False) as w:
                sender, chat = sender_of(w), fake.channel_id
                await fake.deny_bot("send_messages")
                outs = [post("discord", chat, "Turn 2: bob to move"), post("discord", chat, "ping")]
                private = Outgoing("discord", None, "your card", user_id=alice["id"], private=True)
                delivery.enqueue(w.store, "g", [*outs, private], now=w.clock.now())
                await passes(sender)
                head, behind, dm = delivery.rows(w.store)
                assert (head.status, behind.status, dm.status) == ("pending", "pending", "sent")
                assert head.attempts == 0 and "NoPermission" in (head.last_error or "")
                assert head.next_attempt_at == w.clock.now() + timedelta(minutes=1)
                w.clock.advance(minutes=1)
                await passes(sender)  # refused again: 2 min now
                [head, _, _] = delivery.rows(w.store)
                assert head.next_attempt_at == w.clock.now() + timedelta(minutes=2)
                refusals = len([c for c in fake.calls if c.status == 403])
                w.clock.advance(minutes=1)
                await passes(sender)  # not due: not tried
                assert len([c for c in fake.calls if c.status == 403]) == refusals
                await fake.allow_bot("send_messages")
                w.clock.advance(minutes=1)
                await passes(sender)
                assert statuses(w) == [delivery.SENT] * 3
                assert outbox_waits.chat_refusal(w.store, "discord", chat) is None
            posts = [s.content for s in fake.sent if s.channel_id == chat]
            assert posts == ["Turn 2: bob to move", "ping"]

    run(scenario())
    told = [r.getMessage() for r in caplog.records if "refuses the bot (" in r.getMessage()]
    assert len(told) == 1 and "Send Messages" in told[0]  # the host's log, once


def test_a_kicked_telegram_group_waits_for_the_bot_to_be_added_again(tmp_path):
    async def scenario():
        async with FakeTelegramAPI() as tg:
            tg.set_bot_member(GROUP, "kicked")
            async with World(str(tmp_path / "g.db"), now_clock(), telegram=tg, sender=False) as w:
                assert w.tg is not None
                w.tg.bot_back = lambda chat: chat_wait.bot_back(
                    w.store, "telegram", chat, w.clock.now()
                )
                sender = sender_of(w)
                outs = [post("telegram", GROUP, "one"), post("telegram", GROUP, "two")]
                delivery.enqueue(
                    w.store, "g", [*outs, post("telegram", OTHER, "elsewhere")], now=w.clock.now()
                )
                await passes(sender)
                assert statuses(w) == ["pending", "pending", "sent"]  # OTHER is not held up
                head = delivery.rows(w.store)[0]
                assert head.next_attempt_at >= w.clock.now() + timedelta(days=6)  # not polled
                tries = len(tg.calls)
                w.clock.advance(days=1)
                await passes(sender)
                assert len(tg.calls) == tries
                tg.push_my_chat_member(GROUP, "member")  # added again: Telegram says so
                await until(
                    lambda: delivery.rows(w.store)[0].next_attempt_at <= w.clock.now(),
                    "my_chat_member to make the posts due",
                    timeout=TIMEOUT,
                )
                await passes(sender)
                assert statuses(w) == [delivery.SENT] * 3
            assert [c.rendered for c in tg.sent("sendMessage", GROUP)] == ["one", "two"]

    run(scenario())


def test_after_7_days_the_posts_fail_and_pbem_outbox_lists_and_resends_them(tmp_path, capsys):
    db = str(tmp_path / "g.db")

    async def scenario():
        async with FakeTelegramAPI() as tg:
            tg.set_bot_member(GROUP, "left")
            world = World(db, now_clock(), telegram=tg, sender=False, expected_errors=1)
            async with world as w:  # the error: the log says the posts failed
                sender = sender_of(w)
                secret = Outgoing(
                    "telegram", None, "your hand: 3 cards", user_id="42", private=True
                )
                outs = [post("telegram", GROUP, "one"), post("telegram", GROUP, "two")]
                delivery.enqueue(w.store, "g", [*outs, secret], now=w.clock.now())
                tg.block_private(42)
                await passes(sender)
                w.clock.advance(days=7)
                await passes(sender)  # the last try: failed, and the post behind it too
                assert statuses(w)[:2] == [delivery.FAILED, delivery.FAILED]
                ids = [r.id for r in delivery.rows(w.store)]

                capsys.readouterr()
                assert await asyncio.to_thread(pbem, ["outbox", "--db", db]) == 0
                listing = capsys.readouterr().out
                assert "your hand" not in listing and "private to telegram:42" in listing
                assert "3 rows" in listing and "'one'" in listing
                assert await asyncio.to_thread(pbem, ["outbox", "--db", db, "--failed"]) == 0
                failed = capsys.readouterr().out
                assert "private" not in failed and failed.count(" failed ") == 2

                tg.set_bot_member(GROUP, "member")  # added back while the service was down
                args = ["outbox", "--db", db, "--resend", str(ids[0])]
                assert await asyncio.to_thread(pbem, args) == 0
                assert f"re-queued 1 row: {ids[0]}" in capsys.readouterr().out
                await passes(sender)
                assert statuses(w)[:2] == [delivery.SENT, delivery.FAILED]
                assert await asyncio.to_thread(pbem, ["outbox", "--db", db, "--all"]) == 0
                assert "re-queued 2 rows" in capsys.readouterr().out  # the failed and the DM
                await passes(sender, done=lambda: statuses(w)[:2] == [delivery.SENT] * 2)
                assert statuses(w)[:2] == [delivery.SENT] * 2
                assert await asyncio.to_thread(pbem, ["outbox", "--db", db, "--resend", "999"]) == 1
            assert [c.rendered for c in tg.sent("sendMessage", GROUP)] == ["one", "two"]

    run(scenario())

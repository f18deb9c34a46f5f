"""The Discord adapter end to end: the REAL discord.py bot against a local fake of Discord
(tests/fakes/discord_api.py: gateway websocket + REST on 127.0.0.1), with a tiny fake service.

Each test runs its own event loop (asyncio.run), fake server and bot, under a global timeout."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import time
from collections.abc import Callable

import pytest
from PIL import Image

from app.messages import Incoming, Outgoing
from bots import delivery
from bots.platforms.common import DmClosed, Undeliverable
from bots.platforms.discord import (
    DM_REFUSED,
    PRIVATE_SLOT_NOTE,
    build_bot,
    send_outgoing,
    start,
    stop,
)
from tests.fakes.discord_api import EPHEMERAL, FakeDiscord

TIMEOUT = 300.0  # a ceiling only a missing answer reaches, never a slow machine


def _png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 6), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


PNG = _png()


class FakeService:
    """Records every Incoming; answers with `respond(incoming)` (default: echo in the chat)."""

    def __init__(self, respond: Callable[[Incoming], list[Outgoing]] | None = None):
        self.incomings: list[Incoming] = []
        self.respond = respond or (lambda i: [Outgoing("discord", i.chat_id, text=f"ok: {i.text}")])

    def handle(self, incoming: Incoming) -> list[Outgoing]:
        self.incomings.append(incoming)
        return self.respond(incoming)


def run(coro) -> None:
    asyncio.run(asyncio.wait_for(coro, TIMEOUT))


@contextlib.asynccontextmanager
async def discord_bot(service: FakeService, *, shards: int = 1, **bot_options):
    """A fake Discord with users alice and bob, and a real bot serving `service` on it."""
    async with FakeDiscord(shards=shards) as fake:
        fake.user("alice"), fake.user("bob")
        bot = build_bot(service, guild_ready_timeout=0.05, **bot_options)
        if shards > 1:
            # discord.py waits 5 s between shards (Discord's identify rate limit)
            bot.before_identify_hook = _identify_at_once  # type: ignore[method-assign]
        await start(bot, fake.token, ready_timeout=120)
        try:
            yield fake, bot
        finally:
            await stop(bot)
            assert fake.unexpected == []  # no REST call the fake does not know


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    pass


def private_to(user_id: str, text: str) -> Outgoing:
    return Outgoing("discord", None, text=text, user_id=user_id, private=True)


# --- text: !order, mentions, DMs -------------------------------------------------------------


def test_prefix_order_reaches_the_service_with_the_right_incoming():
    async def scenario():
        service = FakeService()
        async with discord_bot(service, message_content=True) as (fake, _):
            alice = fake.user("alice")
            msg = await fake.send_message("!order attack C6 with 20tk", author=alice)
            [reply] = await fake.wait_for_sent()
            assert service.incomings == [
                Incoming(
                    platform="discord",
                    chat_id=fake.channel_id,
                    user_id=alice["id"],
                    user_name="Alice",
                    text="attack C6 with 20tk",
                    message_id=f"dc:{msg['id']}",
                    private=False,
                    ephemeral_ok=False,
                    locale="en-US",  # the server's preferred locale
                )
            ]
            assert (reply.kind, reply.channel_id, reply.content) == (
                "channel",
                fake.channel_id,
                "ok: attack C6 with 20tk",
            )
            # an answer that names the order it answers is posted as a reply to it
            service.respond = lambda i: [
                Outgoing("discord", i.chat_id, text="Accepted.", reply_to=i.message_id)
            ]
            msg = await fake.send_message("!order attack C7", author=alice)
            _, answer = await fake.wait_for_sent(count=2)
            assert answer.reference["message_id"] in (msg["id"], int(msg["id"]))
            # `!order` without text: a usage line, nothing reaches the service
            await fake.send_message("!order", author=alice)
            _, _, usage = await fake.wait_for_sent(count=3)
            assert usage.content == "Usage: `!order <text>`"
            assert len(service.incomings) == 2

    run(scenario())


def test_without_the_content_intent_prefix_needs_a_dm_or_a_mention():
    async def scenario():
        service = FakeService()
        async with discord_bot(service) as (fake, _):  # no message-content intent
            alice = fake.user("alice")
            assert not fake.identifies[0]["intents"] & (1 << 15)
            await fake.send_message("!order attack C6 with 20tk", author=alice)  # content blanked
            dm = await fake.send_message("!order attack C6 with 20tk", author=alice, dm=True)
            await fake.wait_for_sent()
            await fake.send_message("order attack C7", author=alice, mention_bot=True)
            await fake.send_message("attack C8 with 5tk", author=alice, mention_bot=True)
            await fake.send_message("map", author=alice, mention_bot=True)
            await fake.wait_for_sent(count=4)
            assert [(i.chat_id, i.text, i.private) for i in service.incomings] == [
                (f"dm:{alice['id']}", "attack C6 with 20tk", True),
                (fake.channel_id, "attack C7", False),
                (fake.channel_id, "attack C8 with 5tk", False),
                (fake.channel_id, "map", False),
            ]
            assert service.incomings[0].message_id == f"dc:{dm['id']}"
            dm_reply = fake.sent[0]
            assert (dm_reply.kind, dm_reply.recipient_id) == ("dm", alice["id"])

    run(scenario())


def test_plain_chatter_and_bots_are_ignored_and_threads_have_their_own_chat():
    async def scenario():
        service = FakeService()
        async with discord_bot(service, message_content=True) as (fake, _):
            alice = fake.user("alice")
            await fake.send_message("nice move!", author=alice)  # not for the bot
            await fake.send_message("!order attack", author={**fake.user("bob"), "bot": True})
            await fake.send_message(
                "status", author=alice, mention_bot=True, channel_id=fake.thread_id
            )
            [reply] = await fake.wait_for_sent()
            assert [(i.chat_id, i.text) for i in service.incomings] == [(fake.thread_id, "status")]
            assert reply.channel_id == fake.thread_id

    run(scenario())


# --- slash commands --------------------------------------------------------------------------


def test_slash_order_public_reply_and_ephemeral_private_reply():
    async def scenario():
        service = FakeService(
            lambda i: [
                Outgoing("discord", i.chat_id, text=f"Order accepted: {i.text}"),
                private_to(i.user_id, "Your hidden reserve: 3 steps."),
            ]
        )
        async with discord_bot(service) as (fake, _):
            alice = fake.user("alice")
            inter = await fake.send_command("order", {"text": "attack C6 with 20tk"}, user=alice)
            public, secret = await fake.wait_for_sent(count=2)
            assert service.incomings == [
                Incoming(
                    platform="discord",
                    chat_id=fake.channel_id,
                    user_id=alice["id"],
                    user_name="Alice",
                    text="attack C6 with 20tk",
                    message_id=f"dc:{inter['id']}",
                    private=False,
                    ephemeral_ok=True,
                    locale="en-US",  # the user's client language
                )
            ]
            assert (public.kind, public.content, public.ephemeral) == (
                "interaction",
                "Order accepted: attack C6 with 20tk",
                False,
            )
            assert (secret.kind, secret.content, secret.interaction_id) == (
                "followup",
                "Your hidden reserve: 3 steps.",
                inter["id"],
            )
            assert secret.flags & EPHEMERAL and secret.ephemeral

    run(scenario())


def test_slash_refusal_is_ephemeral_and_a_private_note_to_another_player_goes_by_dm():
    async def scenario():
        bob_id = ""

        def respond(i: Incoming) -> list[Outgoing]:
            if i.text == "attack Z9":
                return [private_to(i.user_id, "Refused: Z9 is not on the map.")]
            return [
                Outgoing("discord", i.chat_id, text="Alice attacks."),
                private_to(bob_id, "Decide: take the hit as a step loss or retreat?"),
            ]

        service = FakeService(respond)
        async with discord_bot(service) as (fake, _):
            alice, bob = fake.user("alice"), fake.user("bob")
            bob_id = bob["id"]
            await fake.send_command("order", {"text": "attack Z9"}, user=alice)
            [refusal] = await fake.wait_for_sent()
            assert (refusal.kind, refusal.ephemeral) == ("interaction", True)
            assert refusal.flags & EPHEMERAL
            await fake.send_command("order", {"text": "attack C6"}, user=alice)
            sent = await fake.wait_for_sent(count=3)
            assert (sent[1].kind, sent[1].ephemeral) == ("interaction", False)
            assert (sent[2].kind, sent[2].recipient_id) == ("dm", bob_id)  # not ephemeral to Alice

    run(scenario())


def test_slow_service_defers_and_private_answers_stay_private():
    def slow(i: Incoming) -> list[Outgoing]:
        time.sleep(1.0)  # past the (shortened) deadline: only the deferral keeps it alive
        if i.text == "both":
            return [
                private_to(i.user_id, "Only for you."),
                Outgoing("discord", i.chat_id, text="Everyone sees this."),
            ]
        return [private_to(i.user_id, "Refused.")]

    async def scenario():
        service = FakeService(slow)
        async with discord_bot(service, defer_after=0.05) as (fake, _):
            fake.interaction_deadline = 0.6  # Discord's is 3 s
            alice = fake.user("alice")
            await fake.send_command("order", {"text": "both"}, user=alice)
            first, second = await fake.wait_for_sent(count=2)
            [callback] = [c for c in fake.calls if c.path.endswith("/callback")]
            assert callback.json["type"] == 5  # deferred
            # the public message fills the public "thinking" slot, the private one is ephemeral
            assert (first.kind, first.content, first.ephemeral) == (
                "edit_original",
                "Everyone sees this.",
                False,
            )
            assert (second.content, second.ephemeral) == ("Only for you.", True)
            await fake.send_command("order", {"text": "refused"}, user=alice)
            _, _, note, refusal = await fake.wait_for_sent(count=4)
            assert (note.content, note.ephemeral) == (PRIVATE_SLOT_NOTE, False)
            assert (refusal.kind, refusal.content, refusal.ephemeral) == (
                "followup",
                "Refused.",
                True,
            )

    run(scenario())


def test_slash_map_status_options_help_and_sync():
    async def scenario():
        service = FakeService(
            lambda i: [
                Outgoing(
                    "discord", i.chat_id, text=f"[{i.text}]", image=PNG if i.text == "map" else None
                )
            ]
        )
        async with discord_bot(service) as (fake, _):
            alice = fake.user("alice")
            assert fake.sync_calls == 1
            synced = {c["name"]: c for c in fake.commands}
            assert set(synced) == {"order", "map", "status", "options", "help"} | {
                "new",
                "join",
                "start",
                "link",
                "language",
                "deadline",
                "games",
                "remind",
            }
            [text_option] = synced["order"]["options"]
            assert (text_option["name"], text_option["type"], text_option["required"]) == (
                "text",
                3,
                True,
            )
            assert text_option["autocomplete"] is True
            # Russian names and descriptions for a client that speaks Russian
            ru = {name: c["name_localizations"].get("ru") for name, c in synced.items()}
            assert ru["order"] == "приказ" and ru["start"] == "начать" and ru["new"] == "новая"
            assert ru["options"] == "варианты" and ru["language"] == "язык"
            assert ru["games"] == "игры" and ru["remind"] == "напоминать"
            assert synced["order"]["description_localizations"]["ru"].startswith("Отдать приказ")
            assert text_option["name_localizations"]["ru"] == "текст"
            await fake.send_command("map", user=alice)
            [map_reply] = await fake.wait_for_sent()
            assert (map_reply.kind, map_reply.content) == ("interaction", "[map]")
            assert map_reply.files == [("map.png", PNG)]
            for name in ("status", "options"):
                await fake.send_command(name, user=alice)
            await fake.send_command("help", {"command": "attack"}, user=alice)
            await fake.send_command("help", user=alice, dm=True)
            await fake.wait_for_sent(count=5)
            # in order within each chat (the chats themselves are handled concurrently)
            seen = [(i.text, i.chat_id, i.private) for i in service.incomings]
            assert [s for s in seen if s[1] == fake.channel_id] == [
                ("map", fake.channel_id, False),
                ("status", fake.channel_id, False),
                ("options", fake.channel_id, False),
                ("help attack", fake.channel_id, False),
            ]
            assert [s for s in seen if s[1] != fake.channel_id] == [
                ("help", f"dm:{alice['id']}", True)
            ]

    run(scenario())


# --- private messages by DM ------------------------------------------------------------------


def test_from_a_prefix_order_a_private_outgoing_goes_by_dm_or_asks_to_allow_dms():
    async def scenario():
        service = FakeService(
            lambda i: [
                Outgoing("discord", i.chat_id, text="Noted."),
                private_to(i.user_id, "Secret: your reserve is 3."),
            ]
        )
        async with discord_bot(service, message_content=True) as (fake, _):
            alice, bob = fake.user("alice"), fake.user("bob")
            await fake.send_message("!order reserve", author=alice)
            public, dm = await fake.wait_for_sent(count=2)
            assert (public.kind, public.channel_id) == ("channel", fake.channel_id)
            assert (dm.kind, dm.recipient_id, dm.content) == (
                "dm",
                alice["id"],
                "Secret: your reserve is 3.",
            )
            fake.dm_blocked.add(bob["id"])
            await fake.send_message("reserve", author=bob, mention_bot=True)
            _, _, noted, refused = await fake.wait_for_sent(count=4)
            assert noted.content == "Noted."
            assert (refused.kind, refused.channel_id) == ("channel", fake.channel_id)
            assert refused.content == DM_REFUSED.format(user=bob["id"])
            assert "Secret" not in refused.content
            assert [str(u) for u in refused.allowed_mentions["users"]] == [bob["id"]]

    run(scenario())


def test_a_dm_refused_with_no_update_behind_it_raises_dm_closed():
    async def scenario():
        async with discord_bot(FakeService(lambda i: [])) as (fake, bot):
            bob = fake.user("bob")
            secret = Outgoing(
                "discord", fake.channel_id, text="Secret: 3.", user_id=bob["id"], private=True
            )
            fake.dm_blocked.add(bob["id"])
            with pytest.raises(DmClosed) as closed:
                await send_outgoing(bot, secret)
            assert getattr(closed.value.__cause__, "code", None) == 50007
            fake.dm_blocked.clear()
            fake.dm_forbidden[bob["id"]] = (50001, "Missing Access")
            with pytest.raises(Undeliverable) as refused:  # another 403: not a closed DM
                await send_outgoing(bot, secret)
            assert not isinstance(refused.value, DmClosed)
            assert fake.sent == []  # no line in the channel: the outbox tells it
            del fake.dm_forbidden[bob["id"]]
            await send_outgoing(bot, secret)
            [dm] = await fake.wait_for_sent()
            assert (dm.kind, dm.recipient_id, dm.content) == ("dm", bob["id"], "Secret: 3.")

    run(scenario())


def test_the_outbox_keeps_a_refused_dm_and_tells_the_channel(db_url, stores):
    async def scenario():
        store = stores(db_url)
        async with discord_bot(FakeService(lambda i: [])) as (fake, bot):
            bob = fake.user("bob")
            fake.dm_blocked.add(bob["id"])
            secret = private_to(bob["id"], "Secret: your reserve is 3.")
            delivery.enqueue(store, None, [secret], fallback_chat_id=fake.channel_id)
            stop = asyncio.Event()
            senders = {"discord": functools.partial(send_outgoing, bot)}
            sender = asyncio.create_task(delivery.run_sender(store, senders, stop))
            [notice] = await fake.wait_for_sent()
            stop.set()
            await sender
            assert (notice.kind, notice.channel_id) == ("channel", fake.channel_id)
            assert notice.content.startswith(f"A private message for <@{bob['id']}> could not")
            assert "allow direct messages from server members" in notice.content
            assert "Secret" not in notice.content
            assert [str(u) for u in notice.allowed_mentions["users"]] == [bob["id"]]
        [waiting] = delivery.rows(store, status=delivery.PENDING)
        assert waiting.outgoing.text == "Secret: your reserve is 3."

    run(scenario())


# --- images, long texts, rate limits, mentions -----------------------------------------------


def test_an_image_arrives_intact_twice_in_a_row():
    async def scenario():
        service = FakeService(
            lambda i: [
                Outgoing(
                    "discord", i.chat_id, text="Phase end.", image=PNG, image_name="phase.png"
                ),
                Outgoing("discord", i.chat_id, image=PNG),  # the same bytes again, no text
            ]
        )
        async with discord_bot(service) as (fake, _):
            alice = fake.user("alice")
            await fake.send_message("map", author=alice, mention_bot=True)
            await fake.send_message("map", author=alice, mention_bot=True)
            sent = await fake.wait_for_sent(count=4)
            assert [s.files for s in sent] == [[("phase.png", PNG)], [("map.png", PNG)]] * 2
            assert [s.content for s in sent] == ["Phase end.", ""] * 2
            assert PNG.startswith(b"\x89PNG\r\n\x1a\n")

    run(scenario())


def test_a_long_reply_is_split_on_lines_under_2000():
    text = "\n".join(f"line {n:03d} " + "x" * 40 for n in range(51))  # 2,549 characters
    assert len(text) > 2500

    async def scenario():
        service = FakeService(lambda i: [Outgoing("discord", i.chat_id, text=text)])
        async with discord_bot(service) as (fake, _):
            await fake.send_message("log", author=fake.user("alice"), mention_bot=True)
            await fake.wait_for_sent(count=2)  # one reply at a time: the parts must not interleave
            await fake.send_command("order", {"text": "log"}, user=fake.user("alice"))
            sent = await fake.wait_for_sent(count=4)
            for pair in (sent[:2], sent[2:]):
                assert all(0 < len(s.content) <= 2000 for s in pair)
                assert "\n".join(s.content for s in pair) == text
            assert [s.kind for s in sent] == ["channel", "channel", "interaction", "followup"]

    run(scenario())


def test_a_429_is_waited_out_and_the_message_still_arrives():
    async def scenario():
        service = FakeService(
            lambda i: [Outgoing("discord", i.chat_id, text="after the limit", image=PNG)]
        )
        async with discord_bot(service) as (fake, _):
            fake.rate_limit_next(retry_after=0.1)
            await fake.send_message("status", author=fake.user("alice"), mention_bot=True)
            [reply] = await fake.wait_for_sent()
            posts = [c for c in fake.calls if c.path.endswith("/messages")]
            assert [c.status for c in posts] == [429, 200]
            assert reply.content == "after the limit"
            assert reply.files == [("map.png", PNG)]  # the file was re-sent whole on the retry
            # interaction followups go through discord.py's webhook client: retried too
            service.respond = lambda i: [
                Outgoing("discord", i.chat_id, text="first"),
                private_to(i.user_id, "second, after the limit"),
            ]
            fake.rate_limit_next("followup", retry_after=0.1)
            await fake.send_command("status", user=fake.user("alice"))
            _, first, second = await fake.wait_for_sent(count=3)
            followups = [c for c in fake.calls if c.path.startswith("/webhooks/")]
            assert [c.status for c in followups] == [429, 200]
            assert (first.kind, second.kind, second.ephemeral) == ("interaction", "followup", True)

    run(scenario())


def test_mentions_ping_only_the_named_players_and_proactive_sends():
    async def scenario():
        service = FakeService(lambda i: [])
        async with discord_bot(service) as (fake, bot):
            bob = fake.user("bob")
            await send_outgoing(
                bot,
                Outgoing(
                    "discord",
                    fake.channel_id,
                    text="your move, 1 h left. @everyone",
                    mentions=[bob["id"]],
                ),
            )
            await send_outgoing(bot, private_to(bob["id"], "Reminder: 1 h left."))
            post, dm = await fake.wait_for_sent(count=2)
            assert post.content == f"<@{bob['id']}> your move, 1 h left. @everyone"
            assert [str(u) for u in post.allowed_mentions["users"]] == [bob["id"]]
            assert post.allowed_mentions["parse"] == []  # no @everyone, no roles
            assert (dm.kind, dm.recipient_id) == ("dm", bob["id"])

    run(scenario())


def test_slash_command_answered_elsewhere_only_still_acknowledges():
    async def scenario():
        service = FakeService(lambda i: [Outgoing("telegram", "-100", text="elsewhere")])
        async with discord_bot(service) as (fake, _):
            await fake.send_command("status", user=fake.user("alice"))
            [ack] = await fake.wait_for_sent()
            assert (ack.kind, ack.ephemeral) == ("interaction", True)

    run(scenario())


def test_a_failing_service_answers_privately_instead_of_hanging():
    def broken(i: Incoming) -> list[Outgoing]:
        raise RuntimeError("boom")

    async def scenario():
        async with discord_bot(FakeService(broken)) as (fake, _):
            await fake.send_command("order", {"text": "attack"}, user=fake.user("alice"))
            [answer] = await fake.wait_for_sent()
            assert answer.ephemeral and "went wrong" in answer.content

    run(scenario())


# --- sharding --------------------------------------------------------------------------------


@pytest.mark.parametrize("shards", [2])
def test_sharded_bot(shards):
    async def scenario():
        service = FakeService()
        async with discord_bot(service, shards=shards, sharded=True) as (fake, _):
            assert sorted(tuple(i["shard"]) for i in fake.identifies) == [(0, 2), (1, 2)]
            alice = fake.user("alice")
            await fake.send_message("attack C6", author=alice, mention_bot=True)
            await fake.send_command("order", {"text": "attack C7"}, user=alice)
            await fake.send_message("status", author=alice, dm=True)  # DMs come on shard 0
            await fake.wait_for_sent(count=3)
            assert [i.text for i in service.incomings] == ["attack C6", "attack C7", "status"]

    run(scenario())

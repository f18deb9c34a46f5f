"""The Telegram adapter end to end: the real python-telegram-bot Application, long polling a local
fake of the Bot API (tests/fakes/telegram_api.py), and a tiny fake ChatService."""

from __future__ import annotations

import asyncio
import io
import logging
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from aiohttp import ClientSession
from PIL import Image
from telegram import Update
from telegram.error import InvalidToken

from app.messages import Incoming, Outgoing
from bots import delivery
from bots.platforms.common import (
    DmClosed,
    NoPermission,
    RetryLater,
    Undeliverable,
    split_markdown,
    split_message,
    utf16_len,
)
from bots.platforms.telegram import (
    FAILURE_TEXT,
    TelegramBot,
    TelegramConfig,
    api_urls,
    order_text,
    parse_command,
    start,
    stop,
    to_markdown_v2,
)
from tests.fakes.telegram_api import FakeAPIError, FakeTelegramAPI, parse_markdown_v2

GROUP = -42
SUPERGROUP = -100777
ALICE = 7
BOB = 8
BOT_NAME = "pbem_test_bot"


def png(width: int = 40, height: int = 30) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


def reply(text: str, **kw: Any) -> Callable[[Incoming], list[Outgoing]]:
    """A responder answering every order in its chat with `text` (and `kw` fields)."""

    def respond(incoming: Incoming) -> list[Outgoing]:
        return [Outgoing("telegram", incoming.chat_id, text, reply_to=incoming.message_id, **kw)]

    return respond


def echo(incoming: Incoming) -> list[Outgoing]:
    return [Outgoing("telegram", incoming.chat_id, f"ok: {incoming.text}")]


class FakeService:
    """Records what reaches it and answers with `responder`."""

    def __init__(self, responder: Callable[[Incoming], list[Outgoing]] = echo):
        self.responder = responder
        self.incoming: list[Incoming] = []
        self.migrations: list[tuple[str, str, str]] = []

    def handle(self, incoming: Incoming) -> list[Outgoing]:
        self.incoming.append(incoming)
        return self.responder(incoming)

    def chat_migrated(self, platform: str, old: str, new: str) -> None:
        self.migrations.append((platform, old, new))


@dataclass
class Harness:
    api: FakeTelegramAPI
    bot: TelegramBot
    service: FakeService


class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@asynccontextmanager
async def running(
    responder: Callable[[Incoming], list[Outgoing]] = echo,
    expected_errors: int = 0,
    **config: Any,
) -> AsyncIterator[Harness]:
    """The fake Bot API, and the real Application long polling it (webhook with webhook_url).
    Fails if the adapter or PTB logged more errors than `expected_errors`."""
    errors = ErrorLog()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        async with FakeTelegramAPI(bot_username=BOT_NAME) as api:
            service = FakeService(responder)
            cfg = TelegramConfig(token=api.token, base_url=api.root_url, poll_timeout=1, **config)
            bot = TelegramBot(service, cfg)
            await start(bot.app)
            try:
                yield Harness(api, bot, service)
            finally:
                await stop(bot.app)
    finally:
        root.removeHandler(errors)
    logged = [
        f"{r.name}: {r.getMessage()} {r.exc_info and r.exc_info[1]!r}" for r in errors.records
    ]
    assert len(logged) == expected_errors, logged


def run(test: Callable[[], Any], timeout: float = 300.0) -> None:
    async def main() -> None:
        await asyncio.wait_for(test(), timeout)

    asyncio.run(main())


# ---------------------------------------------------------------- end to end, long polling


def test_group_command_reaches_the_service_and_is_answered():
    async def test():
        async with running(reply("Status: turn 1")) as h:
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE, user_name="alice")
            [call] = await h.api.wait_for_call("sendMessage", GROUP)
        assert h.service.incoming == [
            Incoming(
                platform="telegram",
                chat_id=str(GROUP),
                user_id=str(ALICE),
                user_name="alice",
                text="status",
                message_id=f"tg:{GROUP}:1",
                private=False,
            )
        ]
        assert call.parse_mode == "MarkdownV2"
        assert call.rendered == "Status: turn 1"
        assert call.params["reply_parameters"]["message_id"] == 1
        assert {c.method for c in h.api.calls} <= {
            "getMe",
            "deleteWebhook",
            "getUpdates",
            "sendMessage",
            "setMyCommands",  # the command menu, set at startup
            "getChatMember",  # the bot's own rights in the chat, checked at startup
            "getChat",
        }

    run(test)


@pytest.mark.parametrize(
    "typed",
    [
        "/order attack C6 with 20tk",
        "/o attack C6 with 20tk",
        "/attack C6 with 20tk",
        "/order@pbem_test_bot attack C6 with 20tk",
        "/attack@PBEM_Test_Bot C6 with 20tk",
    ],
)
def test_order_forms_give_the_same_order_text(typed):
    async def test():
        async with running() as h:
            h.api.push_message(typed, chat_id=GROUP, user_id=ALICE)
            [call] = await h.api.wait_for_call("sendMessage", GROUP)
        assert [i.text for i in h.service.incoming] == ["attack C6 with 20tk"]
        assert call.rendered == "ok: attack C6 with 20tk"

    run(test)


def test_short_forms_and_multiline_orders():
    async def test():
        async with running() as h:
            for typed in ("/map", "/map full", "/options", "/help", "/order\nmove A1 B2\nend"):
                h.api.push_message(typed, chat_id=GROUP, user_id=ALICE)
            await h.api.wait_for_call("sendMessage", GROUP, count=5)
        assert [i.text for i in h.service.incoming] == [
            "map",
            "map full",
            "options",
            "help",
            "move A1 B2\nend",
        ]

    run(test)


def test_commands_for_another_bot_are_ignored():
    async def test():
        async with running() as h:
            h.api.push_message("/order@other_bot attack C6", chat_id=GROUP, user_id=ALICE)
            h.api.push_message("/map@other_bot", chat_id=GROUP, user_id=ALICE)
            h.api.push_message("just chatting, no command", chat_id=GROUP, user_id=ALICE)
            h.api.push_message("/map@pbem_test_bot", chat_id=GROUP, user_id=ALICE)
            await h.api.wait_for_call("sendMessage", GROUP)  # updates are handled in order
        assert [i.text for i in h.service.incoming] == ["map"]
        assert h.service.incoming[0].message_id == f"tg:{GROUP}:4"

    run(test)


def test_private_chat_commands_and_plain_text():
    async def test():
        async with running() as h:
            h.api.push_message("/status", chat_id=ALICE, user_id=ALICE, user_name=None)
            h.api.push_message("attack C6 with 20tk", chat_id=ALICE, user_id=ALICE, user_name=None)
            await h.api.wait_for_call("sendMessage", ALICE, count=2)
        first, second = h.service.incoming
        assert first.private and first.chat_id == str(ALICE) and first.text == "status"
        assert first.user_name == "Alice"  # no username: the first name
        assert second.private and second.text == "attack C6 with 20tk"

    run(test)


def test_private_start_button_is_help_not_the_game_start():
    async def test():
        async with running() as h:
            h.api.push_message("/start", chat_id=ALICE, user_id=ALICE)
            h.api.push_message("/start", chat_id=GROUP, user_id=ALICE)
            await h.api.wait_for_call("sendMessage", GROUP)
        assert [(i.chat_id, i.text) for i in h.service.incoming] == [
            (str(ALICE), "help"),
            (str(GROUP), "start"),
        ]

    run(test)


def test_start_failure_cleans_up():
    async def test():
        async with FakeTelegramAPI(bot_username=BOT_NAME) as api:
            bad = TelegramConfig(token="999:WRONG", base_url=api.root_url)
            bot = TelegramBot(FakeService(), bad)
            with pytest.raises(InvalidToken):
                await start(bot.app)
            assert not bot.app.running

    run(test)


def test_long_reply_is_split_under_4096_on_line_boundaries():
    lines = [f"line {i:05d}: " + "x" * 60 for i in range(200)]  # about 14,000 characters
    text = "\n".join(lines)

    async def test():
        async with running(reply(text)) as h:
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            await h.api.wait_for_call("sendMessage", GROUP, count=4)
            await asyncio.sleep(0.05)
        calls = h.api.sent("sendMessage", GROUP)
        assert len(calls) == 4
        assert all(utf16_len(c.rendered) <= 4096 for c in calls)
        assert "\n".join(c.rendered for c in calls) == text  # nothing lost, lines whole
        assert "reply_parameters" in calls[0].params
        assert all("reply_parameters" not in c.params for c in calls[1:])

    run(test)


def test_markdown_is_escaped_and_renders():
    text = (
        "Player alice_the_great (1.5 + 2 = 3.5!) said: *hi* [x](http://evil.example) #1 ~ok~ |x|\n"
        "Orders: `attack C6 with 20tk` and **done**\n"
        "```\nA | B\n1 \\ 2 `q`\n```"
    )

    async def test():
        async with running(reply(text)) as h:
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            [call] = await h.api.wait_for_call("sendMessage", GROUP)
        assert call.parse_mode == "MarkdownV2"
        assert call.rendered == (
            "Player alice_the_great (1.5 + 2 = 3.5!) said: *hi* [x](http://evil.example) #1 ~ok~"
            " |x|\nOrders: attack C6 with 20tk and done\nA | B\n1 \\ 2 `q`\n"
        )
        kinds = sorted(e["type"] for e in call.entities)
        assert kinds == ["bold", "code", "pre"]  # no link, no italics from user text

    run(test)


def test_mentions_ping_the_player():
    async def test():
        respond = reply("your move", mentions=[str(BOB)])
        async with running(respond) as h:
            h.api.push_message("/status", chat_id=GROUP, user_id=BOB, user_name="bob_b")
            [call] = await h.api.wait_for_call("sendMessage", GROUP)
        assert call.rendered == "bob_b\nyour move"
        [entity] = call.entities
        assert entity["type"] == "text_mention" and entity["user"]["id"] == BOB
        assert (entity["offset"], entity["length"]) == (0, 5)

    run(test)


def test_map_image_is_sent_as_a_photo_with_its_bytes_intact():
    image = png(1200, 1000)

    async def test():
        async with running(reply("Phase 3 ends. Soviet to move.", image=image)) as h:
            h.api.push_message("/map", chat_id=GROUP, user_id=ALICE)
            [call] = await h.api.wait_for_call("sendPhoto", GROUP)
        assert call.photo == image
        assert call.rendered == "Phase 3 ends. Soviet to move."  # the caption
        assert call.parse_mode == "MarkdownV2"
        assert not h.api.sent("sendMessage")

    run(test)


def test_map_full_sends_a_document():
    image = png()

    async def test():
        async with running(reply("Full resolution map", image=image)) as h:
            h.api.push_message("/map full", chat_id=GROUP, user_id=ALICE)
            [call] = await h.api.wait_for_call("sendDocument", GROUP)
        assert call.document == image
        assert call.filenames["document"] == "map.png"
        assert not h.api.sent("sendPhoto")

    run(test)


def test_image_with_a_long_text_sends_the_text_first():
    image = png()
    text = "summary line\n" * 100  # over the 1024 caption limit

    async def test():
        async with running(reply(text, image=image)) as h:
            h.api.push_message("/map", chat_id=GROUP, user_id=ALICE)
            await h.api.wait_for_call("sendPhoto", GROUP)
        methods = [c.method for c in h.api.sent(chat_id=GROUP)]
        assert methods == ["sendMessage", "sendPhoto"]
        assert h.api.sent("sendPhoto")[0].text is None

    run(test)


def private_reply(incoming: Incoming) -> list[Outgoing]:
    return [
        Outgoing("telegram", incoming.chat_id, "Hits assigned; see your private message."),
        Outgoing(
            "telegram",
            None,
            "secret: your reserve is at B4",
            user_id=incoming.user_id,
            private=True,
        ),
    ]


def test_private_message_goes_to_the_user():
    async def test():
        async with running(private_reply) as h:
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            [secret] = await h.api.wait_for_call("sendMessage", ALICE)
        assert secret.rendered == "secret: your reserve is at B4"
        [public] = h.api.sent("sendMessage", GROUP)
        assert "secret" not in public.rendered

    run(test)


@pytest.mark.parametrize("never_seen", [False, True], ids=["403", "chat-not-found"])
def test_private_message_to_a_user_who_never_started_the_bot_posts_a_notice(never_seen):
    async def test():
        async with running(private_reply) as h:
            h.api.block_private(ALICE, never_seen=never_seen)
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE, user_name="alice")
            await h.api.wait_for_call("sendMessage", GROUP, count=2)
        [refused] = h.api.sent("sendMessage", ALICE, ok=False)
        assert refused.status == (400 if never_seen else 403)
        notice = h.api.sent("sendMessage", GROUP)[1]
        assert notice.rendered == (
            "@alice, please start a private chat with me to receive private messages"
        )
        assert notice.entities[0]["type"] == "text_mention"
        assert all("reserve" not in (c.rendered or "") for c in h.api.sent())

    run(test)


def test_rate_limit_is_waited_out():
    async def test():
        async with running(reply("after the flood")) as h:
            h.api.rate_limit_next(GROUP, retry_after=1)
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            [ok] = await h.api.wait_for_call("sendMessage", GROUP)
        [limited] = h.api.sent("sendMessage", GROUP, ok=False)
        assert limited.status == 429
        assert ok.rendered == "after the flood"
        assert ok.at - limited.at >= 0.95

    run(test)


def test_migrated_group_is_followed_and_the_service_told():
    async def test():
        async with running(reply("still here")) as h:
            h.api.migrate_group(GROUP, SUPERGROUP)
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            await h.api.wait_for_call("sendMessage", SUPERGROUP)
            h.api.push_message("/map", chat_id=GROUP, user_id=ALICE)  # an update still in flight
            await h.api.wait_for_call("sendMessage", SUPERGROUP, count=2)
        assert h.service.migrations == [("telegram", str(GROUP), str(SUPERGROUP))]
        assert len(h.api.sent("sendMessage", GROUP, ok=False)) == 1  # then straight to the new id
        assert [c.rendered for c in h.api.sent("sendMessage", SUPERGROUP)] == ["still here"] * 2

    run(test)


def test_migration_service_messages_tell_the_service_once():
    async def test():
        async with running() as h:
            h.api.migrate_group(GROUP, SUPERGROUP, announce=True)
            h.api.push_message("/help", chat_id=SUPERGROUP, user_id=ALICE)
            await h.api.wait_for_call("sendMessage", SUPERGROUP)
        assert h.service.migrations == [("telegram", str(GROUP), str(SUPERGROUP))]

    run(test)


def test_service_failure_is_answered():
    def broken(incoming: Incoming) -> list[Outgoing]:
        raise RuntimeError("boom")

    async def test():
        async with running(broken, expected_errors=1) as h:
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            [call] = await h.api.wait_for_call("sendMessage", GROUP)
        assert call.rendered == FAILURE_TEXT

    run(test)


def test_outgoing_for_another_platform_is_forwarded():
    def linked(incoming: Incoming) -> list[Outgoing]:
        return [Outgoing("discord", "555", "to the linked channel"), *echo(incoming)]

    async def test():
        forwarded: list[Outgoing] = []

        async def forward(out: Outgoing) -> None:
            forwarded.append(out)

        async with running(linked) as h:
            h.bot.forward = forward
            h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            await h.api.wait_for_call("sendMessage", GROUP)
        assert [o.text for o in forwarded] == ["to the linked channel"]

    run(test)


# ---------------------------------------------------------------- send() errors, for the outbox


def test_send_raises_clear_errors():
    async def test():
        async with running(max_retry_wait=5) as h:
            h.api.rate_limit_next(GROUP, retry_after=30)
            long_text = "\n".join("y" * 100 for _ in range(80))  # two parts
            with pytest.raises(RetryLater) as info:
                await h.bot.send(Outgoing("telegram", str(GROUP), long_text))
            assert info.value.retry_after == 30 and info.value.parts_sent == 0
            sent = await h.bot.send(Outgoing("telegram", str(GROUP), long_text), start_part=1)
            assert len(sent) == 1  # resumed after the delivered part

            h.api.block_private(BOB)
            private = Outgoing("telegram", None, "secret", user_id=str(BOB), private=True)
            with pytest.raises(Undeliverable):  # no group to post the notice in
                await h.bot.send(private)
            with pytest.raises(ValueError):
                await h.bot.send(Outgoing("telegram", None, "nowhere"))

    run(test)


@pytest.mark.parametrize("never_seen", [False, True], ids=["403", "chat-not-found"])
def test_a_private_message_the_user_refuses_raises_dm_closed(never_seen):
    async def test():
        async with running() as h:
            h.api.block_private(BOB, never_seen=never_seen)
            secret = Outgoing("telegram", str(GROUP), "secret", user_id=str(BOB), private=True)
            with pytest.raises(DmClosed) as closed:  # the outbox's way: no notice from send
                await h.bot.send(secret, fallback_chat_id=str(GROUP), raise_dm_closed=True)
            assert closed.value.parts_sent == 0
            assert h.api.sent("sendMessage", GROUP) == []
            with pytest.raises(DmClosed):  # no group for the adapter's own notice
                await h.bot.send(
                    Outgoing("telegram", None, "secret", user_id=str(BOB), private=True)
                )
            h.api.block_private(GROUP)  # a group that refuses the bot: not a closed DM
            with pytest.raises(NoPermission) as refused:  # its posts wait for the bot's return
                await h.bot.send(Outgoing("telegram", str(GROUP), "public"))
            assert refused.value.kicked and not isinstance(refused.value, DmClosed)
            h.api.unblock_private(BOB)
            [delivered] = await h.bot.send(secret, raise_dm_closed=True)
        assert delivered.chat.id == BOB

    run(test)


def test_the_outbox_keeps_a_refused_private_message_and_tells_the_group(db_url, stores):
    async def test():
        store = stores(db_url)
        async with running() as h:
            h.api.block_private(BOB)
            secret = Outgoing("telegram", str(GROUP), "secret: B4", user_id=str(BOB), private=True)
            delivery.enqueue(store, None, [secret])
            stop = asyncio.Event()
            sender = asyncio.create_task(delivery.run_sender(store, {"telegram": h.bot.send}, stop))
            [notice] = await h.api.wait_for_call("sendMessage", GROUP)
            stop.set()
            await sender
        assert "could not be delivered" in notice.rendered
        assert f"press Start in @{BOT_NAME}" in notice.rendered  # the bot's name, from its send
        assert notice.entities[0]["type"] == "text_mention"  # the player is pinged
        assert all("B4" not in (c.rendered or "") for c in h.api.sent())
        [waiting] = delivery.rows(store, status=delivery.PENDING)
        assert waiting.outgoing.text == "secret: B4"

    run(test)


# ---------------------------------------------------------------- webhook mode


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_webhook_mode_receives_pushed_updates():
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg/hook"

    async def test():
        async with running(webhook_url=url, webhook_port=port, webhook_secret="s3cret") as h:
            assert h.api.webhook == {
                "url": url,
                "allowed_updates": ["message", "my_chat_member", "callback_query"],
                "secret_token": "s3cret",
            }
            update = h.api.push_message("/status", chat_id=GROUP, user_id=ALICE)
            async with ClientSession() as http:
                async with http.post(url, json=update) as refused:
                    assert refused.status == 403  # no secret
                headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
                async with http.post(url, json=update, headers=headers) as accepted:
                    assert accepted.status == 200
            await h.api.wait_for_call("sendMessage", GROUP)
        assert [i.text for i in h.service.incoming] == ["status"]
        assert not [c for c in h.api.calls if c.method == "getUpdates"]

    run(test)


# ---------------------------------------------------------------- quick units


def test_process_update_without_polling_ignores_edits():
    async def test():
        async with FakeTelegramAPI(bot_username=BOT_NAME) as api:
            service = FakeService()
            bot = TelegramBot(service, TelegramConfig(token=api.token, base_url=api.root_url))
            async with bot.app:  # initialize (getMe) / shutdown, no polling
                raw = api.push_message("/status", chat_id=GROUP, user_id=ALICE)
                await bot.app.process_update(Update.de_json(raw, bot.app.bot))
                edited = {"update_id": 99, "edited_message": raw["message"] | {"edit_date": 1}}
                await bot.app.process_update(Update.de_json(edited, bot.app.bot))
        assert [i.text for i in service.incoming] == ["status"]
        assert len(api.sent("sendMessage", GROUP)) == 1

    run(test)


def test_parse_command():
    assert parse_command("/order attack C6", BOT_NAME) == ("order", "attack C6")
    assert parse_command("/ORDER@Pbem_Test_Bot  x\ny ", BOT_NAME) == ("order", "x\ny")
    assert parse_command("/order@other_bot x", BOT_NAME) is None
    assert parse_command("not /a command", BOT_NAME) is None
    assert order_text("o", "attack C6") == "attack C6"
    assert order_text("attack", "C6 with 20tk") == "attack C6 with 20tk"
    assert order_text("map", "") == "map"


def test_markdown_v2_always_parses():
    samples = [
        "plain",
        "a_b*c[d]e(f)g~h`i>j#k+l-m=n|o{p}q.r!s\\t",
        "**bold** `code` ```x```",
        "```python\nif a < b: print('`')\n",
        "**unclosed",
        "`",
        "``",
        "> quote",
        "**a**b**",
        "emoji 🎲 **x** `y`",
    ]
    for text in samples:
        parse_markdown_v2(to_markdown_v2(text))  # raises FakeAPIError if Telegram would
    with pytest.raises(FakeAPIError):
        parse_markdown_v2("1.5")


def test_split_message():
    assert split_message("a\nb\nc", 3) == ["a\nb", "c"]
    assert split_message("abcdefg", 3) == ["abc", "def", "g"]
    assert split_message("x\nabcdefg\ny", 3) == ["x", "abc", "def", "g\ny"]
    assert split_message("", 10) == [] and split_message("\n \n", 10) == []
    assert split_message("🎲🎲🎲", 4, length=utf16_len) == ["🎲🎲", "🎲"]
    text = "\n".join(f"row {i}" for i in range(1000))
    chunks = split_message(text, 100)
    assert all(len(c) <= 100 for c in chunks) and "\n".join(chunks) == text
    with pytest.raises(ValueError):
        split_message("x", 0)


def test_split_markdown_keeps_code_blocks_closed():
    text = "intro\n```text\n" + "\n".join(f"line {i}" for i in range(50)) + "\n```\nafter"
    chunks = split_markdown(text, 80)
    assert len(chunks) > 3
    for chunk in chunks:
        assert len(chunk) <= 80 and chunk.count("```") % 2 == 0
        parse_markdown_v2(to_markdown_v2(chunk))
    assert chunks[1].startswith("```text\n")


def test_api_urls():
    assert api_urls("http://h:8081") == ("http://h:8081/bot", "http://h:8081/file/bot")
    assert api_urls("http://h:8081/bot/") == ("http://h:8081/bot", "http://h:8081/file/bot")
    assert api_urls("http://h/bot", "http://files") == ("http://h/bot", "http://files/file/bot")


def test_config_from_env_never_shows_the_token():
    cfg = TelegramConfig.from_env(
        {
            "TELEGRAM_TOKEN": "1:SECRET",
            "TELEGRAM_BASE_URL": "http://h:8081",
            "TELEGRAM_WEBHOOK_URL": "https://example.org/tg",
            "TELEGRAM_WEBHOOK_PORT": "9000",
        }
    )
    assert cfg.webhook_port == 9000 and cfg.base_url == "http://h:8081"
    assert "SECRET" not in repr(cfg)
    with pytest.raises(ValueError):
        TelegramConfig.from_env({})

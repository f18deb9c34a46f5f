"""A small local fake of the Telegram Bot API, for running the real python-telegram-bot offline.

Served by aiohttp on 127.0.0.1 (a random port) in the test's own event loop:

    async with FakeTelegramAPI() as api:
        config = TelegramConfig(token=api.token, base_url=api.root_url, poll_timeout=1)
        api.push_message("/order attack C6 with 20tk", chat_id=-100, user_id=1, user_name="alice")
        call = await api.wait_for_call("sendMessage", chat_id=-100)

Methods: getMe, deleteWebhook, setWebhook, getWebhookInfo, getUpdates (long polling honouring
`offset`, `timeout`, `limit`), sendMessage, sendPhoto, sendDocument (multipart), getChatMember
(of a user who wrote, or of the bot), getChat (a group's default permissions), setMyCommands and
getMyCommands (the menu, kept in `commands`; a menu set for a `language_code` is kept in
`menus[code]`), answerCallbackQuery (kept in `answers`).
Inline keyboards: a sent message's `reply_markup` is checked (callback data of 1-64 bytes, a
key's text not empty) and kept with the message (`Call.reply_markup`, `Call.keys`); `press`
queues the callback query of a key pressed by a user, `push_message(..., reply_to=...)` a reply
to a message (a ForceReply prompt's answer).
Texts sent with parse_mode MarkdownV2 are parsed as Telegram does: a reserved character left
unescaped is a 400 "can't parse entities", and the recorded `rendered` text and `entities` are what
a user would see. Lengths are checked (4096 for a text, 1024 for a caption, after parsing).
Knobs: `rate_limit_next` (429 with retry_after), `start_conflict` (409 on getUpdates, as when
another process polls the token), `push_private_member` (a user's Start / block / unblock of the
bot: `my_chat_member`), `block_private` (403 "bot can't initiate
conversation with a user"), `migrate_group` (400 with migrate_to_chat_id, plus optionally the two
service messages), `set_bot_member` (the bot's status and rights in a group: "member",
"restricted" with some `can_send_*` false, "administrator", "left") and `set_group_permissions`
(the rights of a group's plain members). A send the bot's rights do not allow answers 400 "not
enough rights", as Telegram does. Every call, failed or not, is recorded in `calls`; the event
`answered()` is set as each is answered (a test waits on it rather than polling).
"""

from __future__ import annotations

import asyncio
import json
import re
import struct
import time
from dataclasses import dataclass, field
from typing import Any, Self

from aiohttp import web

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
STRING_FIELDS = {
    "text",
    "caption",
    "parse_mode",
    "url",
    "secret_token",
    "photo",
    "document",
    "ip_address",
}
RESERVED = set("_*[]()~`>#+-=|{}.!")
CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is "
    "running"
)
RIGHTS = (  # a group member's rights (ChatPermissions; a restricted member's too)
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
    "can_edit_tag",
    "can_react_to_messages",
)
ADMIN_RIGHTS = dict.fromkeys(
    (
        "can_manage_chat",
        "can_delete_messages",
        "can_manage_video_chats",
        "can_restrict_members",
        "can_promote_members",
        "can_change_info",
        "can_invite_users",
        "can_post_stories",
        "can_edit_stories",
        "can_delete_stories",
    ),
    True,
)


class FakeAPIError(Exception):
    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None):
        super().__init__(description)
        self.code, self.description, self.parameters = code, description, parameters


@dataclass
class Call:
    """One request the bot made."""

    method: str
    params: dict[str, Any]
    at: float  # time.monotonic()
    status: int = 200
    error: str | None = None
    files: dict[str, bytes] = field(default_factory=dict)
    filenames: dict[str, str] = field(default_factory=dict)
    rendered: str | None = None  # text/caption as displayed, after MarkdownV2 parsing
    entities: list[dict[str, Any]] = field(default_factory=list)
    result: Any = None  # what the call answered (a sent message)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def chat_id(self) -> Any:
        return self.params.get("chat_id")

    @property
    def text(self) -> str | None:  # as sent (with the markup)
        return self.params.get("text", self.params.get("caption"))

    @property
    def parse_mode(self) -> str | None:
        return self.params.get("parse_mode")

    @property
    def photo(self) -> bytes | None:
        return self.files.get("photo")

    @property
    def reply_markup(self) -> dict[str, Any] | None:
        markup = self.params.get("reply_markup")
        return markup if isinstance(markup, dict) else None

    @property
    def keys(self) -> list[dict[str, Any]]:
        """The inline keyboard's keys, row after row ([] without one)."""
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [key for row in rows for key in row]

    @property
    def message(self) -> dict[str, Any] | None:
        """The message Telegram made of this call (a successful send)."""
        return self.result if isinstance(self.result, dict) else None

    @property
    def document(self) -> bytes | None:
        return self.files.get("document")


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def command_entities(text: str) -> list[dict[str, Any]]:
    """The bot_command entities Telegram computes for a text (offsets in UTF-16 units)."""
    entities = []
    for m in re.finditer(r"(?<!\S)/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![^\s])", text):
        entities.append(
            {
                "type": "bot_command",
                "offset": utf16_len(text[: m.start()]),
                "length": utf16_len(m.group(0)),
            }
        )
    return entities


def parse_markdown_v2(
    text: str, users: dict[int, dict[str, Any]] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """Telegram's MarkdownV2: the rendered text and its entities, or FakeAPIError(400).
    `users` (id -> User) fills in the users of text_mention entities."""
    out: list[str] = []
    entities: list[dict[str, Any]] = []
    stack: list[tuple[str, int]] = []  # (marker, rendered offset in UTF-16 units)
    pos = 0
    n = len(text)

    def fail(why: str) -> FakeAPIError:
        return FakeAPIError(400, f"Bad Request: can't parse entities: {why} at byte offset {pos}")

    def here() -> int:
        return utf16_len("".join(out))

    def toggle(marker: str, kind: str) -> None:
        if stack and stack[-1][0] == marker:
            _, start = stack.pop()
            entities.append({"type": kind, "offset": start, "length": here() - start})
        elif any(m == marker for m, _ in stack):
            raise fail(f"Can't find end of {kind} entity")
        else:
            stack.append((marker, here()))

    while pos < n:
        ch = text[pos]
        if ch == "\\":
            if pos + 1 >= n or not 1 <= ord(text[pos + 1]) <= 126:
                raise fail("Character '\\' is reserved and must be escaped")
            out.append(text[pos + 1])
            pos += 2
        elif text.startswith("```", pos):
            end_line = text.find("\n", pos + 3)
            close = text.find("```", pos + 3)
            start_body = pos + 3
            language = ""
            if end_line != -1 and (close == -1 or end_line < close):
                language = text[pos + 3 : end_line]
                start_body = end_line + 1
            body, pos = _code_body(text, start_body, "```", fail)
            start = here()
            out.append(body)
            pre: dict[str, Any] = {"type": "pre", "offset": start, "length": utf16_len(body)}
            if language:
                pre["language"] = language
            entities.append(pre)
        elif ch == "`":
            body, pos = _code_body(text, pos + 1, "`", fail)
            start = here()
            out.append(body)
            entities.append({"type": "code", "offset": start, "length": utf16_len(body)})
        elif ch == "*":
            toggle("*", "bold")
            pos += 1
        elif text.startswith("__", pos):
            toggle("__", "underline")
            pos += 2
        elif ch == "_":
            toggle("_", "italic")
            pos += 1
        elif ch == "~":
            toggle("~", "strikethrough")
            pos += 1
        elif text.startswith("||", pos):
            toggle("||", "spoiler")
            pos += 2
        elif ch == "[":
            stack.append(("[", here()))
            pos += 1
        elif ch == "]":
            if not stack or stack[-1][0] != "[":
                raise fail("Character ']' is reserved and must be escaped")
            if not text.startswith("(", pos + 1):
                raise fail("Can't find end of text_link url")
            url, pos = _code_body(text, pos + 2, ")", fail)
            _, start = stack.pop()
            entity: dict[str, Any] = {"offset": start, "length": here() - start}
            m = re.fullmatch(r"tg://user\?id=(\d+)", url)
            if m:
                uid = int(m.group(1))
                user = (users or {}).get(uid, {"id": uid, "is_bot": False, "first_name": "User"})
                entity.update(type="text_mention", user=user)
            else:
                entity.update(type="text_link", url=url)
            entities.append(entity)
        elif ch == ">" and (pos == 0 or text[pos - 1] == "\n"):
            pos += 1  # a blockquote line: the marker is not shown
        elif ch in RESERVED:
            raise fail(f"Character '{ch}' is reserved and must be escaped with the preceding '\\'")
        else:
            out.append(ch)
            pos += 1
    if stack:
        raise fail(f"Can't find end of the entity starting with {stack[-1][0]!r}")
    return "".join(out), entities


def _code_body(text: str, pos: int, end: str, fail: Any) -> tuple[str, int]:
    """Read up to the unescaped `end`: inside code and urls only the end mark and \\ are escaped."""
    body: list[str] = []
    while pos < len(text):
        if text[pos] == "\\" and pos + 1 < len(text):
            body.append(text[pos + 1])
            pos += 2
        elif text.startswith(end, pos):
            return "".join(body), pos + len(end)
        elif end == "`" or end == "```":
            if text[pos] == "`":
                raise fail("Character '`' is reserved and must be escaped")
            body.append(text[pos])
            pos += 1
        else:
            body.append(text[pos])
            pos += 1
    raise fail(f"Can't find end of the entity ending with {end!r}")


def png_size(data: bytes) -> tuple[int, int]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return (0, 0)


@dataclass
class Hold:
    """A call the fake holds (see `FakeTelegramAPI.hold_next`)."""

    method: str
    chat_id: Any
    retry_after: int
    held: asyncio.Event = field(default_factory=asyncio.Event)  # the call arrived
    release: asyncio.Event = field(default_factory=asyncio.Event)  # set: answer it (429)


class FakeTelegramAPI:
    """The fake server. Use `async with`, or `await start()` / `await close()`."""

    def __init__(
        self,
        token: str = "123456:TEST-TOKEN",
        bot_username: str = "pbem_test_bot",
        bot_id: int = 123456,
    ) -> None:
        self.token = token
        self.bot = {
            "id": bot_id,
            "is_bot": True,
            "first_name": "PBEM test",
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.calls: list[Call] = []
        self.webhook: dict[str, Any] | None = None
        self.users: dict[int, dict[str, Any]] = {}
        self._updates: list[dict[str, Any]] = []
        self._next_update_id = 1
        self._next_message_id: dict[int, int] = {}
        self._rate_limits: list[tuple[str, Any, int]] = []  # (method, chat id, retry_after)
        self._blocked: dict[int, bool] = {}  # user id -> never seen (400) rather than 403
        self._migrations: dict[int, int] = {}
        self.commands: list[dict[str, Any]] = []  # the menu set with setMyCommands
        self.menus: dict[str, list[dict[str, Any]]] = {}  # language code -> its menu
        self.messages: dict[tuple[Any, int], dict[str, Any]] = {}  # the bot's messages
        self.answers: dict[str, list[dict[str, Any]]] = {}  # callback query id -> its answers
        self._next_query = 1
        self._bot_members: dict[int, dict[str, Any]] = {}  # group -> the bot's ChatMember
        self._group_rights: dict[int, dict[str, bool]] = {}  # group -> its members' rights
        self._holds: list[Hold] = []  # calls held until the test releases them
        self._failures: list[tuple[str, Any, int, str]] = []  # (method, chat id, code, text)
        self.revoked = False  # True: every call answers 401 (a token revoked with @BotFather)
        self.conflict = False  # True: getUpdates answers 409 (another process polls the token)
        self._changed = asyncio.Event()  # set when updates arrive or the server closes
        self._answered = asyncio.Event()  # set, then replaced, as each call is answered
        self._closing = False
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ---- lifecycle

    @property
    def root_url(self) -> str:
        """The server root, as TELEGRAM_BASE_URL would hold it."""
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> Self:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)  # started again: the same port
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def close(self) -> None:
        self._closing = True
        self._changed.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- knobs

    def push_update(self, update: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": self._next_update_id, **update}
        self._next_update_id += 1
        self._updates.append(update)
        self._changed.set()
        return update

    def push_message(
        self,
        text: str,
        *,
        chat_id: int,
        user_id: int,
        user_name: str | None = "alice",
        first_name: str = "Alice",
        chat_type: str | None = None,
        title: str = "PBEM game",
        language_code: str | None = None,
        reply_to: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A user's text message; a positive chat_id equal to user_id is a private chat, a
        negative one a group ("supergroup" when it starts with -100). language_code: the
        user's client language, as Telegram sends it (absent when None). reply_to: the
        message it answers (e.g. `call.message`, a ForceReply prompt)."""
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if user_name:
            user["username"] = user_name
        if language_code:
            user["language_code"] = language_code
        self.users[user_id] = user
        message = {
            "message_id": self._message_id(chat_id),
            "date": int(time.time()),
            "chat": self._chat(chat_id, chat_type, title, user),
            "from": user,
            "text": text,
        }
        entities = command_entities(text)
        if entities:
            message["entities"] = entities
        if reply_to is not None:
            message["reply_to_message"] = reply_to
        return self.push_update({"message": message})

    def press(self, sent: Call, token: str, *, user_id: int, **user: Any) -> str:
        """`user_id` presses the key of the message `sent` whose callback data is `token`
        (a callback query update; `user`: first_name, user_name, language_code as in
        `push_message`). Returns the query's id (see `answers`)."""
        message = sent.message
        assert message is not None, "a key of a message that was not sent"
        assert token in [k.get("callback_data") for k in sent.keys], "no such key"
        query_id = f"q{self._next_query}"
        self._next_query += 1
        self.answers[query_id] = []
        known = self.users.get(user_id)
        who = self._user(user_id, **user) if user or known is None else known
        query = {
            "id": query_id,
            "from": who,
            "message": message,
            "chat_instance": f"ci{message['chat']['id']}",
            "data": token,
        }
        self.push_update({"callback_query": query})
        return query_id

    def _user(
        self,
        user_id: int,
        user_name: str | None = None,
        first_name: str = "User",
        language_code: str | None = None,
    ) -> dict[str, Any]:
        user: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": first_name}
        if user_name:
            user["username"] = user_name
        if language_code:
            user["language_code"] = language_code
        self.users[user_id] = user
        return user

    async def callback_answer(self, query_id: str, timeout: float = 300.0) -> dict[str, Any]:
        """The answer to the callback query (waits for it)."""
        deadline = time.monotonic() + timeout
        while not self.answers.get(query_id):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the callback query {query_id} was not answered")
            await asyncio.sleep(0.01)
        return self.answers[query_id][0]

    def rate_limit_next(self, chat_id: Any, retry_after: int = 1, method: str = "sendMessage"):
        """The next `method` call to `chat_id` answers 429 with `retry_after`."""
        self._rate_limits.append((method, chat_id, retry_after))

    def hold_next(self, chat_id: Any, *, method: str = "sendMessage", retry_after: int = 1) -> Hold:
        """The next `method` call to `chat_id` is held (no answer) until `hold.release` is set,
        then answers 429 with `retry_after`: a flood wait that lasts as long as the test wants.
        `hold.held` is set when the call arrives."""
        hold = Hold(method, chat_id, retry_after)
        self._holds.append(hold)
        return hold

    def fail_next(
        self,
        chat_id: Any,
        *,
        method: str = "sendMessage",
        code: int = 500,
        description: str = "Internal Server Error",
        count: int = 1,
    ) -> None:
        """The next `count` `method` calls to `chat_id` answer `code` (a 5xx, a 403 ...)."""
        self._failures.extend([(method, chat_id, code, description)] * count)

    def revoke_token(self) -> None:
        """The token is revoked: every call (a long poll waiting too) answers 401."""
        self.revoked = True
        self._changed.set()

    def restore_token(self) -> None:
        self.revoked = False

    def start_conflict(self) -> None:
        """Another process polls the token: every getUpdates (a long poll waiting too, as
        Telegram ends it) answers 409 "Conflict: terminated by other getUpdates request"."""
        self.conflict = True
        self._changed.set()

    def end_conflict(self) -> None:
        self.conflict = False

    def push_private_member(self, user_id: int, status: str = "member", old: str = "kicked"):
        """The user changed the bot's membership of his private chat (`my_chat_member`):
        "member" when he pressed Start or unblocked the bot, "kicked" when he blocked it."""
        user = self.users.get(user_id) or {"id": user_id, "is_bot": False, "first_name": "User"}

        def member(status: str) -> dict[str, Any]:
            kicked = {"until_date": 0} if status == "kicked" else {}
            return {"status": status, "user": self._bot_user(), **kicked}

        return self.push_update(
            {
                "my_chat_member": {
                    "chat": self._chat(user_id, "private", "", user),
                    "from": user,
                    "date": int(time.time()),
                    "old_chat_member": member(old),
                    "new_chat_member": member(status),
                }
            }
        )

    def block_private(self, user_id: int, *, never_seen: bool = False) -> None:
        """The user never started the bot: private messages to them answer 403 "bot can't
        initiate conversation with a user" (with `never_seen`, 400 "chat not found")."""
        self._blocked[user_id] = never_seen

    def unblock_private(self, user_id: int) -> None:
        self._blocked.pop(user_id, None)

    def migrate_group(self, old_chat_id: int, new_chat_id: int, *, announce: bool = False):
        """The group became a supergroup: sends to the old id answer 400 migrate_to_chat_id.
        With `announce`, the two service messages Telegram posts are queued as updates too."""
        self._migrations[old_chat_id] = new_chat_id
        if announce:
            for chat, key, value in (
                (old_chat_id, "migrate_to_chat_id", new_chat_id),
                (new_chat_id, "migrate_from_chat_id", old_chat_id),
            ):
                self.push_update(
                    {
                        "message": {
                            "message_id": self._message_id(chat),
                            "date": int(time.time()),
                            "chat": self._chat(chat, None, "PBEM game", None),
                            key: value,
                        }
                    }
                )

    def set_bot_member(self, chat_id: int, status: str = "member", **rights: bool) -> None:
        """The bot's membership of a group: "member" (the group's rights apply), "restricted"
        (each `can_*` right true unless given false), "administrator", "left" or "kicked"."""
        member: dict[str, Any] = {"status": status, "user": self._bot_user()}
        if status == "restricted":
            member |= {"is_member": True, "until_date": 0, **dict.fromkeys(RIGHTS, True)}
            member |= rights
        elif status == "administrator":
            member |= {"can_be_edited": False, "is_anonymous": False, **ADMIN_RIGHTS}
        elif status == "kicked":
            member["until_date"] = 0
        self._bot_members[chat_id] = member

    def push_my_chat_member(self, chat_id: int, status: str = "member", **rights: bool) -> None:
        """The bot's membership of a group changes (`set_bot_member`), and Telegram tells the
        bot with a `my_chat_member` update."""
        old = self._bot_members.get(chat_id, {"status": "member", "user": self._bot_user()})
        self.set_bot_member(chat_id, status, **rights)
        admin = next(iter(self.users.values()), {"id": 1, "is_bot": False, "first_name": "Admin"})
        self.push_update(
            {
                "my_chat_member": {
                    "chat": self._chat(chat_id, None, "PBEM game", None),
                    "from": admin,
                    "date": int(time.time()),
                    "old_chat_member": old,
                    "new_chat_member": self._bot_members[chat_id],
                }
            }
        )

    def set_group_permissions(self, chat_id: int, **rights: bool) -> None:
        """The rights of the group's plain members (each true unless given false)."""
        self._group_rights[chat_id] = {**dict.fromkeys(RIGHTS, True), **rights}

    def bot_may(self, chat_id: Any, right: str) -> bool:
        """Whether the bot has `right` (a `can_send_*` flag) in the chat."""
        if not isinstance(chat_id, int) or chat_id > 0:
            return True
        member = self._bot_members.get(chat_id, {"status": "member"})
        status = member["status"]
        if status in ("left", "kicked"):
            return False
        if status in ("administrator", "creator"):
            return True
        if status == "restricted":
            return bool(member.get(right, True))
        return self._group_rights.get(chat_id, {}).get(right, True)

    # ---- assertions

    def sent(self, method: str | None = None, chat_id: Any = None, ok: bool = True) -> list[Call]:
        """Successful (or, with ok=False, failed) sends, optionally of one method/chat."""
        return [
            c
            for c in self.calls
            if c.method.startswith("send")
            and (method is None or c.method == method)
            and (chat_id is None or c.chat_id == chat_id)
            and c.ok == ok
        ]

    def answered(self) -> asyncio.Event:
        """An event set once the next call has been answered (a send recorded or refused).
        Take it, look at `calls`, then wait on it (no await in between): no call is missed."""
        return self._answered

    async def wait_for_call(
        self, method: str, chat_id: Any = None, *, count: int = 1, timeout: float = 300.0
    ) -> list[Call]:
        """Wait until `count` successful `method` calls (to `chat_id`) were made; return them."""
        deadline = time.monotonic() + timeout
        while True:
            found = [
                c
                for c in self.calls
                if c.method == method and c.ok and (chat_id is None or c.chat_id == chat_id)
            ]
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                seen = [(c.method, c.chat_id, c.status) for c in self.calls]
                raise TimeoutError(f"no {count} x {method} to {chat_id} within {timeout}s: {seen}")
            await asyncio.sleep(0.01)

    # ---- the API

    async def _handle(self, request: web.Request) -> web.Response:
        try:
            return await self._answer(request)
        finally:
            self._answered.set()  # the waiters of this call wake; later ones take a new event
            self._answered = asyncio.Event()

    async def _answer(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token or self.revoked:
            return _reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        method = request.match_info["method"]
        params, files, filenames = await _read_params(request)
        call = Call(method, params, time.monotonic(), files=files, filenames=filenames)
        self.calls.append(call)
        handler = getattr(self, f"_api_{method}", None)
        try:
            await self._injected(call)
            if handler is None:
                raise FakeAPIError(404, "Not Found: method not found")
            result = await handler(call)
            call.result = result
        except FakeAPIError as exc:
            call.status, call.error = exc.code, exc.description
            body: dict[str, Any] = {
                "ok": False,
                "error_code": exc.code,
                "description": exc.description,
            }
            if exc.parameters:
                body["parameters"] = exc.parameters
            return _reply(exc.code, body)
        return _reply(200, {"ok": True, "result": result})

    async def _injected(self, call: Call) -> None:
        """A held call (answered 429 once released) or an injected failure, if one matches."""
        for hold in self._holds:
            if hold.method == call.method and hold.chat_id == call.chat_id:
                self._holds.remove(hold)
                call.status = 0  # no answer yet
                hold.held.set()
                await hold.release.wait()
                raise FakeAPIError(
                    429,
                    f"Too Many Requests: retry after {hold.retry_after}",
                    {"retry_after": hold.retry_after},
                )
        for failure in self._failures:
            method, chat_id, code, description = failure
            if method == call.method and chat_id == call.chat_id:
                self._failures.remove(failure)
                raise FakeAPIError(code, description)

    async def _api_getMe(self, call: Call) -> Any:
        return self.bot

    async def _api_deleteWebhook(self, call: Call) -> Any:
        self.webhook = None
        return True

    async def _api_setWebhook(self, call: Call) -> Any:
        self.webhook = dict(call.params)
        return True

    async def _api_getWebhookInfo(self, call: Call) -> Any:
        return {
            "url": (self.webhook or {}).get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _api_getUpdates(self, call: Call) -> Any:
        if self.webhook is not None:
            raise FakeAPIError(409, "Conflict: can't use getUpdates method while webhook is active")
        if self.conflict:
            raise FakeAPIError(409, CONFLICT)
        offset = int(call.params.get("offset") or 0)
        limit = int(call.params.get("limit") or 100)
        timeout = float(call.params.get("timeout") or 0)
        if offset:  # confirms every update before `offset`
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        deadline = time.monotonic() + timeout
        while not self._updates and not self._closing and not self.revoked and not self.conflict:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                break
        if self.revoked:
            raise FakeAPIError(401, "Unauthorized")
        if self.conflict:
            raise FakeAPIError(409, CONFLICT)
        return self._updates[:limit]

    def _bot_user(self) -> dict[str, Any]:
        return {k: self.bot[k] for k in ("id", "is_bot", "first_name", "username")}

    async def _api_getChatMember(self, call: Call) -> Any:
        if int(call.params["user_id"]) == self.bot["id"]:
            chat = int(call.params["chat_id"])
            return self._bot_members.get(chat, {"status": "member", "user": self._bot_user()})
        user = self.users.get(int(call.params["user_id"]))
        if user is None:
            raise FakeAPIError(400, "Bad Request: user not found")
        return {"status": "member", "user": user}

    async def _api_getChat(self, call: Call) -> Any:
        chat_id = call.params["chat_id"]
        if not isinstance(chat_id, int):
            raise FakeAPIError(400, "Bad Request: chat not found")
        chat = self._chat(chat_id, None, "PBEM game", self.users.get(chat_id))
        chat |= {"accent_color_id": 0, "max_reaction_count": 11}
        chat["accepted_gift_types"] = dict.fromkeys(
            (
                "unlimited_gifts",
                "limited_gifts",
                "unique_gifts",
                "premium_subscription",
                "gifts_from_channels",
            ),
            False,
        )
        if chat_id < 0:
            chat["permissions"] = self._group_rights.get(chat_id, dict.fromkeys(RIGHTS, True))
        return chat

    async def _api_setMyCommands(self, call: Call) -> Any:
        commands = call.params.get("commands") or []
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", c.get("command", "")):
                raise FakeAPIError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(c.get("description", "")) <= 256:
                raise FakeAPIError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        code = call.params.get("language_code") or ""
        if code:
            self.menus[code] = list(commands)
        else:
            self.commands = list(commands)
        return True

    async def _api_answerCallbackQuery(self, call: Call) -> Any:
        query_id = str(call.params.get("callback_query_id"))
        if query_id not in self.answers:
            raise FakeAPIError(400, "Bad Request: query is too old and response timeout expired")
        if self.answers[query_id]:
            raise FakeAPIError(400, "Bad Request: query is already answered")
        if len(call.params.get("text") or "") > 200:
            raise FakeAPIError(400, "Bad Request: MESSAGE_TOO_LONG")
        self.answers[query_id].append(dict(call.params))
        return True

    async def _api_getMyCommands(self, call: Call) -> Any:
        code = call.params.get("language_code") or ""
        return self.menus.get(code, []) if code else self.commands

    def _check_rights(self, call: Call, right: str, what: str) -> None:
        if not self.bot_may(call.chat_id, right):
            raise FakeAPIError(400, f"Bad Request: not enough rights to send {what} to the chat")

    async def _api_sendMessage(self, call: Call) -> Any:
        self._check_target(call)
        self._check_rights(call, "can_send_messages", "text messages")
        text = call.params.get("text") or ""
        rendered, entities = self._render(call, text)
        if not rendered.strip():
            raise FakeAPIError(400, "Bad Request: message text is empty")
        if utf16_len(rendered) > TEXT_LIMIT:
            raise FakeAPIError(400, "Bad Request: message is too long")
        return self._message(call, text=rendered, entities=entities)

    async def _api_sendPhoto(self, call: Call) -> Any:
        return await self._send_file(call, "photo")

    async def _api_sendDocument(self, call: Call) -> Any:
        return await self._send_file(call, "document")

    async def _send_file(self, call: Call, kind: str) -> Any:
        self._check_target(call)
        self._check_rights(call, f"can_send_{kind}s", f"{kind}s")
        data = call.files.get(kind)
        if data is None:
            raise FakeAPIError(400, f"Bad Request: there is no {kind} in the request")
        caption = call.params.get("caption") or ""
        rendered, entities = self._render(call, caption)
        if utf16_len(rendered) > CAPTION_LIMIT:
            raise FakeAPIError(400, "Bad Request: message caption is too long")
        file_id = f"{kind}-{len(self.calls)}"
        if kind == "photo":
            width, height = png_size(data)
            media: Any = [
                {
                    "file_id": file_id,
                    "file_unique_id": file_id,
                    "width": width,
                    "height": height,
                    "file_size": len(data),
                }
            ]
        else:
            media = {
                "file_id": file_id,
                "file_unique_id": file_id,
                "file_size": len(data),
                "file_name": call.filenames.get(kind, "file"),
                "mime_type": "image/png",
            }
        extra: dict[str, Any] = {kind: media}
        if rendered:
            extra.update(caption=rendered, caption_entities=entities)
        return self._message(call, **extra)

    def _render(self, call: Call, text: str) -> tuple[str, list[dict[str, Any]]]:
        mode = call.params.get("parse_mode")
        if mode == "MarkdownV2":
            rendered, entities = parse_markdown_v2(text, self.users)
        elif mode in (None, ""):
            rendered, entities = text, []
        else:
            raise FakeAPIError(400, f"Bad Request: unsupported parse_mode {mode} in this fake")
        call.rendered, call.entities = rendered, entities
        return rendered, entities

    def _check_target(self, call: Call) -> None:
        for i, (method, chat, retry_after) in enumerate(self._rate_limits):
            if method == call.method and chat == call.chat_id:
                del self._rate_limits[i]
                raise FakeAPIError(
                    429,
                    f"Too Many Requests: retry after {retry_after}",
                    {"retry_after": retry_after},
                )
        chat_id = call.chat_id
        if chat_id in self._migrations:
            raise FakeAPIError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": self._migrations[chat_id]},
            )
        if chat_id in self._blocked:
            if self._blocked[chat_id]:
                raise FakeAPIError(400, "Bad Request: chat not found")
            raise FakeAPIError(403, "Forbidden: bot can't initiate conversation with a user")
        if not isinstance(chat_id, int):
            raise FakeAPIError(400, "Bad Request: chat not found")
        status = self._bot_members.get(chat_id, {}).get("status")
        if status == "kicked":
            raise FakeAPIError(403, "Forbidden: bot was kicked from the supergroup chat")
        if status == "left":
            raise FakeAPIError(403, "Forbidden: bot is not a member of the supergroup chat")

    @staticmethod
    def _check_markup(call: Call) -> dict[str, Any] | None:
        """A sent message's reply markup, checked as Telegram checks an inline keyboard; the
        inline keyboard (kept with the message), or None."""
        markup = call.params.get("reply_markup")
        if markup is None:
            return None
        if isinstance(markup, str):
            markup = call.params["reply_markup"] = json.loads(markup)
        rows = markup.get("inline_keyboard")
        if rows is None:
            return None
        if not rows or not all(rows):
            raise FakeAPIError(400, "Bad Request: inline keyboard rows must not be empty")
        for key in (k for row in rows for k in row):
            if not key.get("text"):
                raise FakeAPIError(400, "Bad Request: text buttons are unallowed in the keyboard")
            data = key.get("callback_data")
            if data is not None and not 1 <= len(data.encode()) <= 64:
                raise FakeAPIError(400, "Bad Request: BUTTON_DATA_INVALID")
            if data is None and not key.get("url"):
                raise FakeAPIError(400, 'Bad Request: can\'t find field "callback_data"')
        return {"inline_keyboard": rows}

    def _message(self, call: Call, **content: Any) -> dict[str, Any]:
        keyboard = self._check_markup(call)
        chat_id = call.chat_id
        message: dict[str, Any] = {
            "message_id": self._message_id(chat_id),
            "date": int(time.time()),
            "chat": self._chat(chat_id, None, "PBEM game", self.users.get(chat_id)),
            "from": {k: self.bot[k] for k in ("id", "is_bot", "first_name", "username")},
            **content,
        }
        if keyboard is not None:
            message["reply_markup"] = keyboard
        self.messages[(chat_id, message["message_id"])] = message
        reply = call.params.get("reply_parameters")
        if isinstance(reply, dict):
            message["reply_to_message"] = {
                "message_id": reply["message_id"],
                "date": int(time.time()),
                "chat": message["chat"],
            }
        return message

    def _message_id(self, chat_id: int) -> int:
        self._next_message_id[chat_id] = self._next_message_id.get(chat_id, 0) + 1
        return self._next_message_id[chat_id]

    @staticmethod
    def _chat(
        chat_id: int, chat_type: str | None, title: str, user: dict[str, Any] | None
    ) -> dict[str, Any]:
        if chat_type is None:
            if chat_id > 0:
                chat_type = "private"
            else:
                chat_type = "supergroup" if str(chat_id).startswith("-100") else "group"
        chat: dict[str, Any] = {"id": chat_id, "type": chat_type}
        if chat_type == "private":
            chat["first_name"] = (user or {}).get("first_name", "User")
            if user and user.get("username"):
                chat["username"] = user["username"]
        else:
            chat["title"] = title
        return chat


async def _read_params(
    request: web.Request,
) -> tuple[dict[str, Any], dict[str, bytes], dict[str, str]]:
    """Form fields (JSON-encoded values, strings raw), multipart files, or a JSON body."""
    params: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    filenames: dict[str, str] = {}
    if request.content_type == "application/json":
        body = await request.json()
        return (body if isinstance(body, dict) else {}), files, filenames
    form = await request.post()
    for name, value in form.items():
        if isinstance(value, web.FileField):
            with value.file:
                files[name] = value.file.read()
            filenames[name] = value.filename
        elif name in STRING_FIELDS:
            params[name] = value
        else:
            try:
                params[name] = json.loads(value)
            except (TypeError, ValueError):
                params[name] = value
    return params, files, filenames


def _reply(status: int, body: dict[str, Any]) -> web.Response:
    return web.Response(
        status=status, body=json.dumps(body).encode(), content_type="application/json"
    )

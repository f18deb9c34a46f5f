"""A local fake of Discord (gateway websocket + REST API) for running the REAL discord.py offline.

Test code, not product code. One aiohttp.web server on 127.0.0.1 serves both:

- the gateway (`/gateway`, JSON text frames, no compression): HELLO, IDENTIFY -> READY then one
  GUILD_CREATE (one guild, one text channel `#game`, one thread `game-thread`, the bot and the test
  users as members), heartbeat ACK, RESUME -> RESUMED; several shards (each IDENTIFY with its own
  `shard`), the guild going to the shard `(guild_id >> 22) % shard_count`, DMs to shard 0;
- the REST calls discord.py makes for a bot: `GET /gateway`, `GET /gateway/bot`, `GET /users/@me`,
  `GET /oauth2/applications/@me`, `PUT /applications/{app}/commands` (and the guild variant:
  `tree.sync`), `POST /channels/{id}/messages` (JSON or multipart with files),
  `POST /users/@me/channels` (open a DM), `POST /interactions/{id}/{token}/callback`
  (`?with_response=1`, answered with an InteractionCallbackResponse), `POST /webhooks/{app}/{token}`
  (followups) and `PATCH|GET /webhooks/{app}/{token}/messages/@original`.

What Discord does and this fake copies, because the adapter's correctness depends on it:
- without the privileged MESSAGE_CONTENT intent (bit 15 in IDENTIFY), a guild message that does not
  mention the bot arrives with empty `content` (DMs and mentions keep theirs);
- the first followup after a *deferred* interaction response replaces the "thinking" message and keeps
  the DEFER's ephemerality, whatever flags the followup carries (Discord's documented behaviour);
- a second initial response to one interaction is refused (40060, already acknowledged), and so is
  one later than `interaction_deadline` (3 s) after the interaction (10062, unknown interaction);
- a DM to a user who does not accept them is refused (403, code 50007); `dm_forbidden` makes a
  user's DMs answer another 403 (e.g. 50001 Missing Access);
- the bot's permissions in a channel: `deny_bot("attach_files", ...)` writes a permission
  overwrite denying them to the bot's member on `#game` and the thread (a CHANNEL_UPDATE when
  connected); a post the bot may not make is refused (403, 50013 Missing Permissions; a reply
  without Read Message History: 160002), as Discord does. The @everyone role has every
  permission but Administrator (which would override any overwrite); `everyone` changes that
  for the next IDENTIFY (a server whose roles fall short).

Pitfalls of the real library the fake honours (see ../shared/notes/libraries.md): responses carry
`Content-Type: application/json` exactly; ids are real snowflakes; members carry `flags`; a 429 carries
a `Via` header (without it discord.py assumes a Cloudflare ban and does not retry).

Knobs and records: `rate_limit_next(...)` makes the next create-message answer 429;
`drop_gateway()` / `restore_gateway()` cut the gateway as a network drop does, and let discord.py
reconnect (RESUME) once restored; `calls` holds every
REST call (including the 429s), `sent` every message that was delivered (channel id, content,
attachment bytes, flags, effective ephemerality); `wait_for_sent(...)` waits for deliveries, and
the event `answered()` is set as each REST call is answered.

Use:  async with FakeDiscord() as fake:  (patches discord.http.Route.BASE and
DiscordWebSocket.DEFAULT_GATEWAY while it runs, restores them on exit).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import secrets
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Self

import yarl
from aiohttp import WSMsgType, web

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord.gateway
    import discord.http

DISCORD_EPOCH_MS = 1420070400000
MESSAGE_CONTENT_INTENT = 1 << 15
EPHEMERAL = 1 << 6
LOADING = 1 << 7
ADMINISTRATOR = 1 << 3
EVERYONE = 2251799813685247 & ~ADMINISTRATOR  # every permission but Administrator
API_PREFIX = "/api/v10"

# channel types
GUILD_TEXT, DM, PUBLIC_THREAD = 0, 1, 11
# interaction callback types
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE = 4, 5
DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 6, 7, 8, 9
# interaction types
COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 3, 4, 5


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Real snowflakes: (ms since the Discord epoch) << 22 | a counter, strictly increasing."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> str:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._counter) & 0x3FFFFF))


@dataclass
class Call:
    """One REST call the library made."""

    method: str
    path: str
    query: dict[str, str]
    status: int
    json: Any = None  # the JSON body (payload_json for multipart)
    files: list[tuple[str, bytes]] = field(default_factory=list)  # (filename, bytes)


@dataclass
class Sent:
    """One message the library delivered (after any 429 retry)."""

    kind: str  # "channel" | "dm" | "interaction" | "followup" | "edit_original"
    channel_id: str
    content: str
    files: list[tuple[str, bytes]]
    flags: int  # as requested by the library
    ephemeral: bool  # as Discord shows it (a followup replacing a defer keeps the defer's)
    message_id: str
    interaction_id: str | None = None
    recipient_id: str | None = None  # for a DM: the user it went to
    allowed_mentions: dict | None = None
    reference: dict | None = None  # message_reference (a reply)
    payload: dict = field(default_factory=dict)

    @property
    def components(self) -> list[dict]:
        """The components sent with the message (action rows), as Discord received them."""
        return list(self.payload.get("components") or [])

    @property
    def buttons(self) -> list[dict]:
        """Its buttons, row after row: {"label", "custom_id", "style", "disabled", ...}."""
        return buttons_of(self.components)


def buttons_of(components: list[dict]) -> list[dict]:
    """The buttons of a message's components, row after row."""
    found: list[dict] = []
    for row in components:
        for item in row.get("components") or []:
            if item.get("type") == 2:
                found.append(item)
    return found


@dataclass
class _Interaction:
    id: str
    token: str
    channel_id: str
    user_id: str
    acked: int | None = None  # callback type answered
    loading: bool = False  # a deferred response still "thinking"
    defer_ephemeral: bool = False
    original_id: str | None = None
    created: float = field(default_factory=time.monotonic)
    message_id: str | None = None  # a component's or a modal's: the message it was on


@dataclass
class _Conn:
    ws: web.WebSocketResponse
    request: web.Request | None = None
    shard_id: int = 0
    shard_count: int = 1
    intents: int = 0
    seq: int = 0
    identified: asyncio.Event = field(default_factory=asyncio.Event)


class FakeDiscord:
    def __init__(
        self, *, shards: int = 1, enforce_message_content: bool = True, patch: bool = True
    ):
        self.patch = patch  # False: the bot must be pointed here (DISCORD_API_BASE ...)
        self.shards = shards
        self.enforce_message_content = enforce_message_content
        self.snowflake = Snowflakes()
        self.application_id = self.snowflake()
        # shaped as Discord's: the bot's id in base64, then two parts (`pbem invite` reads the id)
        head = base64.b64encode(self.application_id.encode()).decode().rstrip("=")
        self.token = f"{head}.fake.discord-token"
        self.bot_user = self._user_payload(self.application_id, "pbem", bot=True)
        self.guild_id = self.snowflake()
        self.channel_id = self.snowflake()
        self.thread_id = self.snowflake()
        self.users: dict[str, dict] = {}
        self.dm_blocked: set[str] = set()  # user ids that refuse DMs (403, code 50007)
        self.dm_forbidden: dict[str, tuple[int, str]] = {}  # user id -> another 403's (code, text)
        self.dm_channels: dict[str, str] = {}  # dm channel id -> user id
        self.interaction_deadline = 3.0  # seconds to the initial response, as on Discord
        self.calls: list[Call] = []
        self.sent: list[Sent] = []
        self.unexpected: list[Call] = []
        self.commands: list[dict] = []  # the application commands synced (tree.sync)
        self.sync_calls = 0
        self.identifies: list[dict] = []
        self.bot_denied = 0  # permission bits denied to the bot in #game and the thread
        self.everyone = EVERYONE  # the @everyone role's permissions (sent at IDENTIFY)
        self.reject_token = False  # True: the login is refused (401), as for a wrong token
        self._interactions: dict[str, _Interaction] = {}
        # every message the bot made, as it stands now (edits and updates applied): id -> payload
        self.messages: dict[str, dict] = {}
        self.choices: dict[str, list[dict]] = {}  # autocomplete interaction id -> its choices
        self.modals: dict[str, dict] = {}  # interaction id -> the modal it was answered with
        self._rate_limits: list[tuple[str, float, bool]] = []  # (kind, retry_after, via)
        self._conns: list[_Conn] = []
        self._gateway_up = asyncio.Event()  # cleared: the network is down (`drop_gateway`)
        self._gateway_up.set()
        self.gateway_waiting = asyncio.Event()  # a connection waits for the network's return
        self._changed = asyncio.Condition()
        self._answered = asyncio.Event()  # set, then replaced, as each REST call is answered
        self._runner: web.AppRunner | None = None
        self._saved: tuple[str, yarl.URL] | None = None
        self.port = 0

    # --- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> Self:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        if not self.patch:
            return self
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = f"{self.base_url}{API_PREFIX}"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        return self

    async def stop(self) -> None:
        self._gateway_up.set()
        for conn in list(self._conns):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # --- test-facing helpers ---------------------------------------------------------------------

    def user(self, name: str) -> dict:
        """A guild member (created on first use): the user payload, `id` a snowflake string."""
        for u in self.users.values():
            if u["username"] == name:
                return u
        u = self._user_payload(self.snowflake(), name)
        self.users[u["id"]] = u
        return u

    def rate_limit_next(
        self, kind: str = "message", *, retry_after: float = 0.05, count: int = 1, via: bool = True
    ) -> None:
        """Make the next `count` create-message calls (`kind` "message": channel or DM posts;
        "followup": interaction followups) answer 429 with `retry_after` seconds."""
        self._rate_limits.extend([(kind, retry_after, via)] * count)

    async def close_gateway(self, code: int) -> None:
        """Close every gateway connection with `code` (4004 authentication failed, 4011
        sharding required, 4014 disallowed intents: closes discord.py does not reconnect after)."""
        for conn in list(self._conns):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=code, message=b"closed by the fake")

    async def drop_gateway(self) -> None:
        """A network drop: every gateway connection is cut (its TCP connection aborted, no
        close frame), and a new one is upgraded but sent no HELLO until `restore_gateway`;
        `gateway_waiting` is set once one waits (discord.py is reconnecting)."""
        self._gateway_up.clear()
        self.gateway_waiting.clear()
        for conn in list(self._conns):
            transport = conn.request.transport if conn.request is not None else None
            if transport is not None:
                transport.abort()

    def restore_gateway(self) -> None:
        """The network is back: a waiting connection gets its HELLO (then RESUME -> RESUMED)."""
        self._gateway_up.set()

    async def deny_bot(self, *flags: str) -> None:
        """Deny the bot these permissions (discord.Permissions flag names) in `#game` and the
        thread, on top of those denied already; told to a connected bot as CHANNEL_UPDATE."""
        self.bot_denied |= discord.Permissions(**dict.fromkeys(flags, True)).value
        for conn in self._conns:
            if conn.identified.is_set() and (int(self.guild_id) >> 22) % conn.shard_count == (
                conn.shard_id
            ):
                await self._dispatch(conn, "CHANNEL_UPDATE", self._channel_payload(self.channel_id))

    async def allow_bot(self, *flags: str) -> None:
        """Give back permissions `deny_bot` took (told to a connected bot as CHANNEL_UPDATE)."""
        self.bot_denied &= ~discord.Permissions(**dict.fromkeys(flags, True)).value
        await self.deny_bot()

    def bot_may(self, channel_id: str, flag: str) -> bool:
        """Whether the bot holds the permission `flag` in the channel (DMs: always)."""
        if channel_id in self.dm_channels:
            return True
        return not self.bot_denied & discord.Permissions(**{flag: True}).value

    async def send_message(
        self,
        content: str,
        *,
        author: dict,
        channel_id: str | None = None,
        dm: bool = False,
        mention_bot: bool = False,
    ) -> dict:
        """Dispatch MESSAGE_CREATE: a user typing `content` in a guild channel (default `#game`),
        the thread (`channel_id=fake.thread_id`), or a DM with the bot (`dm=True`).
        `mention_bot=True` prefixes `<@bot>` (and lists the bot in `mentions`)."""
        if mention_bot:
            content = f"<@{self.application_id}> {content}"
        msg: dict[str, Any] = {
            "id": self.snowflake(),
            "type": 0,
            "content": content,
            "author": author,
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "flags": 0,
            "components": [],
        }
        if f"<@{self.application_id}>" in content or f"<@!{self.application_id}>" in content:
            msg["mentions"].append(self.bot_user)
        if dm:
            msg["channel_id"] = self._dm_channel_for(author["id"])
            shard = 0
        else:
            msg["channel_id"] = channel_id or self.channel_id
            msg["guild_id"] = self.guild_id
            msg["member"] = self._member_payload(author, with_user=False)
            shard = self.guild_shard
        conn = await self._conn_for(shard)
        payload = dict(msg)
        if (
            not dm
            and self.enforce_message_content
            and not conn.intents & MESSAGE_CONTENT_INTENT
            and not msg["mentions"]
        ):
            payload.update(content="", embeds=[], attachments=[], components=[])
        await self._dispatch(conn, "MESSAGE_CREATE", payload)
        return payload

    async def send_command(
        self,
        name: str,
        options: dict[str, str] | None = None,
        *,
        user: dict,
        channel_id: str | None = None,
        dm: bool = False,
        locale: str = "en-US",
    ) -> dict:
        """Dispatch INTERACTION_CREATE: `user` runs the slash command `/name` with string options
        (locale: the user's client language, which Discord sends with every interaction)."""
        iid, token = self.snowflake(), secrets.token_urlsafe(24)
        cmd_id = next((c["id"] for c in self.commands if c["name"] == name), self.snowflake())
        data: dict[str, Any] = {"id": cmd_id, "name": name, "type": 1}
        if options:
            data["options"] = [{"name": k, "type": 3, "value": v} for k, v in options.items()]
        payload: dict[str, Any] = {
            "id": iid,
            "application_id": self.application_id,
            "type": 2,
            "data": data,
            "token": token,
            "version": 1,
            "app_permissions": "2251799813685247",
            "locale": locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if dm:
            ch = self._dm_channel_for(user["id"])
            payload.update(
                user=user,
                channel_id=ch,
                context=1,
                channel={"id": ch, "type": DM, "recipients": [user], "last_message_id": None},
                authorizing_integration_owners={"0": self.application_id},
            )
            shard = 0
        else:
            ch = channel_id or self.channel_id
            member = self._member_payload(user)
            member["permissions"] = "2251799813685247"
            payload.update(
                guild_id=self.guild_id,
                guild_locale="en-US",
                channel_id=ch,
                context=0,
                channel=self._channel_payload(ch),
                member=member,
                authorizing_integration_owners={"0": self.guild_id},
            )
            shard = self.guild_shard
        self._interactions[iid] = _Interaction(iid, token, ch, user["id"])
        await self._dispatch(await self._conn_for(shard), "INTERACTION_CREATE", payload)
        return payload

    def answered(self) -> asyncio.Event:
        """An event set once the next REST call has been answered (a message delivered or
        refused). Take it, look at `sent`, then wait on it (no await in between): no delivery
        is missed."""
        return self._answered

    # --- components, modals and autocompletion (playing by taps) --------------------------------

    def message(self, message_id: str) -> dict:
        """A message the bot made, as it stands now (its edits and updates applied)."""
        return self.messages[message_id]

    def buttons(self, message_id: str) -> list[dict]:
        """The buttons of a message as it stands now, row after row."""
        return buttons_of(self.messages[message_id].get("components") or [])

    async def press(
        self,
        message_id: str,
        custom_id: str,
        *,
        user: dict,
        locale: str = "en-US",
    ) -> str:
        """Dispatch INTERACTION_CREATE type 3: `user` presses the button `custom_id` of the
        message (which carries it, as Discord checks). Returns the interaction id."""
        msg = self.messages[message_id]
        if custom_id not in [b.get("custom_id") for b in buttons_of(msg.get("components") or [])]:
            raise AssertionError(f"no button {custom_id!r} on message {message_id}")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(COMPONENT, data, user, msg["channel_id"], locale, msg)

    async def submit_modal(
        self,
        custom_id: str,
        values: dict[str, str],
        *,
        user: dict,
        message_id: str | None = None,
        channel_id: str | None = None,
        locale: str = "en-US",
    ) -> str:
        """Dispatch INTERACTION_CREATE type 5: `user` submits the modal `custom_id` with its text
        inputs (custom id -> text), each in a label (component type 18); `message_id`: the
        message whose button opened it. Returns the interaction id."""
        rows = []
        for n, (k, v) in enumerate(values.items()):
            text_input = {"type": 4, "id": n * 2 + 2, "custom_id": k, "value": v}
            rows.append({"type": 18, "id": n * 2 + 1, "component": text_input})
        msg = self.messages[message_id] if message_id else None
        where = msg["channel_id"] if msg else channel_id or self.channel_id
        data = {"custom_id": custom_id, "components": rows}
        return await self._interact(MODAL_SUBMIT, data, user, where, locale, msg)

    async def autocomplete(
        self,
        name: str,
        option: str,
        typed: str,
        *,
        user: dict,
        channel_id: str | None = None,
        locale: str = "en-US",
    ) -> str:
        """Dispatch INTERACTION_CREATE type 4: `user` has typed `typed` in the option `option`
        of `/name`. Returns the interaction id (`wait_choices` gives the choices answered)."""
        cmd_id = next((c["id"] for c in self.commands if c["name"] == name), self.snowflake())
        data = {
            "id": cmd_id,
            "name": name,
            "type": 1,
            "options": [{"name": option, "type": 3, "value": typed, "focused": True}],
        }
        return await self._interact(AUTOCOMPLETE, data, user, channel_id, locale, None)

    async def wait_choices(self, interaction_id: str, timeout: float = 300.0) -> list[dict]:
        """The choices the bot answered an autocomplete with ({"name", "value"})."""
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: interaction_id in self.choices), timeout
            )
        return self.choices[interaction_id]

    async def wait_answered(self, interaction_id: str, timeout: float = 300.0) -> int:
        """Wait until the interaction has its initial response; its callback type."""
        inter = self._interactions[interaction_id]
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: inter.acked is not None), timeout)
        return int(inter.acked or 0)

    async def _interact(
        self,
        kind: int,
        data: dict,
        user: dict,
        channel_id: str | None,
        locale: str,
        message: dict | None,
    ) -> str:
        iid, token = self.snowflake(), secrets.token_urlsafe(24)
        payload: dict[str, Any] = {
            "id": iid,
            "application_id": self.application_id,
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "app_permissions": "2251799813685247",
            "locale": locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        ch = channel_id or self.channel_id
        if ch in self.dm_channels:
            payload.update(
                user=user,
                channel_id=ch,
                context=1,
                channel={"id": ch, "type": DM, "recipients": [user], "last_message_id": None},
                authorizing_integration_owners={"0": self.application_id},
            )
            shard = 0
        else:
            member = self._member_payload(user)
            member["permissions"] = "2251799813685247"
            payload.update(
                guild_id=self.guild_id,
                guild_locale="en-US",
                channel_id=ch,
                context=0,
                channel=self._channel_payload(ch),
                member=member,
                authorizing_integration_owners={"0": self.guild_id},
            )
            shard = self.guild_shard
        inter = _Interaction(iid, token, ch, user["id"])
        inter.message_id = message["id"] if message is not None else None
        self._interactions[iid] = inter
        await self._dispatch(await self._conn_for(shard), "INTERACTION_CREATE", payload)
        return iid

    def _component_callback(
        self,
        inter: _Interaction,
        kind: int,
        data: dict,
        files: list[tuple[str, bytes]],
        request: web.Request,
    ) -> web.Response:
        """A response of type 6 (deferred update), 7 (update the message), 8 (autocomplete
        choices) or 9 (a modal)."""
        resource: dict[str, Any] = {"type": kind}
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            if inter.message_id is None:
                raise _Refuse(400, 50035, "Invalid Form Body: no message to update")
            inter.original_id = inter.message_id  # later edits of @original edit that message
            if kind == UPDATE_MESSAGE:
                resource["message"] = self._update(inter, data, files)
        elif kind == AUTOCOMPLETE_RESULT:
            choices = list(data.get("choices") or [])
            if len(choices) > 25 or any(
                not 1 <= len(c["name"]) <= 100 or len(str(c["value"])) > 100 for c in choices
            ):
                raise _Refuse(400, 50035, "Invalid Form Body: choices")
            self.choices[inter.id] = choices
        else:
            self.modals[inter.id] = data
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer = {
            "interaction": {
                "id": inter.id,
                "type": 3,
                "response_message_id": inter.message_id,
                "response_message_loading": False,
                "response_message_ephemeral": False,
            },
            "resource": resource,
        }
        return self._json(answer)

    def _update(self, inter: _Interaction, body: dict, files: list[tuple[str, bytes]]) -> dict:
        """The message a component was on, edited (its content and components replaced)."""
        msg = self.messages[inter.message_id or ""]
        if "content" in body:
            msg["content"] = body.get("content") or ""
        if "components" in body:
            msg["components"] = body.get("components") or []
        msg["edited_timestamp"] = _now_iso()
        ephemeral = bool(int(msg.get("flags") or 0) & EPHEMERAL)
        shown = {"content": msg["content"], "components": msg["components"]}
        flags = int(msg.get("flags") or 0)
        kind = "update"
        self._record(kind, inter.channel_id, shown, files, flags, ephemeral, msg["id"])
        self.sent[-1].interaction_id = inter.id
        return msg

    async def wait_for_sent(
        self,
        predicate: Callable[[Sent], bool] | None = None,
        *,
        count: int = 1,
        timeout: float = 300.0,
    ) -> list[Sent]:
        """Wait until at least `count` delivered messages match `predicate`; return them."""
        pred = predicate or (lambda s: True)

        def matching() -> list[Sent]:
            return [s for s in self.sent if pred(s)]

        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: len(matching()) >= count), timeout
            )
        return matching()

    async def wait_identified(self, timeout: float = 300.0) -> None:
        async def all_shards() -> None:
            while len(self._conns) < self.shards:
                await asyncio.sleep(0.01)
            await asyncio.gather(*(c.identified.wait() for c in self._conns))

        await asyncio.wait_for(all_shards(), timeout)

    @property
    def guild_shard(self) -> int:
        count = self._conns[0].shard_count if self._conns else self.shards
        return (int(self.guild_id) >> 22) % count

    # --- payloads --------------------------------------------------------------------------------

    @staticmethod
    def _user_payload(uid: str, name: str, *, bot: bool = False) -> dict:
        u = {
            "id": uid,
            "username": name,
            "discriminator": "0",
            "global_name": name.title(),
            "avatar": None,
            "public_flags": 0,
        }
        if bot:
            u["bot"] = True
        return u

    def _member_payload(self, user: dict, *, with_user: bool = True) -> dict:
        m: dict[str, Any] = {
            "roles": [],
            "joined_at": _now_iso(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "avatar": None,
            "pending": False,
        }
        if with_user:
            m["user"] = user
        return m

    def _channel_payload(self, cid: str) -> dict:
        if cid == self.thread_id:
            return {
                "id": cid,
                "type": PUBLIC_THREAD,
                "guild_id": self.guild_id,
                "parent_id": self.channel_id,
                "owner_id": self.application_id,
                "name": "game-thread",
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": _now_iso(),
                    "locked": False,
                },
            }
        overwrites = []
        if self.bot_denied:
            overwrites.append(
                {"id": self.application_id, "type": 1, "allow": "0", "deny": str(self.bot_denied)}
            )
        return {
            "id": cid,
            "type": GUILD_TEXT,
            "guild_id": self.guild_id,
            "name": "game",
            "position": 0,
            "permission_overwrites": overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def _guild_payload(self) -> dict:
        gid = self.guild_id
        members = [self._member_payload(self.bot_user)]
        members += [self._member_payload(u) for u in self.users.values()]
        return {
            "id": gid,
            "name": "Wargamers",
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": next(iter(self.users), self.application_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": gid,
                    "name": "@everyone",
                    "permissions": str(self.everyone),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [self._channel_payload(self.channel_id)],
            "threads": [self._channel_payload(self.thread_id)],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _message_payload(
        self,
        channel_id: str,
        body: dict,
        files: list[tuple[str, bytes]],
        flags: int,
        *,
        webhook: bool = False,
    ) -> dict:
        mid = self.snowflake()
        msg: dict[str, Any] = {
            "id": mid,
            "type": 0,
            "channel_id": channel_id,
            "author": self.bot_user,
            "content": body.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "embeds": body.get("embeds") or [],
            "pinned": False,
            "flags": flags,
            "components": body.get("components") or [],
            "attachments": [
                {
                    "id": self.snowflake(),
                    "filename": name,
                    "size": len(data),
                    "url": f"{self.base_url}/attachments/{channel_id}/{mid}/{name}",
                    "proxy_url": f"{self.base_url}/attachments/{channel_id}/{mid}/{name}",
                    "content_type": "image/png" if name.endswith(".png") else None,
                }
                for name, data in files
            ],
        }
        if webhook:
            msg["webhook_id"] = self.application_id
        if channel_id not in self.dm_channels:
            msg["guild_id"] = self.guild_id
        return msg

    def _dm_channel_for(self, user_id: str) -> str:
        for cid, uid in self.dm_channels.items():
            if uid == user_id:
                return cid
        cid = self.snowflake()
        self.dm_channels[cid] = user_id
        return cid

    # --- gateway ---------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        conn = _Conn(ws, request)
        self._conns.append(conn)
        try:
            if not self._gateway_up.is_set():
                self.gateway_waiting.set()
                await self._gateway_up.wait()
            await self._send(conn, {"op": 10, "d": {"heartbeat_interval": 41250}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == 1:  # heartbeat
                    await self._send(conn, {"op": 11})
                elif op == 2:  # identify
                    await self._identify(conn, d)
                elif op == 6:  # resume
                    await self._dispatch(conn, "RESUMED", {})
        finally:
            self._conns.remove(conn)
        return ws

    async def _identify(self, conn: _Conn, d: dict) -> None:
        self.identifies.append(d)
        conn.intents = d.get("intents", 0)
        conn.shard_id, conn.shard_count = d.get("shard", [0, 1])
        mine = (int(self.guild_id) >> 22) % conn.shard_count == conn.shard_id
        ready = {
            "v": 10,
            "user": {
                **self.bot_user,
                "verified": True,
                "mfa_enabled": False,
                "flags": 0,
                "email": None,
            },
            "guilds": [{"id": self.guild_id, "unavailable": True}] if mine else [],
            "session_id": secrets.token_hex(16),
            "resume_gateway_url": self.gateway_url,
            "application": {"id": self.application_id, "flags": 0},
            "shard": [conn.shard_id, conn.shard_count],
            "private_channels": [],
        }
        await self._dispatch(conn, "READY", ready)
        if mine:
            await self._dispatch(conn, "GUILD_CREATE", self._guild_payload())
        conn.identified.set()

    async def _send(self, conn: _Conn, frame: dict) -> None:
        await conn.ws.send_str(json.dumps(frame))

    async def _dispatch(self, conn: _Conn, event: str, data: dict) -> None:
        conn.seq += 1
        await self._send(conn, {"op": 0, "t": event, "s": conn.seq, "d": data})

    async def _conn_for(self, shard: int) -> _Conn:
        await self.wait_identified()
        for c in self._conns:
            if c.shard_id == shard:
                return c
        raise RuntimeError(f"no gateway connection for shard {shard}")

    # --- REST ------------------------------------------------------------------------------------

    @staticmethod
    def _json(data: Any, status: int = 200, headers: dict | None = None) -> web.Response:
        # exactly "application/json": discord.py compares the header verbatim
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={"Content-Type": "application/json", **(headers or {})},
        )

    async def _read_body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: Any = None
            files: list[tuple[str, bytes]] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":  # type: ignore[union-attr]
                    payload = json.loads(data)
                else:
                    files.append((part.filename or "", bytes(data)))  # type: ignore[union-attr]
            return payload, files
        raw = await request.read()
        return (json.loads(raw) if raw else None), []

    async def _rest(self, request: web.Request) -> web.Response:
        body, files = await self._read_body(request)
        path = "/" + request.match_info["tail"]
        parts = path.strip("/").split("/")
        call = Call(request.method, path, dict(request.query), 200, body, files)
        self.calls.append(call)
        try:
            response = await self._route(request.method, parts, request, body or {}, files, call)
        except _Refuse as refusal:
            response = self._json(
                {"message": refusal.message, "code": refusal.code}, refusal.status
            )
        call.status = response.status
        self._answered.set()  # the waiters of this call wake; later ones take a new event
        self._answered = asyncio.Event()
        async with self._changed:
            self._changed.notify_all()
        return response

    def _take_rate_limit(self, kind: str) -> web.Response | None:
        for i, (k, retry_after, via) in enumerate(self._rate_limits):
            if k == kind:
                del self._rate_limits[i]
                headers = {"Via": "1.1 google"} if via else {}
                headers.update(
                    {
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(retry_after),
                        "X-RateLimit-Scope": "user",
                    }
                )
                return self._json(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": retry_after,
                        "global": False,
                    },
                    429,
                    headers,
                )
        return None

    async def _route(
        self,
        method: str,
        parts: list[str],
        request: web.Request,
        body: dict,
        files: list[tuple[str, bytes]],
        call: Call,
    ) -> web.Response:
        match (method, parts):
            case ("GET", ["gateway"]):
                return self._json({"url": self.gateway_url})
            case ("GET", ["gateway", "bot"]):
                return self._json(
                    {
                        "url": self.gateway_url,
                        "shards": self.shards,
                        "session_start_limit": {
                            "total": 1000,
                            "remaining": 1000,
                            "reset_after": 0,
                            "max_concurrency": 1,
                        },
                    }
                )
            case ("GET", ["users", "@me"]) if self.reject_token:
                raise _Refuse(401, 0, "401: Unauthorized")
            case ("GET", ["users", "@me"]):
                return self._json(
                    {
                        **self.bot_user,
                        "verified": True,
                        "mfa_enabled": False,
                        "flags": 0,
                        "email": None,
                    }
                )
            case ("GET", ["oauth2", "applications", "@me"]):
                return self._json(
                    {
                        "id": self.application_id,
                        "name": "pbem",
                        "icon": None,
                        "description": "",
                        "bot_public": True,
                        "bot_require_code_grant": False,
                        "verify_key": "0" * 64,
                        "owner": self._user_payload(self.snowflake(), "owner"),
                        "flags": 0,
                        "team": None,
                    }
                )
            case ("PUT", ["applications", _app, "commands"]) | (
                "PUT",
                ["applications", _app, "guilds", _, "commands"],
            ):
                self.sync_calls += 1
                self.commands = [
                    {
                        **c,
                        "id": self.snowflake(),
                        "application_id": self.application_id,
                        "version": self.snowflake(),
                    }
                    for c in body or []
                ]
                return self._json(self.commands)
            case ("POST", ["users", "@me", "channels"]):
                uid = str(body["recipient_id"])
                cid = self._dm_channel_for(uid)
                recipient = self.users.get(uid) or self._user_payload(uid, f"user{uid[-4:]}")
                return self._json(
                    {
                        "id": cid,
                        "type": DM,
                        "recipients": [recipient],
                        "last_message_id": None,
                        "flags": 0,
                    }
                )
            case ("POST", ["channels", channel_id, "messages"]):
                if limited := self._take_rate_limit("message"):
                    return limited
                return self._create_message(channel_id, body, files)
            case ("POST", ["interactions", iid, token, "callback"]):
                return self._callback(iid, token, body, files, request)
            case ("POST", ["webhooks", app_id, token]) if app_id == self.application_id:
                if limited := self._take_rate_limit("followup"):
                    return limited
                return self._followup(token, body, files)
            case ("PATCH", ["webhooks", app_id, token, "messages", "@original"]):
                return self._edit_original(token, body, files)
        self.unexpected.append(call)
        raise _Refuse(404, 0, f"404: Not Found ({method} /{'/'.join(parts)})")

    def _create_message(
        self, channel_id: str, body: dict, files: list[tuple[str, bytes]]
    ) -> web.Response:
        recipient = self.dm_channels.get(channel_id)
        if recipient is not None and recipient in self.dm_blocked:
            raise _Refuse(403, 50007, "Cannot send messages to this user")
        if recipient is not None and recipient in self.dm_forbidden:
            raise _Refuse(403, *self.dm_forbidden[recipient])
        if recipient is None and channel_id not in (self.channel_id, self.thread_id):
            raise _Refuse(404, 10003, "Unknown Channel")
        if recipient is None:
            send = "send_messages_in_threads" if channel_id == self.thread_id else "send_messages"
            for flag in ("view_channel", send) + (("attach_files",) if files else ()):
                if not self.bot_may(channel_id, flag):
                    raise _Refuse(403, 50013, "Missing Permissions")
            if body.get("message_reference") and not self.bot_may(
                channel_id, "read_message_history"
            ):
                raise _Refuse(
                    403, 160002, "Cannot reply without permission to read message history"
                )
        self._check_content(body, files)
        flags = int(body.get("flags") or 0)
        msg = self._message_payload(channel_id, body, files, flags)
        self.messages[msg["id"]] = msg
        self._record(
            "dm" if recipient else "channel",
            channel_id,
            body,
            files,
            flags,
            False,
            msg["id"],
            recipient_id=recipient,
        )
        return self._json(msg)

    def _callback(
        self, iid: str, token: str, body: dict, files: list[tuple[str, bytes]], request: web.Request
    ) -> web.Response:
        inter = self._interactions.get(iid)
        if inter is None or inter.token != token:
            raise _Refuse(404, 10062, "Unknown interaction")
        if inter.acked is not None:
            raise _Refuse(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - inter.created > self.interaction_deadline:
            raise _Refuse(404, 10062, "Unknown interaction")  # answered too late
        kind = body["type"]
        data = body.get("data") or {}
        flags = int(data.get("flags") or 0)
        inter.acked = kind
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL):
            return self._component_callback(inter, kind, data, files, request)
        mid = self.snowflake()
        inter.original_id = mid
        resource: dict[str, Any] = {"type": kind}
        if kind == DEFERRED_CHANNEL_MESSAGE:
            inter.loading = True
            inter.defer_ephemeral = bool(flags & EPHEMERAL)
            msg = self._message_payload(inter.channel_id, {}, [], flags | LOADING, webhook=True)
            msg["id"] = mid
            resource["message"] = msg
        elif kind == CHANNEL_MESSAGE:
            self._check_content(data, files)
            msg = self._message_payload(inter.channel_id, data, files, flags, webhook=True)
            msg["id"] = mid
            resource["message"] = msg
            self.messages[mid] = msg
            self._record(
                "interaction",
                inter.channel_id,
                data,
                files,
                flags,
                bool(flags & EPHEMERAL),
                mid,
                interaction_id=iid,
            )
        else:
            raise _Refuse(400, 50035, f"callback type {kind} not supported by the fake")
        answer = {
            "interaction": {
                "id": iid,
                "type": 2,
                "response_message_id": mid,
                "response_message_loading": inter.loading,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            },
            "resource": resource,
        }
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        return self._json(answer)

    def _interaction_by_token(self, token: str) -> _Interaction:
        for inter in self._interactions.values():
            if inter.token == token:
                return inter
        raise _Refuse(404, 10015, "Unknown Webhook")

    def _followup(self, token: str, body: dict, files: list[tuple[str, bytes]]) -> web.Response:
        inter = self._interaction_by_token(token)
        if inter.acked is None:
            raise _Refuse(404, 10015, "Unknown Webhook")  # no followup before the response
        self._check_content(body, files)
        flags = int(body.get("flags") or 0)
        if inter.loading:  # Discord: this followup replaces the "thinking" message, defer's flags
            inter.loading = False
            ephemeral = inter.defer_ephemeral
            mid = inter.original_id or self.snowflake()
        else:
            ephemeral = bool(flags & EPHEMERAL)
            mid = self.snowflake()
        shown = (flags & ~EPHEMERAL) | (EPHEMERAL if ephemeral else 0)
        msg = self._message_payload(inter.channel_id, body, files, shown, webhook=True)
        msg["id"] = mid
        self.messages[mid] = msg
        self._record(
            "followup",
            inter.channel_id,
            body,
            files,
            flags,
            ephemeral,
            mid,
            interaction_id=inter.id,
        )
        return self._json(msg)

    def _edit_original(
        self, token: str, body: dict, files: list[tuple[str, bytes]]
    ) -> web.Response:
        inter = self._interaction_by_token(token)
        if inter.acked is None or inter.original_id is None:
            raise _Refuse(404, 10008, "Unknown Message")
        if inter.message_id is not None and inter.original_id == inter.message_id:
            return self._json(self._update(inter, body, files))  # a component's own message
        inter.loading = False
        flags = EPHEMERAL if inter.defer_ephemeral else 0
        msg = self._message_payload(inter.channel_id, body, files, flags, webhook=True)
        msg["id"] = inter.original_id
        self.messages[msg["id"]] = msg
        self._record(
            "edit_original",
            inter.channel_id,
            body,
            files,
            flags,
            inter.defer_ephemeral,
            inter.original_id,
            interaction_id=inter.id,
        )
        return self._json(msg)

    @staticmethod
    def _check_content(body: dict, files: list[tuple[str, bytes]]) -> None:
        content = body.get("content") or ""
        if len(content) > 2000:
            raise _Refuse(
                400, 50035, "Invalid Form Body: content: Must be 2000 or fewer in length."
            )
        if not content and not files and not body.get("embeds") and not body.get("attachments"):
            raise _Refuse(400, 50006, "Cannot send an empty message")

    def _record(
        self,
        kind: str,
        channel_id: str,
        body: dict,
        files: list[tuple[str, bytes]],
        flags: int,
        ephemeral: bool,
        message_id: str,
        **extra: Any,
    ) -> None:
        self.sent.append(
            Sent(
                kind=kind,
                channel_id=channel_id,
                content=body.get("content") or "",
                files=list(files),
                flags=flags,
                ephemeral=ephemeral,
                message_id=message_id,
                allowed_mentions=body.get("allowed_mentions"),
                reference=body.get("message_reference"),
                payload=body,
                **extra,
            )
        )


class _Refuse(Exception):
    def __init__(self, status: int, code: int, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

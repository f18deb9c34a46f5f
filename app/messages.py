"""What crosses between the chat platforms and the service: plain data, no platform types.

An adapter turns a platform update into an Incoming, hands it to the service, and sends each
Outgoing it gets back. Nothing about the game depends on the platform an order came from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Incoming:
    platform: str  # "discord" | "telegram" | "terminal"
    chat_id: str  # the channel / group / thread the text came from ("dm:<user>" for a private chat)
    user_id: str
    user_name: str
    text: str  # the order text, with the platform's command prefix and bot mention removed
    message_id: str | None = None  # the idempotency key of the order
    private: bool = False  # came from a private chat with the bot
    ephemeral_ok: bool = (
        False  # the platform can answer privately in place (a Discord slash command)
    )
    locale: str | None = None  # the platform's locale of the user ("ru", "en-US"), if it gives one


@dataclass(frozen=True)
class Key:
    """One button: what it shows, and the token a press sends back (bots/taps.py)."""

    label: str
    token: str


@dataclass(frozen=True)
class Keyboard:
    """What a message offers to tap: keys (each press sends its token back), and perhaps a
    request for a line of free text (a Discord modal, a Telegram reply): `free` is its token,
    `free_prompt` what to write; the line comes back as the press's one value. Platform-neutral:
    each adapter draws it its own way (at most 25 keys: bots/taps_menus.py pages the rest)."""

    keys: tuple[Key, ...] = ()
    free: str | None = None
    free_prompt: str = ""


@dataclass
class Outgoing:
    platform: str
    chat_id: str | None  # where to post; None with user_id set: a private message
    text: str = ""
    user_id: str | None = None  # the addressee of a private message
    image: bytes | None = None  # a file to attach: a PNG (the map), or any file with document
    image_name: str = "map.png"  # the attachment's file name
    private: bool = False  # only the addressee may see it (ephemeral or DM)
    mentions: list[str] = field(default_factory=list)  # user ids to ping
    reply_to: str | None = None  # the message id this answers
    render: dict[str, Any] | None = (
        None  # a map to draw when it is sent (no image yet): the outbox's spec
    )
    document: bool = False  # the attachment is a file for download (never shown as a photo)
    # the decision a post asks: {"key": the situation key, "side": the side asked}; its answer
    # button is made when it is sent, and it is no longer a question once the key moved on
    asks: dict[str, str] | None = None
    game: str | None = None  # the game a post is about (set by the outbox when it sends one)
    keyboard: Keyboard | None = None  # buttons to tap (bots/taps.py), drawn by each platform

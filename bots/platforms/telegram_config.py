"""The Telegram adapter's configuration: token, Bot API server, webhook or long polling, limits."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from telegram.ext import Application, ApplicationBuilder, ContextTypes, ExtBot

# The PTB Application `TelegramBot` builds from this configuration (and its builder): no job
# queue, the default context types; the bot's rate limiter (TELEGRAM_RATE_LIMIT) is optional,
# hence `ExtBot[Any]`.
_Data: TypeAlias = dict[Any, Any]  # the user, chat and bot data
TelegramApp: TypeAlias = Application[
    ExtBot[Any], ContextTypes.DEFAULT_TYPE, _Data, _Data, _Data, None
]
TelegramAppBuilder: TypeAlias = ApplicationBuilder[
    ExtBot[Any], ContextTypes.DEFAULT_TYPE, _Data, _Data, _Data, None
]

_ON = {"1", "true", "yes", "on"}


class WebhookWithoutSecret(ValueError):
    """Webhook mode was asked for without TELEGRAM_WEBHOOK_SECRET: refused at startup."""


@dataclass
class TelegramConfig:
    token: str
    base_url: str | None = None  # Bot API server root, e.g. http://127.0.0.1:8081 (self-hosted)
    base_file_url: str | None = None  # derived from base_url when None
    webhook_url: str | None = None  # public HTTPS URL: webhook mode; None: long polling
    webhook_listen: str = "127.0.0.1"
    webhook_port: int = 8443
    webhook_secret: str | None = None  # checked in X-Telegram-Bot-Api-Secret-Token
    poll_timeout: float = 10.0  # seconds a getUpdates long poll waits on the server
    retry_limit: int = 3  # RetryAfter (429) retries per part before giving up to the caller
    max_retry_wait: float = 60.0  # a 429 asking for longer is handed to the caller at once
    request_timeout: float = 20.0  # read/write timeout of API calls (uploads included)
    rate_limit: bool = False  # PTB's AIORateLimiter (30/s overall, 20/min a group); env: on
    concurrent: bool = True  # updates of different chats at once, in order within a chat

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> TelegramConfig:
        """TELEGRAM_TOKEN (required), TELEGRAM_BASE_URL, TELEGRAM_BASE_FILE_URL,
        TELEGRAM_WEBHOOK_URL, TELEGRAM_WEBHOOK_LISTEN, TELEGRAM_WEBHOOK_PORT,
        TELEGRAM_WEBHOOK_SECRET, TELEGRAM_RATE_LIMIT (default on)."""
        env = os.environ if env is None else env
        token = env.get("TELEGRAM_TOKEN")
        if not token:
            raise ValueError("TELEGRAM_TOKEN is not set")
        return cls(
            token=token,
            base_url=env.get("TELEGRAM_BASE_URL") or None,
            base_file_url=env.get("TELEGRAM_BASE_FILE_URL") or None,
            webhook_url=env.get("TELEGRAM_WEBHOOK_URL") or None,
            webhook_listen=env.get("TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1"),
            webhook_port=int(env.get("TELEGRAM_WEBHOOK_PORT", "8443")),
            webhook_secret=env.get("TELEGRAM_WEBHOOK_SECRET") or None,
            rate_limit=(env.get("TELEGRAM_RATE_LIMIT") or "1").strip().lower() in _ON,
        )

    def check(self) -> None:
        """A webhook needs its secret: without it anyone who learns the URL can post updates
        as any user."""
        if self.webhook_url and not self.webhook_secret:
            raise WebhookWithoutSecret(
                "TELEGRAM_WEBHOOK_URL is set but TELEGRAM_WEBHOOK_SECRET is not: a webhook "
                "without a secret lets anyone who learns its URL play as anyone; set "
                "TELEGRAM_WEBHOOK_SECRET (1-256 characters A-Z a-z 0-9 _ -)"
            )

    def __repr__(self) -> str:  # never show the token (logs)
        return f"TelegramConfig(base_url={self.base_url!r}, webhook_url={self.webhook_url!r})"


def api_urls(base_url: str, base_file_url: str | None = None) -> tuple[str, str]:
    """PTB's base_url / base_file_url for a Bot API server root ("http://host:8081").

    PTB appends the token to these; a URL already ending in /bot (or holding "{token}") is kept.
    """
    root = base_url.rstrip("/")
    if "{token}" in root or root.endswith("/bot"):
        api = root
        file_root = root[: -len("/bot")] if root.endswith("/bot") else None
    else:
        api, file_root = f"{root}/bot", root
    if base_file_url:
        files = base_file_url.rstrip("/")
        if "{token}" not in files and not files.endswith("/file/bot"):
            files = f"{files}/file/bot"
    elif file_root is not None:
        files = f"{file_root}/file/bot"
    else:
        raise ValueError("set base_file_url too when base_url holds {token}")
    return api, files

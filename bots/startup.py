"""A failed start of `pbem serve` told in one line: what failed, and what to check; and the
check of the database's append-only guards at the start (`check_guards`).

The traceback goes to the DEBUG log only (`PBEM_LOG_LEVEL=DEBUG`); the platforms' libraries are
imported lazily, so a process with one bot never loads the other's.
"""

from __future__ import annotations

import logging
import socket
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger("pbem.serve")


def check_guards(store: Store) -> bool:
    """At the start of `pbem serve`: whether the database keeps the game logs append-only
    (storage/append_only.py). When a guard is missing, changed or disabled, every game is
    frozen (its moderators told) and one line says which tables and what the host must do."""
    if not store.unguarded():  # the usual case, cheap: no game is read at all
        return True
    found = store.freeze_unguarded()  # reads the games' rows: only when a guard is down
    if not found:
        return True
    what = "; ".join(f"table {p.guard.table}: trigger {p.guard.name} {p.how}" for p in found)
    log.error(
        "the database no longer keeps the game logs append-only (%s): every game is frozen. "
        "Check each game with `pbem audit GAME`, then run `pbem repair GAME` for each (as the "
        "database's owner on PostgreSQL): it re-creates the triggers and records it in the "
        "game's log (docs/hosting.md)",
        what,
    )
    return False


class StartFailed(Exception):
    """One part of the service did not start: `what` says which ("the Telegram bot did not
    start"), `cause` is the error."""

    def __init__(self, what: str, cause: BaseException, check: str | None = None):
        super().__init__(f"{what}: {cause}")
        self.what, self.cause, self.check = what, cause, check


class StartRefused(Exception):
    """A bot that started, but whose start the platform refused soon after (Telegram: a 409
    Conflict before its first update poll succeeded, another process polls the token): a failed
    start, told and handled as one (bots/supervise.py); `cause` is the platform's error."""

    def __init__(self, cause: BaseException):
        super().__init__(str(cause))
        self.cause = cause


def _short(exc: BaseException, limit: int = 160) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _telegram(exc: BaseException) -> str | None:
    error = sys.modules.get("telegram.error")
    if error is None:
        return None
    if isinstance(exc, error.InvalidToken):
        return (
            "Telegram refused the token; check TELEGRAM_TOKEN (the token @BotFather gave: "
            "/mybots > the bot > API Token)"
        )
    if isinstance(exc, error.Conflict):
        return (
            f"Telegram answered a conflict ({_short(exc)}); check that no other process polls "
            "this token, or that no webhook is set when TELEGRAM_WEBHOOK_URL is not"
        )
    if isinstance(exc, error.NetworkError):
        return (
            f"could not reach the Telegram Bot API ({_short(exc)}); check the network, and "
            "TELEGRAM_BASE_URL if you set it"
        )
    if isinstance(exc, error.TelegramError):
        return f"Telegram refused the start ({_short(exc)}); check the TELEGRAM_* settings"
    return None


GATEWAY_CLOSES = {  # the closes discord.py does not reconnect after, and what to check
    4004: "authentication failed; check DISCORD_TOKEN (it may have been reset)",
    4010: "invalid shard; check DISCORD_SHARD_COUNT and DISCORD_SHARD_IDS",
    4011: "sharding required (over 2,500 servers); set DISCORD_SHARDED=1 or DISCORD_SHARD_COUNT",
    4012: "invalid API version; upgrade discord.py",
    4013: "invalid intents; check DISCORD_MESSAGE_CONTENT",
    4014: "disallowed intents; enable them (Developer Portal > Bot) or unset "
    "DISCORD_MESSAGE_CONTENT",
}


def _discord(exc: BaseException) -> str | None:
    discord = sys.modules.get("discord")
    if discord is None:
        return None
    if isinstance(exc, discord.LoginFailure):
        return (
            "Discord refused the token; check DISCORD_TOKEN (Developer Portal > the "
            "application > Bot > Reset Token)"
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused the Message Content intent; enable it (Developer Portal > Bot > "
            "Privileged Gateway Intents) or unset DISCORD_MESSAGE_CONTENT"
        )
    if isinstance(exc, discord.ConnectionClosed) and exc.code in GATEWAY_CLOSES:
        return f"Discord closed the gateway with {exc.code}: {GATEWAY_CLOSES[exc.code]}"
    if isinstance(exc, discord.HTTPException):
        return f"Discord refused the start ({_short(exc)}); check the DISCORD_* settings"
    return None


def unreachable(exc: BaseException) -> bool:
    """Whether a failed start is the network's (the platform could not be reached, or answered
    with a server error: worth another try, e.g. at boot before the network is up) rather than
    a refusal (a token, an intent, a conflict, a bad setting: no try will change it)."""
    telegram = sys.modules.get("telegram.error")
    if telegram is not None and isinstance(exc, telegram.TelegramError):
        return isinstance(exc, telegram.NetworkError) and not isinstance(exc, telegram.BadRequest)
    discord = sys.modules.get("discord")
    if discord is not None and isinstance(exc, discord.DiscordException):
        return isinstance(exc, discord.DiscordServerError | discord.GatewayNotFound)
    aiohttp = sys.modules.get("aiohttp")
    if aiohttp is not None and isinstance(exc, aiohttp.ClientConnectionError):
        return True
    return isinstance(exc, ConnectionError | TimeoutError | socket.gaierror)


def explain(exc: BaseException) -> str:
    """One line: what failed and what to check."""
    what, cause, check = ("the service did not start", exc, None)
    if isinstance(exc, StartFailed):
        what, cause, check = exc.what, exc.cause, exc.check
    advice = _telegram(cause) or _discord(cause)
    if advice is None and type(cause).__name__ == "WebhookWithoutSecret":
        advice = str(cause)
    if advice is None and check is not None:
        advice = f"{type(cause).__name__}: {_short(cause)}; check {check}"
    if advice is None and isinstance(cause, OSError):
        advice = f"{_short(cause)}; check the network and the addresses in the settings"
    if advice is None:
        advice = f"{type(cause).__name__}: {_short(cause)}"
    return f"{what}: {advice}"


__all__ = ["StartFailed", "StartRefused", "check_guards", "explain", "unreachable"]

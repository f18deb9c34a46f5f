"""`pbem serve` configuration: environment variables, optionally a TOML file (`--config FILE`).

Every setting has one name, its environment variable (VARIABLES below; `pbem serve --help` lists
them). A TOML file may give the same settings either flat, by variable name (any case):

    DISCORD_TOKEN = "..."
    pbem_tick_seconds = 30

or in tables named by the variable's first word, the rest as the key:

    [telegram]
    token = "..."
    webhook_url = "https://bot.example.org/telegram"
    [pbem]
    db = "postgresql+psycopg://pbem@db/pbem"

The environment wins over the file; the file over the defaults. An unknown key is an error (a
typo must not silently drop a setting). Every `pbem` command takes the file (`--config FILE`, or
the variable PBEM_CONFIG naming it), so that the host's commands read the database the service
uses (`config_file`). Secrets (tokens, the webhook secret, a database password)
are never shown by `repr` or the logs (`Config.secrets()` lists them for the log redactor).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path


class ConfigError(ValueError):
    """A bad configuration value or file: reported as a usage error (exit 2)."""


@dataclass(frozen=True)
class Variable:
    name: str
    default: str | None
    help: str
    secret: bool = False


VARIABLES: tuple[Variable, ...] = (
    Variable("PBEM_DB", "pbem.db", "SQLite file or database URL (e.g. postgresql+psycopg://...)"),
    Variable("DISCORD_TOKEN", None, "Discord bot token: starts the Discord bot", secret=True),
    Variable(
        "DISCORD_SHARDED",
        "0",
        "1: AutoShardedBot, all shards in this process (Discord requires it above 2,500 servers)",
    ),
    Variable(
        "DISCORD_MESSAGE_CONTENT",
        "0",
        "1: ask for the privileged message content intent, so `!order` works in guild channels",
    ),
    Variable("DISCORD_PREFIX", "!", "prefix of the text commands (`!order ...`)"),
    Variable(
        "DISCORD_CLIENT_ID",
        None,
        "`pbem invite`: the application id (default: read from DISCORD_TOKEN)",
    ),
    Variable(
        "DISCORD_SYNC_GUILD", None, "sync the slash commands to this guild id only (instant; tests)"
    ),
    Variable(
        "DISCORD_SHARD_COUNT",
        None,
        "the total number of shards (all processes): a sharded bot with exactly that many",
    ),
    Variable(
        "DISCORD_SHARD_IDS",
        None,
        "the shards this process runs, e.g. 0,1 or 0-3 (needs DISCORD_SHARD_COUNT)",
    ),
    Variable(
        "DISCORD_API_BASE",
        None,
        "Discord REST API root (a proxy, a test server), e.g. http://127.0.0.1:8080",
    ),
    Variable("DISCORD_GATEWAY_URL", None, "Discord gateway URL, e.g. wss://gateway.example.org/"),
    Variable(
        "DISCORD_PROXY",
        None,
        "HTTP(S) proxy for every Discord REST and gateway connection",
        secret=True,
    ),
    Variable("TELEGRAM_TOKEN", None, "Telegram bot token: starts the Telegram bot", secret=True),
    Variable("TELEGRAM_BASE_URL", None, "a self-hosted Bot API server, e.g. http://127.0.0.1:8081"),
    Variable("TELEGRAM_BASE_FILE_URL", None, "its file URL (default: derived from the base URL)"),
    Variable(
        "TELEGRAM_WEBHOOK_URL",
        None,
        "public HTTPS URL: webhook mode instead of long polling",
    ),
    Variable("TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1", "address the webhook server listens on"),
    Variable("TELEGRAM_WEBHOOK_PORT", "8443", "port the webhook server listens on"),
    Variable(
        "TELEGRAM_WEBHOOK_SECRET",
        None,
        "checked in X-Telegram-Bot-Api-Secret-Token on each webhook call",
        secret=True,
    ),
    Variable(
        "TELEGRAM_RATE_LIMIT",
        "1",
        "1: keep under Telegram's limits before they bite (30 messages/s, 20/min a group)",
    ),
    Variable(
        "PBEM_ON_BOT_FAILURE",
        "restart",
        "a bot that dies after startup (fatal gateway close, revoked token): restart it with "
        "backoff, or stop serve with exit code 1",
    ),
    Variable("PBEM_RESTART_SECONDS", "5", "the first wait before a dead bot is restarted"),
    Variable("PBEM_RESTART_MAX_SECONDS", "300", "the longest wait between restarts (doubling)"),
    Variable(
        "PBEM_HEALTH_PORT",
        "8079",
        "GET /healthz on 127.0.0.1:PORT (bots connected, outbox backlog, scheduler leader; "
        "`pbem health`); off: none; 0: any free port",
    ),
    Variable("PBEM_TICK_SECONDS", "30", "how often due deadlines are checked; the heartbeat"),
    Variable(
        "PBEM_LEADER_RETRY_SECONDS",
        "15",
        "how often a follower tries to become the scheduler leader (PostgreSQL)",
    ),
    Variable(
        "PBEM_OUTAGE_SECONDS",
        "120",
        "a heartbeat older than this at startup is an outage: deadlines move by its length",
    ),
    Variable(
        "PBEM_CHAIN_CHECK_SECONDS",
        "300",
        "how often the whole chain of every game is checked in the background (also at every "
        "phase end; at most 2,000 rows a pass)",
    ),
    Variable(
        "PBEM_OPPONENT_WORKERS",
        "1",
        "worker processes the built-in opponent thinks in (lowered priority); 0: this process "
        "never moves it",
    ),
    Variable("PBEM_LOG_FORMAT", "kv", "kv (key=value lines) or json (JSON lines), on stderr"),
    Variable(
        "PBEM_LOG_LEVEL", None, "DEBUG, INFO, WARNING ... (default INFO; WARNING in the terminal)"
    ),
    Variable("PBEM_TERMINAL_USER", "you", "terminal front end: the local user's name"),
    Variable("PBEM_TERMINAL_IMAGES", None, "terminal front end: save map images in this directory"),
)
BY_NAME = {v.name: v for v in VARIABLES}
CONFIG_FILE = "PBEM_CONFIG"  # names the settings file when no --config is given
TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def help_text() -> str:
    """The variables, for `pbem serve --help`."""
    width = max(len(v.name) for v in VARIABLES)
    head = f"keys of --config FILE.toml or ${CONFIG_FILE}; the environment wins"
    lines = [f"environment variables (or {head}):"]
    for v in VARIABLES:
        default = f" [default: {v.default}]" if v.default not in (None, "") else ""
        lines.append(f"  {v.name:<{width}}  {v.help}{default}")
    return "\n".join(lines)


@dataclass(frozen=True)
class Config:
    values: Mapping[str, str] = field(default_factory=dict)  # variable name -> raw text

    # -- loading
    @classmethod
    def load(cls, env: Mapping[str, str] | None = None, file: str | Path | None = None) -> Config:
        env = os.environ if env is None else env
        values: dict[str, str] = {}
        if file is not None:
            values.update(read_toml(file))
        values.update({k: env[k] for k in BY_NAME if k in env})
        config = cls(values)
        config.check()
        return config

    def check(self) -> None:
        """Parse every typed value once, so a bad one fails at startup, not mid-game."""
        for name in ("DISCORD_SHARDED", "DISCORD_MESSAGE_CONTENT", "TELEGRAM_RATE_LIMIT"):
            self.flag(name)
        if self.get("PBEM_ON_BOT_FAILURE") not in ("restart", "stop"):
            raise ConfigError(
                f"PBEM_ON_BOT_FAILURE must be restart or stop, not {self.get('PBEM_ON_BOT_FAILURE')!r}"
            )
        for name in ("PBEM_RESTART_SECONDS", "PBEM_RESTART_MAX_SECONDS"):
            if self.number(name, float) < 0:
                raise ConfigError(f"{name} must not be negative")
        if self.health_port is not None and not 0 <= self.health_port <= 65535:
            raise ConfigError("PBEM_HEALTH_PORT must be a port (0-65535) or off")
        self._check_shards()
        for name in ("TELEGRAM_WEBHOOK_PORT",):
            self.number(name, int)
        for name in (
            "PBEM_TICK_SECONDS",
            "PBEM_LEADER_RETRY_SECONDS",
            "PBEM_OUTAGE_SECONDS",
            "PBEM_CHAIN_CHECK_SECONDS",
        ):
            if self.number(name, float) <= 0:
                raise ConfigError(f"{name} must be positive")
        if self.outage_seconds <= 2 * self.tick_seconds:
            raise ConfigError(
                "PBEM_OUTAGE_SECONDS must be more than twice PBEM_TICK_SECONDS (the heartbeat "
                "is written every tick: a shorter gap is no outage)"
            )
        if self.get("DISCORD_SYNC_GUILD"):
            self.number("DISCORD_SYNC_GUILD", int)
        if self.number("PBEM_OPPONENT_WORKERS", int) < 0:
            raise ConfigError("PBEM_OPPONENT_WORKERS must not be negative")
        if self.log_format not in ("kv", "json"):
            raise ConfigError(f"PBEM_LOG_FORMAT must be kv or json, not {self.log_format!r}")

    def _check_shards(self) -> None:
        count = self.get("DISCORD_SHARD_COUNT")
        if count is not None and self.number("DISCORD_SHARD_COUNT", int) < 1:
            raise ConfigError("DISCORD_SHARD_COUNT must be at least 1")
        ids_text = self.get("DISCORD_SHARD_IDS")
        if not ids_text:
            return
        if count is None:
            raise ConfigError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (the total)")
        ids: list[int] = []
        for piece in ids_text.split(","):
            first, dash, last = piece.strip().partition("-")
            if not first.isdigit() or (dash and not last.isdigit()):
                raise ConfigError(f"DISCORD_SHARD_IDS: {piece.strip()!r} is no shard id or range")
            ids += range(int(first), int(last) + 1) if dash else [int(first)]
        if max(ids) >= int(count):
            raise ConfigError(f"DISCORD_SHARD_IDS: shard ids run from 0 to {int(count) - 1}")

    @property
    def health_port(self) -> int | None:
        value = (self.get("PBEM_HEALTH_PORT") or "off").strip().lower()
        if value in ("off", "none", "no"):
            return None
        try:
            return int(value)
        except ValueError:
            raise ConfigError(f"PBEM_HEALTH_PORT must be a port or off, not {value!r}") from None

    # -- reading
    def get(self, name: str) -> str | None:
        if name not in BY_NAME:
            raise KeyError(name)
        value = self.values.get(name)
        return BY_NAME[name].default if value in (None, "") else value

    def flag(self, name: str) -> bool:
        value = (self.get(name) or "").strip().lower()
        if value in TRUE:
            return True
        if value in FALSE:
            return False
        raise ConfigError(f"{name} must be 1 or 0 (true/false), not {value!r}")

    def number(self, name: str, kind: Callable[[str], float] = float) -> float:
        value = self.get(name)
        try:
            return kind(value or "")  # (no value: "" fails as None did)
        except (TypeError, ValueError):
            raise ConfigError(f"{name} must be a number, not {value!r}") from None

    def env(self) -> dict[str, str]:
        """The settings as an environment mapping (for the adapters' `from_env`)."""
        return {k: v for k in BY_NAME if (v := self.get(k)) is not None}

    @property
    def db(self) -> str:
        return self.get("PBEM_DB") or "pbem.db"

    @property
    def discord_token(self) -> str | None:
        return self.get("DISCORD_TOKEN")

    @property
    def telegram_token(self) -> str | None:
        return self.get("TELEGRAM_TOKEN")

    @property
    def tick_seconds(self) -> float:
        return self.number("PBEM_TICK_SECONDS")

    @property
    def leader_retry_seconds(self) -> float:
        return self.number("PBEM_LEADER_RETRY_SECONDS")

    @property
    def outage_seconds(self) -> float:
        return self.number("PBEM_OUTAGE_SECONDS")

    @property
    def chain_check_seconds(self) -> float:
        return self.number("PBEM_CHAIN_CHECK_SECONDS")

    @property
    def log_format(self) -> str:
        return (self.get("PBEM_LOG_FORMAT") or "kv").lower()

    def secrets(self) -> list[str]:
        """Every secret value (tokens, the webhook secret, a database password): the log
        redactor replaces them wherever they appear."""
        found = [v for var in VARIABLES if var.secret and (v := self.get(var.name))]
        try:
            from sqlalchemy.engine import make_url  # (`pbem --help` loads no database code)

            password = make_url(self.db).password if "://" in self.db else None
        except Exception:  # noqa: BLE001 - a malformed URL fails later, with its own message
            password = None
        if password:
            found.append(str(password))
        return [s for s in found if len(s) >= 4]

    def __repr__(self) -> str:
        shown = {k: ("***" if BY_NAME[k].secret else v) for k, v in sorted(self.values.items())}
        return f"Config({shown})"


def config_file(given: str | Path | None, env: Mapping[str, str] | None = None) -> str | None:
    """The settings file of a command: its --config, else $PBEM_CONFIG, else none."""
    env = os.environ if env is None else env
    return str(given) if given else (env.get(CONFIG_FILE) or None)


def read_toml(path: str | Path) -> dict[str, str]:
    """The settings in a TOML file, by variable name (see the module docstring)."""
    import tomllib  # (only a command with --config reads TOML: `pbem --help` does not)

    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    values: dict[str, str] = {}

    def put(name: str, value: object, where: str) -> None:
        name = name.upper()
        if name not in BY_NAME:
            raise ConfigError(f"{path}: unknown setting {where!r} (see `pbem serve --help`)")
        if isinstance(value, bool):
            text = "1" if value else "0"
        elif isinstance(value, int | float | str):
            text = str(value)
        else:
            raise ConfigError(f"{path}: {where} must be a string, number or boolean")
        values[name] = text

    for key, value in doc.items():
        if isinstance(value, dict):
            for sub, inner in value.items():
                put(f"{key}_{sub}", inner, f"[{key}] {sub}")
        else:
            put(key, value, key)
    return values

"""Persistence: games, seats and the append-only log (SQLModel; SQLite by default)."""

from storage.store import (
    Conflict,
    GameExists,
    GameNotFound,
    GameRecord,
    LogRecord,
    StorageError,
    Store,
    database_url,
)

__all__ = [
    "Conflict",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "LogRecord",
    "StorageError",
    "Store",
    "database_url",
]

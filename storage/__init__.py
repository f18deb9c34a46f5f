"""Persistence: games, seats, moderators, dice secrets and the hash-chained append-only log.

SQLModel on SQLite (default) or PostgreSQL; the schema comes from Alembic migrations. The pure
parts need no database: `storage.chain` (the hash chain), `storage.dice` (committed dice) and
`storage.audit` (the offline audit of an exported log).
"""

from storage.engine import state_hash_is
from storage.store import (
    Conflict,
    GameExists,
    GameNotFound,
    GameRecord,
    GameTx,
    LegacyDatabase,
    LogRecord,
    StorageError,
    Store,
    database_url,
    state_hash,
)
from storage.trust import Tampered

__all__ = [
    "Conflict",
    "GameExists",
    "GameNotFound",
    "GameRecord",
    "GameTx",
    "LegacyDatabase",
    "LogRecord",
    "StorageError",
    "Store",
    "Tampered",
    "database_url",
    "state_hash",
    "state_hash_is",
]

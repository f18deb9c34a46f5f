"""The storage errors a front end reports to the user (all are StorageError)."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the errors a front end reports to the user."""


class GameExists(StorageError):
    def __init__(self, name: str):
        super().__init__(f"a game named {name!r} already exists")
        self.name = name


class GameNotFound(StorageError, LookupError):
    def __init__(self, name: str):
        super().__init__(f"no game named {name!r}")
        self.name = name


class Conflict(StorageError):
    """The game kept changing under this writer: nothing was written; send it again."""


class LegacyDatabase(StorageError):
    """A database made before migrations existed (pbem 0.1): its games have no chain."""

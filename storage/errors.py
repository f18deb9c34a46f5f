"""The storage errors a front end reports to the user (all are StorageError)."""

from __future__ import annotations

from texts.i18n import t


class TextError(Exception):
    """An error whose message is a text for the user: str() gives the text itself (a Msg can
    still be said in the user's language)."""

    def __str__(self) -> str:
        said = self.args[0] if len(self.args) == 1 else None
        return said if isinstance(said, str) else super().__str__()


class StorageError(TextError):
    """Base of the errors a front end reports to the user."""


class GameExists(StorageError):
    def __init__(self, name: str):
        super().__init__(t("a game named {name} already exists", name=repr(name)))
        self.name = name


class GameNotFound(StorageError, LookupError):
    def __init__(self, name: str):
        super().__init__(t("no game named {name}", name=repr(name)))
        self.name = name


class Conflict(StorageError):
    """The game kept changing under this writer: nothing was written; send it again."""


class LegacyDatabase(StorageError):
    """A database made before migrations existed (pbem 0.1): its games have no chain."""

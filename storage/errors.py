"""The storage errors a front end reports to the user (all are StorageError)."""

from __future__ import annotations

from typing import Any

from storage.chain import without_row
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


class Tampered(StorageError):
    """The stored game disagrees with its chain: it is frozen until a moderator repairs it."""

    def __init__(self, name: str, failure: dict[str, Any]) -> None:
        self.name, self.failure = name, failure
        self.index = failure.get("index")
        super().__init__(
            t(
                "game {game} is frozen: its stored log fails its checks at row {index}: {problem}. No order is taken until a moderator runs `pbem repair {name}` (docs/threat-model.md).",
                game=repr(name),
                index=self.index,
                problem=without_row(self.index, failure["problem"]),
                name=name,
            )
        )

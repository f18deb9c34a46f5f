"""Scenario validation helpers: every error names the file, the entry and the problem."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NoReturn, TypeVar, overload

from adjudicator.core.i18n import cat, t

T = TypeVar("T")
D = TypeVar("D")


class ScenarioError(ValueError):
    def __init__(self, source: str, entry: str, problem: str):
        self.text = t("{source}: {entry}: {problem}", source=source, entry=entry, problem=problem)
        super().__init__(self.text)
        self.source = source
        self.entry = entry
        self.problem = problem

    def __str__(self) -> str:
        return self.text  # the Msg: str(error) can be said in another language


class Checker:
    """Reads typed values out of a parsed TOML table, raising ScenarioError on a bad one."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, entry: str, problem: str) -> NoReturn:
        raise ScenarioError(self.source, entry, problem)

    @overload
    def get(
        self,
        table: Mapping[str, object],
        key: str,
        kind: type[T] | tuple[type[T], ...],
        entry: str,
        *,
        choices: Collection[object] | None = None,
    ) -> T: ...

    @overload
    def get(
        self,
        table: Mapping[str, object],
        key: str,
        kind: type[T] | tuple[type[T], ...],
        entry: str,
        default: D,
        choices: Collection[object] | None = None,
    ) -> T | D: ...

    def get(
        self,
        table: Mapping[str, object],
        key: str,
        kind: type[T] | tuple[type[T], ...],
        entry: str,
        default: object = ...,
        choices: Collection[object] | None = None,
    ) -> object:
        """table[key], which must be of kind (a bool is no int) and one of choices if given;
        default when the key is missing (no default: the key is required)."""
        if key not in table:
            if default is ...:
                self.fail(entry, t("missing key '{key}'", key=key))
            return default
        value = table[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            self.fail(
                entry,
                t("'{key}' must be {kind}, got {value}", key=key, kind=name, value=repr(value)),
            )
        if choices is not None and value not in choices:
            said = t(
                "'{key}' is {value}; expected one of {choices}",
                key=key,
                value=repr(value),
                choices=cat(*map(str, choices), sep=", "),
            )
            self.fail(entry, said)
        return value

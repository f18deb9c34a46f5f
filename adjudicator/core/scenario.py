"""Scenario validation helpers: every error names the file, the entry and the problem."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import NoReturn, TypeVar, overload

T = TypeVar("T")
D = TypeVar("D")


class ScenarioError(ValueError):
    def __init__(self, source: str, entry: str, problem: str):
        super().__init__(f"{source}: {entry}: {problem}")
        self.source = source
        self.entry = entry
        self.problem = problem


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
                self.fail(entry, f"missing key '{key}'")
            return default
        value = table[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            name = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            self.fail(entry, f"'{key}' must be {name}, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(
                entry, f"'{key}' is {value!r}; expected one of {', '.join(map(str, choices))}"
            )
        return value

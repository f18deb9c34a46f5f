"""The registry of game systems: Python entry points (group `pbem.games`) plus `register()`.

A system package declares itself in its distribution's metadata:

    [project.entry-points."pbem.games"]
    hells-gate = "adjudicator.hells_gate.system:SYSTEM"

The value is a `SystemType` (adjudicator.core.system). Tests define systems of their own and
`register()` them; `unregister()` takes one away again. A game row's `game` column names its
system; `get(id)` finds it. Pure but for reading the installed distributions' metadata once.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from adjudicator.core.i18n import cat, t
from adjudicator.core.system import SystemType

GROUP = "pbem.games"

_registered: dict[str, SystemType] = {}
_loaded: dict[str, SystemType] | None = None


class UnknownSystem(LookupError):
    def __init__(self, system_id: str, known: list[str]):
        names = cat(*known, sep=", ") if known else t("none")
        self.text = t(
            "no game system {system} is installed; known: {names}",
            system=repr(system_id),
            names=names,
        )
        super().__init__(self.text)
        self.system_id = system_id

    def __str__(self) -> str:
        return self.text  # the Msg: str(error) can be said in another language


def _installed() -> dict[str, SystemType]:
    global _loaded
    if _loaded is None:
        found: dict[str, SystemType] = {}
        for ep in entry_points(group=GROUP):
            system = ep.load()
            found[system.id] = system
        _loaded = found
    return _loaded


def register(system: SystemType) -> SystemType:
    """Make a system known (a test's own, or one not installed as a distribution)."""
    _registered[system.id] = system
    return system


def unregister(system_id: str) -> None:
    _registered.pop(system_id, None)


def systems() -> list[SystemType]:
    """Every known system, installed ones first, each once (a registered one wins)."""
    merged = {**_installed(), **_registered}
    return [merged[k] for k in sorted(merged)]


def _named(system_id: str) -> SystemType | None:
    """The installed system of the entry point named `system_id`, imported alone, or None when
    no entry point of that name declares that system (then every one is loaded and searched)."""
    for ep in entry_points(group=GROUP, name=system_id):
        system: SystemType = ep.load()
        if system.id == system_id:
            return system
    return None


def get(system_id: str) -> SystemType:
    """The system of `system_id`: a registered one first, then an installed one. An entry point
    is named by its system's id (as the project's are), so a game of one system imports that
    system alone: a process that replays Hell's Gate games never imports the other rules."""
    if system_id in _registered:
        return _registered[system_id]
    if _loaded is None and (named := _named(system_id)) is not None:
        return named
    for system in systems():
        if system.id == system_id:
            return system
    raise UnknownSystem(system_id, [s.id for s in systems()])


__all__ = ["GROUP", "UnknownSystem", "get", "register", "systems", "unregister"]

"""The drivers of the contract: the installed systems' (entry-point group `pbem.contract`, named
by the system's id, the value a `Driver`) and those a test registers with its own system.

`PBEM_CONTRACT_SYSTEM` (set by `pbem contract SYSTEM`) limits the suite to one system."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import entry_points

from adjudicator.core import registry
from adjudicator.core.driver import GROUP, SELECTED, Driver
from adjudicator.core.system import SystemType

_registered: dict[str, tuple[Driver, SystemType | None]] = {}


def installed() -> dict[str, Driver]:
    """The drivers the installed distributions declare."""
    found: dict[str, Driver] = {}
    for ep in entry_points(group=GROUP):
        driver = ep.load()
        assert isinstance(driver, Driver), f"{ep.value}: not a Driver"
        assert driver.system_id == ep.name, f"{ep.name}: a driver of {driver.system_id}"
        found[ep.name] = driver
    return found


def register(driver: Driver, system: SystemType | None = None) -> Driver:
    """Add a driver (a test's own); with `system`, a test system registered while it plays."""
    _registered[driver.system_id] = (driver, system)
    return driver


def every() -> dict[str, Driver]:
    """Every driver, installed and registered (a registered one wins), by system id."""
    return {**installed(), **{k: d for k, (d, _) in _registered.items()}}


def chosen() -> list[str]:
    """The system ids the suite plays: the one `PBEM_CONTRACT_SYSTEM` names, else all."""
    only = os.environ.get(SELECTED)
    return sorted(k for k in every() if not only or k == only)


def without_driver() -> list[str]:
    """The installed systems that declare no driver (reported, not failed)."""
    return sorted({s.id for s in registry.systems()} - set(every()))


@contextmanager
def registered(driver: Driver, system: SystemType | None = None) -> Iterator[Driver]:
    """A driver's system registered for a while: `system`, else the one registered with the
    driver (an installed system needs nothing)."""
    kind = system or _registered.get(driver.system_id, (driver, None))[1]
    if kind is not None:
        registry.register(kind)
    try:
        yield driver
    finally:
        if kind is not None:
            registry.unregister(kind.id)

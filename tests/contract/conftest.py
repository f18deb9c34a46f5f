"""The shipped contract suite (the package `contract`) run by the project's own tests, for every
installed system and the two test systems of tests/systems/, whose drivers are registered here;
the suite's fixtures and its report of a system without a driver come from contract.plugin."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from adjudicator.core.driver import Driver
from contract import drivers
from contract.plugin import *  # the suite's fixtures and hooks
from tests.contract.samples import DRIVERS, DUEL

for _driver, _system in DRIVERS:
    drivers.register(_driver, _system)


@pytest.fixture
def duel_driver() -> Iterator[Driver]:
    with drivers.registered(DUEL) as d:
        yield d

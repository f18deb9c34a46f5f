"""The contract's pytest plugin: the `driver` fixture (one parameter per system with a driver),
a game `played` through the service, an in-memory `store`, and the report of the installed
systems that declare no driver (a line of the terminal summary: reported, not failed).

`pbem contract` loads it with `-p contract.plugin`; a project's own conftest may import its
names instead (`from contract.plugin import *`) after registering its test systems' drivers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from adjudicator.core.driver import Driver
from app.service import GameService, ReplayMismatch
from contract import drivers
from contract.play import new_game, service_play
from contract.table import UID, Seeds
from storage import Store

__all__ = [
    "driver",
    "played",
    "pytest_generate_tests",
    "pytest_terminal_summary",
    "store",
]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test that asks for `driver` runs once per system the suite plays."""
    if "driver" in metafunc.fixturenames:
        metafunc.parametrize("driver", drivers.chosen(), indirect=True, scope="module")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    for line in report():
        terminalreporter.write_line(line)


def report() -> list[str]:
    """The summary's lines: each installed system that declares no driver."""
    return [
        f"contract: {system} declares no driver (entry point `pbem.contract`): not checked"
        for system in drivers.without_driver()
    ]


@pytest.fixture(scope="module")
def driver(request: pytest.FixtureRequest) -> Iterator[Driver]:
    with drivers.registered(drivers.every()[request.param]) as d:
        yield d


@pytest.fixture
def store() -> Iterator[Store]:
    opened = Store(":memory:")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def played(driver: Driver) -> Iterator[tuple[GameService, str, int, list[Any]]]:
    """A game of random legal orders through the service, to its end; verified on the way."""
    opened = Store(":memory:")
    # fixed dice (the seeds and the game's uid fix them): the game lasts past the midway check
    service = GameService(opened, seeds=Seeds("d" * 64), uids=lambda: UID)
    name = new_game(driver, service, "contract")
    midway: list[Any] = []

    def verify_once(n: int) -> None:
        if n == 5:
            try:
                service.verify(name)
                midway.append(None)
            except ReplayMismatch as exc:
                midway.append(f"midway: {exc}")

    orders = service_play(service, name, random.Random(5), driver.bound, before=verify_once)
    yield service, name, orders, midway
    opened.close()

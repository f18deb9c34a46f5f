"""The shipped contract (contract/test_contract.py), collected here for every installed system
and the test systems (conftest.py), and what the project itself promises of it: each of its own
systems declares a driver, and a system installed without one is reported, not failed."""

from __future__ import annotations

from dataclasses import replace
from importlib.metadata import distribution

from adjudicator.core import registry
from adjudicator.core.driver import GROUP
from contract import drivers
from contract.plugin import report
from contract.test_contract import *  # the shipped tests, collected here
from tests.systems import race


def test_every_system_of_this_project_declares_a_driver():
    ours = distribution("pbem-adjudicator").entry_points
    games = {ep.name for ep in ours if ep.group == registry.GROUP}
    declared = {ep.name for ep in ours if ep.group == GROUP}
    assert games == declared == {"hells-gate", "borodino", "northern-war", "stalins-war"}
    assert games <= set(drivers.every())


def test_a_system_installed_without_a_driver_is_reported_not_failed():
    lonely = registry.register(replace(race.SYSTEM, id="driverless-race"))
    try:
        assert "driverless-race" in drivers.without_driver()
        assert any(
            line.startswith("contract: driverless-race declares no driver") for line in report()
        )
        assert "driverless-race" not in drivers.chosen()
    finally:
        registry.unregister(lonely.id)
    assert "driverless-race" not in drivers.without_driver()

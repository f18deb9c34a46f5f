"""The contract driver of the Borodino referee: installed, no hidden information; a game ends
after the sample's Recovery Phases (or at a collapse where a scenario says so)."""

from tests.contract.drivers import Driver

DRIVERS = (Driver("borodino", None, {"russian": 2, "french": 3}, 600, 30, 4),)

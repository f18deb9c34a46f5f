"""The contract driver of Hell's Gate: the installed flagship, no hidden information."""

from tests.contract.drivers import Driver

DRIVERS = (Driver("hells-gate", None, {"soviet": 2, "german": 3}, 400, 24, 6),)

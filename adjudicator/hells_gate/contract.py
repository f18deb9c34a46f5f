"""The contract driver of Hell's Gate (entry point `pbem.contract`): no hidden information."""

from adjudicator.core.driver import Driver

DRIVER = Driver("hells-gate", {"soviet": 2, "german": 3}, bound=400, chat_orders=24, ask_every=6)

"""The contract driver of the Borodino referee (entry point `pbem.contract`): no hidden
information; a game ends after the sample's Recovery Phases (or at a collapse where a scenario
says so)."""

from adjudicator.core.driver import Driver

DRIVER = Driver("borodino", {"russian": 2, "french": 3}, bound=600, chat_orders=30, ask_every=4)

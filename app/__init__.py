"""The application core: one path for every change to a game, above the game systems.

No I/O but the store. It reaches a game system only through the GameSystem protocol and the
registry (adjudicator.core.system, adjudicator.core.registry)."""

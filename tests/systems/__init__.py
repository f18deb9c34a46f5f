"""Game systems defined in tests: they prove a new system plugs in with no line elsewhere."""

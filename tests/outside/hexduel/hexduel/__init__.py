"""Hex duel: two patrols claim the hexes of a small map; each side has a secret objective."""

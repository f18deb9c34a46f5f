"""Borodino (Richard Berg): the rally, Recovery Phase, Withdrawn Boxes and Activation Group
collapse of borodino-recovery.md, as a referee for a game played on the players' own board."""

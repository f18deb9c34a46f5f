"""Great Northern War, a block game with real fog of war (rules/northern-war-blocks.md)."""

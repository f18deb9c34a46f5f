"""Stalin's War: strategic cards, action rounds, OPS and RP (rules spec stalins-war-cards.md)."""

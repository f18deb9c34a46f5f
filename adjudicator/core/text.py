"""Plurals that agree with their count: the leaf module lives in texts.text (the lowest layer);
the core keeps these names for the systems and the application."""

from __future__ import annotations

from texts.text import noun, plural, plural_of

__all__ = ["noun", "plural", "plural_of"]

"""Texts in more than one language: the leaf module lives in texts.i18n (the lowest layer, which
render/ and storage/ may import too); the core keeps these names for the systems and the
application."""

from __future__ import annotations

from texts.i18n import (
    EN,
    ENGLISH,
    Catalogue,
    Language,
    Msg,
    cat,
    from_json,
    lines,
    name,
    say,
    t,
    tn,
    wants_words,
)

__all__ = [
    "EN",
    "ENGLISH",
    "Catalogue",
    "Language",
    "Msg",
    "cat",
    "from_json",
    "lines",
    "name",
    "say",
    "t",
    "tn",
    "wants_words",
]

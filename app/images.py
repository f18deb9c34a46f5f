"""The map of a post, drawn when the outbox sends it (off the message path).

A post's outbox row carries a render spec, {"after": A, "upto": U, "title": T, "view": V,
"focus": F, "lang": L}: the map of the game as it stood at log row U, with the events of the effective orders
after row A (None: from the setup on), as the side V (None: the public) may see it; with F true,
the drawer's focus image (the area of the actions, for a phone) if it offers one, else the map; its labels in the language L (the post's chat's, app.languages; English if
none). Drawing it later gives the same picture: the log up to row U never changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app import fold, games
from app.i18n import language
from storage import Store


def render_spec(store: Store, game: str, spec: dict[str, Any]) -> bytes:
    """The PNG a post's render spec asks for (see the module doc)."""
    system = games.system_of(store, game)
    upto, after = int(spec["upto"]), spec.get("after")
    rec = store.load(game)
    rows = fold.with_secrets(r for r in rec.log if r.index <= upto)
    if rec.head_index == upto:  # the game has not moved on: its snapshot is that state
        state = system.state_from_json(rec.snapshot)
    else:
        state = fold.replay(system, rows)
    events = fold.events_since(rows, after)
    focus = bool(spec.get("focus"))
    return games.draw(
        system,
        state,
        events,
        spec.get("view"),
        spec.get("title"),
        focus=focus,
        language=language(spec.get("lang")),
    )


def renderer(store: Store) -> Callable[[str, dict[str, Any]], bytes]:
    """render(game, spec) -> PNG, for the outbox sender."""
    return lambda game, spec: render_spec(store, game, spec)


__all__ = ["render_spec", "renderer"]

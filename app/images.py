"""The map of a post, drawn when the outbox sends it (off the message path).

A post's outbox row carries a render spec, {"after": A, "upto": U, "title": T, "view": V,
"focus": F, "lang": L}: the map of the game as it stood at log row U, with the events of the effective orders
after row A (None: from the setup on), as the side V (None: the public) may see it; with F true,
the drawer's focus image (the area of the actions, for a phone) if it offers one, else the map; its labels in the language L (the post's chat's, app.languages; English if
none). Drawing it later gives the same picture: the log up to row U never changes.

The cost of a picture does not grow with the game: the spec written with the post (`with_seen`,
in the transaction that wrote row U, the state in hand) also carries "seen", {"upto": U, "view":
V, "over": O, "state": S}: the state at row U as V may see it (the system's `view`, as JSON:
never more than that viewer's own map shows; the whole state only once the game is over, when
everyone sees everything) and whether the game was over there. The sender draws from it and reads
only the rows of the events ((A, U], storage/post_rows.py): no replay, no whole log. A spec
without it (written before it existed), or whose "seen" was made for another row or view, is
drawn as before: the log up to U, replayed when the game has moved on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.core.events import Viewer
from adjudicator.core.i18n import EN, Language
from adjudicator.core.system import GameSystem
from app import fold, games
from app.i18n import language
from storage import Store
from storage.post_rows import rows_between

SEEN = "seen"  # the spec's key of the state a post's picture is drawn from


def _side(view: str | None) -> str | None:
    return None if view in (None, "public") else view


def seen(system: GameSystem, state: Any, view: str | None, upto: int) -> dict[str, Any]:
    """What a post's picture needs of the state at row `upto` for `view` (a side, or None /
    "public": the public): that viewer's view of it as JSON, and whether the game is over."""
    viewer = games.viewer_of(system, state, view)
    shown = system.view(state, viewer)
    return {
        "upto": upto,
        "view": _side(view),
        "over": viewer.over,
        "state": system.state_to_json(shown),
    }


def with_seen(spec: dict[str, Any], system: GameSystem, state: Any) -> dict[str, Any]:
    """The spec with the state its picture is drawn from (`seen`, for the spec's own view and
    row): made where the post is queued, `state` being the state at the spec's "upto"."""
    return {**spec, SEEN: seen(system, state, spec.get("view"), int(spec["upto"]))}


def _stored(spec: dict[str, Any]) -> dict[str, Any] | None:
    """The spec's "seen" if it was made for this spec's row and view, else None."""
    found = spec.get(SEEN)
    if not isinstance(found, dict) or not isinstance(found.get("state"), dict):
        return None
    if found.get("upto") != int(spec["upto"]) or found.get("view") != _side(spec.get("view")):
        return None
    return found


def render_spec(store: Store, game: str, spec: dict[str, Any]) -> bytes:
    """The PNG a post's render spec asks for (see the module doc)."""
    system = games.system_of(store, game)
    found = _stored(spec)
    if found is None:
        return _render_from_log(store, system, game, spec)
    upto, after = int(spec["upto"]), spec.get("after")
    events = fold.events_since(rows_between(store, game, after, upto), after)
    return draw_seen(
        system,
        system.state_from_json(found["state"]),
        bool(found.get("over")),
        events,
        spec.get("view"),
        spec.get("title"),
        focus=bool(spec.get("focus")),
        language=language(spec.get("lang")),
    )


def draw_seen(
    system: GameSystem,
    shown: Any,
    over: bool,
    events: list[dict[str, Any]],
    view: str | None,
    title: str | None,
    focus: bool = False,
    language: Language = EN,
) -> bytes:
    """`games.draw` of a state already seen as `view` (`shown`: the system's view of it; `over`:
    whether the game was over there): the same filter of the events, the same drawer call."""
    side = _side(view)
    viewer = Viewer.of([] if side is None else [side], over=over)
    return games.draw_shown(
        system, shown, viewer, side, events, title, focus=focus, language=language
    )


def _render_from_log(store: Store, system: GameSystem, game: str, spec: dict[str, Any]) -> bytes:
    """A spec without its state (queued before specs carried it): the log up to its row, the
    game's snapshot when the game has not moved on, else replayed."""
    upto, after = int(spec["upto"]), spec.get("after")
    rec = store.load(game)
    rows = fold.with_secrets(r for r in rec.log if r.index <= upto)
    if rec.head_index == upto:  # the game has not moved on: its snapshot is that state
        state = system.state_from_json(rec.snapshot)
    else:
        state = fold.replay(system, rows)
    events = fold.events_since(rows, after)
    return games.draw(
        system,
        state,
        events,
        spec.get("view"),
        spec.get("title"),
        focus=bool(spec.get("focus")),
        language=language(spec.get("lang")),
    )


def renderer(store: Store) -> Callable[[str, dict[str, Any]], bytes]:
    """render(game, spec) -> PNG, for the outbox sender."""
    return lambda game, spec: render_spec(store, game, spec)


__all__ = ["SEEN", "draw_seen", "render_spec", "renderer", "seen", "with_seen"]

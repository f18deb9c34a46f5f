"""A game's system: the registry's system type bound to the game's own scenario text.

The stored `Game.game` column chooses the system, the stored scenario text its data: a later
change of a data file never changes a game in progress. Binding parses and validates the
scenario, so it is done once per process for each system and scenario content (keyed by the
text's SHA-256, whatever source name it is read under: every audit names its own source); the
bound systems are never mutated.
"""

from __future__ import annotations

import hashlib
import inspect
import threading
from collections import OrderedDict
from importlib import import_module, resources
from pathlib import Path
from typing import Any

from adjudicator.core import registry
from adjudicator.core.events import Viewer, audience_of
from adjudicator.core.i18n import EN, Language
from adjudicator.core.system import GameSystem, SystemType
from app.sealing import is_sealed
from storage import Store

_BOUND: OrderedDict[tuple[str, str], GameSystem] = OrderedDict()
_KEPT = 32
_LOCK = threading.Lock()  # bind may be called from several threads at once


def bind(system_id: str, text: str, source: str = "scenario") -> GameSystem:
    """The rules of `system_id` bound to a scenario text (ScenarioError if it does not load,
    naming `source`). The source only names the text in that error: a text that loaded once is
    not parsed again under another name."""
    key = (system_id, hashlib.sha256(text.encode()).hexdigest())
    with _LOCK:
        system = _BOUND.get(key)
        if system is not None:
            _BOUND.move_to_end(key)
            return system
    system = registry.get(system_id).load(text, source)
    with _LOCK:
        system = _BOUND.setdefault(key, system)  # one bound system per text, even in a race
        while len(_BOUND) > _KEPT:
            _BOUND.popitem(last=False)
    return system


def default_scenario(system: SystemType) -> tuple[str, str]:
    """(text, source) of a system's default scenario: the data file beside its rules."""
    text = resources.files(system.data_package).joinpath(system.data_file).read_text("utf-8")
    return text, system.default_source


def scenario_text(system: SystemType, path: str | Path | None) -> tuple[str, str]:
    """(text, source) of an owner's scenario file, or of the system's default one."""
    if path is None:
        return default_scenario(system)
    return Path(path).read_text("utf-8"), str(path)


def system_of(store: Store, name: str) -> GameSystem:
    """The bound system of a stored game (GameNotFound if there is none)."""
    system_id, text = store.system_and_scenario(name)
    return bind(system_id, text)


def viewer_of(system: GameSystem, state: Any, view: str | None) -> Viewer:
    """The viewer of `--view SIDE|public` (None: public); everything once the game is over."""
    over = system.situation(state).over
    return Viewer.of([] if view in (None, "public") else [view], over=over)


def draw(
    system: GameSystem,
    state: Any,
    events: list[dict[str, Any]],
    view: str | None,
    title: str | None,
    focus: bool = False,
    language: Language = EN,
) -> bytes:
    """The map of `state` as `view` (a side, or None: the public) may see it, by the system's
    drawer (imported only when a map is drawn, so that a process that draws none never loads
    Pillow). The one filter of images: the system's view of the state, and the events of the
    viewer's audiences. focus: the drawer's `draw_focus` (same arguments: a smaller image of
    where the action is, for phones) if it has one, else its `draw`. language: what its labels
    are said in, for a drawer whose function takes `language` (others draw English)."""
    viewer = viewer_of(system, state, view)
    side = None if view == "public" else view
    shown = system.view(state, viewer)
    return draw_shown(system, shown, viewer, side, events, title, focus=focus, language=language)


def draw_shown(
    system: GameSystem,
    shown: Any,
    viewer: Viewer,
    side: str | None,
    events: list[dict[str, Any]],
    title: str | None,
    *,
    focus: bool = False,
    language: Language = EN,
) -> bytes:
    """The drawer's picture of a state already seen by `viewer` (`shown`: the system's view of
    it), with the events that viewer's audiences see: the one filter and call of `draw`."""
    seen = [e for e in events if not is_sealed(e) and audience_of(e).sees(viewer)]
    drawer: Any = import_module(system.drawer)
    fn = getattr(drawer, "draw_focus", None) if focus else None
    chosen = fn or drawer.draw
    extra = {"language": language} if _takes_language(chosen) else {}
    image: bytes = chosen(system, shown, seen, view=side, title=title, **extra)
    return image


def _takes_language(fn: Any) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return "language" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


__all__ = [
    "bind",
    "default_scenario",
    "draw",
    "draw_shown",
    "scenario_text",
    "system_of",
    "viewer_of",
]

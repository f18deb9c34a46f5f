"""The two records the drawer's modules pass around: the static layer of a scenario's map
(`Static`, built once by terrain.build, with the legend's and the panel's places) and the phase
image being composed (`Frame`, by frame.compose; the attack and retreat arrows draw on it).
Their own module, so that the modules drawing on them import neither terrain nor frame."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.i18n import EN, Language
from adjudicator.hells_gate.drawer.names import NameSprite
from adjudicator.hells_gate.drawer.sizes import SMALL
from adjudicator.hells_gate.drawer.stacking import IntBox, StackPlan
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState
from render.canvas import Box, Canvas
from render.hexes import Layout
from render.labels import Label
from render.placement import Occupancy


@dataclass
class Static:
    layout: Layout
    image: Canvas  # RGB
    text_boxes: list[Box] = field(default_factory=list)  # (x0, y0, x1, y1) of the hex ids
    slots: dict[str, dict[str, str]] = field(default_factory=dict)  # hex -> {"left": what, ...}
    legend: list[tuple[str, str]] = field(default_factory=list)  # (key, label), drawing order
    legend_top: int = 0
    legend_at: dict[str, tuple[float, float]] = field(default_factory=dict)  # key -> symbol's x, y
    names: dict[str, NameSprite] = field(default_factory=dict)  # hex -> its town's name
    palette: Canvas | None = None  # set once the layer is cached (drawer/probe.py)
    panel_x: int = 0
    labels: tuple[Label, ...] = ()  # every text drawn on it (render.labels), hex ids as "id"


@dataclass
class Frame:
    """One image being composed, and what is known of where things are on it."""

    scenario: Scenario
    state: GameState
    st: Static
    img: Canvas
    dbg: dict[str, Any]  # see frame.draw_debug
    seen: set[str]  # ids of the visible units
    boxes_by_hex: dict[str, list[IntBox]] = field(default_factory=dict)  # hex -> its counters'
    plans: dict[str, StackPlan] = field(default_factory=dict)  # hex -> its stack's
    occ: Occupancy = field(init=False)  # everything, for labels (set by _occupancy)
    text_occ: Occupancy = field(init=False)  # hex ids and names, for arrows (set by _occupancy)
    lang: Language = field(default_factory=lambda: EN)  # the language of the labels
    label_size: int = SMALL  # the attack labels' text size (larger on the whole map of a post)
    brief_labels: bool = False  # attack labels with the odds only (the whole map of a post)

    @property
    def lay(self) -> Layout:
        return self.st.layout

    @property
    def drawn(self) -> set[str]:
        drawn: set[str] = self.dbg["drawn"]
        return drawn


__all__ = ["Frame", "Static"]

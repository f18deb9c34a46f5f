"""The words the rules' texts share with the listings and the map (listing_words: phases,
weather, unit types, boxes, a unit's designation), and the few only the rules say: terrain as a
column-shift reason, "A or B" and "none" in refusals. Each a core.i18n Msg whose English is the
word the texts always wrote (so the English texts keep their bytes).

A proper name (the scenario's title) is said in Russian where the scenario data gives its Russian
form (`name_ru`): `local(english, spec.name_ru)`. Pure.
"""

from __future__ import annotations

from adjudicator.core.i18n import Msg, name, t
from adjudicator.hells_gate.listing_words import box_name, phase_name, type_name, weather_name

TERRAIN_NAMES = {"clear": t("clear"), "woods": t("woods"), "cherkassy": t("cherkassy")}


def local(english: str, ru: str | None = None) -> Msg:
    """A proper name with its Russian form where the scenario data gives one."""
    return name(english, ru=ru)


def terrain_name(terrain: str) -> Msg | str:
    return TERRAIN_NAMES.get(terrain, terrain)


def or_list(items: list[str]) -> Msg | str:
    """Ids joined by " or " ("C5 or D6"), each "or" said in the language."""
    if not items:
        return ""
    said: Msg | str = items[0]
    for item in items[1:]:
        said = t("{a} or {b}", a=said, b=item)
    return said


def none_if_empty(items: list[str]) -> Msg | str:
    """A list of ids joined by ", ", or "none" (the texts' way to say an empty list)."""
    return ", ".join(items) if items else t("none")


__all__ = [
    "TERRAIN_NAMES",
    "box_name",
    "local",
    "none_if_empty",
    "or_list",
    "phase_name",
    "terrain_name",
    "type_name",
    "weather_name",
]

"""The words the rules' texts share: sides, phases, weather, unit types, terrain, boxes and the
proper names of the scenario, each a core.i18n Msg whose English is the word the texts always
used (so the English texts keep their bytes) and whose Russian is the Russian rules' term.

A proper name (a unit's designation, a town) is said in Russian where the scenario data gives
its Russian form (a `name_ru` beside the English): `local(english, ru)`; until the data has one
the English name is said. Pure.
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import Msg, name, t

PHASE_NAMES = {  # 4.1: the phases as the texts name them ("the soviet-combat phase")
    "soviet-supply": t("soviet-supply"),
    "soviet-combat": t("soviet-combat"),
    "soviet-movement": t("soviet-movement"),
    "soviet-recovery": t("soviet-recovery"),
    "german-supply": t("german-supply"),
    "german-combat": t("german-combat"),
    "german-movement": t("german-movement"),
    "german-recovery": t("german-recovery"),
    "joint": t("joint"),
}
WEATHER_NAMES = {"snow": t("snow"), "mud": t("mud")}  # 11.1
TYPE_NAMES = {  # 2.1
    "infantry": t("infantry"),
    "cavalry": t("cavalry"),
    "armor": t("armor"),
    "mech": t("mech"),
}
TERRAIN_NAMES = {"clear": t("clear"), "woods": t("woods"), "cherkassy": t("cherkassy")}
BOX_NAMES = {  # where a unit off the map is (2.7), as "box".replace("_", " ")
    "turn_track": t("turn track"),
    "eliminated": t("eliminated"),
    "broken_out": t("broken out"),
    "never_entered": t("never entered"),
    "off": t("off"),
}


def local(english: str, ru: str | None = None) -> Msg:
    """A proper name with its Russian form where the scenario data gives one."""
    return name(english, ru=ru)


def ru_of(spec: Any) -> str | None:
    """The Russian name the scenario data gives a unit, a hex or the scenario (`name_ru`)."""
    value = getattr(spec, "name_ru", None)
    return value if isinstance(value, str) and value else None


def _word(table: dict[str, Msg], key: str) -> Msg | str:
    return table.get(key, key)


def phase_name(phase: str) -> Msg | str:
    return _word(PHASE_NAMES, phase)


def weather_name(weather: str) -> Msg | str:
    return _word(WEATHER_NAMES, weather)


def type_name(kind: str) -> Msg | str:
    return _word(TYPE_NAMES, kind)


def terrain_name(terrain: str) -> Msg | str:
    return _word(TERRAIN_NAMES, terrain)


def box_name(box: str) -> Msg | str:
    return BOX_NAMES.get(box, box.replace("_", " "))


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
    "BOX_NAMES",
    "PHASE_NAMES",
    "TERRAIN_NAMES",
    "TYPE_NAMES",
    "WEATHER_NAMES",
    "box_name",
    "local",
    "none_if_empty",
    "or_list",
    "phase_name",
    "ru_of",
    "terrain_name",
    "type_name",
    "weather_name",
]

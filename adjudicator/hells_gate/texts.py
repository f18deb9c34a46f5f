"""The words of Hell's Gate's texts (the rules' events and refusals, the listings, the map):
sides, markers, boxes, unit types, terrain, phases and weather as texts with a Russian form, the
Russian name of a unit or a town where the scenario data gives one, "A or B" and "none". Each a
core.i18n Msg whose English is the word the texts always wrote (so the English texts keep their
bytes).

A proper name (the scenario's title) is said in Russian where the scenario data gives its Russian
form (`name_ru`): `local(english, spec.name_ru)`. Pure.
"""

from __future__ import annotations

from adjudicator.core.i18n import Msg, cat, name, t
from adjudicator.hells_gate.scenario import HexSpec, UnitSpec

SIDE_NAMES = {"soviet": t("Soviet"), "german": t("German")}  # side.title()
TYPE_NAMES = {  # 2.1
    "infantry": t("infantry"),
    "cavalry": t("cavalry"),
    "armor": t("armor"),
    "mech": t("mech"),
}
BOX_NAMES = {  # a unit off the map (2.7), as box.replace("_", " ") wrote it
    "turn_track": t("turn track"),
    "eliminated": t("eliminated"),
    "broken_out": t("broken out"),
    "never_entered": t("never entered"),
    "off": t("off"),
}
PHASE_PHRASES = {  # "{phase} phase" (4.1)
    "soviet-supply": t("soviet-supply phase"),
    "soviet-combat": t("soviet-combat phase"),
    "soviet-movement": t("soviet-movement phase"),
    "soviet-recovery": t("soviet-recovery phase"),
    "german-supply": t("german-supply phase"),
    "german-combat": t("german-combat phase"),
    "german-movement": t("german-movement phase"),
    "german-recovery": t("german-recovery phase"),
    "joint": t("joint phase"),
}
WEATHER_TITLES = {"snow": t("Snow"), "mud": t("Mud")}  # weather.title() (11.1)
WEATHER_NAMES = {"snow": t("snow"), "mud": t("mud")}
PHASE_NAMES = {  # the phase ids as the map's panel writes them (4.1)
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
OOS, RETREAT = t("OOS"), t("Retreat")  # the markers (6.9, 8.33)
TERRAIN_NAMES = {"clear": t("clear"), "woods": t("woods"), "cherkassy": t("cherkassy")}


def side_name(side: str) -> Msg | str:
    return SIDE_NAMES.get(side, side.title())


def box_name(box: str) -> Msg | str:
    return BOX_NAMES.get(box, box.replace("_", " "))


def type_name(kind: str) -> Msg | str:
    return TYPE_NAMES.get(kind, kind)


def phase_phrase(phase: str) -> Msg:
    return PHASE_PHRASES.get(phase) or t("{phase} phase", phase=phase)


def phase_name(phase: str) -> Msg | str:
    return PHASE_NAMES.get(phase, phase)


def weather_name(weather: str) -> Msg | str:
    return WEATHER_NAMES.get(weather, weather)


def weather_title(weather: str) -> Msg | str:
    return WEATHER_TITLES.get(weather, weather.title())


def designation(spec: UnitSpec) -> Msg:
    """A unit's designation, in Russian where the data gives its name_ru."""
    return name(spec.designation, ru=spec.name_ru)


def town(spec: HexSpec, shown: str | None = None) -> Msg | None:
    """A hex's town name (shown: the English form to show, such as the name without its
    parenthesis), in Russian where the data gives its name_ru (cut the same way)."""
    if spec.name is None:
        return None
    english = spec.name if shown is None else shown
    ru = spec.name_ru
    if ru is not None and shown is not None and shown != spec.name:
        ru = ru.split(" (")[0]
    return name(english, ru=ru)


def hex_label(spec: HexSpec) -> Msg | str:
    """ "D6 (Smela)": Scenario.hex_label with the town's name in the reader's language."""
    said = town(spec)
    return cat(spec.id, " (", said, ")") if said is not None else spec.id


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
    "BOX_NAMES",
    "OOS",
    "PHASE_PHRASES",
    "RETREAT",
    "SIDE_NAMES",
    "TERRAIN_NAMES",
    "TYPE_NAMES",
    "WEATHER_TITLES",
    "box_name",
    "designation",
    "hex_label",
    "local",
    "none_if_empty",
    "or_list",
    "phase_name",
    "phase_phrase",
    "side_name",
    "terrain_name",
    "town",
    "type_name",
    "weather_name",
    "weather_title",
]

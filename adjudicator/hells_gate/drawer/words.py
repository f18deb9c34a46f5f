"""The words of the Hell's Gate map in the map's language: the marker strips' abbreviations and
the texts the drawer modules share. A label is said with core.i18n's say(t("..."), language).
Pure."""

from __future__ import annotations

from adjudicator.core.i18n import Language, Msg, name, say, t
from adjudicator.core.text import plural
from adjudicator.hells_gate.scenario import HexSpec, Scenario
from adjudicator.hells_gate.texts import side_name, town

# the marker strips under a counter: abbreviations of the markers' names (6.9, 8.33)
STRIP_OOS = name("OOS", ru="ВС")  # вне снабжения
STRIP_RET = name("RET", ru="ОТС")  # Отступление


def scenario_title(scenario: Scenario) -> Msg:
    """The game's title, in Russian where the data gives its title_ru."""
    return name(scenario.title, ru=scenario.name_ru)


def strip_labels(language: Language) -> tuple[str, str]:
    return say(STRIP_OOS, language), say(STRIP_RET, language)


def side_word(side: str, language: Language) -> str:
    """ "Soviet", "German" (a side's name on the map) in the language."""
    return say(side_name(side), language)


def town_name(spec: HexSpec, english: str, language: Language) -> str:
    """A town's name as the map shows it (english: the English form shown)."""
    said = town(spec, english)
    return say(said, language) if said is not None else english


def result_text(hits: int | None, language: Language) -> str:
    """An attack's result as the map writes it: "no effect", "1 hit", "2 hits"."""
    if hits is None:
        return "?"
    if hits == 0:
        return say(t("no effect"), language)
    return say(_hits(hits), language)


def _hits(n: int) -> Msg:
    return plural(n, "hit")


__all__ = ["result_text", "scenario_title", "side_word", "strip_labels", "town_name"]

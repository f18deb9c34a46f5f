"""The words the block game's texts share: sides, phases, block types and places off the map,
each a name whose English is the id (or the word) the texts always said, with its Russian form
(issue 17). The English of every text built with them stays byte for byte what it was. Pure."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from adjudicator.core.i18n import Msg, cat, name, t

_SIDES_RU = {"sweden": "Швеция", "coalition": "Коалиция"}
_PHASES_RU = {
    "action": "фаза действий",
    "battle": "фаза битвы",
    "entry": "входная фаза",
    "winter": "зимняя кампания",
    "over": "игра окончена",
}
_TYPES_RU = {"army": "армия", "regiment": "полк", "fleet": "флот"}
_PLACES_RU = {
    "map": "на карте",
    "pool": "в пуле пополнений",
    "removed": "выведен из игры",
    "exile": "в ссылке",
}
# rule 5.17: the kinds of action by their command words, in the order a player performs them
_KINDS_RU = {
    "recon": "разведка",
    "move": "движение",
    "siege": "осада",
    "policy": "политика",
    "replace": "пополнение",
}


def side(s: str) -> Msg:
    """A side as the texts name it in lower case: "sweden" (Russian "Швеция")."""
    return name(s, ru=_SIDES_RU.get(s))


def Side(s: str) -> Msg:
    """A side at the start of a sentence: "Sweden" (Russian "Швеция")."""
    return name(s.capitalize(), ru=_SIDES_RU.get(s))


def phase(p: str) -> Msg:
    """A phase's id; in Russian its whole name ("action" -> "фаза действий")."""
    return name(p, ru=_PHASES_RU.get(p))


def block_type(kind: str) -> Msg:
    return name(kind, ru=_TYPES_RU.get(kind))


def place(status: str) -> Msg:
    """Where a block off the map is: "pool", "removed", "exile"."""
    return name(status, ru=_PLACES_RU.get(status))


def kind(k: str) -> Msg:
    """An action kind by its command word ("recon"; Russian "разведка")."""
    return name(k, ru=_KINDS_RU.get(k))


def listed(parts: Iterable[Any], sep: str = ", ") -> Msg:
    """Texts joined by sep, each said on its own."""
    return cat(*parts, sep=sep)


def then(rolls: list[int]) -> Msg:
    """ "3 then 6 then 2": a side's rolls in order (rule 5.13)."""
    said: Any = str(rolls[0])
    for r in rolls[1:]:
        said = t("{a} then {b}", a=said, b=r)
    return Msg(str(said)) if not isinstance(said, Msg) else said


def dice(rolled: Iterable[int]) -> str:
    """Dice as the texts show them: "6 2 1" (numbers, the same in every language)."""
    return " ".join(map(str, rolled))

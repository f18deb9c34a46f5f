"""The question `areas`: every territory of the map by the id players type, with its name, the
side controlling it (N5), its fortress (N4 a), whether it is a victory territory (N15) and its
neighbours; a question, so nothing changes. Also the grammar's hint that the list exists, added
to every refusal of an unknown territory (an order, a decision or a moderator's `place`). Pure."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.core.i18n import Msg, t
from adjudicator.core.i18n import lines as lines_of
from adjudicator.grammar import GrammarKit, ParseError
from adjudicator.northern_war import texts
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import NWState


@dataclass(frozen=True)
class Areas:  # the question: the list of areas (answered to whoever asks)
    pass


def area_line(sc: Scenario, state: NWState, where: str) -> Msg:
    """One territory: "livonia - Livonia: Sweden; fortress 3; victory territory; next to
    estonia, pskov, courland"."""
    terr = sc.territories[where]
    parts: list[object] = [t("held by {side}", side=texts.side(state.control[where]))]
    if terr.fortress:
        parts.append(t("fortress {n}", n=terr.fortress))
    if where in sc.victory:
        parts.append(t("victory territory"))
    parts.append(t("next to {areas}", areas=", ".join(terr.borders)))
    return t(
        "{id} - {area}: {details}",
        id=where,
        area=terr.named,
        details=texts.listed(parts, "; "),
    )


def areas_text(sc: Scenario, state: NWState) -> Msg:
    lines: list[object] = [
        t(
            "The areas of the map (an order takes the id or the name, e.g. 'recon {area}'):",
            area=next(iter(sc.territories)),
        )
    ]
    lines += [area_line(sc, state, x) for x in sc.territories]
    return lines_of(lines)


def _with_hint(refusal: str) -> str:
    """The refusal, a full stop if its last sentence (a usage line) has none, then the hint."""
    if str(refusal).rstrip()[-1:] in (".", "!", "?"):
        return t("{refusal} Say 'areas' for the list of areas.", refusal=refusal)
    return t("{refusal}. Say 'areas' for the list of areas.", refusal=refusal)


class AreaGrammar(GrammarKit):
    """The kit's grammar, whose refusal of an unknown or a missing territory says that `areas`
    lists them."""

    def parse(self, text: str) -> object:
        try:
            return super().parse(text)
        except ParseError as exc:
            missing = exc.code == "syntax" and str(exc.message).startswith("a territory is missing")
            if exc.code != "unknown-territory" and not missing:
                raise
            hint = _with_hint(exc.message)
            raise ParseError(exc.code, hint, exc.rule) from None

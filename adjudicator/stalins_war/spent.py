"""The texts the state keeps as English strings, and their Msg back from those strings.

An open action round records each spend of OPS as a line (`Open.spent`, rules 8.3 to 8.20) and
a finished game its result text (12.5); the state's JSON, which snapshots and their hashes
hold, keeps them as the English text. `spent_msg(line)` and `result_text(result)` give the
Msg of such a text again (its template matched), so the round summary and the end are said in
every language; a text that matches no template (an older wording) is given as it is. Pure.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from adjudicator.core.i18n import Msg, t

FIELDS = {
    "leave-paid": ("who", "hex"),
    "leave-free": ("who", "hex", "stay"),
    "strategic": ("units", "cost"),
    "combat-both": ("hexes", "cost", "both"),
    "combat": ("hexes", "cost"),
}  # combat-both before combat: the longer template first


def spent_line(kind: str, **a: Any) -> Msg:
    """The line of one spend (kind: a key of FIELDS)."""
    if kind == "leave-paid":
        return t(
            "{who} leave {hex} (enemy ZOC): all that started there have left, 1 OPS (8.3, 8.6)",
            **a,
        )
    if kind == "leave-free":
        return t("{who} leave {hex} (enemy ZOC); {stay} stay, 0 OPS (8.4)", **a)
    if kind == "strategic":
        return t("strategic movement of {units} for {cost} OPS (8.9)", **a)
    if kind == "combat-both":
        return t(
            "Combat markers in {hexes} for {cost} OPS (8.15) ({both}: movement and combat, "
            "2 OPS in all, 8.20)",
            **a,
        )
    return t("Combat markers in {hexes} for {cost} OPS (8.15)", **a)


def spent_msg(kind_or_line: str, **a: Any) -> Msg:
    """spent_msg(kind, **fields): the line of a spend; spent_msg(line): the Msg of a line the
    state kept as English (the line itself if no template matches)."""
    if kind_or_line in FIELDS:
        fields = FIELDS[kind_or_line]
        return spent_line(kind_or_line, **{f: a[f] for f in fields})
    if isinstance(kind_or_line, Msg):
        return kind_or_line
    for kind, pattern in _patterns():
        found = pattern.fullmatch(kind_or_line)
        if found is not None:
            return spent_line(kind, **found.groupdict())
    return t("{line}", line=kind_or_line)


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    found = []
    for kind, fields in FIELDS.items():
        template = spent_line(kind, **{f: f for f in fields}).template
        pattern = re.escape(template)
        for f in fields:
            pattern = pattern.replace(re.escape("{" + f + "}"), f"(?P<{f}>.+?)", 1)
        found.append((kind, re.compile(pattern, re.DOTALL)))
    return tuple(found)


def game_end(turn: int) -> Msg:
    """Rule 12.5: the game ends after the end-of-turn phase of the last turn."""
    return t(
        "the game ends after the end-of-turn phase of turn {turn} (rule 12.5); the source gives "
        "no victory conditions, so no winner is named",
        turn=turn,
    )


def result_text(result: dict[str, Any]) -> Msg | str:
    """The result's text said in every language when it is the text of 12.5."""
    text = str(result.get("text", ""))
    turn = result.get("turn")
    if isinstance(turn, int) and game_end(turn) == text:
        return game_end(turn)
    return text

"""An order of battle and its hex layout, parsed from TOML text and validated (rules 1.1-1.10).

The file (see docs/borodino.md and sample.toml) gives the title, `die_sides` (1.10: no default),
`use_jager_rules` (7.1), how the game ends for the referee, the map's columns and rows, the
Activation Groups (id, side, name, Army) and the units (id, name, side, group or Army, type,
the cohesion of each side, where the unit starts). A file with no Activation Groups (the
Shevardino scenario, 8.7) makes every unit independent. The board is core.hexgrid's with four-digit
ids, column then row ("0712"): flat-topped hexes in vertical columns, the `low_columns` ("odd"
or "even") half a hex lower, as on the printed map; distance (1.11) counts the hexes of the
shortest chain. Pure: text in, Scenario out.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.core.hexgrid import HexGrid
from adjudicator.core.i18n import t
from adjudicator.core.scenario import Checker, ScenarioError

SIDE_IDS = ("russian", "french")
TYPES = ("infantry", "cavalry", "artillery", "opolchenie", "jager")
RUSSIAN_ONLY = ("opolchenie",)  # 3.3, 6.3, 6.6: "Russian Opolchenie"
NOT_COUNTED = ("artillery", "opolchenie")  # 6.3, 6.6: outside N, L and the effects of collapse
# Who is ahead when the referee's part ends (no rule of the source says; turns.finish): "share",
# the smaller share of the side's order of battle off the map; "count", fewer units off the map
# (the verdict of the games begun before `verdict` was read: a file without it keeps it).
VERDICTS = ("count", "share")
STARTS = ("map", "withdrawn", "recovery", "eliminated", "later")


@dataclass(frozen=True)
class Group:
    """An Activation Group (1.1)."""

    id: str
    side: str
    name: str
    army: str
    name_ru: str | None = None  # the Russian name, where the Russian sources give one
    army_ru: str | None = None


@dataclass(frozen=True)
class Unit:
    id: str
    name: str
    side: str
    group: str | None  # its Activation Group; None: an independent unit (1.2)
    army: str  # its Army (an AG unit: the AG's Army)
    type: str
    cohesion: int  # on the Normal side
    cohesion_disordered: int  # on the Disordered side: every roll is against it (1.4)
    start: str  # one of STARTS
    hex: str | None  # where it starts on the map
    disordered: bool  # starts Disordered side up
    name_ru: str | None = None  # the Russian name, where the Russian sources give one
    army_ru: str | None = None  # its Army's Russian name (an AG unit: the AG's)

    @property
    def counts_for_collapse(self) -> bool:
        return self.type not in NOT_COUNTED


@dataclass(frozen=True)
class Ending:
    """When the referee's part of the game ends (the result the demo and contract need)."""

    recovery_phases: int  # after so many Recovery Phases
    on_collapse: bool  # at the first collapse of an Activation Group
    verdict: str = "count"  # who is ahead at the end: VERDICTS (turns.finish)


@dataclass(frozen=True)
class Scenario:
    title: str
    sample: bool
    die_sides: int
    use_jager_rules: bool
    ending: Ending
    map: HexGrid
    groups: Mapping[str, Group]
    units: Mapping[str, Unit]
    title_ru: str | None = None  # the title in Russian (optional)

    def members(self, group: str) -> list[Unit]:
        return [u for u in self.units.values() if u.group == group]


def parse_scenario(text: str, source: str) -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "file", f"not valid TOML: {exc}") from None
    ck = Checker(source)
    die = ck.get(data, "die_sides", int, "die_sides")  # 1.10: no default, never assume 6
    if die < 2:
        ck.fail("die_sides", t("a die has at least 2 sides, not {die} (1.10)", die=die))
    end = ck.get(data, "end", dict, "[end]")
    ending = Ending(
        ck.get(end, "recovery_phases", int, "[end]"),
        ck.get(end, "on_collapse", bool, "[end]"),
        ck.get(end, "verdict", str, "[end]", "count", VERDICTS),
    )
    if ending.recovery_phases < 1:
        ck.fail("[end]", "recovery_phases must be at least 1")
    hexmap = _map(ck, ck.get(data, "map", dict, "[map]"))
    groups = _groups(ck, ck.get(data, "groups", list, "[[groups]]", []))
    units = _units(ck, ck.get(data, "units", list, "[[units]]"), groups, hexmap, die)
    for gid in groups:
        if not any(u.group == gid for u in units.values()):
            ck.fail(f"group {gid}", t("no unit belongs to it: a group is a group of units (1.1)"))
    return Scenario(
        ck.get(data, "title", str, "title"),
        ck.get(data, "sample", bool, "sample", False),
        die,
        ck.get(data, "use_jager_rules", bool, "use_jager_rules"),
        ending,
        hexmap,
        groups,
        units,
        _russian(ck, data, "title_ru", "title"),
    )


def _map(ck: Checker, table: dict[str, Any]) -> HexGrid:
    cols = ck.get(table, "columns", list, "[map]")
    rows = ck.get(table, "rows", list, "[map]")
    for name, pair in (("columns", cols), ("rows", rows)):
        if len(pair) != 2 or not all(isinstance(v, int) for v in pair):
            ck.fail("[map]", f"{name} must be [first, last], got {pair!r}")
        if not 1 <= pair[0] <= pair[1] <= 99:
            ck.fail("[map]", f"{name} must run from 1 to 99, first to last, got {pair!r}")
    low = ck.get(table, "low_columns", str, "[map]", choices=("odd", "even"))
    return HexGrid.numbered((cols[0], cols[1]), (rows[0], rows[1]), low)


def _groups(ck: Checker, rows: list[Any]) -> dict[str, Group]:
    groups: dict[str, Group] = {}
    for n, row in enumerate(rows, 1):
        entry = f"group {n}"
        if not isinstance(row, dict):
            ck.fail(entry, "must be a table")
        gid = ck.get(row, "id", str, entry).lower()
        entry = f"group {gid}"
        if gid in groups:
            ck.fail(entry, "a second group of that id")
        side = ck.get(row, "side", str, entry, choices=SIDE_IDS)
        groups[gid] = Group(
            gid,
            side,
            ck.get(row, "name", str, entry),
            ck.get(row, "army", str, entry),
            _russian(ck, row, "name_ru", entry),
            _russian(ck, row, "army_ru", entry),
        )
    return groups


def _units(
    ck: Checker, rows: list[Any], groups: Mapping[str, Group], hexmap: HexGrid, die: int
) -> dict[str, Unit]:
    units: dict[str, Unit] = {}
    for n, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            ck.fail(f"unit {n}", "must be a table")
        unit = _unit(ck, row, f"unit {n}", groups, hexmap, die)
        if unit.id in units or unit.id in groups:
            ck.fail(f"unit {unit.id}", "a second unit or group of that id")
        units[unit.id] = unit
    if not units:
        ck.fail("[[units]]", "no units")
    _check_hexes(ck, units)
    return units


def _unit(
    ck: Checker,
    row: dict[str, Any],
    entry: str,
    groups: Mapping[str, Group],
    hexmap: HexGrid,
    die: int,
) -> Unit:
    uid = ck.get(row, "id", str, entry).lower()
    entry = f"unit {uid}"
    side = ck.get(row, "side", str, entry, choices=SIDE_IDS)
    group = ck.get(row, "group", str, entry, None)
    if group is not None:
        group = group.lower()
        if group not in groups:
            ck.fail(entry, f"no group {group!r}; groups: {', '.join(groups) or 'none'}")
        if groups[group].side != side:
            ck.fail(entry, f"group {group} is {groups[group].side}, the unit {side}")
        army, army_ru = groups[group].army, groups[group].army_ru
    else:
        army = ck.get(row, "army", str, entry)  # 1.2: an independent unit belongs to an Army
        army_ru = _russian(ck, row, "army_ru", entry)
    cohesion = ck.get(row, "cohesion", int, entry)
    disordered_c = ck.get(row, "cohesion_disordered", int, entry)
    for key, value in (("cohesion", cohesion), ("cohesion_disordered", disordered_c)):
        if not 0 <= value <= die:
            ck.fail(
                entry,
                t(
                    "{key} {value} is not 0 to {die}: a roll of the die is compared "
                    "with it (1.4, 1.10)",
                    key=key,
                    value=value,
                    die=die,
                ),
            )
    if disordered_c > cohesion:
        ck.fail(
            entry,
            t(
                "cohesion_disordered {d} is above cohesion {n}: the Disordered side's "
                "cohesion is at most the Normal side's (1.3, 1.4)",
                d=disordered_c,
                n=cohesion,
            ),
        )
    kind = ck.get(row, "type", str, entry, choices=TYPES)
    if kind in RUSSIAN_ONLY and side != "russian":
        ck.fail(
            entry,
            t(
                "type {kind} is Russian (the Russian Opolchenie, 3.3, 6.3, 6.6); "
                "the unit's side is {side}",
                kind=kind,
                side=side,
            ),
        )
    start = ck.get(row, "start", str, entry, "map", STARTS)
    hex_id = ck.get(row, "hex", str, entry, None)
    if (start == "map") != (hex_id is not None):
        ck.fail(entry, "a unit on the map has a hex, a unit off it none")
    if hex_id is not None and hex_id not in hexmap:
        ck.fail(entry, f"hex {hex_id} is not on the map")
    disordered = ck.get(row, "disordered", bool, entry, False)
    if disordered and start != "map":
        ck.fail(
            entry,
            t(
                "disordered: only a unit on the map is Formed or Disordered (1.5); "
                "the unit starts {start}",
                start=start,
            ),
        )
    return Unit(
        uid,
        ck.get(row, "name", str, entry, uid),
        side,
        group,
        army,
        kind,
        cohesion,
        disordered_c,
        start,
        hex_id,
        disordered,
        _russian(ck, row, "name_ru", entry),
        army_ru,
    )


def _russian(ck: Checker, row: Mapping[str, Any], key: str, entry: str) -> str | None:
    """An optional Russian name (`name_ru`, `army_ru`): a string, not blank, in Cyrillic."""
    said = ck.get(row, key, str, entry, None)
    if said is None:
        return None
    if not said.strip():
        ck.fail(entry, f"{key} is blank")
    if not any("\u0400" <= ch <= "\u04ff" for ch in said):
        ck.fail(entry, f"{key} {said!r} has no Cyrillic letter")
    return said.strip()


def _check_hexes(ck: Checker, units: Mapping[str, Unit]) -> None:
    held: dict[str, str] = {}
    for u in units.values():
        if u.hex is not None and held.setdefault(u.hex, u.side) != u.side:
            ck.fail(f"unit {u.id}", f"hex {u.hex} holds units of both sides")

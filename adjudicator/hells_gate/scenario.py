"""Hell's Gate scenario data (rules section 16): parsed from TOML text and validated.

Pure: takes the text and a source name for error messages; reading the file is the loader's job.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from typing import Any, TypedDict, cast

from adjudicator.core.hexgrid import HexGrid, hexside
from adjudicator.core.scenario import Checker, ScenarioError

SIDES = ("soviet", "german")
TERRAINS = ("clear", "woods", "cherkassy")
SIZES = ("X", "XX", "XXX")
TYPES = ("infantry", "cavalry", "armor", "mech")
WEATHERS = ("snow", "mud")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


Named = dict[str, str | list[str]]  # [map.named]: a name -> a hex id or a list of hex ids


class Flags(TypedDict):
    """[flags] (rules 16.8, 16.9 and the turn rules of section 12), as _check_flags checks them."""

    turn1_soviet_armor: list[str]  # 12.2
    german_armor_at_start: list[str]  # 12.4
    german_24th_panzer: str  # 7.7
    red_turns: list[int]  # 12.16
    initial_weather: str  # 16.9
    overstack_counts_retreated: bool  # 8.20, Q2
    snow_move_cavalry: int  # 9.11
    tychinovka_marker_hex: str  # 12.8
    airfield_hex: str  # 12.12, 12.14
    airfield_cap_hexes: list[str]  # 12.12
    turn2_supply_limit: int  # 12.7
    german_turn1_reinforcement_armor_limit: int  # 12.4
    german_turn1_at_start_armor_limit: int  # 12.4


@dataclass(frozen=True)
class UnitSpec:
    """The fixed attributes of rule 2.1."""

    id: str
    side: str
    designation: str
    size: str
    type: str
    steps: int
    strength_full: int
    strength_reduced: int | None
    bracketed: bool
    setup_hex: str | None
    entry_turn: int | None
    entry_hex: str | None
    name_ru: str | None = None  # the designation in Russian ("389-я пехотная дивизия")
    id_ru: str | None = None  # the id as a Russian player types it ("389пд")

    @property
    def is_armor(self) -> bool:  # 2.12
        return self.type == "armor"

    @property
    def is_corps(self) -> bool:
        return self.size == "XXX"


@dataclass(frozen=True)
class HexSpec:
    id: str
    terrain: str
    name: str | None
    supply: str | None
    name_ru: str | None = None  # the town's name in Russian ("Смела")


@dataclass(frozen=True)
class Column:
    label: str
    a: int
    b: int


@dataclass
class Scenario:
    source: str
    id: str
    title: str
    turns: int
    grid: HexGrid
    hexes: dict[str, HexSpec]
    rivers: dict[str, list[frozenset[str]]]
    river_hexsides: frozenset[frozenset[str]]
    named: Named
    columns: list[Column]
    cells: dict[str, list[tuple[int, int]]]
    units: dict[str, UnitSpec]
    flags: Flags
    name_ru: str | None = None  # the title in Russian

    def supply_hexes(self, side: str) -> list[str]:
        return [h for h, spec in self.hexes.items() if spec.supply == side]

    def is_woods_for_combat(self, hex_id: str) -> bool:
        """8.6 and S4: woods or Cherkassy."""
        return self.hexes[hex_id].terrain in ("woods", "cherkassy")

    def is_woods_for_movement(self, hex_id: str) -> bool:
        """9.8 Decision: Cherkassy is not woods for movement."""
        return self.hexes[hex_id].terrain == "woods"

    def is_river(self, a: str, b: str) -> bool:
        return hexside(a, b) in self.river_hexsides

    def column_index(self, label: str) -> int:
        return [c.label for c in self.columns].index(label)

    def hits(self, column: str, die: int, right_hand: bool) -> int:
        left, right = self.cells[column][die - 1]
        return right if right_hand else left

    def hex_label(self, hex_id: str) -> str:
        name = self.hexes[hex_id].name
        return f"{hex_id} ({name})" if name else hex_id


def parse_scenario(text: str, source: str = "scenario.toml") -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "file", f"not valid TOML: {exc}") from None
    chk = Checker(source)
    head = chk.get(data, "scenario", dict, "[scenario]")
    grid, hexes, rivers, named = _parse_map(chk, chk.get(data, "map", dict, "[map]"))
    columns, cells = _parse_crt(chk, chk.get(data, "crt", dict, "[crt]"))
    units = _parse_units(chk, chk.get(data, "units", list, "[[units]]"), grid)
    flags = cast(Flags, chk.get(data, "flags", dict, "[flags]"))  # _check_flags checks it
    scen = Scenario(
        source=source,
        id=chk.get(head, "id", str, "[scenario]"),
        title=chk.get(head, "title", str, "[scenario]"),
        turns=chk.get(head, "turns", int, "[scenario]"),
        grid=grid,
        hexes=hexes,
        rivers=rivers,
        river_hexsides=frozenset(s for sides in rivers.values() for s in sides),
        named=named,
        columns=columns,
        cells=cells,
        units=units,
        flags=flags,
        name_ru=_russian(chk, head, "title_ru", "[scenario]"),
    )
    _check_flags(chk, scen)
    return scen


def _parse_map(
    chk: Checker, m: dict[str, Any]
) -> tuple[HexGrid, dict[str, HexSpec], dict[str, list[frozenset[str]]], Named]:
    columns = chk.get(m, "columns", str, "[map]")
    rows = chk.get(m, "rows", list, "[map]")
    if len(rows) != 2 or not all(isinstance(r, int) for r in rows) or rows[0] > rows[1]:
        chk.fail("[map] rows", f"must be [first, last], got {rows!r}")
    grid = HexGrid(columns, rows[0], rows[1])
    raw = chk.get(m, "hexes", dict, "[map]")
    hexes: dict[str, HexSpec] = {}
    for h in grid.hexes:
        if h not in raw:
            chk.fail(f"[map.hexes] {h}", "missing: every hex of the grid needs an entry")
    for h, spec in raw.items():
        entry = f"[map.hexes] {h}"
        if h not in grid:
            chk.fail(entry, f"not a hex of the grid {columns[0]}{rows[0]}-{columns[-1]}{rows[1]}")
        hexes[h] = HexSpec(
            h,
            chk.get(spec, "terrain", str, entry, choices=TERRAINS),
            chk.get(spec, "name", str, entry, default=None),
            chk.get(spec, "supply", str, entry, default=None, choices=SIDES),
            _russian(chk, spec, "name_ru", entry),
        )
        if hexes[h].name_ru is not None and hexes[h].name is None:
            chk.fail(entry, "a name_ru needs a name beside it")
    rivers: dict[str, list[frozenset[str]]] = {}
    for name, pairs in chk.get(m, "rivers", dict, "[map]", default={}).items():
        sides = []
        for i, pair in enumerate(pairs):
            entry = f"[map.rivers] {name}[{i}]"
            if not isinstance(pair, list) or len(pair) != 2:
                chk.fail(entry, f"a hexside is a pair of hexes, got {pair!r}")
            a, b = pair
            for x in pair:
                if x not in grid:
                    chk.fail(entry, f"{x!r} is not a hex of the map")
            if not grid.adjacent(a, b):
                chk.fail(entry, f"{a} and {b} are not adjacent, so they share no hexside")
            sides.append(hexside(a, b))
        rivers[name] = sides
    named: Named = chk.get(m, "named", dict, "[map]", default={})
    for key, value in named.items():
        for h in value if isinstance(value, list) else [value]:
            if h not in grid:
                chk.fail(f"[map.named] {key}", f"{h!r} is not a hex of the map")
    return grid, hexes, rivers, named


def _parse_ratio(chk: Checker, label: object, entry: str) -> Column:
    try:
        a, b = (int(x) for x in str(label).split(":"))
        if a <= 0 or b <= 0:
            raise ValueError
    except ValueError:
        chk.fail(entry, f"column {label!r} is not a ratio like '3:2'")
    return Column(str(label), a, b)


def _parse_crt(
    chk: Checker, crt: dict[str, Any]
) -> tuple[list[Column], dict[str, list[tuple[int, int]]]]:
    labels = chk.get(crt, "columns", list, "[crt]")
    columns = [_parse_ratio(chk, lab, "[crt] columns") for lab in labels]
    if not columns:
        chk.fail("[crt] columns", "at least one column is needed")
    for lo, hi in pairwise(columns):
        if Fraction(lo.a, lo.b) >= Fraction(hi.a, hi.b):
            chk.fail("[crt] columns", f"columns must rise in odds: {lo.label} then {hi.label}")
    raw = chk.get(crt, "cells", dict, "[crt]")
    cells: dict[str, list[tuple[int, int]]] = {}
    for col in columns:
        entry = f"[crt.cells] {col.label}"
        row = raw.get(col.label)
        if not isinstance(row, list) or len(row) != 6:
            chk.fail(entry, "needs 6 cells, one per die result 1-6")
        cells[col.label] = []
        for die, cell in enumerate(row, 1):
            ok = isinstance(cell, list) and len(cell) == 2
            if not ok or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in cell
            ):
                chk.fail(
                    f"{entry} die {die}", f"a cell is [normal, decisive] hits >= 0, got {cell!r}"
                )
            cells[col.label].append((cell[0], cell[1]))
    for extra in set(raw) - {c.label for c in columns}:
        chk.fail(f"[crt.cells] {extra}", "not one of the [crt] columns")
    return columns, cells


def _parse_units(chk: Checker, raw: list[Any], grid: HexGrid) -> dict[str, UnitSpec]:
    units: dict[str, UnitSpec] = {}
    for i, u in enumerate(raw):
        entry = f"[[units]] #{i + 1} ({u.get('id', '?')})"
        spec = UnitSpec(
            id=chk.get(u, "id", str, entry),
            side=chk.get(u, "side", str, entry, choices=SIDES),
            designation=chk.get(u, "designation", str, entry),
            size=chk.get(u, "size", str, entry, choices=SIZES),
            type=chk.get(u, "type", str, entry, choices=TYPES),
            steps=chk.get(u, "steps", int, entry, choices=(1, 2)),
            strength_full=chk.get(u, "strength_full", int, entry),
            strength_reduced=chk.get(u, "strength_reduced", int, entry, default=None),
            bracketed=chk.get(u, "bracketed", bool, entry, default=False),
            setup_hex=chk.get(u, "setup_hex", str, entry, default=None),
            entry_turn=chk.get(u, "entry_turn", int, entry, default=None),
            entry_hex=chk.get(u, "entry_hex", str, entry, default=None),
            name_ru=_russian(chk, u, "name_ru", entry),
            id_ru=_russian(chk, u, "id_ru", entry),
        )
        _check_unit(chk, spec, entry, grid)
        if spec.id in units:
            chk.fail(entry, f"duplicate unit id {spec.id!r}")
        units[spec.id] = spec
    _check_russian_ids(chk, units)
    return units


def _russian(chk: Checker, table: dict[str, Any], key: str, entry: str) -> str | None:
    """An optional name in Russian: a string with a Cyrillic letter, no blank around it."""
    value = chk.get(table, key, str, entry, default=None)
    if value is not None and (value != value.strip() or not _CYRILLIC.search(value)):
        chk.fail(entry, f"'{key}' must be a Russian name (Cyrillic letters), got {value!r}")
    return value


def _check_russian_ids(chk: Checker, units: dict[str, UnitSpec]) -> None:
    """An id_ru is lowercase without spaces, and names one unit only (no other's id or id_ru)."""
    seen: dict[str, str] = {}
    for u in units.values():
        if u.id_ru is None:
            continue
        entry = f"[[units]] {u.id} id_ru"
        if u.id_ru != u.id_ru.lower() or " " in u.id_ru:
            chk.fail(entry, "an id is lowercase, without spaces")
        if u.id_ru in units or u.id_ru in seen:
            chk.fail(entry, f"{u.id_ru!r} already names {seen.get(u.id_ru, u.id_ru)}")
        seen[u.id_ru] = u.id


def _check_unit(chk: Checker, u: UnitSpec, entry: str, grid: HexGrid) -> None:
    if u.id != u.id.lower() or not u.id or " " in u.id or u.id.upper() in grid:
        chk.fail(entry, "an id is lowercase, without spaces, and not a hex id")
    if u.steps == 2 and not (
        u.strength_reduced is not None and 0 < u.strength_reduced < u.strength_full
    ):
        chk.fail(entry, "a two-step unit needs 0 < strength_reduced < strength_full")
    if u.steps == 1 and u.strength_reduced is not None:
        chk.fail(entry, "a one-step unit has no strength_reduced")
    if u.strength_full <= 0:
        chk.fail(entry, "strength_full must be positive")
    has_setup = u.setup_hex is not None
    has_entry = u.entry_turn is not None or u.entry_hex is not None
    if has_setup == has_entry:
        chk.fail(entry, "needs either setup_hex or entry_turn with entry_hex (rule 2.1), not both")
    if has_entry and (u.entry_turn is None or u.entry_hex is None):
        chk.fail(entry, "a reinforcement needs both entry_turn and entry_hex")
    for key in ("setup_hex", "entry_hex"):
        h = getattr(u, key)
        if h is not None and h not in grid:
            chk.fail(entry, f"{key} {h!r} is not a hex of the map")


def _check_flags(chk: Checker, s: Scenario) -> None:
    f = s.flags

    def unit_list(key: str, side: str) -> list[str]:
        ids = chk.get(f, key, list, "[flags]")
        for uid in ids:
            if uid not in s.units or s.units[uid].side != side:
                chk.fail(f"[flags] {key}", f"{uid!r} is not a {side} unit of this scenario")
        return ids

    armor = unit_list("turn1_soviet_armor", "soviet")
    for uid in armor:
        if not s.units[uid].is_armor or s.units[uid].setup_hex is None:
            chk.fail("[flags] turn1_soviet_armor", f"{uid} must be an armor unit on the map (12.2)")
    unit_list("german_armor_at_start", "german")
    p24 = chk.get(f, "german_24th_panzer", str, "[flags]")
    if p24 not in s.units or s.units[p24].entry_turn is None:
        chk.fail("[flags] german_24th_panzer", f"{p24!r} is not a German reinforcement")
    chk.get(f, "red_turns", list, "[flags]")
    chk.get(f, "initial_weather", str, "[flags]", choices=WEATHERS)
    chk.get(f, "overstack_counts_retreated", bool, "[flags]")
    chk.get(f, "snow_move_cavalry", int, "[flags]")
    for key in ("tychinovka_marker_hex", "airfield_hex"):
        if chk.get(f, key, str, "[flags]") not in s.grid:
            chk.fail(f"[flags] {key}", "not a hex of the map")
    for h in chk.get(f, "airfield_cap_hexes", list, "[flags]"):
        if h not in s.grid:
            chk.fail("[flags] airfield_cap_hexes", f"{h!r} is not a hex of the map")
    chk.get(f, "turn2_supply_limit", int, "[flags]")
    chk.get(f, "german_turn1_reinforcement_armor_limit", int, "[flags]")
    chk.get(f, "german_turn1_at_start_armor_limit", int, "[flags]")
    if "panzer24_trigger" not in s.named:
        chk.fail("[map.named]", "missing 'panzer24_trigger' hexes (rule 7.8)")


__all__ = ["Column", "HexSpec", "Scenario", "ScenarioError", "UnitSpec", "parse_scenario"]

"""The scenario data of the block game: nations, territories (the map), blocks and the setup,
read from TOML and checked (rules 1.3, 1.5, 2.2, 2.6, 2.9-2.13, 2.18, 3.1, 3.9, 4.1, 4.2, 4.9,
5.11, 5.24, 7.1; part B: N1, N3 i, N4 a, N5, N8 c, N9, N13, N15, N17, N19).

Every entry a check refuses is named in the ScenarioError (source, the entry with its field,
what is wrong with the rule that says so). Pure.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any

from adjudicator.core.i18n import Msg, name, t
from adjudicator.core.scenario import ScenarioError

SIDE_IDS = ("sweden", "coalition")
TYPES = ("army", "regiment", "fleet")
LETTERS = "ABCD"  # rule 2.11: the firing order
STARS = ("none", "hollow", "black")
ARMS = ("infantry", "cavalry")
GROUPS = ("sweden", "russia", "")  # rule 1.5: the groups of territories ("": neither)


@dataclass(frozen=True)
class Nation:
    id: str
    name: str
    side: str
    colour: tuple[int, int, int]
    name_ru: str | None = None

    @property
    def named(self) -> Msg:
        return name(self.name, ru=self.name_ru)


@dataclass(frozen=True)
class Territory:
    id: str
    name: str
    group: str  # "sweden", "russia" or "" (rule 1.5: the groups of territories)
    control: str  # the side controlling it at the start (N5)
    fortress: int  # N4 a: 0 none, else the garrison
    home: str  # the nation whose home territory it is (N8 c), or ""
    pos: tuple[int, int]
    borders: tuple[str, ...]
    sea: bool = False  # a sea zone (none in the sample scenario, N9)
    name_ru: str | None = None

    @property
    def named(self) -> Msg:
        return name(self.name, ru=self.name_ru)


@dataclass(frozen=True)
class Block:
    id: str
    name: str
    nation: str
    type: str
    max_strength: int
    letter: str  # rule 2.10: the combat rating's letter ...
    number: int  # ... and number (rule 2.12)
    move: int
    supply_trains: int
    red_dot: bool
    royal: bool
    star: str
    arm: str
    at: str  # the setup (N17)
    strength: int
    name_ru: str | None = None

    @property
    def named(self) -> Msg:
        return name(self.name, ru=self.name_ru)

    @property
    def rating(self) -> str:
        return f"{self.letter}{self.number}"

    @property
    def land(self) -> bool:
        return self.type in ("army", "regiment")


@dataclass(frozen=True)
class Scenario:
    title: str
    sample_rules: bool
    first_year: int
    years: int
    turns_per_year: int
    action_table: dict[int, int]
    victory: tuple[str, ...]
    nations: dict[str, Nation]
    territories: dict[str, Territory]  # in the file's order (the default orders of N21, N3 a)
    blocks: dict[str, Block]
    title_ru: str | None = None

    @property
    def named(self) -> Msg:
        return name(self.title, ru=self.title_ru)

    def side_of(self, block: str) -> str:
        return self.nations[self.blocks[block].nation].side

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.territories[a].borders


def load(text: str, source: str) -> Scenario:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "file", t("not TOML: {error}", error=str(exc))) from None
    try:
        return _scenario(raw, source)
    except ScenarioError:
        raise  # a ValueError that already names its entry and rule
    except (KeyError, TypeError, ValueError) as exc:
        raise ScenarioError(
            source, "file", t("missing or wrong entry: {error}", error=repr(exc))
        ) from None


def _scenario(raw: dict[str, Any], source: str) -> Scenario:
    if raw.get("sample_rules") is not True:
        raise ScenarioError(
            source,
            "sample_rules",
            t(
                "must be true: only the part-B sample rules are "
                "implemented (battles, sieges and the rest of the source "
                "are not in the source text)"
            ),
        )
    nations = {k: _nation(k, v, source) for k, v in raw["nations"].items()}
    for side in SIDE_IDS:
        if not any(n.side == side for n in nations.values()):
            raise ScenarioError(
                source, "nations", t("no nation plays the side {side} (1.3)", side=repr(side))
            )
    _unique([str(x["id"]) for x in raw["territories"]], "territories", source)
    territories = {x["id"]: _territory(x, source) for x in raw["territories"]}
    _map(territories, nations, source)
    _unique([str(b["id"]) for b in raw["blocks"]], "blocks", source)
    blocks = {b["id"]: _block(b, nations, territories, source) for b in raw["blocks"]}
    _royals(blocks, nations, source)
    table = {int(k): int(v) for k, v in raw["action_table"].items()}
    if sorted(table) != [1, 2, 3, 4, 5] or table[3] != 2 or min(table.values()) < 1:
        raise ScenarioError(
            source, "action_table", t("needs 1-5 (6 is an event); 3 gives 2 (5.11)")
        )
    victory = tuple(raw["victory"])
    for v in victory:
        if v not in territories:
            raise ScenarioError(
                source, "victory", t("unknown territory {territory} (N15)", territory=repr(v))
            )
    for key in ("years", "turns_per_year"):
        if int(raw[key]) < 1:
            raise ScenarioError(source, key, t("must be at least 1 (N13, N15)"))
    _no_contact(blocks, nations, source)
    return Scenario(
        str(raw["title"]),
        True,
        int(raw["first_year"]),
        int(raw["years"]),
        int(raw["turns_per_year"]),
        table,
        victory,
        nations,
        territories,
        blocks,
        _name_ru({"name_ru": raw.get("title_ru")}, source, "title_ru"),
    )


def _nation(key: str, raw: dict[str, Any], source: str) -> Nation:
    if raw["side"] not in SIDE_IDS:
        raise ScenarioError(
            source, f"nations.{key}.side", t("must be one of {ids} (1.3)", ids=str(SIDE_IDS))
        )
    r, g, b = (int(c) for c in raw["colour"])
    return Nation(
        key, str(raw["name"]), str(raw["side"]), (r, g, b), _name_ru(raw, source, f"nations.{key}")
    )


def _territory(raw: dict[str, Any], source: str) -> Territory:
    tid = str(raw["id"])
    if raw["control"] not in SIDE_IDS:
        raise ScenarioError(
            source, f"territories.{tid}.control", t("must be one of {ids} (N5)", ids=str(SIDE_IDS))
        )
    fortress = int(raw.get("fortress", 0))
    if not 0 <= fortress <= 3:
        raise ScenarioError(source, f"territories.{tid}.fortress", t("must be 0 to 3 (N4 a)"))
    if raw.get("group", "") not in GROUPS:
        raise ScenarioError(
            source, f"territories.{tid}.group", t("must be one of {ids} (1.5)", ids=str(GROUPS))
        )
    x, y = (int(c) for c in raw["pos"])
    return Territory(
        tid,
        str(raw["name"]),
        str(raw.get("group", "")),
        str(raw["control"]),
        fortress,
        str(raw.get("home", "")),
        (x, y),
        tuple(raw["borders"]),
        bool(raw.get("sea", False)),
        _name_ru(raw, source, f"territories.{tid}"),
    )


def _block(
    raw: dict[str, Any], nations: dict[str, Nation], territories: dict[str, Territory], source: str
) -> Block:
    bid, where = str(raw["id"]), f"blocks.{raw['id']}"
    n_ = repr(str(raw["nation"]))
    fire = str(raw["fire"])
    block = Block(
        bid,
        str(raw["name"]),
        str(raw["nation"]),
        str(raw["type"]),
        int(raw["max_strength"]),
        fire[:1],
        int(fire[1:]),
        int(raw["move"]),
        int(raw.get("supply_trains", 0)),
        bool(raw.get("red_dot", False)),
        bool(raw.get("royal", False)),
        str(raw.get("star", "none")),
        str(raw.get("arm", "")),
        str(raw["at"]),
        int(raw["strength"]),
        _name_ru(raw, source, where),
    )
    land = block.at in territories and not territories[block.at].sea
    problems = [
        ("nation", block.nation not in nations, t("unknown nation {nation} (2.2)", nation=n_)),
        ("type", block.type not in TYPES, t("must be one of {ids} (3.1)", ids=str(TYPES))),
        ("max_strength", not 2 <= block.max_strength <= 4, t("must be 2 to 4 (2.6)")),
        (
            "fire",
            block.letter not in LETTERS or not 1 <= block.number <= 6,
            t("must be a letter A-D and a number 1-6, such as B2 (2.10, 2.12)"),
        ),
        (
            "max_strength",
            block.type == "regiment" and block.max_strength not in (2, 3),
            t("a regiment has 2-3 (3.9)"),
        ),
        (
            "supply_trains",
            block.type != "army" and block.supply_trains,
            t("only armies have supply trains (3.9)"),
        ),
        (
            "arm",
            block.type == "regiment" and block.arm not in ARMS,
            t("a regiment's arm is one of {ids} (2.2)", ids=str(ARMS)),
        ),
        ("star", block.star not in STARS, t("must be one of {ids} (2.2)", ids=str(STARS))),
        (
            "star",
            block.star != "none" and block.nation != "russia",
            t("only Russian blocks have stars (2.18)"),
        ),
        ("royal", block.royal and block.type != "army", t("a royal block is an army block (4.1)")),
        (
            "at",
            block.at not in territories,
            t("unknown territory {territory} (N17)", territory=repr(block.at)),
        ),
        (
            "at",
            block.at in territories and land != block.land,
            t("a land block starts on land, a fleet at sea (N9)"),
        ),
        (
            "strength",
            not 1 <= block.strength <= block.max_strength,
            t(
                "must be 1 to the block's max_strength {max}: a block never exceeds its "
                "maximum (2.6, 2.9, N17)",
                max=block.max_strength,
            ),
        ),
        ("move", block.move < 1, t("must be at least 1 (2.13)")),
    ]
    for key, bad, what in problems:
        if bad:
            raise ScenarioError(source, f"{where}.{key}", what)
    return block


def _name_ru(raw: dict[str, Any], source: str, where: str) -> str | None:
    """The optional Russian name beside `name` (issue 17): a non-empty string if given."""
    value = raw.get("name_ru")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(source, where, t("name_ru must be a non-empty string"))
    return value.strip()


def _unique(ids: list[str], entry: str, source: str) -> None:
    """N19: every territory and every block has an id of its own."""
    for i in ids:
        if ids.count(i) > 1:
            raise ScenarioError(
                source, f"{entry}.{i}.id", t("the id {id} is given twice (N19)", id=repr(i))
            )


def _map(territories: dict[str, Territory], nations: dict[str, Nation], source: str) -> None:
    """The map (N19): adjacency is mutual and joins two areas (5.24, 7.1); home territories
    belong to nations (N8 c); Charles XII has a territory in Sweden to return to (4.9)."""
    for terr in territories.values():
        where = f"territories.{terr.id}.borders"
        for b in terr.borders:
            if b == terr.id:
                problem = t("{id} borders itself: a border joins two areas (5.24, 7.1)", id=repr(b))
            elif b not in territories:
                problem = t("unknown territory {territory} (N19)", territory=repr(b))
            elif terr.id not in territories[b].borders:
                problem = t(
                    "{border} does not list {id} among its borders: a border is mutual (5.24)",
                    border=repr(b),
                    id=repr(terr.id),
                )
            else:
                continue
            raise ScenarioError(source, where, problem)
        if terr.home and terr.home not in nations:
            raise ScenarioError(
                source,
                f"territories.{terr.id}.home",
                t("unknown nation {home} (N8 c)", home=repr(terr.home)),
            )
    if not any(x.group == "sweden" and not x.sea for x in territories.values()):
        raise ScenarioError(
            source,
            "territories",
            t("no territory of the group 'sweden': Charles XII returns to one (4.9)"),
        )


def _royals(blocks: dict[str, Block], nations: dict[str, Nation], source: str) -> None:
    """4.1, 4.2: one royal army block in each nation; Charles XII (id 'charles') is Sweden's."""
    for nation in nations:
        royals = [b for b in blocks.values() if b.nation == nation and b.royal]
        if len(royals) != 1:
            raise ScenarioError(
                source,
                f"nations.{nation}",
                t(
                    "needs exactly one block with royal = true, not {n} (4.1)",
                    n=len(royals),
                ),
            )
    charles = blocks.get("charles")
    if charles is None or not charles.royal or nations[charles.nation].side != "sweden":
        raise ScenarioError(
            source,
            "blocks.charles",
            t(
                "Charles XII (id 'charles') must be the royal block (royal = true) of a nation "
                "of the side 'sweden' (4.2)"
            ),
        )


def _no_contact(blocks: dict[str, Block], nations: dict[str, Nation], source: str) -> None:
    """N3 (i): blocks of both sides never share a territory at the start of an action phase."""
    sides: dict[str, set[str]] = {}
    for b in blocks.values():
        sides.setdefault(b.at, set()).add(nations[b.nation].side)
    for where, found in sides.items():
        if len(found) > 1:
            raise ScenarioError(
                source, f"territories.{where}", t("blocks of both sides at the start (N3 i)")
            )

"""The card data (rule 3.5, Q1): a TOML deck read and checked into `Deck`, never literals.

A deck file holds the game's fixed data: the title, the number of turns (1.2), the hand size
(1.11), the automatic Soviet cards by turn (4.5), the Axis turns with two RP plays (10.5, 10.6),
the mud rounds (Q5), the nationalities of each side (10.1) and one `[[card]]` table per card:
owner, number, name, group, printed OPS, printed RP per nationality, event text, `starred`,
`rp_with` (10.2: "event" or "ops") and what the event gives (`event_ops` 7.14, `event_rp` 10.7).
Russian forms are optional strings beside the English: `title_ru`, a card's `name_ru` and
`event_ru`, and `[nationalities_ru]` (nationality = its Russian name); texts say them with
core.i18n.name. docs/stalins-war.md documents the format. Pure: no I/O (the caller gives the text).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Any, NoReturn

from adjudicator.core.i18n import Msg, cat, name, t
from adjudicator.core.scenario import ScenarioError

AXIS, SOVIET = "axis", "soviet"
OWNERS = (AXIS, SOVIET)
BLITZKRIEG, TOTAL_WAR = "blitzkrieg", "total-war"
GROUPS = (BLITZKRIEG, TOTAL_WAR)
RP_WITH = ("", "event", "ops")
SET_ASIDE = (1, 2, 3, 4, 5, 6)  # rule 3.8: the Soviet cards #1 to #6
ROUNDS = 5  # rule 5.2: the action rounds of a turn
# A deck's turns, hand size, arrivals and spring turns are the data's to set (the sample deck
# holds the spec's 18, 6, 4.5's table and 10.5's two springs; a variant or a house rule may set
# others, and a short deck may keep the sample's later arrivals): they are checked for their
# form, not against the spec's numbers, so a stored game of a variant deck keeps loading.


@dataclass(frozen=True)
class Card:
    owner: str
    number: int
    name: str
    group: str
    ops: int
    rp: tuple[tuple[str, int], ...]  # printed RP per nationality (10.1), in the deck's order
    event: str
    starred: bool = False  # 11.4
    rp_with: str = ""  # 10.2: "event" | "ops": RP together with that use
    event_ops: int = 0  # 7.14: OPS the event gives
    event_rp: tuple[tuple[str, int], ...] = ()  # 10.7: RP the event gives
    name_ru: str | None = None
    event_ru: str | None = None
    nations_ru: tuple[tuple[str, str], ...] = ()  # the deck's Russian nationality names

    @property
    def label(self) -> Msg:
        """How every message names the card: "#7 Army Group Centre*" (a star: starred)."""
        return t(
            "#{number} {name}{star}",
            number=self.number,
            name=name(self.name, ru=self.name_ru),
            star="*" if self.starred else "",
        )

    @property
    def event_text(self) -> Msg:
        return name(self.event, ru=self.event_ru)

    def nation(self, nation: str) -> Msg:
        return name(nation, ru=dict(self.nations_ru).get(nation))

    def rp_said(self, rp: tuple[tuple[str, int], ...], sign: str = "") -> Msg:
        """ "Germany 2, Romania 1" (sign "+": "Germany +2"), or "none"."""
        parts = [
            t("{nation} {sign}{value}", nation=self.nation(n), sign=sign, value=v)
            for n, v in rp
            if v
        ]
        return cat(*parts, sep=", ") if parts else t("none")

    @property
    def gives_rp(self) -> bool:
        return any(v for _, v in self.event_rp)

    def line(self) -> Msg:
        """The card as a hand lists it: number, name, OPS, RP, what the event does."""
        extra: list[Msg] = []
        if self.rp_with == "event":
            extra.append(t("may be played rp+event (10.2)"))
        elif self.rp_with:
            extra.append(t("may be played rp+ops (10.2)"))
        if self.event_ops:
            extra.append(t("event gives {ops} OPS", ops=self.event_ops))
        if self.gives_rp:
            extra.append(t("event gives RP"))
        more = cat("; ", cat(*extra, sep="; ")) if extra else ""
        return t(
            "{label}: OPS {ops}, RP {rp}{more}. {event}",
            label=self.label,
            ops=self.ops,
            rp=self.rp_said(self.rp),
            more=more,
            event=self.event_text,
        )


@dataclass(frozen=True)
class Deck:
    title: str
    sample: bool
    turns: int
    hand_size: int
    reinforcements: dict[int, tuple[int, ...]]  # turn -> Soviet card numbers (4.5)
    axis_rp_two_turns: frozenset[int]  # 10.6
    mud_rounds: frozenset[tuple[int, int]]  # (turn, action round), Q5
    nationalities: dict[str, tuple[str, ...]]
    cards: dict[str, dict[int, Card]] = field(default_factory=dict)  # owner -> number -> card
    nations_ru: tuple[tuple[str, str], ...] = ()  # nationality -> its Russian name

    def nation(self, nation: str) -> Msg:
        """A nationality's name, with its Russian form from the deck."""
        return name(nation, ru=dict(self.nations_ru).get(nation))

    def card(self, owner: str, number: int) -> Card:
        return self.cards[owner][number]

    def group(self, owner: str, group: str) -> list[int]:
        return [n for n, c in sorted(self.cards[owner].items()) if c.group == group]

    def axis_rp_limit(self, turn: int) -> int:
        """Rules 10.4, 10.5: one Axis RP play a turn, two in the turns of rule 10.6."""
        return 2 if turn in self.axis_rp_two_turns else 1

    def mud(self, turn: int, action_round: int) -> bool:
        return (turn, action_round) in self.mud_rounds


def load_deck(text: str, source: str) -> Deck:
    """Parse and check a deck file; every problem names the file, the entry and what is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "file", f"not TOML: {exc}") from None
    r = _Reader(source)
    nations = r.table(data, "nationalities")
    nationalities = {o: tuple(r.strings(nations, o, f"nationalities.{o}")) for o in OWNERS}
    for o, names in nationalities.items():
        if len(set(names)) != len(names):
            r.fail(f"nationalities.{o}", "a nationality is named twice", "10.1")
    turns = r.int_of(data.get("turns"), "turns", 1, rule="1.2")
    reinf = {
        r.int_of(k, f"reinforcements.{k}", 1, rule="4.5"): tuple(
            r.ints(v, f"reinforcements.{k}", "4.5")
        )
        for k, v in r.table(data, "reinforcements").items()
    }
    nations_ru = _nations_ru(r, data.get("nationalities_ru", {}), nationalities)
    deck = Deck(
        title=name(r.string(data, "title"), ru=r.optional(data, "title_ru")),
        sample=bool(data.get("sample", False)),
        turns=turns,
        hand_size=r.int_of(data.get("hand_size"), "hand_size", 1, rule="3.9"),
        reinforcements=reinf,
        axis_rp_two_turns=_springs(r, data.get("axis_rp_two_turns", [])),
        mud_rounds=frozenset(
            (
                r.int_of(p[0], "mud_rounds", 1, rule="7.12"),
                r.int_of(p[1], "mud_rounds", 1, ROUNDS, "5.2"),
            )
            for p in _pairs(r, data.get("mud_rounds", []))
        ),
        nationalities=nationalities,
        cards={o: {} for o in OWNERS},
        nations_ru=nations_ru,
    )
    cards = data.get("card")
    if not isinstance(cards, list) or not cards:
        r.fail("card", "the deck has no [[card]] tables")
    for n, entry in enumerate(cards, 1):
        card = _card(r, entry, f"card {n}", nationalities, nations_ru)
        if card.number in deck.cards[card.owner]:
            r.fail(f"card {n}", f"{card.owner} card #{card.number} is given twice", "3.5")
        deck.cards[card.owner][card.number] = card
    _check(r, deck)
    return deck


def _pairs(r: _Reader, value: Any) -> list[list[Any]]:
    if not isinstance(value, list) or any(not isinstance(p, list) or len(p) != 2 for p in value):
        r.fail("mud_rounds", "must be a list of [turn, action round] pairs", "7.12")
    return list(value)


def _springs(r: _Reader, value: Any) -> frozenset[int]:
    """Rules 10.5, 10.6: the spring turns, none named twice (a turn past the deck's last one is
    harmless: a short test deck keeps the sample's)."""
    springs = r.ints(value, "axis_rp_two_turns", "10.6")
    for turn in springs:
        r.int_of(turn, "axis_rp_two_turns", 1, rule="10.5")
    if len(set(springs)) != len(springs):
        r.fail("axis_rp_two_turns", f"a turn is named twice: {springs}", "10.5")
    return frozenset(springs)


def _nations_ru(
    r: _Reader, value: Any, nationalities: dict[str, tuple[str, ...]]
) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        r.fail("nationalities_ru", "must be a table of nationality = its Russian name")
    known = {n for names in nationalities.values() for n in names}
    unknown = set(value) - known
    if unknown:
        r.fail("nationalities_ru", f"unknown nationality {', '.join(sorted(unknown))}")
    return tuple((n, str(r.optional(value, n, "nationalities_ru"))) for n in sorted(value))


def _card(
    r: _Reader,
    entry: Any,
    where: str,
    nationalities: dict[str, tuple[str, ...]],
    nations_ru: tuple[tuple[str, str], ...] = (),
) -> Card:
    if not isinstance(entry, dict):
        r.fail(where, "a card must be a table", "3.5")
    owner = r.choice(entry, "owner", OWNERS, where, rule="3.2")
    where = f"{where} ({owner} #{entry.get('number')})"
    unknown = set(entry) - {
        "owner",
        "number",
        "name",
        "group",
        "ops",
        "rp",
        "event",
        "starred",
        "rp_with",
        "event_ops",
        "event_rp",
        "name_ru",
        "event_ru",
    }
    if unknown:
        r.fail(where, f"unknown field(s) {', '.join(sorted(unknown))}", "3.5")
    card = Card(
        owner=owner,
        number=r.int_of(entry.get("number"), f"{where}: number", 1, rule="3.5"),
        name=r.string(entry, "name", where, "3.5"),
        group=r.choice(entry, "group", GROUPS, where, rule="3.2"),
        ops=r.int_of(entry.get("ops"), f"{where}: ops", 0, rule="7.5, 7.8"),
        rp=_rp(r, entry.get("rp", {}), nationalities[owner], f"{where}: rp", "10.1"),
        event=r.string(entry, "event", where, "11.1"),
        starred=r.boolean(entry, "starred", where, "11.4"),
        rp_with=r.choice(entry, "rp_with", RP_WITH, where, "", "10.2"),
        event_ops=r.int_of(entry.get("event_ops", 0), f"{where}: event_ops", 0, rule="7.14"),
        event_rp=_rp(
            r, entry.get("event_rp", {}), nationalities[owner], f"{where}: event_rp", "10.7"
        ),
        name_ru=r.optional(entry, "name_ru", where),
        event_ru=r.optional(entry, "event_ru", where),
        nations_ru=nations_ru,
    )
    if card.rp_with and not any(v for _, v in card.rp):
        r.fail(f"{where}: rp_with", "the card prints no RP to record with the other use", "10.2")
    if card.rp_with == "ops" and card.ops == 0:
        r.fail(f"{where}: rp_with", "the card prints no OPS to use with the RP", "10.2")
    return card


def _rp(
    r: _Reader, value: Any, nations: tuple[str, ...], where: str, rule: str
) -> tuple[tuple[str, int], ...]:
    if not isinstance(value, dict):
        r.fail(where, "must be a table of nationality = RP", rule)
    unknown = set(value) - set(nations)
    if unknown:
        known = ", ".join(nations)
        r.fail(where, f"unknown nationality {', '.join(sorted(unknown))}; known: {known}", rule)
    return tuple((n, r.int_of(value.get(n, 0), f"{where}.{n}", 0, rule=rule)) for n in nations)


def _check(r: _Reader, deck: Deck) -> None:
    soviet = deck.cards[SOVIET]
    missing = [n for n in SET_ASIDE if n not in soviet]
    if missing:
        r.fail("card", f"the Soviet cards #1 to #6 are needed; missing {missing}", "3.8")
    for n in SET_ASIDE:
        if soviet[n].group != BLITZKRIEG:
            r.fail(
                f"soviet card #{n}: group", "must be 'blitzkrieg': a set-aside card", "3.8, 3.10"
            )
    for turn, numbers in sorted(deck.reinforcements.items()):
        if any(n not in SET_ASIDE for n in numbers):
            r.fail(f"reinforcements.{turn}", "only the set-aside Soviet cards #1 to #6", "4.5")
    for owner in OWNERS:
        start = [n for n in deck.group(owner, BLITZKRIEG) if owner == AXIS or n not in SET_ASIDE]
        if len(start) < 1:
            r.fail("card", f"the {owner} player needs Blitzkrieg cards to draw", "3.10")


class _Reader:
    """Typed reads of a TOML table; every failure names the file and the entry."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, entry: str, problem: str, rule: str | None = None) -> NoReturn:
        said = t("{problem} (rule {rule})", problem=problem, rule=rule) if rule else problem
        raise ScenarioError(self.source, entry, said)

    def table(self, data: dict[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key)
        if not isinstance(value, dict):
            self.fail(key, "a table is missing")
        return dict(value)

    def string(self, data: dict[str, Any], key: str, where: str = "", rule: str = "") -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{where}: {key}" if where else key, "a text is missing", rule or None)
        return str(value).strip()

    def optional(self, data: dict[str, Any], key: str, where: str = "") -> str | None:
        """An optional text (a Russian form): absent, or a string that is not blank."""
        if key not in data:
            return None
        value = data[key]
        if not isinstance(value, str) or not value.strip():
            self.fail(f"{where}: {key}" if where else key, "must be a text that is not blank")
        return value.strip()

    def strings(self, data: dict[str, Any], key: str, where: str) -> list[str]:
        value = data.get(key)
        if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
            self.fail(where, "must be a list of names")
        return list(value)

    def ints(self, value: Any, where: str, rule: str | None = None) -> list[int]:
        if not isinstance(value, list):
            self.fail(where, "must be a list of whole numbers", rule)
        return [self.int_of(v, where, 1, rule=rule) for v in value]

    def int_of(
        self, value: Any, where: str, low: int, high: int | None = None, rule: str | None = None
    ) -> int:
        if isinstance(value, str) and value.isdigit():
            value = int(value)
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            self.fail(where, f"must be a whole number of at least {low}, not {value!r}", rule)
        if high is not None and value > high:
            self.fail(where, f"must be at most {high}, not {value!r}", rule)
        return int(value)

    def boolean(self, data: dict[str, Any], key: str, where: str, rule: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            self.fail(f"{where}: {key}", "must be true or false", rule)
        return bool(value)

    def choice(
        self,
        data: dict[str, Any],
        key: str,
        options: tuple[str, ...],
        where: str,
        default: str | None = None,
        rule: str | None = None,
    ) -> str:
        value = data.get(key, default)
        if value not in options:
            self.fail(
                f"{where}: {key}",
                f"must be one of {', '.join(repr(o) for o in options)}, not {value!r}",
                rule,
            )
        return str(value)

"""What the rules ask of the position: sides, groups, enemy hexes, losses, the boxes; and the
context an order is applied in (the scenario, a copy of the state, the recording dice, the
events). Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicator.borodino.data import SIDE_IDS, Scenario, Unit
from adjudicator.borodino.state import State
from adjudicator.core.dice import RecordingDice
from adjudicator.core.events import EVERYONE, Audience, Event
from adjudicator.core.i18n import Msg, cat, name, t, tn

SIDE_NAMES = {"russian": name("Russian", ru="Русские"), "french": name("French", ru="Французы")}
SIDE_IDS_SAID = {"russian": name("russian", ru="русские"), "french": name("french", ru="французы")}
BOXES = ("withdrawn", "recovery", "recovered")
PHASE_IDS = {  # the phases' ids as words of a text (an id: its forms here, not in a catalogue)
    "activations": name("activations", ru="между активациями"),
    "activation": name("activation", ru="активация"),
    "rally": name("rally", ru="сбор"),
    "recovery": name("recovery", ru="восстановление"),
    "placement": name("placement", ru="возвращение"),
}


@dataclass
class Ctx:
    scen: Scenario
    state: State
    dice: RecordingDice
    events: list[Event] = field(default_factory=list)

    def emit(self, kind: str, text: str, audience: Audience = EVERYONE, **data: Any) -> None:
        self.events.append(Event(kind, text, data, audience))

    def emit_data(self, kind: str, text: str, data: dict[str, Any]) -> None:
        self.events.append(Event(kind, text, data))

    def roll(self, purpose: str) -> int:
        """One die of the scenario's size (1.10)."""
        return self.dice.die(self.scen.die_sides, purpose)


def other(side: str) -> str:
    return SIDE_IDS[1] if side == SIDE_IDS[0] else SIDE_IDS[0]


def side_name(side: str) -> Msg:
    return SIDE_NAMES.get(side) or name(side.title())


def side_id(side: str) -> Msg:
    """A side's id as a word of a text ("russian"; in Russian "русские")."""
    return SIDE_IDS_SAID.get(side) or name(side)


def unit_name(scen: Scenario, uid: str) -> Msg:
    unit = scen.units[uid]
    return name(unit.name, ru=unit.name_ru)


def army_name(unit: Unit) -> Msg:
    return name(unit.army, ru=unit.army_ru)


WHERE_IDS = {  # a unit's location id as a word of a text (state.py)
    "map": name("map", ru="на карте"),
    "withdrawn": name("withdrawn", ru="в Поле Бежавших Частей"),
    "recovery": name("recovery", ru="в Поле Восстанавливаемых Частей"),
    "eliminated": name("eliminated", ru="выбыла окончательно"),
    "later": name("later", ru="ещё не вошла в игру"),
}


def where_name(where: str) -> Msg:
    return WHERE_IDS.get(where) or name(where)


def phase_name(phase: str) -> Msg:
    return PHASE_IDS.get(phase) or name(phase)


def none_or(items: list[str]) -> Msg:
    """Ids one after the other, or "none" (no unit may)."""
    return cat(*items, sep=", ") if items else name("none", ru="никто")


def ids(items: list[str]) -> Msg:
    """Ids one after the other ("odessa, vilna"), or "-" when there are none."""
    return cat(*items, sep=", ") if items else t("-")


def owner(scen: Scenario, group_or_unit: str) -> str:
    if group_or_unit in scen.groups:
        return scen.groups[group_or_unit].side
    return scen.units[group_or_unit].side


def label(scen: Scenario, uid: str) -> Msg:
    return t("{id} ({name})", id=uid, name=unit_name(scen, uid))


def group_label(scen: Scenario, gid: str) -> Msg:
    if gid in scen.groups:
        group = scen.groups[gid]
        return t("{id} ({name})", id=gid, name=name(group.name, ru=group.name_ru))
    return t("{unit}, independent", unit=label(scen, gid))


def members(scen: Scenario, group_or_unit: str) -> list[Unit]:
    """The units an activation covers: an AG's units, or the independent unit alone (2.8)."""
    if group_or_unit in scen.groups:
        return scen.members(group_or_unit)
    return [scen.units[group_or_unit]]


def enemy_hexes(scen: Scenario, state: State, side: str) -> list[str]:
    return [
        s.hex
        for u, s in state.units.items()
        if s.on_map and s.hex is not None and scen.units[u].side != side
    ]


def adjacent_to_enemy(scen: Scenario, state: State, uid: str) -> bool:
    spot = state.units[uid]
    if spot.hex is None:
        return False
    side = scen.units[uid].side
    return any(scen.map.adjacent(spot.hex, h) for h in enemy_hexes(scen, state, side))


def is_collapsed(scen: Scenario, state: State, uid: str) -> bool:
    """Whether 6.8 (and 2.5) binds the unit: its group has collapsed. Rules version 2 (6.6's
    decision): an artillery or Opolchenie unit is never bound; version 1 bound it too."""
    unit = scen.units[uid]
    if unit.group is None or unit.group not in state.collapsed:
        return False
    return state.rules < 2 or unit.counts_for_collapse


def losses(scen: Scenario, state: State, gid: str) -> tuple[int, int]:
    """6.3, 6.4: (L, N): N the AG's units that have entered play, artillery and Opolchenie not
    counted; L those of them off the map (routed or eliminated; awaiting placement too, 4.5)."""
    counted = [u.id for u in scen.members(gid) if u.counts_for_collapse and u.id in state.entered]
    lost = [u for u in counted if state.units[u].off_map]
    return len(lost), len(counted)


def collapse_at(n: int) -> int:
    """6.3: the smallest L with 3 x L >= 2 x N (N = 5: 4; N = 7: 5)."""
    return -(-2 * n // 3)


def units_in(scen: Scenario, state: State, side: str, where: str) -> list[str]:
    return [u for u, s in state.units.items() if s.where == where and scen.units[u].side == side]


def boxes_text(scen: Scenario, state: State, side: str) -> Msg:
    withdrawn, recovery, recovered = (ids(units_in(scen, state, side, w)) for w in BOXES)
    parts = [
        t("Withdrawn: {units}", units=withdrawn),
        t("Recovery: {units}", units=recovery),
        t("recovered, to place: {units}", units=recovered),
    ]
    return t("{side} boxes: {boxes}.", side=side_name(side), boxes=cat(*parts, sep="; "))


def eliminated_text(scen: Scenario, state: State) -> Msg:
    gone = [u for u in scen.units if state.units[u].where == "eliminated"]
    return t("Permanently Eliminated: {units}.", units=ids(gone))


def group_mark(state: State, gid: str, n: int) -> Msg:
    """What a group's losses mean (6.3): collapsed, out of the game, its threshold."""
    if gid in state.collapsed:
        return t("COLLAPSED")
    if gid in state.out_of_game:
        return t("out of the game")
    return t("collapses at {n}", n=collapse_at(n)) if n else t("not yet in play")


def losses_text(scen: Scenario, state: State) -> Msg:
    """Each AG's losses against its collapse threshold (6.3)."""
    parts = []
    for gid in scen.groups:
        lost, n = losses(scen, state, gid)
        mark = group_mark(state, gid, n)
        parts.append(t("{group} {lost} of {n} lost ({mark})", group=gid, lost=lost, n=n, mark=mark))
    said = cat(*parts, sep="; ") if parts else t("no Activation Groups")
    return t("Losses: {groups}.", groups=said)


def tell_boxes(ctx: Ctx) -> None:
    """The state of the boxes and the losses, for the summary after a rally or recovery phase."""
    for side in SIDE_IDS:
        ctx.emit("BoxesNow", boxes_text(ctx.scen, ctx.state, side), side=side)
    ctx.emit("BoxesNow", eliminated_text(ctx.scen, ctx.state))
    ctx.emit("LossesNow", losses_text(ctx.scen, ctx.state))


# -- the result of the referee's part (rules.finish)
def phases_held(n: int) -> Msg:
    # the English says "Phases" for every n (the stored texts); Russian agrees with n
    return tn("{n} Recovery Phases held", "{n} Recovery Phases held", n)


def result_msg(
    why: Msg, winner: str, lost: dict[str, int], of: dict[str, int] | None = None
) -> Msg:
    """of: each side's units (a verdict by shares, turns.finish): "8 of 10 units off the map"."""
    counts = cat(
        *(
            tn("{side} {n} units off the map", "{side} {n} units off the map", n, side=side_name(s))
            if of is None
            else t("{side} {n} of {total} units off the map", side=side_name(s), n=n, total=of[s])
            for s, n in lost.items()
        ),
        sep=", ",
    )
    tail = t("a draw") if winner == "draw" else t("{side} ahead", side=side_name(winner))
    return t("the referee's part ends: {why} ({counts}); {tail}", why=why, counts=counts, tail=tail)


def result_text(scen: Scenario, state: State) -> Msg | str:
    """The result's text as a Msg: the one just made, or one made again from the state (a state
    read back from JSON keeps the English text only); the stored text if they differ."""
    result = state.result
    assert result is not None
    said = result["text"]
    if isinstance(said, Msg):
        return said
    if scen.ending.on_collapse and state.collapsed:
        why = t("{groups} collapsed", groups=ids(list(state.collapsed)))
    else:
        why = phases_held(state.recovery_phases)
    of = dict(result["of"]) if "of" in result else None
    again = result_msg(why, result["winner"], dict(result["lost"]), of)
    return again if str(again) == said else str(said)

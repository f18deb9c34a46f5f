"""Battles and sieges of the sample rules (N3, N4; rules 2.5, 2.7, 2.8, 2.12, 4.3-4.6, N20).

A battle runs round by round until it needs a decision (a hit among equally strong blocks, a
retreat with a choice) or ends; its progress is plain data in `state.battle`, so a decision
resumes it. Every battle die is public (N24: the battle reveals its blocks to both players); a
siege's dice come from the hidden seed and only their owner is told them (their count would
betray the besiegers' strength); everyone learns the result. Pure."""

from __future__ import annotations

from typing import Any

from adjudicator.core.dice import DiceSource
from adjudicator.core.events import Audience, Event
from adjudicator.core.i18n import Msg, t, tn
from adjudicator.northern_war import board
from adjudicator.northern_war.board import enemy_in, on_map, other
from adjudicator.northern_war.data import LETTERS, Scenario
from adjudicator.northern_war.state import EXILE, ON_MAP, POOL, REMOVED, NWState
from adjudicator.northern_war.texts import dice as shown
from adjudicator.northern_war.texts import listed, side

ROUNDS = 3  # N3 d
SIEGE_DRAWS = 4  # hidden dice drawn per besieging block (the highest strength, 2.6)


def describe(sc: Scenario, state: NWState, blocks: list[str]) -> Msg:
    return listed(
        t(
            "{block} {rating} strength {strength}",
            block=sc.blocks[b].named,
            rating=sc.blocks[b].rating,
            strength=state.strength[b],
        )
        for b in blocks
    )


def firing_order(sc: Scenario, state: NWState, area: str, defender: str) -> list[str]:
    """N3 d: letter order A-D; at one letter the defender first; N20 default: strongest
    first, ties by block id."""
    return sorted(
        on_map(sc, state, area),
        key=lambda b: (
            LETTERS.index(sc.blocks[b].letter),
            sc.side_of(b) != defender,
            -state.strength[b],
            b,
        ),
    )


def begin(sc: Scenario, state: NWState, area: str) -> list[Event]:
    sides = board.sides_in(sc, state, area)
    defender = state.holders.get(area) or min(sides)
    attacker = other(defender)
    state.battle = {
        "area": area,
        "defender": defender,
        "attacker": attacker,
        "round": 1,
        "queue": firing_order(sc, state, area, defender),
        "hits": 0,
        "target": None,
        "retreating": [],
    }
    text = t(
        "Battle in {area} ({when}): {defender} defends with {defenders}; {attacker} attacks "
        "with {attackers}.",
        area=sc.territories[area].named,
        when=board.label(sc, state),
        defender=side(defender),
        attacker=side(attacker),
        defenders=describe(sc, state, on_map(sc, state, area, defender)),
        attackers=describe(sc, state, on_map(sc, state, area, attacker)),
    )
    seen_in_battle(sc, state, area)
    return [Event("BattleBegan", text, {"area": area, "defender": defender})]


def seen_in_battle(sc: Scenario, state: NWState, area: str) -> None:
    """2.19 with N24, rules 2: a battle reveals its blocks as reconnaissance does, so each side
    keeps a record "seen in turn T" of the enemy blocks in it and their strength at the start
    of the battle (under rules 1 only reconnaissance left a record)."""
    if state.rules < 2:
        return
    when = str.__str__(board.label(sc, state))
    for viewer in sorted(board.sides_in(sc, state, area)):
        record = state.seen.setdefault(viewer, {})
        for b in on_map(sc, state, area, other(viewer)):
            record[b] = [state.strength[b], state.count, when, area]


def hit(sc: Scenario, state: NWState, block: str) -> list[Event]:
    """Rules 2.7, 2.8, 4.3, 4.6: one step off; at 0 the block is eliminated."""
    state.strength[block] -= 1
    blk = sc.blocks[block]
    if state.strength[block] > 0:
        text = t(
            "{block} takes a hit: strength {strength}.",
            block=blk.named,
            strength=state.strength[block],
        )
        return [Event("BlockHit", text, {"block": block})]
    state.at[block] = None
    if block == "charles":
        state.status[block], state.exile_attempts = EXILE, 0
        text = t("{block} is eliminated and goes into exile (4.6).", block=blk.named)
    elif blk.royal:
        state.status[block] = REMOVED
        state.truce_due.append(blk.nation)
        text = t(
            "{block} is eliminated and removed from the game; armistice for {nation} at the "
            "end of the phase (4.3, 4.4).",
            block=blk.named,
            nation=sc.nations[blk.nation].named,
        )
    else:
        state.status[block] = POOL
        text = t("{block} is eliminated and goes to the replacement pool (2.8).", block=blk.named)
    return [Event("BlockEliminated", text, {"block": block})]


def strongest(sc: Scenario, state: NWState, area: str, side: str) -> list[str]:
    """N3 e: the blocks a hit may reduce (the highest current strength)."""
    targets = on_map(sc, state, area, side)
    if not targets:
        return []
    top = max(state.strength[b] for b in targets)
    return [b for b in targets if state.strength[b] == top]


def retreats(sc: Scenario, state: NWState, block: str) -> list[str]:
    """N3 g: adjacent territories without enemy blocks (land for land blocks)."""
    side, here = sc.side_of(block), state.at[block]
    assert here is not None
    return [
        t
        for t in sc.territories[here].borders
        if not enemy_in(sc, state, t, side) and sc.territories[t].sea == (not sc.blocks[block].land)
    ]


def retreat(sc: Scenario, state: NWState, block: str, area: str) -> list[Event]:
    bt = state.battle
    assert bt is not None
    bt["retreating"].remove(block)
    state.at[block] = area
    text = t(
        "{block} retreats to {area}.", block=sc.blocks[block].named, area=sc.territories[area].named
    )
    return [Event("BlockRetreated", text, {"block": block, "to": area})]


def run(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    """Carry the battle on until it needs a decision or is over (state.battle None)."""
    events: list[Event] = []
    bt = state.battle
    while bt is not None and state.pending is None:
        area = bt["area"]
        if bt["retreating"]:
            block = bt["retreating"][0]
            choices = retreats(sc, state, block)
            if len(choices) > 1:
                state.pending = {
                    "kind": "retreat",
                    "side": bt["attacker"],
                    "block": block,
                    "choices": choices,
                }
            elif choices:
                events += retreat(sc, state, block, choices[0])
            else:
                bt["retreating"].remove(block)
                cannot = t("{block} cannot retreat.", block=sc.blocks[block].named)
                events += [Event("NoRetreat", cannot, {})]
                state.strength[block] = 1
                events += hit(sc, state, block)
        elif bt["hits"] > 0:
            equal = strongest(sc, state, area, bt["target"])
            if not equal:
                bt["hits"] = 0
            elif len(equal) > 1:
                state.pending = {"kind": "hit", "side": bt["target"], "choices": equal}
            else:
                bt["hits"] -= 1
                events += hit(sc, state, equal[0])
        elif bt["queue"] and not wiped_out(sc, state, bt):
            events += fire(sc, state, bt, bt["queue"].pop(0), dice)
        else:
            events += round_end(sc, state, bt)
        bt = state.battle
    return events


def wiped_out(sc: Scenario, state: NWState, bt: dict[str, Any]) -> bool:
    """N3 f under rules 2: the battle ends as soon as one side has no block left, so no block
    fires at nobody (under rules 1 the round was played out, its dice drawn and reported)."""
    if state.rules < 2:
        return False
    return any(not on_map(sc, state, bt["area"], s) for s in (bt["defender"], bt["attacker"]))


def fire(
    sc: Scenario, state: NWState, bt: dict[str, Any], block: str, dice: DiceSource
) -> list[Event]:
    if state.status[block] != ON_MAP or state.at[block] != bt["area"]:
        return []  # eliminated before its turn to fire
    blk = sc.blocks[block]
    rolled = dice.dice(state.strength[block], 6, f"battle {bt['area']} {block}")
    hits = sum(1 for d in rolled if d <= blk.number)  # rule 2.12
    bt["hits"], bt["target"] = hits, other(sc.side_of(block))
    said = {
        "round": bt["round"],
        "block": blk.named,
        "rating": blk.rating,
        "strength": state.strength[block],
        "dice": shown(rolled),
    }
    text = (
        tn(
            "Round {round}: {block} ({rating}, strength {strength}) rolls {dice}: {n} hit.",
            "Round {round}: {block} ({rating}, strength {strength}) rolls {dice}: {n} hits.",
            hits,
            **said,
        )
        if state.rules >= 2
        else tn(  # rules 1: the wording its stored games logged (they replay to the letter)
            "Round {round}: {block} ({rating}, strength {strength}) rolls {dice}: {n} hit(s).",
            "Round {round}: {block} ({rating}, strength {strength}) rolls {dice}: {n} hit(s).",
            hits,
            **said,
        )
    )
    return [Event("BlockFired", text, {"block": block, "dice": list(rolled), "hits": hits})]


def round_end(sc: Scenario, state: NWState, bt: dict[str, Any]) -> list[Event]:
    area = bt["area"]
    left = {s: on_map(sc, state, area, s) for s in (bt["defender"], bt["attacker"])}
    name = sc.territories[area].named
    for beaten, blocks in left.items():
        if not blocks:
            state.battle = None
            text = t(
                "The battle in {area} is over: {side} holds the field.",
                area=name,
                side=side(other(beaten)),
            )
            return [Event("BattleEnded", text, {"area": area, "winner": other(beaten)})]
    if bt["round"] >= ROUNDS:  # N3 f: the attackers retreat
        if not bt["retreating"] and not bt.get("retreat_done"):
            bt["retreating"], bt["retreat_done"] = list(left[bt["attacker"]]), True
            text = t(
                "After {rounds} rounds in {area} the attacking blocks retreat (N3 f).",
                rounds=ROUNDS,
                area=name,
            )
            return [Event("AttackersRetreat", text, {"area": area})]
        state.battle = None
        text = t(
            "The battle in {area} is over: {side} holds the field.",
            area=name,
            side=side(bt["defender"]),
        )
        return [Event("BattleEnded", text, {"area": area, "winner": bt["defender"]})]
    bt["round"] += 1
    bt["queue"] = firing_order(sc, state, area, bt["defender"])
    return []


def resolve_sieges(sc: Scenario, state: NWState, dice: DiceSource) -> list[Event]:
    """N4 c, d, N21 (default order: the map's): hidden dice, the result for everyone."""
    events: list[Event] = []
    order = {t: n for n, t in enumerate(sc.territories)}
    for area, who, group in sorted(state.sieges, key=lambda s: order[s[0]]):
        blocks = [b for b in group if state.status[b] == ON_MAP and state.at[b] == area]
        name, fortress = sc.territories[area].named, sc.territories[area].fortress
        if not blocks or enemy_in(sc, state, area, who) or state.control[area] == who:
            text = t("The siege of {area} lapses: no besieging block is left there.", area=name)
            events.append(Event("SiegeLapsed", text, {"area": area, "side": who}))
            continue
        rolled: list[int] = []
        hits = 0
        for b in blocks:  # always SIEGE_DRAWS dice: their number in the log betrays nothing
            dice_b = dice.dice(SIEGE_DRAWS, 6, f"siege {area}", hidden=True)[: state.strength[b]]
            rolled.extend(dice_b)
            hits += sum(1 for d in dice_b if d <= sc.blocks[b].number)
        won = hits >= fortress
        if won:
            state.control[area] = who
        when = board.label(sc, state)
        record = [state.count, str.__str__(when), area, rolled, hits, won]  # plain data
        state.sieges_seen.setdefault(who, []).append(record)
        siege = {"area": name, "dice": shown(rolled), "garrison": fortress}
        mine = (
            tn(
                "Siege of {area}: your blocks roll {dice}: {n} hit against a garrison of "
                "{garrison}.",
                "Siege of {area}: your blocks roll {dice}: {n} hits against a garrison of "
                "{garrison}.",
                hits,
                **siege,
            )
            if state.rules >= 2
            else tn(  # rules 1: the wording its stored games logged
                "Siege of {area}: your blocks roll {dice}: {n} hit(s) against a garrison of "
                "{garrison}.",
                "Siege of {area}: your blocks roll {dice}: {n} hit(s) against a "
                "garrison of {garrison}.",
                hits,
                **siege,
            )
        )
        outcome = (
            t("the garrison surrenders; {area} passes to {side}", area=name, side=side(who))
            if won
            else t("the garrison holds")
        )
        resolved = t(
            "Siege of {area} by {side}: {outcome}.", area=name, side=side(who), outcome=outcome
        )
        events += [
            Event("SiegeDice", mine, {"area": area}, Audience.of_side(who)),
            Event("SiegeResolved", resolved, {"area": area, "side": who, "surrendered": won}),
        ]
    state.sieges = []
    return events

"""What a viewer may see (rule 2.19, N22-N24) and the texts players read (status, blocks).

`view(state, viewer)`: a copy holding the viewer's own blocks in full; each other block on the
map becomes an anonymous face-down block (`?<nation>@<territory>#<n>`: location and nation
only) unless a battle now in progress reveals it; the private records (`seen`, `sieges_seen`)
of other sides and what the side to move is doing (its open movement group) are removed. Once
the game is over everything is shown. Pure."""

from __future__ import annotations

import re

from adjudicator.core.events import Viewer
from adjudicator.core.i18n import Msg, name, t, tn
from adjudicator.core.i18n import lines as lines_of
from adjudicator.northern_war import board, legal, texts
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import ON_MAP, NWState
from adjudicator.northern_war.turns import result_text

HIDDEN = "?"


def anonymous(block: str) -> bool:
    return block.startswith(HIDDEN)


def nation_of(block: str) -> str:
    """The nation of an anonymous block id (`?russia@novgorod#1`)."""
    return block[1:].split("@")[0]


def view(sc: Scenario, state: NWState, viewer: Viewer) -> NWState:
    if viewer.over:
        return state
    seen = state.clone()
    revealed = set()
    if state.battle is not None:  # N24: both players see the blocks of the battle now
        revealed = set(board.on_map(sc, state, state.battle["area"]))
    hidden = [
        b
        for b in sc.blocks
        if sc.side_of(b) not in viewer.sides and state.status[b] == ON_MAP and b not in revealed
    ]
    counts: dict[tuple[str, str], int] = {}
    for b in hidden:
        where, nation = str(state.at[b]), sc.blocks[b].nation
        n = counts[(nation, where)] = counts.get((nation, where), 0) + 1
        anon = f"{HIDDEN}{nation}@{where}#{n}"
        seen.at[anon] = seen.at.pop(b)
        seen.status[anon] = seen.status.pop(b)
        seen.strength.pop(b)
        seen.strength[anon] = 0
    keys = [k for k in seen.at if not anonymous(k)] + sorted(k for k in seen.at if anonymous(k))
    seen.at = {k: seen.at[k] for k in keys}  # anonymous blocks in an order of their own
    seen.strength = {k: seen.strength[k] for k in keys}
    seen.status = {k: seen.status[k] for k in keys}
    secret = set(hidden)
    seen.moved = [b for b in seen.moved if b not in secret]
    seen.seen = {s: r for s, r in state.seen.items() if s in viewer.sides}
    seen.sieges_seen = {s: r for s, r in state.sieges_seen.items() if s in viewer.sides}
    seen.sieges = [[a, s, g if s in viewer.sides else []] for a, s, g in state.sieges]
    if state.to_move not in viewer.sides:
        seen.move_group = []
        seen.free_sieges = [[a, []] for a, _ in state.free_sieges]
    if state.battle is not None:
        seen.battle = dict(
            state.battle, queue=[b for b in state.battle["queue"] if b not in secret]
        )
    return seen


def block_line(sc: Scenario, state: NWState, b: str) -> Msg:
    blk = sc.blocks[b]
    where = state.at[b]
    place = sc.territories[where].named if where else texts.place(state.status[b])
    said = {
        "block": blk.named,
        "id": b,
        "type": texts.block_type(blk.type),
        "rating": blk.rating,
        "move": blk.move,
        "strength": state.strength[b],
        "max": blk.max_strength,
        "place": place,
    }
    if blk.royal:
        return t(
            "{block} [{id}] ({type}, royal, {rating}, move {move}, strength {strength}/{max}) "
            "in {place}",
            **said,
        )
    return t(
        "{block} [{id}] ({type}, {rating}, move {move}, strength {strength}/{max}) in {place}",
        **said,
    )


def blocks_text(sc: Scenario, state: NWState, sides: list[str]) -> Msg:
    if not sides:
        return t(
            "You play no side: every block is face down to you. {presence}",
            presence=presence(sc, state),
        )
    lines: list[object] = []
    for side in sides:
        own = [b for b in sc.blocks if not anonymous(b) and sc.side_of(b) == side]
        lines.append(t("Your blocks ({side}):", side=texts.side(side)))
        lines += [
            t("- {line}", line=block_line(sc, state, b)) for b in own if state.status[b] == ON_MAP
        ]
        off = [
            t("{block} ({place})", block=sc.blocks[b].named, place=texts.place(state.status[b]))
            for b in own
            if state.status[b] != ON_MAP
        ]
        if off:
            lines.append(t("Off the map: {blocks}.", blocks=texts.listed(off)))
        for b, (strength, count, when, area) in sorted(state.seen.get(side, {}).items()):
            blk = sc.blocks[b]
            lines.append(
                t(
                    "Seen in turn {count} ({when}) in {area}: {block} {rating} strength "
                    "{strength} (then).",
                    count=count,
                    when=_when(when),
                    area=sc.territories[area].named,
                    block=blk.named,
                    rating=blk.rating,
                    strength=strength,
                )
            )
        for count, when, area, dice, hits, _won in state.sieges_seen.get(side, []):
            lines.append(
                tn(
                    "Your siege of {area} in turn {count}: dice {dice}, {n} hit.",
                    "Your siege of {area} in turn {count}: dice {dice}, {n} hits.",
                    hits,
                    area=sc.territories[area].named,
                    count=count,
                    dice=texts.dice(dice),
                )
            )
    return lines_of(lines)


def _when(stored: object) -> object:
    """A record's "1701, turn 2" (kept in the state as English) said again in any language."""
    found = re.fullmatch(r"(\d+), turn (\d+)", str(stored))
    if found is None:
        return stored
    return t("{year}, turn {turn}", year=int(found[1]), turn=int(found[2]))


def presence(sc: Scenario, state: NWState) -> Msg:
    parts = []
    for x, terr in sc.territories.items():
        here = [b for b in state.at if state.at[b] == x and state.status[b] == ON_MAP]
        if here:
            nations: dict[str, int] = {}
            for b in here:
                n = nation_of(b) if anonymous(b) else sc.blocks[b].nation
                nations[n] = nations.get(n, 0) + 1
            counted = texts.listed(
                t("{count} {nation}", count=c, nation=name(n, ru=sc.nations[n].name_ru))
                for n, c in nations.items()
            )
            parts.append(t("{area}: {nations}", area=terr.named, nations=counted))
    return t("Blocks on the map: {places}.", places=texts.listed(parts, "; "))


def status_text(sc: Scenario, state: NWState) -> Msg:
    if state.result is not None:
        return t("Game over: {result}.", result=result_text(state.result))
    when = board.label(sc, state)
    head = t(
        "{when} of {turns} (game turn {count}), {phase} phase.",
        when=when,
        turns=sc.turns_per_year,
        count=state.count,
        phase=texts.phase(state.phase),
    )
    if state.phase == "winter":
        head = t("{when}: the Swedish winter campaign.", when=when)
    lines: list[object] = [head]
    if state.rolls:
        rolls = texts.listed(
            t("{side} rolled {roll} (event)", side=texts.side(s), roll=r)
            if r == 6
            else t(
                "{side} rolled {roll} ({left} left)",
                side=texts.side(s),
                roll=r,
                left=state.actions.get(s, 0),
            )
            for s, r in state.rolls.items()
        )
        lines.append(
            t(
                "Action rolls: {rolls}; first player {side}.",
                rolls=rolls,
                side=texts.side(str(state.first)),
            )
        )
    who = legal.whose(state)
    if state.pending is not None:
        lines.append(t("Waiting for {prompt}.", prompt=legal.prompt(sc, state)))
    elif who is not None:
        lines.append(t("{side} to act.", side=texts.side(who)))
    held = {s: sum(1 for x in sc.victory if state.control[x] == s) for s in board.SIDES}
    lines.append(
        t(
            "Victory territories held: {held}; the game ends after the winter of {year}.",
            held=texts.listed(t("{side} {n}", side=texts.side(s), n=n) for s, n in held.items()),
            year=sc.first_year + sc.years - 1,
        )
    )
    lines.append(presence(sc, state))
    return lines_of(lines)

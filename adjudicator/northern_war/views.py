"""What a viewer may see (rule 2.19, N22-N24) and the texts players read (status, blocks).

`view(state, viewer)`: a copy holding the viewer's own blocks in full; each other block on the
map becomes an anonymous face-down block (`?<nation>@<territory>#<n>`: location and nation
only) unless a battle now in progress reveals it; the private records (`seen`, `sieges_seen`)
of other sides and what the side to move is doing (its open movement group) are removed. Once
the game is over everything is shown. Pure."""

from __future__ import annotations

from adjudicator.core.events import Viewer
from adjudicator.northern_war import board, legal
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.state import ON_MAP, NWState, copy_state

HIDDEN = "?"


def anonymous(block: str) -> bool:
    return block.startswith(HIDDEN)


def nation_of(block: str) -> str:
    """The nation of an anonymous block id (`?russia@novgorod#1`)."""
    return block[1:].split("@")[0]


def view(sc: Scenario, state: NWState, viewer: Viewer) -> NWState:
    if viewer.over:
        return state
    seen = copy_state(state)
    revealed = set()
    if state.battle is not None:  # N24: both players see the blocks of the battle now
        revealed = set(board.on_map(sc, state, state.battle["area"]))
    hidden = [b for b in sc.blocks if sc.side_of(b) not in viewer.sides
              and state.status[b] == ON_MAP and b not in revealed]  # fmt: skip
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
        seen.battle = dict(state.battle, queue=[b for b in state.battle["queue"]
                                                if b not in secret])  # fmt: skip
    return seen


def block_line(sc: Scenario, state: NWState, b: str) -> str:
    blk = sc.blocks[b]
    where = state.at[b]
    place = sc.territories[where].name if where else state.status[b]
    crown = ", royal" if blk.royal else ""
    return (f"{blk.name} [{b}] ({blk.type}{crown}, {blk.rating}, move {blk.move}, strength "
            f"{state.strength[b]}/{blk.max_strength}) in {place}")  # fmt: skip


def blocks_text(sc: Scenario, state: NWState, sides: list[str]) -> str:
    if not sides:
        return "You play no side: every block is face down to you. " + presence(sc, state)
    lines = []
    for side in sides:
        own = [b for b in sc.blocks if not anonymous(b) and sc.side_of(b) == side]
        lines.append(f"Your blocks ({side}):")
        lines += ["- " + block_line(sc, state, b) for b in own if state.status[b] == ON_MAP]
        off = [f"{sc.blocks[b].name} ({state.status[b]})" for b in own
               if state.status[b] != ON_MAP]  # fmt: skip
        if off:
            lines.append("Off the map: " + ", ".join(off) + ".")
        for b, (strength, count, when, area) in sorted(state.seen.get(side, {}).items()):
            blk = sc.blocks[b]
            lines.append(f"Seen in turn {count} ({when}) in {sc.territories[area].name}: "
                         f"{blk.name} {blk.rating} strength {strength} (then).")  # fmt: skip
        for count, when, area, dice, hits, won in state.sieges_seen.get(side, []):
            lines.append(f"Your siege of {sc.territories[area].name} in turn {count}: dice "
                         f"{' '.join(map(str, dice))}, {hits} hit(s).")  # fmt: skip
    return "\n".join(lines)


def presence(sc: Scenario, state: NWState) -> str:
    parts = []
    for t, terr in sc.territories.items():
        here = [b for b in state.at if state.at[b] == t and state.status[b] == ON_MAP]
        if here:
            nations: dict[str, int] = {}
            for b in here:
                n = nation_of(b) if anonymous(b) else sc.blocks[b].nation
                nations[n] = nations.get(n, 0) + 1
            parts.append(f"{terr.name}: " + ", ".join(f"{c} {n}" for n, c in nations.items()))
    return "Blocks on the map: " + "; ".join(parts) + "."


def status_text(sc: Scenario, state: NWState) -> str:
    if state.result is not None:
        return f"Game over: {state.result['text']}."
    when = board.label(sc, state)
    head = f"{when} of {sc.turns_per_year} (game turn {state.count}), {state.phase} phase."
    if state.phase == "winter":
        head = f"{when}: the Swedish winter campaign."
    lines = [head]
    if state.rolls:
        rolls = ", ".join(
            f"{s} rolled {r} ({'event' if r == 6 else str(state.actions.get(s, 0)) + ' left'})"
            for s, r in state.rolls.items()
        )
        lines.append(f"Action rolls: {rolls}; first player {state.first}.")
    who = legal.whose(state)
    if state.pending is not None:
        lines.append("Waiting for " + legal.prompt(sc, state) + ".")
    elif who is not None:
        lines.append(f"{who} to act.")
    held = {s: sum(1 for t in sc.victory if state.control[t] == s) for s in board.SIDES}
    lines.append(
        "Victory territories held: "
        + ", ".join(f"{s} {n}" for s, n in held.items())
        + f"; the game ends after the winter of {sc.first_year + sc.years - 1}."
    )
    lines.append(presence(sc, state))
    return "\n".join(lines)

"""Random whole games: random legal orders and random dice, invariants after every order, replay.

Each game is seeded (`random.Random(seed)` for the choices, `HashDice(seed)` for the dice) and is
played from `HellsGateSystem(scenario).initial(...)` until `state.result` is set. Orders come from
`legal_orders(state, state.active_side)`; now and then a random attack, a random answer to a hit
decision or an order of the wrong side is tried as well: if it is refused, the state must be
unchanged; if it is accepted, it is played. After every accepted order the invariants below are
checked with the test's own code (own neighbour rule, own supply BFS, own VP count). At the end
the recorded orders and dice are replayed through FixedDice and must give the same final state.

To reproduce one game: `play_game(load_scenario(), seed)`.
"""

from __future__ import annotations

import random
import time
from collections import Counter, deque

from adjudicator.core.dice import FixedDice, HashDice
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.system import HellsGateSystem
from adjudicator.hells_gate.victory import victory_points

GAMES = 200
SIDES = ("soviet", "german")
# 10.2: a Retreat marker lives from the enemy combat phase to the owner's next recovery phase.
RETREAT_WINDOW = {
    "soviet": {
        "german-combat",
        "german-movement",
        "german-recovery",
        "joint",
        "soviet-supply",
        "soviet-combat",
        "soviet-movement",
    },
    "german": {
        "soviet-combat",
        "soviet-movement",
        "soviet-recovery",
        "german-supply",
        "german-combat",
        "german-movement",
    },
}
BOXES = {"map", "turn_track", "eliminated", "broken_out", "never_entered"}


def enemy(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


class Map:
    """The test's own reading of the scenario map (scenario section 1 and rule 6.2)."""

    def __init__(self, scen):
        cols, first, last = scen.grid.columns, scen.grid.first_row, scen.grid.last_row
        self.hexes = [f"{c}{r}" for c in cols for r in range(first, last + 1)]
        self.nbrs = {}
        for h in self.hexes:
            c, r = cols.index(h[0]) + 1, int(h[1:])
            low = r if c % 2 else r - 1  # odd columns (A, C, E) sit half a hex lower
            cand = [
                (c, r - 1),
                (c, r + 1),
                (c - 1, low),
                (c - 1, low + 1),
                (c + 1, low),
                (c + 1, low + 1),
            ]
            self.nbrs[h] = [
                f"{cols[cc - 1]}{rr}"
                for cc, rr in cand
                if 1 <= cc <= len(cols) and first <= rr <= last
            ]
        self.supply = {s: [h for h in self.hexes if scen.hexes[h].supply == s] for s in SIDES}

    def traceable(self, where: dict[str, str], side: str, limit: int | None) -> set[str]:
        """6.2 (a)/(b), 6.7, 12.7: hexes from which `side` traces a line of at most `limit`."""
        zoc = {n for h, s in where.items() if s != side for n in self.nbrs[h]}
        ok = {
            h for h in self.hexes if where.get(h) == side or (where.get(h) is None and h not in zoc)
        }
        dist = {h: 0 for h in self.supply[side] if h in ok}
        queue = deque(dist)
        while queue:
            h = queue.popleft()
            if limit is not None and dist[h] >= limit:
                continue
            for n in self.nbrs[h]:
                if n in ok and n not in dist:
                    dist[n] = dist[h] + 1
                    queue.append(n)
        return set(dist)


def own_vp(scen, state) -> dict[str, int]:
    """Section 14 counted by the test."""
    vp = {}
    for side in SIDES:
        total = 10 if side == "german" else 0  # 14.4
        for u in state.units.values():
            if u.side == side:
                continue
            steps = scen.units[u.id].steps
            if u.box == "eliminated":
                total += steps  # 14.1: printed steps
            elif u.box in ("map", "broken_out") and steps == 2 and u.reduced:
                total += 1  # 14.2
        held = {u.hex for u in state.on_map(side)}
        total += 2 * sum(1 for h in held if scen.hexes[h].supply == enemy(side))  # 14.3
        vp[side] = total
    return vp


def positions(state) -> dict[str, str]:
    return {u.hex: u.side for u in state.on_map()}


def check_state(scen, state) -> None:
    """Invariants that hold in every state."""
    sides_in: dict[str, set[str]] = {}
    for u in state.units.values():
        spec = scen.units[u.id]
        assert u.box in BOXES, (u.id, u.box)
        if u.box == "map":
            assert u.hex in scen.hexes, (u.id, u.hex)
            sides_in.setdefault(u.hex, set()).add(u.side)
        else:
            assert u.hex is None, (u.id, u.box, u.hex)
            assert not u.oos and not u.retreated, (u.id, u.box, "marker off the map")
        assert (u.track_turn is not None) == (u.box == "turn_track"), (u.id, u.track_turn)
        assert not u.reduced or spec.steps == 2, (u.id, "reduced one-step unit")
        if u.retreated:
            assert state.phase in RETREAT_WINDOW[u.side], (u.id, state.phase, "Retreat marker")
    assert all(len(s) == 1 for s in sides_in.values()), sides_in  # 2.11 / 9.4 / 8.32(b)
    assert len(set(state.attacked_hexes)) == len(state.attacked_hexes)  # 8.4(b)
    assert 1 <= state.turn <= scen.turns and state.weather in ("snow", "mud")
    vp = victory_points(scen, state)
    assert {s: vp[s]["total"] for s in SIDES} == own_vp(scen, state)


def check_order(scen, grid: Map, before, out) -> None:
    """Invariants about one accepted order: markers change only where the rules change them."""
    after, events = out.state, out.events
    began = [e.data["phase"] for e in events if e.kind == "PhaseBegan"]
    retreated_now = {e.data["unit"] for e in events if e.kind == "UnitRetreated"}
    for uid, u in after.units.items():
        old = before.units[uid]
        if u.retreated and not old.retreated:  # 8.35: only by a retreat, in the enemy's combat
            assert uid in retreated_now and before.phase == f"{enemy(u.side)}-combat", uid
        if u.on_map and old.on_map and u.oos != old.oos:  # 6.11
            assert f"{u.side}-supply" in began, (uid, "OOS changed outside a supply phase")
    assert after.turn >= before.turn
    if before.weather == "mud":
        assert after.weather == "mud"  # 11.4
    for roll in out.rolls:
        assert 1 <= roll.value <= 6 and roll.purpose
    for side in SIDES:
        if f"{side}-supply" in began:
            check_supply_phase(scen, grid, after, events, side)


def check_supply_phase(scen, grid: Map, state, events, side: str) -> None:
    """6.9/6.10/12.7: right after the supply check each unit's OOS marker == cannot trace.
    Reinforcements that entered in this order came after the check (6.14) and have no marker."""
    turn = next(
        e.data["turn"]
        for e in events
        if e.kind == "PhaseBegan" and e.data["phase"] == f"{side}-supply"
    )
    entered = {e.data["unit"] for e in events if e.kind == "ReinforcementEntered"}
    where = {u.hex: u.side for u in state.on_map() if u.id not in entered}
    limit = 3 if side == "soviet" and turn == 2 else None
    ok = grid.traceable(where, side, limit)
    for u in state.on_map(side):
        if u.id in entered:
            assert not u.oos, u.id
        else:
            assert u.oos == (u.hex not in ok), (u.id, u.hex, u.oos, turn)


def check_end(scen, grid: Map, state) -> None:
    """4.7, 13, 14: the game ends after turn 8; survivors trace supply; VP and winner."""
    assert (state.turn, state.phase) == (scen.turns, "german-recovery")
    assert not state.pending and state.active_side is None
    for side in SIDES:
        ok = grid.traceable(positions(state), side, None)
        assert all(u.hex in ok for u in state.on_map(side)), side  # 13.1-13.3
    vp = own_vp(scen, state)
    assert {s: state.vp[s]["total"] for s in SIDES} == vp
    winner = "draw" if vp["soviet"] == vp["german"] else max(vp, key=vp.get)
    assert state.result == {"winner": winner, "soviet": vp["soviet"], "german": vp["german"]}


# -- random attempts that may be refused
def random_attack(rng: random.Random, scen, state, side: str) -> O.Attack:
    enemy_hexes = sorted({u.hex for u in state.on_map(enemy(side))})
    target = (
        rng.choice(enemy_hexes)
        if enemy_hexes and rng.random() < 0.85
        else rng.choice(list(scen.hexes))
    )
    mine = [u.id for u in state.on_map(side) if scen.grid.adjacent(u.hex, target)]
    if not mine or rng.random() < 0.15:
        mine = sorted(u.id for u in state.units.values() if u.side == side)
    units = tuple(rng.sample(mine, rng.randint(1, min(len(mine), 5))))
    decisive = rng.random() < 0.4
    flip = rng.choice(units) if decisive and rng.random() < 0.5 else None
    return O.Attack(target, units, decisive, flip)


def random_losses(rng: random.Random, scen, state) -> O.Losses:
    d = state.pending[0]
    here = [u.id for u in state.units_in(d.data["hex"])] or ["29tk"]
    units = tuple(rng.choice(here) for _ in range(rng.randint(0, d.data["hits"] + 1)))
    hexes = list(scen.grid.neighbours(d.data["hex"]))
    roll = rng.random()
    if roll < 0.35:
        retreat = None
    elif roll < 0.8:
        retreat = rng.choice(hexes) if rng.random() < 0.9 else rng.choice(list(scen.hexes))
    else:
        retreat = tuple((uid, rng.choice(hexes)) for uid in here)
    return O.Losses(units, retreat)


def wrong_order(rng: random.Random, scen, state, side: str):
    kind = rng.randrange(4)
    uid = rng.choice(sorted(state.units))
    if kind == 0:
        return enemy(side), O.End()
    if kind == 1:
        return side, O.Move(uid, (rng.choice(list(scen.hexes)),))
    if kind == 2:
        return side, O.Losses((uid,))
    return side, O.Enter(uid, rng.choice(list(scen.hexes)))


def pick(rng: random.Random, legal: list):
    ends = [o for o in legal if isinstance(o, O.End)]
    rest = [o for o in legal if not isinstance(o, O.End)]
    if ends and (not rest or rng.random() < 0.18):
        return ends[0]
    return rng.choice(rest)


def play_game(scen, seed: int, stats: Counter | None = None) -> tuple[list, object]:
    """One random game; returns the record [(actor, order, dice values)] and the final state."""
    stats = Counter() if stats is None else stats
    rules, grid, rng, dice = HellsGateSystem(scen), Map(scen), random.Random(seed), HashDice(seed)
    state = rules.initial(False, dice).state
    check_state(scen, state)
    record = []
    while state.result is None:
        side = state.active_side
        legal = rules.legal_orders(state, side)
        assert legal, f"seed {seed}: {side} has no legal order in {state.phase} turn {state.turn}"
        assert rules.legal_orders(state, enemy(side)) == []  # one side acts at a time
        actor, order, from_legal = side, pick(rng, legal), True
        roll = rng.random()
        pending = state.pending[0].kind if state.pending else None
        if pending is None and state.phase.endswith("combat") and roll < 0.25:
            order, from_legal = random_attack(rng, scen, state, side), False
        elif pending == "losses" and roll < 0.4:
            order, from_legal = random_losses(rng, scen, state), False
        elif roll > 0.97:
            (actor, order), from_legal = wrong_order(rng, scen, state, side), False
        elif roll > 0.96:
            actor, order = "system", O.Default()
        snapshot = None if from_legal else state.to_json()
        try:
            out = rules.apply(state, actor, order, dice)
        except Rejection as exc:
            assert not from_legal, f"seed {seed}: legal order {order} refused: {exc}"
            assert state.to_json() == snapshot, f"seed {seed}: refused {order} changed the state"
            stats["refused"] += 1
            continue
        check_order(scen, grid, state, out)
        check_state(scen, out.state)
        record.append((actor, out.order, [r.value for r in out.rolls]))
        stats.update(e.kind for e in out.events)
        stats.update(f"pending-{d.kind}" for d in out.state.pending)
        state = out.state
    check_end(scen, grid, state)
    stats[f"winner-{state.result['winner']}"] += 1
    return record, state


def replay(scen, record) -> object:
    rules = HellsGateSystem(scen)
    state = rules.initial(False, FixedDice([])).state
    for actor, order, values in record:
        dice = FixedDice(values)
        state = rules.apply(state, actor, order, dice).state
        assert dice.used == len(values), (order, values)
    return state


def test_1_5_the_fuzz_map_reading_matches_the_scenario_neighbour_lists(scenario):
    """Scenario section 1: "Worked neighbour lists: C6 -> B6 B7 C5 C7 D6 D7. B2 -> A1 A2 B1 B3
    C1 C2. B7 -> A6 A7 B6 C6 C7. F6 -> E5 E6 F5 F7." (the invariants use this reading)"""
    grid = Map(scenario)
    assert sorted(grid.nbrs["C6"]) == ["B6", "B7", "C5", "C7", "D6", "D7"]
    assert sorted(grid.nbrs["B2"]) == ["A1", "A2", "B1", "B3", "C1", "C2"]
    assert sorted(grid.nbrs["B7"]) == ["A6", "A7", "B6", "C6", "C7"]
    assert sorted(grid.nbrs["F6"]) == ["E5", "E6", "F5", "F7"]
    assert len(grid.hexes) == 42
    assert all(sorted(grid.nbrs[h]) == sorted(scenario.grid.neighbours(h)) for h in grid.hexes)


def test_4_7_random_games_end_keeping_the_invariants_and_replay_exactly(scenario):
    """4.7: "After phase 8 of turn 8 the game ends: apply end-of-game supply attrition (section
    13), then count victory points (section 14)." - 200 random games get there, keeping the
    invariants of sections 2, 6, 8, 10, 11 and 14 after every order."""
    stats: Counter = Counter()
    lengths, started = [], time.perf_counter()
    for seed in range(GAMES):
        record, final = play_game(scenario, seed, stats)
        assert replay(scenario, record).to_json() == final.to_json(), f"seed {seed}: replay differs"
        lengths.append(len(record))
    elapsed = time.perf_counter() - started
    print(
        f"\nfuzz: {GAMES} games, {sum(lengths) / GAMES:.0f} orders per game "
        f"(min {min(lengths)}, max {max(lengths)}), {elapsed / GAMES * 1000:.0f} ms per game, "
        f"{stats['refused']} refused attempts"
    )
    # The random play reaches the rare corners of the rules, not just the common ones.
    for kind in (
        "AttackResolved",
        "UnitRetreated",
        "UnitEliminated",
        "WeatherChanged",
        "ReinforcementEntered",
        "ReinforcementLost",
        "OutOfSupply",
        "SupplyRestored",
        "RetreatMarkerRemoved",
        "DefaultApplied",
        "pending-losses",
        "pending-breakout",
        "UnitBrokeOut",
        "pending-rebuild",
        "UnitRebuilt",
        "refused",
    ):
        assert stats[kind] > 0, kind
    assert stats["winner-soviet"] + stats["winner-german"] + stats["winner-draw"] == GAMES

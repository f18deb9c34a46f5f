"""A whole game between two built-in players that choose random legal orders.

It goes through the same path as human players (text -> grammar -> the system's rules -> store),
so it doubles as an end-to-end smoke test, committed dice and hash chain included. Choices and
dice follow the seed: the demo's epoch seeds are derived from it (so they are NOT secret, unlike a
real game's, which come from `secrets`), and `pbem audit` checks a demo game like any other.
"""

from __future__ import annotations

import hashlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.core.events import audience_of
from adjudicator.core.system import GameSystem
from app.lifecycle import DEFAULT_SYSTEM
from app.replies import Reply
from app.service import GameService
from app.summary import side_name
from bots import terminal_opponent
from storage import Store

log = logging.getLogger(__name__)

MAX_ORDERS = 5000  # a safety net: a legal game ends far sooner
END_WEIGHT = 0.15  # chance to end a phase when other orders are also legal


@dataclass
class DemoResult:
    name: str
    orders: int
    result: dict[str, Any] | None
    vp: dict[str, Any] | None


class DemoError(RuntimeError):
    """The engine refused an order its own legal_orders offered: a bug in the rules code."""


class DemoSeeds:
    """Epoch seeds derived from the demo seed: reproducible, hence for demos and benches only."""

    def __init__(self, seed: int | str):
        self.seed = seed
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return hashlib.sha256(f"demo-{self.seed}-{self.n}".encode()).hexdigest()


def demo_uid(seed: int | str, name: str) -> str:
    return hashlib.sha256(f"demo-uid-{seed}-{name}".encode()).hexdigest()[:32]


def choose(rng: random.Random, legal: list[str]) -> str:
    """One of the legal orders (canonical texts, sorted); `end` (ending the phase, in every
    system that has phases) only now and then while other orders are legal."""
    ends = [o for o in legal if o == "end"]
    others = [o for o in legal if o != "end"]
    if ends and (not others or rng.random() < END_WEIGHT):
        return ends[0]
    return rng.choice(others)


def run_demo(
    seed: int = 1,
    store: Store | None = None,
    name: str | None = None,
    write: Callable[[str], None] = print,
    system: str = DEFAULT_SYSTEM,
    ai: tuple[str, str] | None = None,
) -> DemoResult:
    """A whole game of `system` (default: the default system) between two random players.
    ai: (side, level): the built-in opponent plays that side ("": the second side)."""
    store = store or Store(":memory:")
    name = name or _free_name(store, f"demo-{seed}")
    service = GameService(store, seeds=DemoSeeds(seed), uids=lambda: demo_uid(seed, name))
    service.new_game(name, system=system)
    rules = service.system(name)
    rng = random.Random(seed)
    ai_side = _seat_opponent(service, name, rules, ai) if ai is not None else None
    phase_key: tuple[int | None, str] | None = None
    said: list[str] = []
    fights: list[str] = []
    count = 0
    here = rules.situation(service.state(name))
    while not here.over and count < MAX_ORDERS:
        key = (here.turn, here.phase)
        if key != phase_key:
            _flush(write, phase_key, said, fights)
            phase_key, said, fights = key, [], []
        side = here.to_move[0]
        replies = [move] if ai_side and (move := terminal_opponent.move(service, name)) else []
        if replies:
            side, text = ai_side or side, replies[0].line
        else:
            text = choose(rng, legal_texts(rules, service.state(name), side))
            replies = service.say(name, side, text)
        if not replies[0].ok:  # a legal order refused: an engine bug worth shouting about
            raise DemoError(f"legal order {text!r} by {side} refused: {replies[0].error}")
        said.append(f"{side[0]}:{text}" if side != phase_key[1].split("-")[0] else text)
        fights += combat_lines(replies[0])
        count += 1
        here = rules.situation(service.state(name))
    _flush(write, phase_key, said, fights)
    final = service.show(name)
    write(f"Result after {count} orders: {result_text(final.get('result'), rules)}")
    write(f"VP: {vp_text(final.get('vp'), rules)}")
    return DemoResult(name, count, final.get("result"), final.get("vp"))


def _seat_opponent(service: GameService, name: str, rules: GameSystem, ai: tuple[str, str]) -> str:
    side = ai[0] or rules.sides[-1].id
    seated = terminal_opponent.seat(service, name, side, ai[1])
    if not seated.ok:
        raise DemoError(seated.reply)
    return side


def legal_texts(system: GameSystem, state: object, side: str) -> list[str]:
    """The legal orders as canonical texts, sorted: the choice depends on the seed alone, not
    on the order of the engine's list."""
    return sorted(system.grammar.format(o) for o in system.legal_orders(state, side))


def _free_name(store: Store, base: str) -> str:
    taken = {g.name for g in store.list_games()}
    n = 1
    name = base
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    return name


def result_text(result: dict[str, Any] | None, system: GameSystem) -> str:
    if not result:
        return "unfinished"
    winner = result.get("winner")
    if winner != "draw" and winner not in {s.id for s in system.sides} and result.get("text"):
        return str(result["text"])  # a system with no winner to name says why
    head = "a draw" if winner == "draw" else f"{side_name(system.sides, str(winner))} victory"
    scores = ", ".join(f"{s.name} {result.get(s.id)} VP" for s in system.sides if s.id in result)
    return f"{head} ({scores})" if scores else head


def vp_text(vp: dict[str, Any] | None, system: GameSystem) -> str:
    if not vp:
        return "-"
    parts = []
    for side, detail in vp.items():
        name = side_name(system.sides, side)
        if not isinstance(detail, dict):
            parts.append(f"{name} {detail}")
            continue
        rest = ", ".join(
            f"{k.replace('_', ' ')} {_brief(v)}" for k, v in detail.items() if k != "total"
        )
        parts.append(f"{name} {detail.get('total')} ({rest})")
    return "; ".join(parts)


def _brief(value: object) -> str:
    if isinstance(value, list | tuple):
        return ",".join(map(str, value)) or "none"
    return str(value)


def combat_lines(reply: Reply) -> list[str]:
    """What an attack gave, as the system tells it (its odds, die and result), a line each;
    nothing for an order that fought no combat. The die's own line is left out: the system's
    resolution names the die already."""
    if reply.combat is None:
        return []
    return [
        str(e.get("text"))
        for e in reply.events
        if e.get("text") and e.get("kind") != "DieRolled" and audience_of(e).public
    ]


def _whole_lines(head: str, items: Sequence[str], width: int) -> list[str]:
    """The phase's orders after `head`, "; " between them, on as many lines as they need: a
    line is never cut; a long one goes on below, indented under the first order."""
    out: list[str] = []
    line = head
    for n, item in enumerate(items):
        part = item + (";" if n < len(items) - 1 else "")
        if line.strip() and line != head and len(line) + 1 + len(part) > width:
            out.append(line)
            line = " " * len(head) + part
        else:
            line = line + part if line == head else f"{line} {part}"
    out.append(line)
    return out


def _flush(
    write: Callable[[str], None],
    key: tuple[int | None, str] | None,
    said: list[str],
    fights: Sequence[str] = (),
    width: int = 150,
) -> None:
    if key is None:
        return
    for line in _whole_lines(f"T{key[0]} {key[1]:<16} ", said or ["-"], width):
        write(line)
    for fight in fights:
        write(f"    {fight}")

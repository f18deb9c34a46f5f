"""What the outbox sender pays to draw a post's image, next to a bare encode of the same picture,
in every game system, however long the game and however late the image is drawn.

    python bench/bench_post_image.py [--seed N] [--pairs N] [--move-on N] [--systems a,b]

For each system a seeded game (DemoSeeds, random legal orders as `pbem demo` plays) in a SQLite
file, its posts queued through the chat service as in production (one group chat). Cases:
  early              the last post after a few orders, drawn at once
  late               the last post late in the game, drawn at once
  late, moved on     the same post drawn after the game moved on (--move-on orders)
  early, moved on    the early post drawn at the end (the game far past it)
  late, restart      the late post drawn by a fresh Store (nothing of the process's store kept)
  late, side map     (systems with side maps) the late post's map of a side, drawn at the end
"sender" is `app.images.render_spec(store, game, spec)`, what the sender calls; "bare" is the
same picture's `app.games.draw(...)` on a state and events already in memory (the state replayed
and the events folded beforehand), the bytes checked equal. The two are timed in pairs,
alternating which goes first, --pairs times; medians, wall and CPU (process time). "old" is the
sender's cost for the same spec written without its state (as before specs carried it: the
whole log read, replayed when the game moved on), a few runs. Not part of the test run.
The last line: `post image: worst X x a bare encode (system, case)`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from adjudicator.core import registry
from app import fold, games, images, post_queue
from app.i18n import language
from app.messages import Incoming
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds, demo_uid
from storage import Store
from tests.playing import play_random

GROUP = "-1009000"
# orders to the early post, to the late one (random play ends Borodino and the Northern War
# sample in about 60 and 35 orders, Hell's Gate in about 170, Stalin's War goes on past 300)
ORDERS = {
    "hells-gate": (8, 140),
    "borodino": (6, 50),
    "stalins-war": (20, 280),
    "northern-war": (6, 24),
}


class Chat:
    def __init__(self, service: ChatService):
        self.service, self.n = service, 0

    def say(self, user: int, text: str) -> None:
        self.n += 1
        self.service.handle(
            Incoming("telegram", GROUP, str(user), f"user{user}", text, message_id=f"m{self.n}")
        )


def start(store: Store, system: str, seed: int) -> tuple[GameService, str]:
    service = GameService(store, seeds=DemoSeeds(seed), uids=lambda: demo_uid(seed, system))
    chat = Chat(ChatService(service, clock=FakeClock(), images=True))
    chat.say(1, f"new {system}")
    name = store.list_games()[-1].name
    sides = [s.id for s in service.system(name).sides]
    chat.say(2, f"join {sides[0]}")
    chat.say(3, f"join {sides[1]}")
    chat.say(1, "start")
    return service, name


def last_spec(store: Store, name: str, private: bool = False) -> dict | None:
    rows = [
        r
        for r in post_queue.rows(store)
        if r.game == name and r.outgoing.render and bool(r.outgoing.render.get("view")) == private
    ]
    return rows[-1].outgoing.render if rows else None


def bare_of(store: Store, name: str, spec: dict) -> Callable[[], bytes]:
    """The same picture's games.draw on a state and events already in memory."""
    system = games.system_of(store, name)
    upto, after = int(spec["upto"]), spec.get("after")
    rows = fold.with_secrets(r for r in store.log(name) if r.index <= upto)
    state, events = fold.replay(system, rows), fold.events_since(rows, after)
    lang = language(spec.get("lang"))

    def bare() -> bytes:
        return games.draw(
            system,
            state,
            events,
            spec.get("view"),
            spec.get("title"),
            bool(spec.get("focus")),
            lang,
        )

    return bare


def clocked(fn: Callable[[], object]) -> tuple[float, float]:
    w, c = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - w, time.process_time() - c


def paired(a: Callable[[], object], b: Callable[[], object], pairs: int) -> list[list[float]]:
    """[a wall, a cpu, b wall, b cpu] medians over `pairs` pairs, alternating the first."""
    got: list[list[float]] = [[], [], [], []]
    for n in range(pairs):
        order = ((0, a), (2, b)) if n % 2 == 0 else ((2, b), (0, a))
        for at, fn in order:
            w, c = clocked(fn)
            got[at].append(w)
            got[at + 1].append(c)
    return [[statistics.median(x)] for x in got]


def case(
    rows: list, system: str, label: str, store: Store, name: str, spec: dict, pairs: int, old: int
) -> None:
    sender = lambda: images.render_spec(store, name, spec)
    bare = bare_of(store, name, spec)
    assert sender() == bare(), (system, label)  # the same picture; also warms both
    (sw,), (sc,), (bw,), (bc,) = paired(sender, bare, pairs)
    legacy = {k: v for k, v in spec.items() if k != images.SEEN}
    ow = statistics.median(
        clocked(lambda: images.render_spec(store, name, legacy))[0] for _ in range(old)
    )
    head = store.load(name, with_log=False).head_index
    rows.append((system, label, spec["upto"], head, sw, sc, bw, bc, ow))
    print(
        f"{system:13} {label:17} row {spec['upto']:4}/{head:4}  sender {sw * 1e3:7.1f} ms "
        f"(cpu {sc * 1e3:7.1f})  bare {bw * 1e3:7.1f} ms (cpu {bc * 1e3:7.1f})  "
        f"{sw / bw:5.2f}x (cpu {sc / bc:5.2f}x)  old {ow * 1e3:7.1f} ms {ow / bw:6.2f}x",
        flush=True,
    )


def queued(system: str, store: Store, name: str, spec: dict, runs: int) -> None:
    """What carrying the state costs where the post is queued (inside the game's transaction):
    the viewer's view as JSON, and its bytes in the outbox row."""
    rules = games.system_of(store, name)
    rows = fold.with_secrets(r for r in store.log(name) if r.index <= int(spec["upto"]))
    state = fold.replay(rules, rows)
    bare = {k: v for k, v in spec.items() if k != images.SEEN}
    took = statistics.median(
        clocked(lambda: images.with_seen(bare, rules, state))[0] for _ in range(runs)
    )
    size = len(json.dumps(spec[images.SEEN], separators=(",", ":")))
    print(
        f"{system:13} queued: the stored state costs {took * 1e3:.2f} ms, {size} bytes in the row"
    )


def bench_system(system: str, args: argparse.Namespace, rows: list, tmp: Path) -> None:
    url = str(tmp / f"{system}.db")
    store = Store(url)
    service, name = start(store, system, args.seed)
    early_n, late_n = ORDERS[system]
    play_random(service, name, early_n, seed=args.seed)
    early = last_spec(store, name)
    assert early is not None
    case(rows, system, "early", store, name, early, args.pairs, args.old)
    play_random(service, name, late_n - early_n, seed=args.seed + 1)
    late = last_spec(store, name)
    case(rows, system, "late", store, name, late, args.pairs, args.old)
    play_random(service, name, args.move_on, seed=args.seed + 2)
    case(rows, system, "late, moved on", store, name, late, args.pairs, args.old)
    case(rows, system, "early, moved on", store, name, early, args.pairs, args.old)
    queued(system, store, name, late, args.pairs)
    side = last_spec(store, name, private=True)
    if side is not None:
        case(rows, system, "late, side map", store, name, side, args.pairs, args.old)
    store.close()
    fresh = Store(url)  # as after a restart
    case(rows, system, "late, restart", fresh, name, late, args.pairs, args.old)
    fresh.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=3)
    p.add_argument("--pairs", type=int, default=7, help="timed pairs per case")
    p.add_argument("--old", type=int, default=2, help="timed runs of the old path per case")
    p.add_argument(
        "--move-on", type=int, default=10, help="orders played before the moved-on cases"
    )
    p.add_argument("--systems", default=",".join(sorted(ORDERS)))
    args = p.parse_args(argv)
    rows: list = []
    with tempfile.TemporaryDirectory() as tmp:
        for system in args.systems.split(","):
            registry.get(system)
            bench_system(system, args, rows, Path(tmp))
    worst = max(rows, key=lambda r: r[4] / r[6])
    cpu = max(rows, key=lambda r: r[5] / r[7])
    print(f"worst by CPU time: {cpu[5] / cpu[7]:.2f}x ({cpu[0]}, {cpu[1]})")
    print(f"post image: worst {worst[4] / worst[6]:.2f} x a bare encode ({worst[0]}, {worst[1]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

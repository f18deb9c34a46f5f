"""The order path against its floor: a chat message from in to its reply queued (the durable
commit included), through the chat service, next to a bare SQLite insert+commit with the same
journal_mode (WAL) and synchronous (FULL), measured side by side in one run.

"Queued" is what `pbem serve` does with the reply: `ChatService.handle` returns it to the platform
adapter, which sends it at once (the order's transaction has committed by then, and a message
delivered again is answered again from the rows it wrote). The outbox takes a reply only when
its direct send fails; the row "reply written to the outbox as well" times that second
transaction too.

    python bench/bench_order_path.py [--seed N] [--games N] [--bare N] [--dir DIR]

Whole Hell's Gate games are played as bench_chat.py plays them (`new`, two joins, `start`, then
random legal orders by the side to move until the game ends), once with images off and once
with them on: with images on, a phase end queues its post with a render spec (the map is drawn
by the outbox sender when it is sent, off the message path), so the reply's latency should not
change. The bare commits are measured before and after the games (half each) so that a drift of
the machine touches both. Prints a table, then the one line the issue's figure is read from:

    order path: median M ms (R x bare commit), p99 P ms (Q x bare p99)

(every message, images off). Not part of the test run.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_chat import bench_sqlite, p99, play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=3, help="whole games per configuration")
    parser.add_argument("--bare", type=int, default=2000, help="bare SQLite commits")
    parser.add_argument("--dir", help="where the databases go (default: a temporary directory)")
    args = parser.parse_args(argv)
    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-order-") if own else args.dir)
    try:
        play(directory / "warm-up", args.seed + 1, 1, images=False)  # imports and caches
        bare = bench_sqlite(directory / "bare-1.db", args.bare // 2)
        text = play(directory / "text", args.seed, args.games, images=False)
        maps = play(directory / "maps", args.seed, args.games, images=True)
        bare += bench_sqlite(directory / "bare-2.db", args.bare - args.bare // 2)
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    base, base99 = statistics.median(bare) * 1000, p99(bare) * 1000
    print(f"{text.games} games, {text.orders} orders each way, seed {args.seed}; "
          "SQLite WAL, synchronous=FULL")  # fmt: skip
    head = f"{'':<52}{'n':>6}{'median ms':>11}{'p99 ms':>9}{'x bare':>8}{'p99 x bare':>12}"
    print(head)
    print("-" * len(head))
    rows = [
        ("bare SQLite INSERT + COMMIT", bare),
        ("message -> reply queued, images off", text.pick(False)),
        ("  phase-ending messages, images off", text.pick(True)),
        ("message -> reply queued, images on (spec queued)", maps.pick(False)),
        ("  phase-ending messages, images on", maps.pick(True)),
        ("reply written to the outbox as well, images off", text.pick(False, queued=True)),
    ]
    for label, values in rows:
        med, top = statistics.median(values) * 1000, p99(values) * 1000
        print(f"{label:<52}{len(values):>6}{med:>11.2f}{top:>9.2f}"
              f"{med / base:>8.1f}{top / base99:>12.1f}")  # fmt: skip
    med, top = statistics.median(text.times) * 1000, p99(text.times) * 1000
    print(
        f"order path: median {med:.2f} ms ({med / base:.1f} x bare commit), "
        f"p99 {top:.2f} ms ({top / base99:.1f} x bare p99)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

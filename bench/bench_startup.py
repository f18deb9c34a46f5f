"""Startup: `pbem --help` next to a bare `python -c pass`, and `pbem demo` next to the rules alone
playing the same game, each in a fresh process of the same interpreter, measured side by side
(interleaved) in one run.

    python bench/bench_startup.py [--repeat N] [--seed N] [--game SYSTEM]

`pbem demo` is timed as a player runs it: no --db, so it plays in memory (its own default, an
in-memory SQLite store; a file would add a durable commit per order that the demo never pays).
The rules alone: a fresh process that imports the game system, binds its default scenario and
plays the demo's orders (their texts, by the same sides, with the dice the demo drew), with no
store, no chain and no service: what the demo's game costs without them. Its orders are read
from a first demo game, once, before the timing (that one is written to a file, to read its
log back; it is not timed). Each command's CPU time (user + system of the child, from
getrusage) is printed beside its wall time. Prints the medians and the ratios; the last
line:

    startup: --help H ms (R x python -c pass), demo D ms (Q x the rules alone)

Measured on the shared 2-core machine, `--repeat 5`, one run (medians; CPU beside wall):
`python -c pass` 39.7 ms (CPU 34.8), `pbem --help` 101.4 ms (CPU 96.2), the rules alone 320.5 ms
(CPU 305.1), `pbem demo` in memory 2165 ms (CPU 2145): `startup: --help 101 ms (2.6 x python -c
pass), demo 2165 ms (6.8 x the rules alone)`, 7.0 x in CPU. (A run of 3 minutes earlier, the
machine busier: demo 3404 ms, 12.0 x; 9.5 x in CPU. The CPU ratio is the steadier figure.) The
goal of issue 28 is 1.5 x.

Not part of the test run.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pbem() -> list[str]:
    exe = shutil.which("pbem", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "bots.cli_main"]


def _timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def record(seed: int, game: str, directory: Path) -> Path:
    """The demo's game as a file of (actor, text, drawn dice) for the rules-alone player."""
    sys.path.insert(0, str(ROOT))
    from storage import Store

    db = directory / "record.db"
    subprocess.run(
        [*_pbem(), "demo", "--seed", str(seed), "--game", game, "--db", str(db)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    store = Store(str(db))
    name = store.list_games()[0].name
    system_id, text = store.system_and_scenario(name)
    rows = [r.to_dict() | {"secret": r.secret} for r in store.log(name)]
    store.close()
    from app.fold import drawn

    orders = [
        {"actor": r["actor"], "text": r["text"], "dice": drawn(r["payload"].get("rolls", []),
                                                               r["secret"])}
        for r in rows
        if r["kind"] == "order"
    ]  # fmt: skip
    path = directory / "orders.json"
    path.write_text(json.dumps({"system": system_id, "scenario": text, "orders": orders}))
    return path


def rules_alone(path: str) -> None:
    """Play the recorded orders through the rules alone (run in a fresh process)."""
    sys.path.insert(0, str(ROOT))
    from adjudicator.core import registry
    from adjudicator.core.dice import FixedDice

    doc = json.loads(Path(path).read_text())
    system = registry.get(doc["system"]).load(doc["scenario"], "scenario")
    state = system.initial(False, FixedDice([])).state
    for o in doc["orders"]:
        order = system.grammar.parse(o["text"])
        state = system.apply(state, o["actor"], order, FixedDice(o["dice"])).state
    assert system.situation(state).over


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", default="hells-gate")
    parser.add_argument("--rules-alone", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rules_alone:
        rules_alone(args.rules_alone)
        return 0
    times: dict[str, list[float]] = {"pass": [], "help": [], "demo": [], "rules": []}
    cpus: dict[str, list[float]] = {key: [] for key in times}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        orders = record(args.seed, args.game, Path(tmp))
        here = str(Path(__file__).resolve())
        demo = [*_pbem(), "demo", "--seed", str(args.seed), "--game", args.game]  # in memory
        commands = {
            "pass": [sys.executable, "-c", "pass"],
            "help": [*_pbem(), "--help"],
            "demo": demo,
            "rules": [sys.executable, here, "--rules-alone", str(orders)],
        }
        for _ in range(args.repeat):
            for key, cmd in commands.items():
                wall, cpu = _timed(cmd)
                times[key].append(wall)
                cpus[key].append(cpu)
    med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    cpu = {k: statistics.median(v) * 1000 for k, v in cpus.items()}
    print(f"{args.repeat} runs each, interleaved; {args.game}, seed {args.seed}")
    for label, key in (
        ("python -c pass", "pass"),
        ("pbem --help", "help"),
        ("rules alone playing the demo's game", "rules"),
        ("pbem demo", "demo"),
    ):
        print(f"{label:<40}{med[key]:>10.1f} ms   (min {min(times[key]) * 1000:.1f}), "
              f"CPU {cpu[key]:.1f} ms")  # fmt: skip
    print(f"demo / rules alone in CPU: {cpu['demo'] / cpu['rules']:.1f} x")
    print(
        f"startup: --help {med['help']:.0f} ms ({med['help'] / med['pass']:.1f} x python -c pass),"
        f" demo {med['demo']:.0f} ms ({med['demo'] / med['rules']:.1f} x the rules alone)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

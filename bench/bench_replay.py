"""Audit and replay against the rules alone, side by side in one run.

    python bench/bench_replay.py [--games N] [--seed N] [--dir DIR]

N finished demo games (Hell's Gate, seeds seed..seed+N-1) in one SQLite database (not timed).
Then, for each game, in this process: the rules alone replaying its orders (grammar + apply with
the recorded dice: no store, no chain, no hashing) and the whole audit of the stored game
(`app.audit.audit_game`: the chain, the commitments, the replay with every recorded state hash
checked, the tables); and, in a fresh process, `pbem replay --all` over the database (the games
replayed in parallel, one process per core), next to the rules-alone time divided by the cores.
Every figure compared is CPU time (this process's for the rules and the audit; the fresh process's
and its workers' for `replay --all`), so that another load on the machine does not count; the
wall-clock time of `replay --all` is shown beside, and the CPU time of its start alone (the
same command over a database without games: the interpreter and the store's imports, not the
rules') with what is left for the games. Prints the table and the last line:

    replay: audit A ms per game (R x the rules alone), replay --all W s (Q x the rules alone / C cores)

where W is the CPU time of `replay --all` per core (its processes' CPU time divided by the C
cores) and Q = W / (the rules alone's CPU time for every game / C): its CPU per game against the
rules alone's.

Not part of the test run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from adjudicator.core.dice import FixedDice
from app import audit, fold, games
from bots.demo import run_demo
from storage import Store


def rules_alone(store: Store, name: str) -> float:
    """Seconds the rules alone take to replay the game's orders (the bound system cached)."""
    system = games.system_of(store, name)
    rows = fold.with_secrets(store.log(name))
    orders = [
        (r["actor"], r["text"], fold.drawn(r["payload"].get("rolls", []), r.get("secret")))
        for r in fold.effective_orders(rows)
    ]
    start = time.process_time()
    state = system.initial(False, FixedDice([])).state
    for actor, text, dice in orders:
        state = system.apply(state, actor, system.grammar.parse(text), FixedDice(dice)).state
    took = time.process_time() - start
    assert system.situation(state).over
    return took


def audited(store: Store, name: str) -> float:
    start = time.process_time()
    ok, text, _ = audit.audit_game(store, name)
    took = time.process_time() - start
    if not ok:
        raise RuntimeError(text)
    return took


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _replay_all(db: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of `pbem replay --all` over `db` in a fresh process."""
    exe = shutil.which("pbem", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "bots.cli_main"]
    before = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        [*cmd, "replay", "--all", "--db", str(db)], check=False, capture_output=True
    )
    wall = time.perf_counter() - start
    cpu = _children_cpu() - before  # the process and its workers (each waited for)
    if done.returncode != 0:
        raise RuntimeError(done.stdout.decode() + done.stderr.decode())
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", help="where the database goes (default: a temporary directory)")
    args = parser.parse_args(argv)
    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-replay-") if own else args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    db = directory / "replay.db"
    cores = os.cpu_count() or 1
    try:
        store = Store(str(db))
        names = [
            run_demo(args.seed + i, store, write=lambda _line: None).name for i in range(args.games)
        ]
        for name in names[:1]:  # warm-up: imports, the bound scenario
            rules_alone(store, name), audited(store, name)
        rules, audits = [], []
        for name in names:
            rules.append(rules_alone(store, name))
            audits.append(audited(store, name))
        rows = sum(len(store.log(n)) for n in names)
        store.close()
        Store(str(directory / "empty.db")).close()
        wall, cpu = _replay_all(db)
        _, start = _replay_all(directory / "empty.db")  # the start alone: no game to replay
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    rule, aud = statistics.median(rules) * 1000, statistics.median(audits) * 1000
    alone = sum(rules)
    print(f"{args.games} finished Hell's Gate games, {rows} log rows; {cores} cores")
    print(f"{'rules alone, one game (median, CPU)':<44}{rule:>10.1f} ms")
    print(f"{'audit of one whole game (median, CPU)':<44}{aud:>10.1f} ms   {aud / rule:.2f} x")
    print(f"{'rules alone, every game, one core (CPU)':<44}{alone * 1000:>10.1f} ms")
    per_core = cpu / cores
    print(f"{'pbem replay --all (fresh process), wall':<44}{wall * 1000:>10.1f} ms")
    print(
        f"{'pbem replay --all, CPU per core':<44}{per_core * 1000:>10.1f} ms   "
        f"{per_core / (alone / cores):.2f} x the rules alone / {cores} cores"
    )
    print(f"{'  of which its start (over no game), CPU':<44}{start * 1000:>10.1f} ms")
    games_part = (cpu - start) / cores
    print(
        f"{'  the rest (the games), CPU per core':<44}{games_part * 1000:>10.1f} ms   "
        f"{games_part / (alone / cores):.2f} x the rules alone / {cores} cores"
    )
    print(
        f"replay: audit {aud:.0f} ms per game ({aud / rule:.2f} x the rules alone), replay --all "
        f"{per_core:.2f} s ({per_core / (alone / cores):.2f} x the rules alone / {cores} cores)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

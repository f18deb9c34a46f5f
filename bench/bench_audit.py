"""`pbem audit` and `pbem replay --all` against the rules alone, side by side in one run.

    python bench/bench_audit.py [--games N] [--rounds R] [--seed S] [--systems A,B] [--dir DIR]
                                [--against CHECKOUT]

N finished demo games of each game system (default: all four; seeds S..S+N-1) in one SQLite
database
(not timed). Then, in a worker process, for each game and round, one after the other: the rules
alone replaying its orders (grammar + apply with the recorded dice, the state in memory: no store,
no chain, no hashing: as bench/bench_replay.py), the whole audit of the stored game
(`app.audit.audit_game`) and the stored replay `pbem replay NAME` runs (`app.stored_replay.verify`),
each in CPU time (process_time) and wall time; medians over the rounds. Then `pbem replay --all`
over the database in a fresh process (its pool of one process per core), its CPU time (its own and
its workers', from getrusage) against the rules-alone CPU time of every game: the ratio per core.

--against CHECKOUT measures a second source tree (another worktree, e.g. main) the same way in
the same run: its worker and this one take turns round by round on the same database, so both
see the same machine load. Ratios are of CPU time; wall time is printed beside it.

The last line:

    audit: A x the rules alone; replay --all: R x per core (N games)

Not part of the test run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent
SYSTEMS = ("hells-gate", "borodino", "northern-war", "stalins-war")
MEASURED = ("rules", "audit", "replay")


def _clocks() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


# -- the worker: runs in a process whose sys.path starts with the measured source tree
def _worker(db: str) -> int:
    from adjudicator.core.dice import FixedDice
    from app import audit, edits, fold, games, stored_replay
    from storage import Store

    store = Store(db, migrate_schema=False)
    names = [g.name for g in store.list_games()]

    def rules_alone(name: str) -> tuple[float, float]:
        """The rules alone (bench/bench_replay.py's definition): the orders, read beforehand."""
        system = games.system_of(store, name)
        rows = fold.with_secrets(store.log(name))
        orders = [
            (
                r["actor"],
                str(edits.opened_text(r)),  # a finished game: every text opened
                fold.drawn(r["payload"].get("rolls", []), r.get("secret")),
            )
            for r in fold.effective_orders(rows)
        ]
        cpu, wall = _clocks()
        state = fold.setup(system, rows).state
        for actor, text, dice in orders:
            state = system.apply(state, actor, system.grammar.parse(text), FixedDice(dice)).state
        cpu2, wall2 = _clocks()
        return cpu2 - cpu, wall2 - wall

    def audited(name: str) -> tuple[float, float]:
        cpu, wall = _clocks()
        ok, text, _ = audit.audit_game(store, name)
        cpu2, wall2 = _clocks()
        if not ok:
            raise RuntimeError(str(text))
        return cpu2 - cpu, wall2 - wall

    def replayed(name: str) -> tuple[float, float]:
        cpu, wall = _clocks()
        stored_replay.verify(store, name)
        cpu2, wall2 = _clocks()
        return cpu2 - cpu, wall2 - wall

    steps = {"rules": rules_alone, "audit": audited, "replay": replayed}
    for name in names:  # warm-up: imports, the bound scenarios
        for step in steps.values():
            step(name)
    print(json.dumps({"ready": str(Path(audit.__file__).resolve().parent.parent)}), flush=True)
    for line in sys.stdin:
        if line.strip() != "round":
            break
        got = {n: {k: step(n) for k, step in steps.items()} for n in names}
        print(json.dumps(got), flush=True)
    return 0


# -- the driver
def _env(code: Path) -> dict[str, str]:
    return os.environ | {"PYTHONPATH": str(code)}


def _start(code: Path, db: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, str(HERE), "--worker", str(db)],
        cwd=code,
        env=_env(code),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    ready = json.loads(proc.stdout.readline())["ready"]
    if Path(ready) != code.resolve():
        raise RuntimeError(f"the worker for {code} imported the code of {ready}")
    return proc


def _round(proc: subprocess.Popen[str]) -> dict[str, dict[str, list[float]]]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("round\n")
    proc.stdin.flush()
    result: dict[str, dict[str, list[float]]] = json.loads(proc.stdout.readline())
    return result


def _replay_all(code: Path, db: Path) -> tuple[float, float]:
    """(CPU seconds of `pbem replay --all` and its workers, wall seconds), a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from bots.cli_main import entry; sys.exit(entry())",
            "replay",
            "--all",
            "--db",
            str(db),
        ],
        cwd=code,
        env=_env(code),
        check=False,
        capture_output=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(done.stdout.decode() + done.stderr.decode())
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _make_games(db: Path, systems: list[str], per_system: int, seed: int) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from bots.demo import run_demo
    from storage import Store

    store = Store(str(db))
    names = []
    for system in systems:
        for i in range(per_system):
            name = f"{system}-{seed + i}"
            run_demo(seed + i, store, name=name, write=lambda _l: None, system=system)
            names.append(name)
    store.close()
    return names


def _medians(rounds: list[dict[str, dict[str, list[float]]]]) -> dict[str, dict[str, list[float]]]:
    """game -> measure -> [median CPU, median wall] over the rounds."""
    names = rounds[0].keys()
    return {
        n: {k: [statistics.median(r[n][k][i] for r in rounds) for i in (0, 1)] for k in MEASURED}
        for n in names
    }


def _report(
    label: str, med: dict[str, dict[str, list[float]]], replay_all: tuple[float, float], cores: int
) -> tuple[float, float]:
    print(f"\n{label}")
    print(
        f"{'system':<14}{'games':>6}{'rules alone ms':>16}{'audit ms':>18}{'replay ms':>18}"
        "   (CPU, wall; x = CPU / rules alone CPU)"
    )
    total = {k: [0.0, 0.0] for k in MEASURED}
    for system in SYSTEMS:
        mine = [m for n, m in med.items() if n.startswith(system + "-")]
        if not mine:
            continue
        s = {k: [sum(m[k][i] for m in mine) * 1000 for i in (0, 1)] for k in MEASURED}
        for k in MEASURED:
            total[k][0] += s[k][0]
            total[k][1] += s[k][1]
        r = s["rules"][0]
        print(
            f"{system:<14}{len(mine):>6}{s['rules'][0]:>9.1f}/{s['rules'][1]:<6.1f}"
            f"{s['audit'][0]:>9.1f} {s['audit'][0] / r:>5.2f}x "
            f"{s['replay'][0]:>9.1f} {s['replay'][0] / r:>5.2f}x"
        )
    r = total["rules"][0]
    a, p = total["audit"][0] / r, total["replay"][0] / r
    print(
        f"{'every game':<14}{len(med):>6}{r:>9.1f}/{total['rules'][1]:<6.1f}"
        f"{total['audit'][0]:>9.1f} {a:>5.2f}x {total['replay'][0]:>9.1f} {p:>5.2f}x   "
        f"(wall: audit {total['audit'][1] / total['rules'][1]:.2f}x)"
    )
    cpu, wall = replay_all
    q = cpu * 1000 / r
    print(
        f"pbem replay --all (fresh process, {cores} cores): CPU {cpu * 1000:.0f} ms = {q:.2f} x "
        f"the rules alone; wall {wall * 1000:.0f} ms = "
        f"{wall * 1000 / (total['rules'][1] / cores):.2f} x the rules alone / {cores} cores"
    )
    return a, q


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games of each system")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", help="where the database goes (default: a temporary directory)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated")
    parser.add_argument("--against", help="a second source tree measured alike (e.g. main)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return _worker(args.worker)
    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-audit-") if own else args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    db = directory / "audit.db"
    cores = os.cpu_count() or 1
    trees = [("this tree", ROOT)]
    if args.against:
        trees.append((f"against {args.against}", Path(args.against).resolve()))
    try:
        names = _make_games(db, args.systems.split(","), args.games, args.seed)
        procs = [_start(code, db) for _, code in trees]
        rounds: list[list[dict[str, dict[str, list[float]]]]] = [[] for _ in trees]
        for _ in range(args.rounds):
            for i, proc in enumerate(procs):
                rounds[i].append(_round(proc))
        for proc in procs:
            proc.communicate("")
        alls = [[_replay_all(code, db) for _, code in trees] for _ in range(3)]
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    print(
        f"{len(names)} finished demo games ({args.games} of each of {args.systems}), "
        f"{args.rounds} rounds,"
        f" medians; {cores} cores"
    )
    results = []
    for i, (label, _) in enumerate(trees):
        every = [a[i] for a in alls]
        replay_all = (
            statistics.median(c for c, _ in every),
            statistics.median(w for _, w in every),
        )
        results.append(_report(label, _medians(rounds[i]), replay_all, cores))
    for (label, _), (a, q) in reversed(list(zip(trees, results, strict=True))):
        if len(trees) > 1 and label != trees[0][0]:
            print(f"{label}: ", end="")
        print(
            f"audit: {a:.2f} x the rules alone; replay --all: {q:.2f} x per core "
            f"({len(names)} games)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

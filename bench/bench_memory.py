"""Memory: `pbem serve` over a database of many games next to `pbem serve` over an empty one,
measured side by side in one run.

    python bench/bench_memory.py [--games N] [--dir DIR]

N Hell's Gate games (one made with GameService.new_game, its rows copied in bulk) in one SQLite
file; then `pbem serve` (no tokens: the terminal front end) is started on the empty database and
on the full one, in turn; once it answers a first line (`help`) its resident set (VmRSS, VmHWM from /proc) is
read, and its standard input closed (it exits). Then the same with N games in progress, their
deadlines armed and the heartbeat an hour back (bench/bench_restart.py's database, built once and
kept): read once it answers, and its peak again once its catch-up (moving every deadline for the
outage) is over. Last lines:

    memory: serve R MB with N games, E MB empty (Q x)
    memory in progress: serve R MB with N games in progress, E MB empty (Q x); peak P x empty

Measured on the shared 2-core machine, 10,000 games: empty 72 MB, 10,000 unstarted 80 MB
(1.11 x), 10,000 in progress 78 MB at the first answer (1.08 x, after 0.7 s; empty 0.6 s), peak
92.3 MB once the catch-up moved every deadline (1.28 x). The chain check's round goes on after
that, about 0.7 KB per game verified: 101 MB (1.40 x) a minute later.

Not part of the test run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.service import GameService
from storage import Store


def make(db: Path, n: int) -> None:
    """n unstarted games: one made through GameService, its rows copied in bulk (in SQL, as
    bench_restart.py copies its games in progress)."""
    store = Store(str(db))
    if n:
        GameService(store).new_game("g00000")
    store.close()
    if n > 1:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_restart as restart

        with sqlite3.connect(db) as conn:
            restart.copy_games(conn, "g00000", n - 1)


def _status(pid: int) -> dict[str, int]:
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])  # kB
    return out


def serve_memory(db: Path, workdir: Path) -> tuple[dict[str, int], float]:
    """(VmRSS and VmHWM in kB once `pbem serve` answered its first line, seconds to answer)."""
    exe = shutil.which("pbem", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-c", "from bots.cli_main import main; main()"]
    env = os.environ | {"PBEM_DB": str(db), "PBEM_HEALTH_PORT": "0"}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [*cmd, "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=workdir,
        env=env,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("help\n")
    proc.stdin.flush()
    proc.stdout.readline()  # its first answer: started, every game loaded
    took = time.perf_counter() - start
    mem = _status(proc.pid)
    proc.stdin.close()
    proc.stdout.read()
    proc.wait(timeout=120)
    return mem, took


def in_progress(n: int, directory: Path) -> tuple[dict[str, int], float, int]:
    """(VmRSS and VmHWM once serve answered, seconds to answer, VmHWM once caught up) over n
    games in progress with armed deadlines, the heartbeat an hour back."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_restart as restart

    db = directory / "progress.db"
    restart.prepare(restart.cached_db(n), db, datetime.now(UTC))
    serve = restart.Serve(db, directory)
    took = serve.first_answer()
    mem = _status(serve.proc.pid)
    serve.wait_for(lambda: serve.done is not None)
    peak = _status(serve.proc.pid)["VmHWM"] if serve.proc.poll() is None else mem["VmHWM"]
    serve.end()
    return mem, took, peak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--dir", help="where the databases go (default: a temporary directory)")
    parser.add_argument("--no-progress", action="store_true", help="skip the in-progress case")
    args = parser.parse_args(argv)
    own = args.dir is None
    directory = Path(tempfile.mkdtemp(prefix="bench-memory-") if own else args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    try:
        empty, full = directory / "empty.db", directory / "full.db"
        make(empty, 0)
        t0 = time.perf_counter()
        make(full, args.games)
        made = time.perf_counter() - t0
        e_mem, e_took = serve_memory(empty, directory)
        f_mem, f_took = serve_memory(full, directory)
        p_mem = None if args.no_progress else in_progress(args.games, directory)
    finally:
        if own:
            shutil.rmtree(directory, ignore_errors=True)
    print(f"{args.games} games made in {made:.0f} s")
    for label, mem, took in (
        ("empty database", e_mem, e_took),
        (f"{args.games} games", f_mem, f_took),
    ):
        print(f"pbem serve, {label:<16} RSS {mem['VmRSS'] / 1024:7.1f} MB, peak "
              f"{mem['VmHWM'] / 1024:7.1f} MB, first answer after {took:.1f} s")  # fmt: skip
    ratio = f_mem["VmRSS"] / e_mem["VmRSS"]
    print(
        f"memory: serve {f_mem['VmRSS'] / 1024:.0f} MB with {args.games} games, "
        f"{e_mem['VmRSS'] / 1024:.0f} MB empty ({ratio:.2f} x)"
    )
    if p_mem is not None:
        mem, took, peak = p_mem
        print(f"pbem serve, {args.games} in progress RSS {mem['VmRSS'] / 1024:7.1f} MB, peak "
              f"{peak / 1024:7.1f} MB after the catch-up, first answer after {took:.1f} s")  # fmt: skip
        print(
            f"memory in progress: serve {mem['VmRSS'] / 1024:.0f} MB with {args.games} games in "
            f"progress, {e_mem['VmRSS'] / 1024:.0f} MB empty "
            f"({mem['VmRSS'] / e_mem['VmRSS']:.2f} x); peak {peak / e_mem['VmHWM']:.2f} x empty"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The benchmarks' last lines keep the form the issues read their figures from (issue 28), and
the order path's baselines are paired message by message: run with tiny settings (the
benchmarks themselves, and their figures, are not part of the test run)."""

from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str):
    sys.path.insert(0, str(BENCH))  # the benches import bench_chat
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod  # (their dataclasses look their module up)
    spec.loader.exec_module(mod)
    return mod


def test_order_path_pairs_every_message_and_ends_with_its_line(tmp_path, capsys):
    mod = _load("bench_order_path")
    run = mod.play(tmp_path, "hells-gate", 1, 1, 3, images=False)
    assert len(run.bare) == len(run.times) == len(run.cpus) == 4 + 3  # one bare per message
    assert len(run.rules_cpus) == run.orders == 3  # the rules alone on the same orders
    mod.main(
        ["--games", "1", "--max-orders", "2", "--systems", "hells-gate", "--dir", str(tmp_path)]
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"order path: median [\d.]+ ms \([\d.]+ x bare commit\), p99 [\d.]+ ms "
        r"\([\d.]+ x bare p99\)",
        lines[-1],
    )
    assert any("CPU per order message" in line for line in lines)
    (beside,) = [line for line in lines if line.startswith("the opponent thinking beside")]
    assert re.fullmatch(
        r"the opponent thinking beside: \d+ decisions meanwhile \([\d.]+ s each, 1 worker "
        r"process at nice \+\d+\); median [\d.]+ ms \([\d.]+ x bare commit\), p99 [\d.]+ ms "
        r"\([\d.]+ x bare p99\)",
        beside,
    )


def test_load_ends_with_its_line_and_a_median_based_bare_rate(tmp_path, capsys):
    mod = _load("bench_load")
    mod.main(["--games", "2", "--seconds", "0.3", "--bare", "20", "--dir", str(tmp_path)])
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"load: \d+ orders/s \([\d.]+ % of the bare commit rate\) for 0.3 s over 2 games, "
        r"p99 [\d.]+ ms \([\d.]+ x bare p99\), lost 0",
        lines[-1],
    )
    assert "1 / median" in lines[1]


def test_render_times_posts_and_a_late_map_and_ends_with_its_line(capsys):
    mod = _load("bench_render")
    posts = _load("render_posts")
    args = type("Args", (), {"seed": 3, "pairs": 1, "move_on": 2})()
    rows: list = []
    with tempfile.TemporaryDirectory() as tmp:
        posts.bench_system("borodino", args, rows, Path(tmp))
    cases = [r[1] for r in rows]
    assert cases == [
        "post, at once",
        "post, moved on",
        "map, late",
        "map full, late",
        "post, restart",
    ]
    assert all(r[2] > 0 and r[4] > 0 for r in rows)  # the draw and its bare encode, timed
    capsys.readouterr()
    mod.main(["--repeat", "1", "--systems", "borodino", "--pairs", "1", "--move-on", "1"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert "before (a replay of the log)" in "\n".join(lines)
    assert re.fullmatch(r"render: worst [\d.]+ x a bare encode \(borodino, [a-z ,]+\)", lines[-1])

"""bench/bench_ai.py keeps the last line the docs read its figures from, with tiny settings (the
bench itself, and its figures, are not part of the test run)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_the_ai_bench_ends_with_its_line_and_prints_its_settings(capsys):
    spec = importlib.util.spec_from_file_location("bench_ai", BENCH / "bench_ai.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_ai"] = mod  # (its dataclasses look their module up)
    spec.loader.exec_module(mod)
    mod.main(["--games", "1", "--budget", "30", "--jobs", "1"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"ai: hells-gate [\d.]+ % vs random, [\d.]+ % vs easy; "
        r"northern-war [\d.]+ % vs random, [\d.]+ % vs easy; 1 games per pairing",
        lines[-1],
    )
    assert lines[0].startswith("normal's budget: 30 evaluations a decision; 1 games")
    assert any(line.startswith("move cap: 3000 orders") for line in lines)
    sides = [line for line in lines if ": normal vs " in line]
    assert len(sides) == 8  # 2 systems x 2 sides x (random, easy)
    assert mod.wilson(20, 40) == mod.wilson(20.0, 40)
    low, high = mod.wilson(40, 40)
    assert high == 1.0 and 0.9 < low < 0.92  # Wilson: 40 of 40 is not certainty

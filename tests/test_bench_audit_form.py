"""bench/bench_audit.py ends with the line its figures are read from, the audit and the stored
replay measured beside the rules alone in the same run (tiny settings: the benchmark and its
figures are not part of the test run)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_audit.py"


def test_audit_bench_pairs_the_rules_alone_and_ends_with_its_line(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("bench_audit", BENCH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bench_audit"] = mod
    spec.loader.exec_module(mod)
    args = ["--games", "1", "--rounds", "1", "--systems", "borodino", "--dir", str(tmp_path)]
    assert mod.main(args) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(
        r"audit: [\d.]+ x the rules alone; replay --all: [\d.]+ x per core \(1 games\)", lines[-1]
    )
    assert any(line.startswith("borodino ") and line.count("x") >= 2 for line in lines)
    assert any(line.startswith("pbem replay --all (fresh process") for line in lines)

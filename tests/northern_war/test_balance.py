"""The sample scenario's balance under random play (issue 26), a short run of
bench/bench_balance.py (the bench plays 200 games; the docs give its numbers): both sides win
games, and the bench's last line has its fixed form."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from adjudicator.core.dice import HashDice
from adjudicator.core.system import start
from tests.northern_war.helpers import sample

_SPEC = importlib.util.spec_from_file_location(
    "bench_balance", Path(__file__).resolve().parents[2] / "bench/bench_balance.py"
)
assert _SPEC is not None and _SPEC.loader is not None
bench = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = bench  # (its dataclass looks its module up)
_SPEC.loader.exec_module(bench)

GAMES = 40
LAST = re.compile(
    r"balance: sweden (\d+\.\d) %, coalition (\d+\.\d) %, draw (\d+\.\d) % over (\d+) games"
)


def test_n15_random_play_of_the_sample_gives_each_side_some_wins():
    b = bench.balance(GAMES)
    assert sum(b.results.values()) == GAMES and set(b.results) <= {"sweden", "coalition", "draw"}
    for side in ("sweden", "coalition"):
        assert b.results[side] >= GAMES // 5, (side, dict(b.results))  # 20 %: the bench's 200
        # games give each side 30-70 % of the decided ones


def test_n15_the_sample_has_an_odd_number_of_victory_territories_so_no_draw():
    sc = sample().scenario
    assert len(sc.victory) % 2 == 1 and len(set(sc.victory)) == len(sc.victory)
    state = start(sample(), False, HashDice(0), None).state
    held = [state.control[v] for v in sc.victory]
    assert held.count("sweden") == 4 and held.count("coalition") == 5  # the start, as documented


def test_the_bench_prints_its_shares_on_the_last_line_in_the_fixed_form(capsys):
    assert bench.main(["--games", "4"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    found = LAST.fullmatch(lines[-1])
    assert found, lines[-1]
    s, c, d, n = (float(x) for x in found.groups())
    assert n == 4 and abs(s + c + d - 100.0) < 0.2


def test_the_bench_is_deterministic_and_its_line_says_the_counts():
    a, b = bench.balance(6), bench.balance(6)
    assert a.results == b.results and a.orders == b.orders
    line = a.last_line()
    assert line == (
        f"balance: sweden {100 * a.results['sweden'] / 6:.1f} %, "
        f"coalition {100 * a.results['coalition'] / 6:.1f} %, "
        f"draw {100 * a.results['draw'] / 6:.1f} % over 6 games"
    )

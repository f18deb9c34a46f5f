"""The case files of Hex duel (tests/cases/*.toml), played by the harness pbem ships
(contract.cases): each must hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from contract.cases import load, run_case

CASES = sorted((Path(__file__).parent / "cases").glob("*.toml"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    assert run_case("hexduel", load(path), path.parent) == []

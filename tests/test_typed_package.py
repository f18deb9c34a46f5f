"""The engine is shipped typed (PEP 561): a game system written outside the project is checked
by mypy against the GameSystem protocol, which needs `adjudicator/py.typed` in the package."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_engine_package_is_marked_typed_and_ships_the_marker():
    assert (ROOT / "adjudicator" / "py.typed").is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert "py.typed" in project["tool"]["setuptools"]["package-data"]["adjudicator"]

"""Reads scenario files from disk. The one module of the package that does I/O."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from adjudicator.hells_gate.scenario import Scenario, parse_scenario

DEFAULT_SCENARIO = "scenario.toml"


def default_scenario_text() -> str:
    return resources.files("adjudicator.hells_gate").joinpath(DEFAULT_SCENARIO).read_text("utf-8")


def load_scenario(path: str | Path | None = None) -> Scenario:
    if path is None:
        return parse_scenario(default_scenario_text(), "hells_gate/scenario.toml")
    p = Path(path)
    return parse_scenario(p.read_text("utf-8"), str(p))

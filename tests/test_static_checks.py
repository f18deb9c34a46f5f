"""The guards CI runs with the tests: `ruff check`, `ruff format --check`, and `mypy --strict`
on the rules (adjudicator/) and the application core (app/) with 0 errors (pyproject.toml
holds the settings). The import contracts are tests/test_layers.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_ruff_check_finds_nothing():
    done = run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format_changes_nothing():
    done = run("ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_on_the_rules_and_the_application_core():
    done = run("mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr
    assert "Success" in done.stdout

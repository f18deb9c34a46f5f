"""The guards CI runs with the tests: `ruff check`, `ruff format --check`, and `mypy --strict`
on the rules (adjudicator/) and the application core (app/) with 0 errors (pyproject.toml
holds the settings), and the formatting pragmas: no `# fmt: skip`, `# fmt: off` only around the
tables of data listed below. The import contracts are tests/test_layers.py and
tests/test_import_cycles.py."""

from __future__ import annotations

import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

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


def test_mypy_strict_on_every_package():
    done = run("mypy", "--no-incremental")
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr
    assert "Success" in done.stdout


# -- formatting is ruff's everywhere (issue 25): no `# fmt: skip`, and `# fmt: off` only around
# a table of data, in the files listed here. The 400-line limit (tests/test_layers.py) is counted
# on the formatted text, so neither may hide a module's length.
FORMATTED = ("app", "bots", "storage", "render", "texts", "contract", "adjudicator")
TABLES_OF_DATA: dict[str, str] = {}  # file -> the table its `# fmt: off` keeps aligned (none yet)
_SKIP = re.compile(r"fmt:\s*skip")
_OFF = re.compile(r"fmt:\s*off")


def _comments(path: Path) -> list[tuple[int, str]]:
    with path.open("rb") as f:
        return [
            (tok.start[0], tok.string)
            for tok in tokenize.tokenize(f.readline)
            if tok.type == tokenize.COMMENT
        ]


def _formatted_files() -> list[Path]:
    return [
        p
        for top in FORMATTED
        for p in sorted((ROOT / top).rglob("*.py"))
        if "__pycache__" not in p.parts
    ]


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("top", FORMATTED)
def test_no_fmt_skip_in_the_package(top):
    found = [
        f"{_rel(path)}:{line}"
        for path in _formatted_files()
        if _rel(path).startswith(f"{top}/")
        for line, text in _comments(path)
        if _SKIP.search(text)
    ]
    assert found == []


def test_fmt_off_only_around_the_tables_of_data():
    found = {
        _rel(path)
        for path in _formatted_files()
        if any(_OFF.search(text) for _, text in _comments(path))
    }
    assert found <= set(TABLES_OF_DATA), sorted(found - set(TABLES_OF_DATA))
    assert all((ROOT / name).exists() for name in TABLES_OF_DATA)


def test_the_format_checks_find_a_skip_and_an_off(tmp_path):
    """The comment scan sees both pragmas, and not the same words inside a string."""
    sample = tmp_path / "sample.py"
    sample.write_text('x = [1,  2]  # fmt: skip\n# fmt: off\ny = "# fmt: skip"\n', "utf-8")
    said = [text for _, text in _comments(sample)]
    assert [bool(_SKIP.search(s)) for s in said] == [True, False]
    assert [bool(_OFF.search(s)) for s in said] == [False, True]

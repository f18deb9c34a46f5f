"""A game system written outside the project (tests/outside/hexduel, the example of
docs/writing-a-game-system.md) installed in a throwaway venv: it passes the shipped contract with
the one documented command, `pbem contract hexduel`, and the project's tests that iterate the
installed systems pass with it installed.

Offline: the venv sees this interpreter's packages (pbem, pytest; --system-site-packages and a
.pth file naming this interpreter's site directories), and the example is installed by pip from
a wheel this test packs from its pyproject.toml (a build backend may not be importable here:
setuptools before 70.1 builds no wheel without the `wheel` package), with --no-deps --no-index.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "outside" / "hexduel"
SHIPPED = 8  # the shipped contract's tests for one system (contract/test_contract.py)


def pack_wheel(source: Path, out: Path) -> Path:
    """The wheel of a pure-Python project: its packages, their package data and its entry
    points, as its pyproject.toml declares them (what a build backend would pack)."""
    project = tomllib.loads((source / "pyproject.toml").read_text("utf-8"))
    meta, tool = project["project"], project["tool"]["setuptools"]
    name, version = meta["name"], meta["version"]
    info = f"{name}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for package in tool["packages"]:
        patterns = ["*.py", *tool.get("package-data", {}).get(package, [])]
        for pattern in patterns:
            for path in sorted((source / package).glob(pattern)):
                files[path.relative_to(source).as_posix()] = path.read_bytes()
    groups = meta.get("entry-points", {})
    entry_points = "".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()) + "\n"
        for group, points in groups.items()
    )
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    )
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = entry_points.encode()
    record = [f"{path},sha256={_digest(data)},{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,", ""]).encode()
    wheel = out / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, data in files.items():
            zf.writestr(path, data)
    return wheel


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def make_venv(where: Path) -> Path:
    """A venv that sees this interpreter's packages; its python."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(where)],
        check=True,
        timeout=120,
    )
    python = where / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    ours = [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
    lines = "".join(f"import site; site.addsitedir({p!r})\n" for p in ours)
    (Path(purelib) / "zz_outer_site.pth").write_text(lines, "utf-8")
    return python


def run(python: Path, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "PYTEST_"))}
    environ |= {"PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1", **env}
    return subprocess.run(
        [str(python), *args],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway venv with the example installed (pip, from the packed wheel)."""
    where = tmp_path_factory.mktemp("outside")
    python = make_venv(where / "venv")
    wheel = pack_wheel(EXAMPLE, where)
    done = run(python, "-m", "pip", "install", "--no-deps", "--no-index", str(wheel), cwd=where)
    assert done.returncode == 0, done.stdout + done.stderr
    return python


PBEM = str(
    Path(sysconfig.get_path("scripts")) / "pbem"
)  # the console script, for the venv's python


def test_the_outside_system_passes_the_shipped_contract_with_the_one_command(venv, tmp_path):
    listed = run(venv, PBEM, "contract", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert any(line.split()[:2] == ["hexduel", "driver"] for line in listed.stdout.splitlines())
    done = run(venv, PBEM, "contract", "hexduel", "-p", "no:xdist", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert f"{SHIPPED} passed" in done.stdout, done.stdout[-3000:]


def test_the_projects_tests_of_the_installed_systems_pass_with_it_installed(venv):
    # The shipped tests of the project's own systems play as they did without it (checked by
    # the project's run); with it installed they play the newcomer, and the rest run in full.
    done = run(
        venv,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "-o",
        "addopts=",
        "-v",
        "tests/contract",
        "tests/test_plugin_system.py",
        cwd=ROOT,
        PBEM_CONTRACT_SYSTEM="hexduel",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = [line for line in done.stdout.splitlines() if "[hexduel] PASSED" in line]
    assert len(ran) == SHIPPED, done.stdout[-3000:]
    assert "test_every_system_of_this_project_declares_a_driver PASSED" in done.stdout
    assert "test_pbem_games_lists_every_system_a_line_each PASSED" in done.stdout
    assert " failed" not in done.stdout.splitlines()[-1]


def test_the_outside_systems_case_files_hold_through_the_shipped_harness(venv, tmp_path):
    """The example's own tests (tests/test_cases.py over tests/cases/*.toml, with the harness
    pbem ships as contract.cases) pass where it is installed, as its author runs them."""
    done = run(venv, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", cwd=EXAMPLE)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    cases = len(list((EXAMPLE / "tests" / "cases").glob("*.toml")))
    assert cases >= 3 and f"{cases} passed" in done.stdout, done.stdout[-3000:]


def test_the_packed_wheel_holds_the_example_and_its_two_entry_points(tmp_path):
    with zipfile.ZipFile(pack_wheel(EXAMPLE, tmp_path)) as zf:
        names = set(zf.namelist())
        points = zf.read("hexduel-0.1.0.dist-info/entry_points.txt").decode()
    assert {"hexduel/system.py", "hexduel/contract.py", "hexduel/hexduel.toml"} <= names
    assert not any(n.startswith("tests/") for n in names)  # its tests are not shipped
    assert "[pbem.games]\nhexduel = hexduel.system:SYSTEM" in points
    assert "[pbem.contract]\nhexduel = hexduel.contract:DRIVER" in points


def test_the_page_for_authors_shows_every_file_of_the_example_as_it_is():
    """docs/writing-a-game-system.md cannot drift: its code blocks are the example's files."""
    page = (ROOT / "docs" / "writing-a-game-system.md").read_text("utf-8")
    blocks = re.findall(r"^```\w+ file=(\S+)\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)
    files = [path for path in map(example_file, EXAMPLE.rglob("*")) if path is not None]
    assert sorted(path for path, _ in blocks) == sorted(files)
    for path, text in blocks:
        assert text == (EXAMPLE / path).read_text("utf-8"), path


def example_file(path: Path) -> str | None:
    """A source file of the example, by its path in it (None: a directory, a cache, a build)."""
    parts = path.relative_to(EXAMPLE).parts
    junk = any(
        p.startswith((".", "__pycache__", "build")) or p.endswith(".egg-info") for p in parts
    )
    return None if junk or not path.is_file() else "/".join(parts)

"""The rules are pure: no module under adjudicator/ (except the loader, and each system's drawer,
the one part of a system that draws images) does I/O, nor any under texts/ (the texts players
read, below every layer: a catalogue is given to it, the platform reads the files).

DESIGN: "No database, network, files, clock or global random. A test walks the imports of the
rules code and fails on any I/O module." The walk reads each module's AST, so nothing is imported
or run; it finds `import x`, `from x import y`, `from x.y import z`, dynamic imports
(`__import__`, `importlib.import_module`) and calls of the `open` builtin.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator"
TEXTS = ROOT / "texts"
EXEMPT = {PACKAGE / "hells_gate" / "loader.py"}  # the one module that reads scenario files

# Modules whose import means I/O, a database, the network, the clock or global randomness.
FORBIDDEN = (
    "os",
    "sys",
    "io",
    "pathlib",
    "socket",
    "sqlite3",
    "sqlalchemy",
    "sqlmodel",
    "requests",
    "urllib",
    "http",
    "asyncio",
    "time",
    "datetime",
    "random",
    "secrets",
    "subprocess",
    "shutil",
    "tempfile",
    "logging",
    "threading",
    "importlib.resources",
    "telegram",
    "discord",
    "apscheduler",
    "PIL",
)
FORBIDDEN_CALLS = {"open", "__import__"}


def is_forbidden(module: str) -> str | None:
    """The forbidden entry that `module` is or lies under ("os.path" -> "os")."""
    for name in FORBIDDEN:
        if module == name or module.startswith(f"{name}."):
            return name
    return None


def violations(source: str, filename: str = "<module>") -> list[str]:
    """Every forbidden import or call in one module's source, as 'line: what'."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_forbidden(alias.name):
                    found.append(f"{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            bad = [n for n in names if is_forbidden(n)]
            if bad:
                found.append(
                    f"{node.lineno}: from {node.module} import "
                    f"{', '.join(a.name for a in node.names)}"
                )
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                found.append(f"{node.lineno}: {func.id}() call")
            elif isinstance(func, ast.Attribute) and func.attr == "import_module":
                found.append(f"{node.lineno}: import_module() call")
            elif (
                isinstance(func, ast.Attribute)
                and func.attr == "open"
                and isinstance(func.value, ast.Name)
                and func.value.id == "builtins"
            ):
                found.append(f"{node.lineno}: builtins.open() call")
    return found


def rules_modules() -> list[Path]:
    return sorted(
        p
        for package in (PACKAGE, TEXTS)
        for p in package.rglob("*.py")
        if p not in EXEMPT and "drawer" not in p.parts and p.name != "drawer.py"
    )


def test_the_walk_covers_the_rules_modules():
    """The check looks at the engine, the core, the grammar and the texts, and only exempts the
    loader."""
    names = {p.relative_to(ROOT).as_posix() for p in rules_modules()}
    for expected in (
        "adjudicator/hells_gate/sequence.py",
        "adjudicator/hells_gate/supply.py",
        "adjudicator/core/dice.py",
        "adjudicator/grammar/kit.py",
        "texts/i18n.py",
        "texts/text.py",
    ):
        assert expected in names
    assert "adjudicator/hells_gate/loader.py" not in names
    assert len(names) >= 20


@pytest.mark.parametrize("path", rules_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_rules_module_does_no_io(path):
    """DESIGN, Layers: "adjudicator/ - the rules, pure. ... No database, network, files, clock or
    global random.\""""
    assert violations(path.read_text("utf-8"), str(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "import time\n",
        "import os.path\n",
        "from datetime import datetime\n",
        "from importlib import resources\n",
        "from importlib.resources import files\n",
        "import random as r\n",
        "def f():\n    import sqlmodel\n",
        "from PIL import Image\n",
        "data = open('map.toml').read()\n",
        "mod = __import__('socket')\n",
        "import importlib\nm = importlib.import_module('json')\n",
    ],
)
def test_the_check_flags_a_synthetic_impure_module(source):
    """A module with `import time` (or any other I/O, clock or random import) is flagged."""
    assert violations(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "import hashlib\nfrom collections import deque\n",
        "from adjudicator.core.dice import HashDice\n",
        "import importlib\n",
        "from .time import clock\n",  # a relative module named time is the package's own
        "timeline = reopen = 1\nf = obj.read\n",
    ],
)
def test_the_check_passes_a_synthetic_pure_module(source):
    """Pure imports and look-alike names are not flagged."""
    assert violations(source) == []


def test_the_exempt_loader_really_does_io():
    """The loader is exempt because it reads files; the check would flag it."""
    assert violations((PACKAGE / "hells_gate" / "loader.py").read_text("utf-8"))

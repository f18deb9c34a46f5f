"""The opponent knows the core only: adjudicator/opponent/ imports nothing of the project but
adjudicator.core (and itself), never a game system, the application, the front ends or storage;
so it can only see what the GameSystem protocol gives it (the side's view). The walk reads each
module's AST, following the package's own imports transitively; then a fresh interpreter
imports it and no module of a system, app, bots or storage is loaded."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "adjudicator" / "opponent"
ALLOWED = ("adjudicator.core", "adjudicator.opponent")


def imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            assert node.module
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def module_path(name: str) -> Path | None:
    rel = Path(*name.split("."))
    for candidate in (ROOT / rel / "__init__.py", (ROOT / rel).with_suffix(".py")):
        if candidate.exists():
            return candidate
    return None


def walk() -> dict[str, set[str]]:
    """Every module reached from the package's own modules through the package: its imports."""
    todo = [p for p in sorted(PACKAGE.rglob("*.py"))]
    seen: dict[str, set[str]] = {}
    while todo:
        path = todo.pop()
        key = str(path.relative_to(ROOT))
        if key in seen:
            continue
        seen[key] = imported(path)
        for name in seen[key]:
            if name.startswith("adjudicator.opponent") and (found := module_path(name)):
                todo.append(found)
    return seen


def test_the_walk_finds_the_package_modules():
    assert {"adjudicator/opponent/__init__.py", "adjudicator/opponent/normal.py"} <= set(walk())


def test_the_opponent_imports_only_the_core_and_the_standard_library():
    bad = []
    for module, names in walk().items():
        for name in names:
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or name == "__future__" or top == "__future__":
                continue
            if not any(name == a or name.startswith(f"{a}.") for a in ALLOWED):
                bad.append(f"{module}: {name}")
    assert bad == []


def test_importing_the_opponent_loads_no_system_and_no_layer_above_the_rules():
    code = (
        "import sys; import adjudicator.opponent; "
        "print('\\n'.join(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('adjudicator', 'app', 'bots', 'storage', 'render'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded = done.stdout.split()
    assert "adjudicator.opponent" in loaded
    assert [m for m in loaded if not m.startswith(ALLOWED) and m != "adjudicator"] == []

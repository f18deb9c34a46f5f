"""No import cycle inside a package (issue 25, "Checks anyone can run").

The walk reads each module's AST (nothing is imported or run) and counts every import: at module
level and inside functions alike, since a function-level import is still a dependency, only one
that is hidden. An import under `if TYPE_CHECKING:` is not counted: it is never executed and only
names types. A cycle is reported by the modules it passes through, `a -> b -> a`."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The packages checked, by dotted name: every package of the project, the game systems included.
PACKAGES = (
    "app",
    "bots",
    "storage",
    "render",
    "texts",
    "contract",
    "adjudicator.core",
    "adjudicator.grammar",
    "adjudicator.opponent",
    "adjudicator.borodino",
    "adjudicator.hells_gate",
    "adjudicator.northern_war",
    "adjudicator.stalins_war",
)


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of `package` (its subpackages too) by dotted name."""
    base = root.joinpath(*package.split("."))
    found: dict[str, Path] = {}
    for path in sorted(base.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth, but for the body of an `if TYPE_CHECKING:`."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imported_modules(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of `known` that module `name` (at `path`) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            # `from pkg import mod` imports the module pkg.mod; `from mod import name` imports mod.
            targets = [
                f"{stem}.{a.name}" if f"{stem}.{a.name}" in known else stem for a in node.names
            ]
        found.update(t for t in targets if t in known)
    found.discard(name)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    names = module_names(root, package)
    known = set(names)
    return {name: imported_modules(name, path, known) for name, path in names.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle for each strongly connected group of modules (Tarjan), as a closed path."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_a_cycle_in(graph, group) for group in groups]


def _a_cycle_in(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest closed path from the group's first module back to itself (breadth first)."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & group):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start]
                if succ not in came_from:
                    came_from[succ] = node
                    following.append(succ)
        frontier = following
    raise AssertionError(f"no cycle in the group {sorted(group)}")


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle_inside_the_package(package):
    assert (ROOT.joinpath(*package.split(".")) / "__init__.py").exists(), package
    found = [" -> ".join(cycle) for cycle in cycles(import_graph(ROOT, package))]
    assert found == [], "\n".join(found)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")


def test_the_walker_finds_a_cycle_through_a_function_level_import(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "def f():\n    from pkg.b import g\n    return g\n",
            "pkg/b.py": "from . import a\n\ndef g():\n    return a\n",
        },
    )
    assert cycles(import_graph(tmp_path, "pkg")) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_the_walker_does_not_count_an_import_for_type_checking_only(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg import b\n",
            "pkg/b.py": (
                "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from pkg.a import X\n"
            ),
        },
    )
    assert import_graph(tmp_path, "pkg")["pkg.b"] == set()
    assert cycles(import_graph(tmp_path, "pkg")) == []


def test_the_walker_names_a_longer_cycle_in_a_subpackage(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/x.py": "from ..y import thing\n",
            "pkg/y.py": "import pkg.z\n",
            "pkg/z.py": "from pkg.sub import x\n",
        },
    )
    assert cycles(import_graph(tmp_path, "pkg")) == [["pkg.sub.x", "pkg.y", "pkg.z", "pkg.sub.x"]]

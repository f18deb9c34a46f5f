"""The layers and their boundaries (README, Architecture): imports point one way, a game system
lives in its own package, and no source module grows past 400 lines.

    contract (the shipped contract suite) -> bots -> app (the application core)
                                                  -> game systems and storage
    a system's rules -> adjudicator/core;  a system's drawer -> render
    every layer -> texts (the texts' leaf modules: texts.i18n, texts.text), which imports none
    render/, storage/, adjudicator/core/ and the grammar kit know no game system
    the built-in opponent (adjudicator/opponent/) is no system: it knows the core only
    the contract suite imports no game system, and only tests import it

The walk reads each module's AST (nothing is imported or run)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("adjudicator", "app", "bots", "render", "storage", "texts", "contract")
PLATFORM = ("core", "grammar", "opponent")  # the packages of adjudicator/ that are no system
SYSTEMS = sorted(
    p.name
    for p in (ROOT / "adjudicator").iterdir()
    if p.is_dir() and (p / "__init__.py").exists() and p.name not in PLATFORM
)
MAX_LINES = 400


def modules(*tops: str) -> list[Path]:
    found = []
    for top in tops:
        found += [
            p
            for p in sorted((ROOT / top).rglob("*.py"))
            if "migrations" not in p.parts and "__pycache__" not in p.parts
        ]
    return found


def system_of(path: Path) -> str | None:
    """The game system whose package holds this module (None: a platform module)."""
    rel = path.relative_to(ROOT).parts
    return rel[1] if rel[0] == "adjudicator" and len(rel) > 2 and rel[1] in SYSTEMS else None


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return found


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_there_is_a_game_system_to_check():
    assert "hells_gate" in SYSTEMS


@pytest.mark.parametrize("path", modules(*LAYERS), ids=rel)
def test_no_source_module_is_over_400_lines(path):
    assert path.read_text("utf-8").count("\n") <= MAX_LINES


@pytest.mark.parametrize("path", [p for p in modules(*LAYERS) if system_of(p) is None], ids=rel)
def test_outside_a_system_nothing_imports_a_system(path):
    bad = [
        f"{line}: {name}"
        for line, name in imports(path)
        if any(name == f"adjudicator.{s}" or name.startswith(f"adjudicator.{s}.") for s in SYSTEMS)
    ]
    assert bad == []


@pytest.mark.parametrize("path", [p for p in modules(*LAYERS) if system_of(p) is None], ids=rel)
def test_outside_hells_gate_no_module_names_its_sides(path):
    """No "soviet" or "german" literal outside Hell's Gate's package (its sides are its own)."""
    text = path.read_text("utf-8").lower()
    assert "soviet" not in text and "german" not in text


# The texts' leaf modules (texts.i18n, texts.text: pure, the lowest layer): every layer may say
# texts in more than one language with them; render/ and storage/ take them from there, not
# through the core (adjudicator.core.i18n and .text only re-export them for the layers above).
def _layer_imports(path: Path, forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{line}: {name}"
        for line, name in imports(path)
        if any(name == f or name.startswith(f"{f}.") for f in forbidden)
    ]


@pytest.mark.parametrize("path", modules("texts"), ids=rel)
def test_the_texts_package_imports_nothing_of_the_project(path):
    assert _layer_imports(path, ("adjudicator", "app", "bots", "render", "storage")) == []


def test_the_core_keeps_the_texts_names_as_re_exports():
    from adjudicator.core import i18n, text
    from texts import i18n as leaf
    from texts import text as leaf_text

    assert i18n.Msg is leaf.Msg and i18n.t is leaf.t and text.plural is leaf_text.plural
    assert set(i18n.__all__) == set(leaf.__all__) and set(text.__all__) == set(leaf_text.__all__)


@pytest.mark.parametrize("path", modules("render"), ids=rel)
def test_the_render_toolkit_imports_nothing_of_the_games_or_the_layers_above(path):
    assert _layer_imports(path, ("adjudicator", "app", "bots", "storage")) == []


@pytest.mark.parametrize("path", modules("storage"), ids=rel)
def test_storage_imports_nothing_above_it(path):
    assert _layer_imports(path, ("adjudicator", "app", "bots", "render")) == []


@pytest.mark.parametrize("path", modules("app"), ids=rel)
def test_the_application_core_imports_no_front_end_and_no_renderer(path):
    assert _layer_imports(path, ("bots", "render", "PIL")) == []


@pytest.mark.parametrize("path", modules("adjudicator/core", "adjudicator/grammar"), ids=rel)
def test_the_core_and_the_grammar_kit_import_nothing_above_them(path):
    assert _layer_imports(path, ("app", "bots", "render", "storage", "PIL")) == []


@pytest.mark.parametrize(
    "path",
    [
        p
        for p in modules("adjudicator")
        if system_of(p) and "drawer" not in p.parts and p.name != "drawer.py"
    ],
    ids=rel,
)
def test_only_a_systems_drawer_imports_the_render_toolkit(path):
    assert _layer_imports(path, ("render", "PIL", "app", "bots", "storage")) == []


@pytest.mark.parametrize("path", modules("contract"), ids=rel)
def test_the_contract_suite_imports_the_layers_below_but_no_game_system(path):
    """It plays every system through the chat service, the store and the core: a system is
    known to it by its driver and the registry only (outside a system, nothing imports one)."""
    assert _layer_imports(path, ("render", "PIL")) == []
    allowed = ("adjudicator.core", "adjudicator.grammar", "app", "bots", "storage", "contract")
    ours = [name for _, name in imports(path) if name.split(".")[0] in ("adjudicator", *LAYERS)]
    assert [n for n in ours if not any(n == a or n.startswith(f"{a}.") for a in allowed)] == []


@pytest.mark.parametrize(
    "path", [p for p in modules(*LAYERS) if p.relative_to(ROOT).parts[0] != "contract"], ids=rel
)
def test_nothing_but_tests_imports_the_contract_suite(path):
    """It sits above every layer: `pbem contract` runs it through pytest, importing nothing."""
    assert [n for _, n in imports(path) if n == "contract" or n.startswith("contract.")] == []

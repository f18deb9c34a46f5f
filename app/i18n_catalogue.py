"""The message catalogues' upkeep: extract the texts of a package, update its .po files, check
that every text has a form in every language (Babel's catalogue tools with this project's
extractor).

    python -m app.i18n_catalogue update adjudicator/borodino            # locale/ru/messages.po
    python -m app.i18n_catalogue update adjudicator/hells_gate --po rules.po combat.py ...
    python -m app.i18n_catalogue check                                   # every package

A text for players is written `t("{unit} is Disordered.", unit=u)`, `tn("{n} hit", "{n} hits",
n)`, `plural(n, "hit")` or `noun(n, "hit")` (adjudicator.core.i18n and .text): the extractor
reads those calls' literal strings from the source (nothing is imported). `plural(n, "hit")` is
the msgids "{n} hit" / "{n} hits"; `noun(n, "hit")` is "hit" / "hits".

Invariants:
- a package's texts are translated in its own catalogues, `<package>/locale/<code>/*.po`, where
  the package is a game system (adjudicator/<system>), adjudicator/core, adjudicator/grammar,
  app, bots, render or storage;
- `update` keeps every translation already made and adds the new msgids with an empty form;
- `check` lists what is missing: a msgid with no form, a form whose placeholders are not the
  msgid's, a template that is not a literal string (its catalogue could not hold it).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from adjudicator.core.i18n import wants_words
from adjudicator.core.text import plural_of

_FIXED = datetime(2026, 12, 1, tzinfo=UTC)  # the header's dates: a diff shows texts, not dates
ROOT = Path(__file__).resolve().parent.parent
TARGETS = ("ru",)
CALLS = {"t": 1, "tn": 2, "plural": 1, "noun": 1}  # how many leading string arguments
_FIELD = re.compile(r"(?<!\{)\{([a-zA-Z_][a-zA-Z0-9_]*)[^{}]*\}")


@dataclass(frozen=True)
class Text:
    """One msgid (with its plural, if any) and where it is written."""

    msgid: str
    plural: str | None
    where: str  # "adjudicator/borodino/rally.py:42"


def owners() -> list[Path]:
    """Every package that keeps catalogues (see the module doc)."""
    systems = [p for p in sorted((ROOT / "adjudicator").iterdir()) if (p / "__init__.py").exists()]
    return [*systems, *(ROOT / n for n in ("app", "bots", "render", "storage"))]


def owner_of(path: Path) -> Path:
    path = path.resolve()
    return next(o for o in owners() if o == path or o in path.parents)


def sources(owner: Path) -> list[Path]:
    """The modules whose texts a package's catalogues hold (a nested owner keeps its own)."""
    nested = [o for o in owners() if owner in o.parents]
    return [
        p
        for p in sorted(owner.rglob("*.py"))
        if "migrations" not in p.parts and not any(n in p.parents for n in nested)
    ]


def extract(path: Path) -> tuple[list[Text], list[str]]:
    """The texts of one module, and the calls whose templates are not literal strings."""
    found, bad = [], []
    where = str(path.relative_to(ROOT))
    for node in ast.walk(ast.parse(path.read_text("utf-8"), where)):
        if not isinstance(node, ast.Call):
            continue
        fn = node.func.id if isinstance(node.func, ast.Name) else None
        if fn not in CALLS:
            continue
        first = 0 if fn in ("t", "tn") else 1
        literals = node.args[first : first + CALLS[fn]]
        here = f"{where}:{node.lineno}"
        if len(literals) < CALLS[fn] or not all(_literal(a) for a in literals):
            bad.append(f"{here}: {fn}() wants a literal string template")
            continue
        values = [str(a.value) for a in literals if isinstance(a, ast.Constant)]
        found.append(_text(fn, values, node, here))
    return found, bad


def texts(owner: Path, files: list[Path] | None = None) -> tuple[list[Text], list[str]]:
    found, bad = [], []
    for path in files or sources(owner):
        more, worse = extract(path)
        found += more
        bad += worse
    return found, bad


def po_files(owner: Path, code: str) -> list[Path]:
    return sorted((owner / "locale" / code).glob("*.po"))


def translations(owner: Path, code: str) -> dict[str, object]:
    """msgid -> its form(s) in the package's catalogues of a language."""
    out: dict[str, object] = {}
    for path in po_files(owner, code):
        with path.open("rb") as fh:
            for m in read_po(fh, locale=code):
                if m.id:
                    out.setdefault(m.id if isinstance(m.id, str) else m.id[0], m.string)
    return out


def problems(owner: Path, code: str) -> list[str]:
    """What the package's catalogues of a language lack (see the module doc)."""
    found, bad = texts(owner)
    have = translations(owner, code)
    out = list(bad)
    for text in {x.msgid: x for x in found}.values():
        if not wants_words(text.msgid) and text.plural is None:
            continue  # placeholders and signs only: said as it is (core.i18n)
        form = have.get(text.msgid)
        forms = [f for f in (form if isinstance(form, tuple) else (form,)) if f]
        if not forms:
            out.append(f"{text.where}: no {code} form of {text.msgid!r}")
            continue
        wanted = _fields(text.msgid) | _fields(text.plural or "")
        for f in forms:
            if not _fields(f) <= wanted or (text.plural is None and _fields(f) != wanted):
                out.append(
                    f"{text.where}: the {code} form {f!r} has other fields than {text.msgid!r}"
                )
    return out


def update(owner: Path, code: str, po: Path | None = None, files: list[Path] | None = None) -> Path:
    """Add the package's (or the files') new msgids to a .po file, keeping its forms."""
    target = po or owner / "locale" / code / "messages.po"
    if not target.is_absolute() and target.parent == Path("."):
        target = owner / "locale" / code / target
    target.parent.mkdir(parents=True, exist_ok=True)
    old = Catalog(locale=code)
    if target.exists():
        with target.open("rb") as fh:
            old = read_po(fh, locale=code)
    elsewhere = {k for p in po_files(owner, code) if p != target for k in _ids(p, code)}
    catalogue = Catalog(
        locale=code,
        project="pbem-adjudicator",
        version="1",
        fuzzy=False,
        creation_date=_FIXED,
        revision_date=_FIXED,
        copyright_holder="pbem-adjudicator",
        msgid_bugs_address="",
        last_translator="",
        language_team="",
    )
    for message in old:
        if message.id:
            catalogue[message.id] = message
    found, _ = texts(owner, files)
    for text in found:
        if text.msgid in elsewhere or text.msgid in catalogue:
            continue
        file, _, line = text.where.rpartition(":")
        msgid = (text.msgid, text.plural) if text.plural is not None else text.msgid
        empty: object = ("", "", "") if text.plural is not None else ""
        catalogue.add(msgid, empty, locations=[(file, int(line))])  # type: ignore[arg-type]
    with target.open("wb") as fh:
        write_po(fh, catalogue, width=100, omit_header=False, sort_output=False)
    return target


def _ids(path: Path, code: str) -> Iterator[str]:
    with path.open("rb") as fh:
        for m in read_po(fh, locale=code):
            if m.id:
                yield m.id if isinstance(m.id, str) else m.id[0]


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _text(fn: str, values: list[str], node: ast.Call, where: str) -> Text:
    if fn == "tn":
        return Text(values[0], values[1], where)
    if fn in ("plural", "noun"):
        many = node.args[2] if len(node.args) > 2 else None
        other = str(many.value) if isinstance(many, ast.Constant) else None
        word, words = values[0], plural_of(values[0], other)
        return (
            Text(f"{{n}} {word}", f"{{n}} {words}", where)
            if fn == "plural"
            else Text(word, words, where)
        )
    return Text(values[0], None, where)


def _fields(template: str) -> set[str]:
    return set(_FIELD.findall(template))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("update", help="add a package's new msgids to its .po file")
    up.add_argument("package", type=Path)
    up.add_argument("files", nargs="*", type=Path, help="only these modules' texts")
    up.add_argument("--po", type=Path, help="the .po file (default locale/<code>/messages.po)")
    up.add_argument("--lang", default="ru")
    chk = sub.add_parser("check", help="what every package's catalogues lack")
    chk.add_argument("packages", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if args.command == "update":
        owner = owner_of(args.package)
        files = [f if f.is_absolute() or f.exists() else owner / f for f in args.files]
        print(update(owner, args.lang, args.po, [f.resolve() for f in files] or None))
        return 0
    missing = [
        p
        for o in ([owner_of(p) for p in args.packages] or owners())
        for code in TARGETS
        for p in problems(o, code)
    ]
    print("\n".join(missing) or "every text has a form in every language")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

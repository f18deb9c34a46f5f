"""The languages the bot speaks: gettext message catalogues, managed with Babel, read once.

Every package that has texts for players keeps its catalogues beside its code, one directory per
language: `<package>/locale/<code>/*.po` (a game system's in its own package, so that a new
system brings its translations with it and touches nothing outside its package). `language("ru")`
merges every catalogue of that language found under the platform's packages and the packages of
the installed game systems into one gettext translation (Babel reads the .po files and writes
the .mo that gettext reads, in memory), with the language's plural rule from the catalogues'
header (Russian: three forms, 1 удар, 2 удара, 5 ударов). Beside the catalogues, a package's
`locale/<code>/forms.toml` gives the cases and genders of its names (its sides', its game's) that
a translation asks for with `{side:acc}` (texts.forms).

    lang = language("ru")
    say(t("{unit} is Disordered.", unit="odessa"), lang)   # the Russian text
    event_msg(stored_event)                                 # a stored event's text as a Msg

Invariants:
- English needs no catalogue: language("en") says every Msg as its str value;
- an unknown language code is refused (ValueError), so a setting is always one of LANGUAGES;
- two catalogues that translate one msgid differently are a mistake (`conflicts` names them; a
  test fails on any).
"""

from __future__ import annotations

import gettext
import io
import sys
import tomllib
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import import_module
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from adjudicator.core.i18n import EN, ENGLISH, Language, Msg, say
from texts.forms import CASES, Forms

LANGUAGES = {ENGLISH: "English", "ru": "Русский"}  # code -> its own name
PLATFORM_PACKAGES = ("adjudicator", "app", "bots", "render", "storage")


def language(code: str | None) -> Language:
    """The language of a code (None, "" or one the bot does not speak: English). One Language per
    code per process: its `missing` gathers every msgid said in English for want of a form."""
    return _language(normal_code(code) or ENGLISH)


@cache
def _language(code: str) -> Language:
    return EN if code == ENGLISH else Language(code, _translation(code), forms=forms(code))


def normal_code(code: str | None) -> str | None:
    """The language code of a platform locale ("ru", "ru-RU", "ru_RU" -> "ru"), None if the bot
    does not speak it."""
    if not code:
        return None
    head = str(code).replace("_", "-").split("-")[0].lower()
    return head if head in LANGUAGES else None


def catalogue_files(code: str) -> list[Path]:
    """Every .po file of a language under the platform's and the systems' packages."""
    found: list[Path] = []
    for root in _package_dirs():
        found += sorted(p for p in root.rglob(f"locale/{code}/*.po") if p.is_file())
    return list(dict.fromkeys(found))


def forms_files(code: str) -> list[Path]:
    """Every forms table of a language (`locale/<code>/forms.toml`) under the same packages."""
    found = [p for root in _package_dirs() for p in sorted(root.rglob(f"locale/{code}/forms.toml"))]
    return list(dict.fromkeys(found))


@cache
def forms(code: str) -> Forms:
    """The cases and genders of the names a language declines, from every package's table:
    `[names."Германия"]` with `gender` (m, f, n, pl) and a word for each case (texts.forms.CASES).
    A name two tables give differently is a mistake (the first is kept; a test compares them)."""
    names: dict[str, dict[str, str]] = {}
    for path in forms_files(code):
        for nominative, table in tomllib.loads(path.read_text("utf-8")).get("names", {}).items():
            entry = {k: str(v) for k, v in table.items() if k in (*CASES, "gender")}
            names.setdefault(nominative, {"nom": nominative, **entry})
    return Forms(names)


def read_catalogue(path: Path) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=path.parent.name)


def conflicts(code: str) -> list[str]:
    """msgids two catalogues of a language translate differently ("msgid: file a / file b")."""
    seen: dict[object, tuple[object, Path]] = {}
    out = []
    for path in catalogue_files(code):
        for message in read_catalogue(path):
            if not message.id or not message.string:
                continue
            key = message.id if isinstance(message.id, str) else tuple(message.id)  # a plural
            if key in seen and seen[key][0] != message.string:
                out.append(f"{key!r}: {seen[key][1]} / {path}")
            seen.setdefault(key, (message.string, path))
    return out


def event_msg(event: dict[str, object]) -> str:
    """A stored event's text: a Msg where it recorded one (core.events.event_text)."""
    from adjudicator.core.events import event_text

    return event_text(event)


@cache
def _translation(code: str) -> gettext.GNUTranslations:
    merged = Catalog(locale=code)
    for path in catalogue_files(code):
        for message in read_catalogue(path):
            if message.id and message.string and message.id not in merged:
                merged[message.id] = message
    buffer = io.BytesIO()
    write_mo(buffer, merged)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _package_dirs() -> Iterator[Path]:
    for name in (*PLATFORM_PACKAGES, *_system_packages()):
        module = sys.modules.get(name) or _imported(name)
        for where in getattr(module, "__path__", []) if module else []:
            yield Path(where)


def _system_packages() -> Iterable[str]:
    """The top packages of the installed game systems outside the platform's own."""
    from adjudicator.core.registry import systems

    tops = {type(s).__module__.split(".")[0] for s in systems()}
    return sorted(tops - set(PLATFORM_PACKAGES))


def _imported(name: str) -> object | None:
    try:
        return import_module(name)
    except ImportError:
        return None


__all__ = [
    "EN",
    "LANGUAGES",
    "Msg",
    "catalogue_files",
    "conflicts",
    "event_msg",
    "forms",
    "forms_files",
    "language",
    "normal_code",
    "read_catalogue",
    "say",
]

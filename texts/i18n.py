"""Texts that can be said in more than one language: the English text a player reads, and how to
say it in another language from a message catalogue.

A `Msg` is a str: its value is the English text, so every place that stores, logs, hashes or
compares texts keeps working, byte for byte, as before languages existed. It also remembers what
it was made of: an English template (the catalogue's msgid) and its arguments, so that
`Msg.say(language)` renders it in another language, arguments first (an argument may be a Msg).

    t("{unit} is Disordered.", unit="odessa")          # a template and its arguments
    tn("{n} hit", "{n} hits", 2)                        # a count: gettext's plural forms
    name("Korsun", ru="Корсунь")                        # a proper name, its forms in the data
    cat(a, b, sep="\\n")                                # texts joined (each said on its own)
    plural(3, "hit")                                    # "3 hits": tn("{n} hit", "{n} hits", 3)

Invariants:
- str(m) is the English text; t(x) with no arguments == x; a template's braces are str.format's
  (a literal brace is doubled);
- to_json/from_json round trip: from_json(m.to_json()) says the same in every language;
- a text the catalogue lacks is said in English (`Language.missing` records its msgid), so a
  missing translation never loses a message;
- ids, hex ids and what a user typed are plain str arguments and are never translated;
- a translation's placeholder may ask for a name's case or a word that agrees with it
  ("за {side:acc}", "{side:должен/должна/должно/должны}"): the language's `forms` (texts.forms).
Pure: the catalogue is given (`Language`); reading catalogue files is the platform's (app.i18n).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Self

from texts.forms import NO_FORMS, Forms, Said

ENGLISH = "en"


class Catalogue(Protocol):
    """What gettext's translations offer (gettext.GNUTranslations)."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


@dataclass
class Language:
    """A language to say texts in: its code ("ru") and its catalogue (None: English)."""

    code: str = ENGLISH
    catalogue: Catalogue | None = None
    missing: set[str] = field(default_factory=set)  # msgids said in English for want of one
    forms: Forms = NO_FORMS  # its names' cases and genders: "{side:acc}" (texts.forms)

    def gettext(self, template: str) -> str:
        if self.catalogue is None:
            return template
        said = self.catalogue.gettext(template)
        if said == template and wants_words(template):
            self.missing.add(template)
        return said

    def ngettext(self, singular: str, plural_: str, n: int) -> str:
        if self.catalogue is None:
            return singular if n == 1 else plural_
        said = self.catalogue.ngettext(singular, plural_, n)
        if said in (singular, plural_) and wants_words(singular):
            self.missing.add(singular)
        return said


EN = Language()


class Msg(str):
    """A text in English that can be said in other languages (see the module doc)."""

    template: str
    args: dict[str, Any]
    plural_template: str | None
    count_key: str | None
    forms: dict[str, str] | None
    parts: tuple[Any, ...] | None

    def __new__(
        cls,
        template: str,
        args: Mapping[str, Any] | None = None,
        *,
        plural_template: str | None = None,
        count: str | None = None,
        forms: Mapping[str, str] | None = None,
        parts: Iterable[Any] | None = None,
    ) -> Self:
        held = dict(args or {})
        kept = tuple(parts) if parts is not None else None
        english = _render(template, held, plural_template, count, forms, kept, EN)
        self = super().__new__(cls, english)
        self.template, self.args = template, held
        self.plural_template, self.count_key = plural_template, count
        self.forms = dict(forms) if forms is not None else None
        self.parts = kept
        return self

    def say(self, language: Language) -> str:
        """This text in `language` (English where its catalogue has no form of it)."""
        if language.catalogue is None and language.code == ENGLISH:
            return str.__str__(self)
        return _render(
            self.template,
            self.args,
            self.plural_template,
            self.count_key,
            self.forms,
            self.parts,
            language,
        )

    def to_json(self) -> dict[str, Any]:
        if self.forms is not None:
            return {"l": dict(self.forms)}
        if self.parts is not None:
            return {"c": [_arg_json(p) for p in self.parts], "s": self.template}
        doc: dict[str, Any] = {"t": self.template}
        if self.args:
            doc["a"] = {k: _arg_json(v) for k, v in self.args.items()}
        if self.plural_template is not None:
            doc["p"], doc["n"] = self.plural_template, self.count_key
        return doc

    def __reduce__(self) -> Any:
        return (from_json, (self.to_json(),))


def t(template: str, /, **args: Any) -> Msg:
    """A text by its English template and arguments (the template is the catalogue's msgid)."""
    return Msg(template, args)


def tn(singular: str, plural_: str, n: int, /, **args: Any) -> Msg:
    """A text about a count `n` ({n} in the templates), in the language's plural form."""
    return Msg(singular, {"n": n, **args}, plural_template=plural_, count="n")


def name(english: str, /, **forms: str | None) -> Msg:
    """A proper name (a town, a unit's designation, a card) with its forms in other languages as
    the scenario data gives them: name("Korsun", ru="Корсунь")."""
    return Msg(english, forms={ENGLISH: english, **{k: v for k, v in forms.items() if v}})


def cat(*parts: Any, sep: str = "") -> Msg:
    """Texts joined by sep, each said in the language on its own (sep is not translated)."""
    return Msg(sep, parts=parts)


def lines(parts: Iterable[Any]) -> Msg:
    """Texts one per line."""
    return cat(*parts, sep="\n")


def say(text: Any, language: Language) -> str:
    """Any text in `language`: a Msg said in it, anything else as str() gives it."""
    if isinstance(text, Msg):
        return text.say(language)
    return str(text)


def from_json(doc: Any) -> Any:
    """A Msg (or a plain argument) back from its to_json form."""
    if not isinstance(doc, dict):
        return doc
    if "l" in doc:
        forms = dict(doc["l"])
        return Msg(forms.get(ENGLISH, next(iter(forms.values()), "")), forms=forms)
    if "c" in doc:
        return Msg(doc.get("s", ""), parts=[from_json(p) for p in doc["c"]])
    args = {k: from_json(v) for k, v in doc.get("a", {}).items()}
    return Msg(doc["t"], args, plural_template=doc.get("p"), count=doc.get("n"))


_ARG_TYPES = (str, int, float, bool, type(None))


def _arg_json(value: Any) -> Any:
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, _ARG_TYPES):
        return value
    if isinstance(value, (list, tuple)):
        return cat(*value, sep=", ").to_json()
    return str(value)


def _render(
    template: str,
    args: Mapping[str, Any],
    plural_template: str | None,
    count: str | None,
    forms: Mapping[str, str] | None,
    parts: tuple[Any, ...] | None,
    language: Language,
) -> str:
    if forms is not None:
        return forms.get(language.code) or forms.get(ENGLISH) or template
    if parts is not None:
        return template.join(_said(p, language) for p in parts)
    if plural_template is not None and count is not None:
        pattern = language.ngettext(template, plural_template, int(args[count]))
    else:
        plain = language.catalogue is None  # (no catalogue: the template itself)
        pattern = template if plain or not wants_words(template) else language.gettext(template)
    return pattern.format(**{k: Said(_said(v, language), language.forms) for k, v in args.items()})


def _said(value: Any, language: Language) -> str:
    if isinstance(value, Msg):
        return value.say(language)
    if isinstance(value, (list, tuple)):
        return ", ".join(_said(v, language) for v in value)
    return str(value)


@functools.lru_cache(maxsize=8192)  # templates are the code's own: a few thousand
def wants_words(template: str) -> bool:
    """Whether a template has words to translate (not only placeholders and punctuation)."""
    bare, depth = [], 0
    for ch in template:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            bare.append(ch)
    return any(ch.isalpha() for ch in bare)


__all__ = [
    "EN",
    "ENGLISH",
    "Catalogue",
    "Language",
    "Msg",
    "cat",
    "from_json",
    "lines",
    "name",
    "say",
    "t",
    "tn",
    "wants_words",
]

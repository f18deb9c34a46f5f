"""A name's forms in a language that declines: its cases and the gender a word agrees with.

A template in such a language asks for them in its placeholders' format spec; the English
template, and every value the table does not know, are said as they are:

    "Вы играете за {side:acc}."                    # Германия -> "Вы играете за Германию."
    "{who} {who:должен/должна/должно/должны} решить"  # m/f/n/plural: "Германия (bob) должна"
    "игра {system:q}"                               # in quotes: "игра «Судья „Бородино“»"

The table (`Forms`) maps a name as the language says it (its nominative, "Германия") to its
forms: a case code (CASES) to the word, and "gender" to one of GENDERS. Each package keeps its
names' forms as data beside its catalogues (the platform reads them: app.i18n).

Invariants:
- an empty spec, and a value with no known name in it, give the value unchanged (a case);
- a value that holds known names among other text ("Германия (bob)", "Германия, СССР") has each
  of them put in the case, the rest left as it is;
- agreement: the one known name's gender; two or more names: plural; none: masculine (a person
  or an unknown name);
- "q" quotes the value in «», its own «» becoming „“ (a name in apposition keeps its nominative:
  "в игре «Врата Ада»");
- a spec that is neither a case, agreement nor "q" is str.format's own (">8"); one str.format
  refuses gives the value as it is (a mistyped spec never loses a message).
Pure: the table is given.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Self

CASES = ("nom", "gen", "dat", "acc", "ins", "pre")  # nominative ... prepositional
GENDERS = ("m", "f", "n", "pl")  # the order of an agreement spec's words: "должен/должна/..."
QUOTED = "q"  # the value in quotes: «Врата Ада»


@dataclass(frozen=True, eq=False)
class Forms:
    """The forms of the names a language declines: nominative -> {case or "gender": word}."""

    names: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        if not self.names:
            return None
        alternatives = "|".join(re.escape(n) for n in sorted(self.names, key=len, reverse=True))
        return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")

    def found(self, text: str) -> list[str]:
        """The known names in a text, in their order."""
        if text in self.names:
            return [text]
        return self._pattern.findall(text) if self._pattern else []

    def case(self, text: str, case: str) -> str:
        """The text with every known name in it put in `case`."""
        if text in self.names:
            return self.names[text].get(case, text)
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self.names[m[0]].get(case, m[0]), text)

    def gender(self, text: str) -> str:
        """The gender a word that agrees with the text takes (GENDERS)."""
        found = self.found(text)
        if len(found) > 1:
            return "pl"
        return self.names[found[0]].get("gender", "m") if found else "m"

    def agree(self, text: str, words: list[str]) -> str:
        """The one of `words` (masculine, feminine, neuter, plural) that agrees with the text."""
        return words[GENDERS.index(self.gender(text))]


NO_FORMS = Forms()


class Said(str):
    """A value as a template's language says it, which knows the forms of its names."""

    forms: Forms

    def __new__(cls, text: str, forms: Forms) -> Self:
        self = super().__new__(cls, text)
        self.forms = forms
        return self

    def __format__(self, spec: str) -> str:
        text = str.__str__(self)
        if not spec:
            return text
        if spec in CASES:
            return self.forms.case(text, spec)
        if spec == QUOTED:
            return f"«{text.replace('«', '„').replace('»', '“')}»"
        words = spec.split("/")
        if len(words) == len(GENDERS):
            return self.forms.agree(text, words)
        try:
            return format(text, spec)
        except ValueError:  # a translation's mistyped spec: the value, not a lost message
            return text


__all__ = ["CASES", "GENDERS", "NO_FORMS", "QUOTED", "Forms", "Said"]

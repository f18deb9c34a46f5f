"""The orders a player may tap: built from the one gate (`legal_orders`) and `order_templates`.

Three pure tools over canonical order texts (no I/O; bots/taps.py stores and delivers them):
- `step`: the builder's next step over the legal texts, a trie of words. The verbs first, then
  each next word; a step with few orders left offers them whole; a word that is the only way on
  is taken without asking ("attack C6" -> "attack C6 with").
- `program` / `ask` / `answer`: the builder of an order only a template describes
  ("attack <HEX> with <UNIT> <UNIT> <UNIT>... [decisive] [flip <UNIT>]"): literal words are
  written, a `<KIND>` is chosen among the names the caller offers for it, `<KIND>...` is a choice
  of several, `[...]` a yes/no, `<A>=<B>...` pairs chosen one after the other, and a part with
  no names to offer (`<N>`, `<PURPOSE>`) is a line of free text.
- `matching`: the completions of what a player has typed so far (prefix first, then words in
  order, then words in any order; case-insensitive, Russian command words and Cyrillic
  look-alike letters in ids folded as the grammar folds them), at most `limit`, best first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.grammar.words import words as folded_words

WHOLE = 12  # a step with at most this many orders left offers them whole
TYPED_LIMIT = 200  # characters of a typed text that completion reads


# -- the trie of legal texts
@dataclass(frozen=True)
class Step:
    """One step of the builder: the words chosen, and what may follow them."""

    prefix: tuple[str, ...]
    whole: tuple[str, ...] = ()  # complete orders to offer (few left under the prefix)
    nexts: tuple[str, ...] = ()  # the next words to choose among (many left)
    done: bool = False  # the prefix itself is a legal order


def under(texts: Sequence[str], prefix: tuple[str, ...]) -> list[str]:
    n = len(prefix)
    return [t for t in texts if tuple(t.split()[:n]) == prefix]


def step(texts: Sequence[str], prefix: Sequence[str] = ()) -> Step:
    """The step after `prefix` over `texts` (canonical texts, any order)."""
    chosen = tuple(prefix)
    while True:
        under_ = under(texts, chosen)
        if len(under_) <= WHOLE:
            return Step(chosen, whole=tuple(sorted(under_)))
        done = " ".join(chosen) in under_
        nexts = sorted({t.split()[len(chosen)] for t in under_ if len(t.split()) > len(chosen)})
        if len(nexts) == 1 and not done:
            chosen = (*chosen, nexts[0])
            continue
        return Step(chosen, nexts=tuple(nexts), done=done)


# -- the builder of templates
Op = tuple[str, ...]  # ("lit", word) | ("one", KIND) | ("many", KIND, sep) | ("pair", A, B)
# | ("opt", label, end) | ("free", prompt)

_REPEAT_COMMA = re.compile(r"(<\w+>)\[,\1\.\.\.\]")
_REPEAT_SPACE = re.compile(r"(<\w+>) \[\1\.\.\.\]")
_RUN = re.compile(r"(<\w+>)(?: \1)+ \1\.\.\.")


def program(template: str) -> tuple[Op, ...]:
    """The steps of a template (see the module doc)."""
    text = _REPEAT_COMMA.sub(r"\1,...", template.strip())
    text = _REPEAT_SPACE.sub(r"\1...", text)
    text = _RUN.sub(r"\1...", text)
    ops: list[Op] = []
    _compile(_split(text), ops)
    return tuple(ops)


def _split(text: str) -> list[str]:
    """Words at the top level; a bracketed group is one word."""
    out, depth, word = [], 0, ""
    for ch in text:
        if ch == " " and depth == 0:
            if word:
                out.append(word)
            word = ""
            continue
        depth += (ch == "[") - (ch == "]")
        word += ch
    if word:
        out.append(word)
    return out


def _compile(parts: list[str], ops: list[Op]) -> None:
    for part in parts:
        if part.startswith("[") and part.endswith("]"):
            at = len(ops)
            ops.append(("opt", part[1:-1], ""))
            _compile(_split(part[1:-1]), ops)
            ops[at] = ("opt", part[1:-1], str(len(ops)))
        else:
            ops.append(_op(part))


def _op(part: str) -> Op:
    if "<" not in part:
        return ("lit", part)
    pair = re.fullmatch(r"<(\w+)>=<(\w+)>(\.\.\.)?", part)
    if pair:
        return ("pair", pair[1], pair[2], "many" if pair[3] else "one")
    one = re.fullmatch(r"<(\w+)>(,?)(\.\.\.)?", part)
    if one and not one[2] and not one[3]:
        return ("one", one[1])
    if one and one[3]:
        return ("many", one[1], "," if one[2] else " ")
    return ("free", part)


@dataclass(frozen=True)
class Question:
    """What the builder asks next. kind: "one" (choose one of `options`; with `more`, or stop
    choosing), "yes" (add `label`? yes or no), "free" (a line of text), "done" (`text` built)."""

    kind: str
    label: str = ""
    options: tuple[str, ...] = ()
    text: str = ""
    more: bool = False  # one of a repeated part, one at least chosen: finishing is offered


@dataclass
class Build:
    """A template's builder state (JSON-able: a token's payload holds it)."""

    template: str
    at: int = 0
    parts: list[str] = field(default_factory=list)
    half: str | None = None  # the first of a pair, chosen
    run: list[str] = field(default_factory=list)  # the names chosen of a repeated part

    def doc(self) -> dict[str, Any]:
        return {
            "tpl": self.template,
            "at": self.at,
            "parts": self.parts,
            "half": self.half,
            "run": self.run,
        }

    @classmethod
    def of(cls, doc: Mapping[str, Any]) -> Build:
        half = doc.get("half")
        return cls(
            str(doc["tpl"]),
            int(doc["at"]),
            [str(p) for p in doc["parts"]],
            None if half is None else str(half),
            [str(p) for p in doc.get("run", [])],
        )

    def chosen(self) -> list[str]:
        """Every name chosen so far, in order (what the next names may depend on)."""
        said = [w for p in self.parts for w in re.split(r"[ ,=]", p) if w]
        return [*said, *([self.half] if self.half else []), *self.run]


# (a KIND, the names chosen so far) -> the names to offer (None: a line of free text)
Names = Callable[[str, Sequence[str]], Sequence[str] | None]


def ask(build: Build, names: Names) -> Question:
    """Write the literal words up to the next question, and return it."""
    ops = program(build.template)
    while build.at < len(ops) and ops[build.at][0] == "lit":
        build.parts.append(ops[build.at][1])
        build.at += 1
    if build.at >= len(ops):
        return Question("done", text=" ".join(build.parts))
    op = ops[build.at]
    if op[0] == "opt":
        return Question("yes", label=op[1])
    if op[0] == "free":
        return Question("free", label=op[1])
    kind = op[1] if op[0] != "pair" or build.half is None else op[2]
    offered = names(kind.lower(), build.chosen())
    if op[0] == "many":
        offered = [n for n in offered or () if n not in build.run]
        if not offered and not build.run:
            return Question("free", label=f"<{kind}>...")
        return Question("one", label=kind, options=tuple(offered), more=bool(build.run))
    if not offered:
        return Question("free", label=f"<{kind}>")
    more = op[0] == "pair" and build.half is None and op[3] == "many" and build.run != []
    return Question("one", label=kind, options=tuple(offered), more=more)


def answer(build: Build, values: Sequence[str]) -> None:
    """Take the answer to `ask(build)`: the value chosen, "yes"/"no", a free line, or (for a
    repeated part that offered finishing) no value at all to finish it."""
    ops = program(build.template)
    op = ops[build.at]
    if op[0] == "opt":
        build.at = build.at + 1 if values[:1] == ["yes"] else int(op[2])
    elif op[0] == "pair":
        _pair(build, op, values)
    elif op[0] == "many":
        if values:
            build.run.append(values[0])
            return
        build.parts.append(op[2].join(build.run))
        build.at, build.run = build.at + 1, []
    else:
        build.parts.append(" ".join(values))
        build.at += 1


def answer_free(build: Build, line: str) -> None:
    """Take a line of free text as the whole of the part asked (`ask` gave "free")."""
    ops = program(build.template)
    if ops[build.at][0] == "pair" and build.half is not None:
        build.run.append(f"{build.half}={line}")
        build.half = None
        return
    build.parts.append(line)
    build.at, build.run = build.at + 1, []


def _pair(build: Build, op: Op, values: Sequence[str]) -> None:
    if not values:  # finished choosing pairs
        build.parts += build.run
        build.at, build.half, build.run = build.at + 1, None, []
    elif build.half is None:
        build.half = values[0]
    else:
        build.run.append(f"{build.half}={values[0]}")
        build.half = None
        if op[3] != "many":
            build.parts += build.run
            build.at, build.run = build.at + 1, []


# -- completion
def fold(text: str, verbs: Mapping[str, str]) -> list[str]:
    """The words of a typed text as the grammar reads them, its command word in English."""
    said = list(folded_words(text[:TYPED_LIMIT]))
    if said:
        said[0] = verbs.get(said[0], said[0])
    return said


def _score(typed: list[str], entry: list[str], trailing: bool) -> int | None:
    if not typed:
        return 0
    whole, last = typed[:-1], typed[-1]
    if entry[: len(whole)] == whole and len(entry) > len(whole):
        nxt = entry[len(whole)]
        if nxt == last or (not trailing and nxt.startswith(last)):
            return 0
    i = 0
    for word in typed:
        while i < len(entry) and not entry[i].startswith(word):
            i += 1
        if i == len(entry):
            break
        i += 1
    else:
        return 1
    return 2 if all(any(w.startswith(x) for w in entry) for x in typed) else None


Prepared = tuple[str, str, list[str], list[str]]  # (label, text, their words as typed)


def prepare(entries: Sequence[tuple[str, str]]) -> list[Prepared]:
    """The entries with their words folded once (a completion reads them at every key)."""
    return [
        (label, text, list(folded_words(text)), list(folded_words(label)))
        for label, text in entries
    ]


def best(
    prepared: Sequence[Prepared], typed: str, verbs: Mapping[str, str], limit: int = 25
) -> list[tuple[str, str]]:
    """The prepared entries that complete `typed`, best first (see the module doc)."""
    said = fold(typed, verbs)
    trailing = typed[:TYPED_LIMIT].endswith(" ")
    scored = []
    for n, (_, _, text_words, label_words) in enumerate(prepared):
        scores = [
            s
            for s in (_score(said, text_words, trailing), _score(said, label_words, trailing))
            if s is not None
        ]
        if scores:
            scored.append((min(scores), n))
    scored.sort()
    return [(prepared[n][0], prepared[n][1]) for _, n in scored[:limit]]


def matching(
    entries: Sequence[tuple[str, str]],
    typed: str,
    verbs: Mapping[str, str],
    limit: int = 25,
) -> list[tuple[str, str]]:
    """The entries (label, canonical text) that complete `typed`, best first (see module doc)."""
    return best(prepare(entries), typed, verbs, limit)


__all__ = [
    "WHOLE",
    "Build",
    "Question",
    "Step",
    "answer",
    "answer_free",
    "ask",
    "best",
    "fold",
    "matching",
    "prepare",
    "program",
    "step",
    "under",
]

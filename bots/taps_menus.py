"""The menus of playing by taps (bots/taps.py): what a side is offered at one moment of a game,
as texts, stored offers and a platform-neutral Keyboard.

A menu is described by a payload (what its token stores): {"prefix": [words]} is a step of the
builder over the side's legal orders (app.choices.step), {"build": state} a step of a template's
builder (app.choices.ask). A key that leads to another menu stores {"go": payload}; a key that
asks for a line of free text stores the builder's state, and `after` reads the line into it. Everything here is computed from the side's own orders.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Language, say, t
from adjudicator.core.system import GameSystem, Situation
from app import choices
from app.messages import Key, Keyboard
from storage.taps import Offer

PAGE = 20  # keys of one page (Discord allows 25 buttons a message: room for the arrows)
LABEL = 80  # characters of a key's label (Discord's limit)
VALUE = 100  # characters of a completion's value (Discord's limit)
PICK = 25  # names one step offers at most (more: a line of free text)

Slot = tuple[str, str, Offer]  # (role: "key" | "free", label, offer)
Shape = Callable[[list[str]], Keyboard]


@dataclass
class Place:
    """A game at one row of its log, as one side sees its choices (cached per row and side)."""

    game: str
    system: GameSystem
    state: Any
    situation: Situation
    side: str | None
    seats: dict[str, str | None]
    memo: dict[str, Any] = field(default_factory=dict)

    def texts(self) -> list[str]:
        """The side's legal orders as canonical texts, sorted."""
        if "texts" not in self.memo:
            found = self.system.legal_orders(self.state, self.side or "") if self.side else []
            self.memo["texts"] = sorted({self.system.grammar.format(o) for o in found})
        texts: list[str] = self.memo["texts"]
        return texts

    def side_name(self, side: str | None = None) -> str:
        """A side as players read it (its name, said in each language), not its id."""
        wanted = side or self.side
        return next((s.name for s in self.system.sides if s.id == wanted), wanted or "")

    def templates(self) -> list[str]:
        if "templates" not in self.memo:
            found = self.system.order_templates(self.state, self.side) if self.side else []
            self.memo["templates"] = list(found)
        templates: list[str] = self.memo["templates"]
        return templates


class Menus:
    def __init__(self, place: Place, language: Language):
        self.place = place
        self.language = language

    # -- words
    def verbs(self) -> dict[str, str]:
        """Every command word of the game -> its English word ("атака" -> "attack")."""
        if "verbs" in self.place.memo:
            verbs: dict[str, str] = self.place.memo["verbs"]
            return verbs
        table = getattr(self.place.system.grammar, "table", None)
        found: dict[str, str] = {}
        for word, verb in (getattr(table, "verbs", None) or {}).items():
            for alias in (word, *verb.aliases):
                found.setdefault(alias.lower(), word)
        self.place.memo["verbs"] = found
        return found

    def _russian(self) -> dict[str, str]:
        table = getattr(self.place.system.grammar, "table", None)
        found: dict[str, str] = {}
        for word, verb in (getattr(table, "verbs", None) or {}).items():
            said = next((a for a in verb.aliases if not a.isascii()), None)
            if said:
                found[word] = said
        return found

    def label(self, text: str) -> str:
        """An order as a key shows it: in Russian its command word is Russian."""
        if self.language.code == "ru":
            head, sep, rest = text.partition(" ")
            text = self._russian().get(head, head) + sep + rest
        return text if len(text) <= LABEL else text[: LABEL - 1] + "…"

    def completions(self) -> list[choices.Prepared]:
        """The entries, their words folded, kept with the place (per language)."""
        key = f"completions:{self.language.code}"
        if key not in self.place.memo:
            fits = [e for e in self.entries() if len(e[1]) <= VALUE]  # Discord's choice value
            self.place.memo[key] = choices.prepare(fits)
        found: list[choices.Prepared] = self.place.memo[key]
        return found

    def entries(self) -> list[tuple[str, str]]:
        """(label, canonical text) of every legal order, then each template's start."""
        found = [(self.label(text), text) for text in self.place.texts()]
        for template in self.place.templates():
            start = template.split("<")[0].split("[")[0].strip()
            if start:
                found.append((self.label(say(template, self.language)), start + " "))
        return found

    def names(self, kind: str, chosen: Sequence[str]) -> Sequence[str] | None:
        """The names a template's `<KIND>` is chosen among: the side's own, as its legal orders
        write them; where they are too many, those that follow the last name chosen in them (a
        path goes on from where it is). A game without hidden information with no such orders
        offers every name of the kind, when few. None: asked as a line of free text."""
        lexicon = getattr(self.place.system.grammar, "lexicon", None)
        if lexicon is None or kind not in lexicon.kinds:
            return None
        ids = {i.lower() for i in lexicon.ids(kind)}
        rows = [re.split(r"[ ,=]", text) for text in self.place.texts()]
        found = _of_kind(rows, ids)
        if len(found) > PICK and chosen:
            last = chosen[-1]
            found = _of_kind([r[r.index(last) + 1 :][:1] for r in rows if last in r], ids)
        if not found and not self.place.system.hidden_information and len(ids) <= PICK:
            found = sorted(lexicon.ids(kind))
        return found if 0 < len(found) <= PICK else None

    # -- menus
    def menu(self, payload: dict[str, Any]) -> tuple[str, list[Offer], Shape]:
        """The menu of a payload: its text, the offers to store, and how their tokens make the
        keyboard."""
        if "build" in payload:
            text, slots = self._build(payload)
        else:
            text, slots = self._trie(payload)
        return text, [s[2] for s in slots], _shape(slots)

    def _trie(self, payload: dict[str, Any]) -> tuple[str, list[Slot]]:
        prefix = [str(w) for w in payload.get("prefix", [])]
        at = choices.step(self.place.texts(), prefix)
        slots: list[Slot] = [("key", self.label(w), _order(w)) for w in at.whole]
        if at.done:
            slots.append(("key", self.label(" ".join(at.prefix)), _order(" ".join(at.prefix))))
        for word in at.nexts:
            only = choices.under(self.place.texts(), (*at.prefix, word))
            if len(only) == 1:  # one order this way: offered whole
                slots.append(("key", self.label(only[0]), _order(only[0])))
                continue
            said = self.label(word) if not at.prefix else word
            slots.append(("key", said + " …", _go({"prefix": [*at.prefix, word]})))
        if not at.prefix:
            for template in self.place.templates():  # "✎ attack …": built part by part
                start = template.split("<")[0].split("[")[0].strip() or template
                said = "✎ " + self.label(start) + " …"
                slots.append(("key", said, _go({"build": choices.Build(template).doc()})))
        if at.prefix:
            slots.append(("key", say(t("« back"), self.language), _go({"prefix": []})))
        if not slots:
            return t("No orders of yours now: the game waits for {who}.", who=self._waits()), []
        head = t(
            "{side}, {when}: choose an order.",
            side=self.place.side_name(),
            when=self.place.situation.label,
        )
        if at.prefix:
            head = t("`{start} …`: choose what follows.", start=self.label(" ".join(at.prefix)))
        return head, _paged(slots, payload, self.language)

    def _waits(self) -> str:
        return ", ".join(self.place.situation.to_move) or say(t("nobody"), self.language)

    def _build(self, payload: dict[str, Any]) -> tuple[str, list[Slot]]:
        build = choices.Build.of(payload["build"])
        q = choices.ask(build, self.names)
        so_far = " ".join(build.parts)
        back = ("key", say(t("« back"), self.language), _go({"prefix": []}))
        if q.kind == "done":
            return self._confirm(q.text, back)
        if q.kind == "yes":
            yes = _answered(build, ["yes"])
            no = _answered(build, ["no"])
            keys: list[Slot] = [
                ("key", self.label(t("add: {part}", part=q.label).say(self.language)), _go(yes)),
                ("key", say(t("no"), self.language), _go(no)),
            ]
            return t("`{start} …`: add `{part}`?", start=so_far, part=q.label), [*keys, back]
        if q.kind == "free":
            offer = Offer("step", {"build": build.doc(), "ask": "free"})
            prompt = t("`{start} …`: write {part}.", start=so_far, part=q.label)
            return prompt, [("free", say(prompt, self.language), offer), back]
        slots: list[Slot] = [("key", o, _go(_answered(build, [o]))) for o in q.options]
        if q.more:
            slots.append(("key", say(t("done"), self.language), _go(_answered(build, []))))
        head = t("`{start} …`: choose one.", start=so_far)
        return head, [*_paged(slots, payload, self.language), back]

    def _confirm(self, text: str, back: Slot) -> tuple[str, list[Slot]]:
        grammar = self.place.system.grammar
        try:
            canonical = grammar.format(grammar.parse(text))
        except Rejection as exc:  # a built text the grammar refuses: say why, start again
            why = exc.message
            return t("`{text}` is no order: {why}", text=text, why=why), [back]
        send = say(t("send: {order}", order=canonical), self.language)
        return t("Give this order? `{order}`", order=canonical), [
            ("key", self.label(send), _order(canonical)),
            back,
        ]

    def after(self, payload: dict[str, Any], values: list[str]) -> dict[str, Any]:
        """The payload of the menu after a press with these values (a free line: its text)."""
        if "go" in payload:
            go: dict[str, Any] = payload["go"]
            return go
        build = choices.Build.of(payload["build"])
        line = " ".join(values).strip()
        if not line:
            return {"build": build.doc()}  # nothing written: asked again
        choices.answer_free(build, line)
        return {"build": build.doc()}


def _answered(build: choices.Build, values: list[str]) -> dict[str, Any]:
    done = copy.deepcopy(build)
    choices.answer(done, values)
    return {"build": done.doc()}


def _order(text: str) -> Offer:
    return Offer("order", {"text": text})


def _go(payload: dict[str, Any]) -> Offer:
    return Offer("step", {"go": payload})


def _paged(slots: list[Slot], payload: dict[str, Any], language: Language) -> list[Slot]:
    if len(slots) <= PAGE + 2:
        return slots
    page = int(payload.get("page", 0))
    pages = (len(slots) + PAGE - 1) // PAGE
    page = max(0, min(page, pages - 1))
    shown = slots[page * PAGE : (page + 1) * PAGE]
    base = {k: v for k, v in payload.items() if k != "page"}
    if page > 0:
        shown.append(
            ("key", "◀ " + say(t("page {n}", n=page), language), _go({**base, "page": page - 1}))
        )
    if page < pages - 1:
        shown.append(
            (
                "key",
                say(t("page {n}", n=page + 2), language) + " ▶",
                _go({**base, "page": page + 1}),
            )
        )
    return shown


def _of_kind(rows: list[list[str]], ids: set[str]) -> list[str]:
    """The words of these rows that name a thing of the kind, as the orders write them."""
    return sorted({w for row in rows for w in row if w.lower() in ids})


def _shape(slots: list[Slot]) -> Shape:
    def shape(issued: list[str]) -> Keyboard:
        keys, free, prompt = [], None, ""
        for (role, label, _), token in zip(slots, issued, strict=True):
            if role == "key":
                keys.append(Key(label[:LABEL], token))
            else:
                free, prompt = token, label
        return Keyboard(tuple(keys), free, prompt)

    return shape


__all__ = ["LABEL", "PAGE", "Menus", "Place"]

"""The order language of the block game (the issue's order list), built with the shared kit:
move, recon, siege, policy, replace, winter, end, the decisions battle, hit, retreat and return
charles, the private question `blocks` and the question `areas` (areas.py); each also by its
Russian words (RUSSIAN), blocks, territories and nations also by their Russian names. Pure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.core.i18n import name, t
from adjudicator.core.system import Side
from adjudicator.grammar import QUESTIONS, Cursor, GrammarKit, Kind, Lexicon, Verb
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.areas import AreaGrammar, Areas
from adjudicator.northern_war.data import Scenario
from adjudicator.northern_war.grammar_edit import EDIT_VERBS

SIDES = (
    Side("sweden", name("Sweden", ru="Швеция"), ("swedes", "swe", "швеция", "шведы")),
    Side("coalition", name("Coalition", ru="Коалиция"), ("coal", "allies", "коалиция", "союзники")),
)
GROUP = t("Orders")
DECISIONS = t("Decisions")


def _blocks(c: Cursor) -> tuple[str, ...]:
    found = []
    while c.peek() is not None and len(c.matches("block")) == 1:
        found.append(c.thing("block"))
    if not found:
        c.thing("block")  # the refusal names what is wrong (unknown, or missing)
    return tuple(found)


def _areas(c: Cursor) -> tuple[str, ...]:
    path = [c.thing("territory")]
    while c.peek() is not None:
        path.append(c.thing("territory"))
    return tuple(path)


def _move(c: Cursor) -> O.Move:
    blocks = _blocks(c)
    return O.Move(blocks, _areas(c))


def _winter(c: Cursor) -> O.Winter | O.WinterNone:
    if c.accept("none", *NONE_RU):
        return O.WinterNone()
    blocks = _blocks(c)
    return O.Winter(blocks, _areas(c))


def _return(c: Cursor) -> O.ReturnCharles:
    if not c.accept("charles", *CHARLES_RU):
        c.fail("syntax", t("write 'return charles <AREA>'"))
    return O.ReturnCharles(c.thing("territory"))


def _policy(c: Cursor) -> O.Policy:
    """A nation; also by a name it shares with a territory ("Саксония", "Saxony"), which the
    lexicon gives the territory (an earlier kind)."""
    if c.peek() is not None and not c.matches("nation"):
        found = c.matches("territory")
        if len(found) == 1 and found[0] in c.lex.ids("nation"):
            return O.Policy(c.thing("territory"))
    return O.Policy(c.thing("nation"))


def _moved(o: O.Move | O.Winter, word: str) -> str:
    return f"{word} {','.join(o.blocks)} {' '.join(o.path)}"


def _verb(
    word: str,
    parser: Callable[[Cursor], object],
    formats: dict[type, Callable[..., str]],
    usage: str,
    text: str,
    group: str = GROUP,
    **flags: Any,
) -> Verb:
    """A verb; flags: Verb's kind, private, sides."""
    return Verb(
        word,
        parser,
        {word: (usage, text)},
        formats,
        aliases=RUSSIAN.get(word, ()),
        group=group,
        **flags,
    )


# Russian command words (issue 17), the terms of the Russian rules: "Разведка", "Движение",
# "Объявление осады", "Национальная политика", "Пополнение" (3.3), the "Зимняя компания" (3.4),
# "битва", "попадание", "отступление" (2.1, 4.1), "ссылка" and the return of Charles XII (2.3).
# The canonical text (format) stays English.
RUSSIAN: dict[str, tuple[str, ...]] = {
    "recon": ("разведка", "развед"),
    "move": ("движение", "двинуть", "ход"),
    "siege": ("осада",),
    "policy": ("политика",),
    "replace": ("пополнение", "пополнить"),
    "winter": ("зима",),
    "end": ("конец", "всё", "все"),
    "battle": ("битва", "сражение"),
    "hit": ("попадание", "потеря"),
    "retreat": ("отступление", "отход"),
    "return": ("возврат", "возвращение"),
    "blocks": ("блоки",),
    "areas": ("территории", "области", "районы"),
}
NONE_RU = ("нет",)  # winter none: "зима нет"
CHARLES_RU = ("карл", "карла")  # return charles: "возврат карла"

VERBS = (
    _verb(
        "recon",
        lambda c: O.Recon(c.thing("territory")),
        {O.Recon: lambda o: f"recon {o.area}"},
        t("recon <AREA>"),
        t(
            "Action 1: reveal the enemy blocks in a territory next to one of "
            "your army or regiment blocks, to you alone (5.20-5.24). Example: recon novgorod"
        ),
    ),
    _verb(
        "move",
        _move,
        {O.Move: lambda o: _moved(o, "move")},
        t("move <BLOCK>[,<BLOCK>...] <AREA> [<AREA>...]"),
        t(
            "Action 2: move blocks of one "
            "territory along the areas listed, each within its allowance; a block stops where "
            "enemy blocks are; another move from the same territory right after it is the same "
            "action (7.1-7.12). Example: move repnin,peter ingermanland"
        ),
    ),
    _verb(
        "siege",
        lambda c: O.Siege(c.thing("territory")),
        {O.Siege: lambda o: f"siege {o.area}"},
        t("siege <AREA>"),
        t(
            "Action 3: declare a siege of an enemy fortress where your blocks "
            "are; free right after a move that ends there (5.26-5.28, 7.10, N4). "
            "Example: siege estonia"
        ),
    ),
    _verb(
        "policy",
        _policy,
        {O.Policy: lambda o: f"policy {o.nation}"},
        t("policy <NATION>"),
        t(
            "Action 4: national policy for one of your nations, once a year each (5.29-5.31). "
            "Example: policy russia"
        ),
    ),
    _verb(
        "replace",
        lambda c: O.Replace(c.thing("block")),
        {O.Replace: lambda o: f"replace {o.block}"},
        t("replace <BLOCK>"),
        t(
            "Action 5: one "
            "step for a block with a line of communication (5.32-5.36). Example: replace repnin"
        ),
    ),
    _verb(
        "winter",
        _winter,
        {O.Winter: lambda o: _moved(o, "winter"), O.WinterNone: lambda o: "winter none"},
        t("winter <BLOCK>[,<BLOCK>...] <AREA> [<AREA>...] | winter none"),
        t(
            "The Swedish "
            "winter campaign: Charles XII and blocks with him lose a step and move (section 6); "
            "'winter none' (the deadline default) forgoes it. Example: winter charles,rehnskiold "
            "pskov"
        ),
        sides=("sweden",),
    ),
    _verb(
        "end",
        lambda c: O.End(),
        {O.End: lambda o: "end"},
        t("end"),
        t("End your actions of this turn (or the winter campaign). Example: end"),
    ),
    _verb(
        "battle",
        lambda c: O.BattleAt(c.thing("territory")),
        {O.BattleAt: lambda o: f"battle {o.area}"},
        t("battle <AREA>"),
        t(
            "First player: the "
            "battle to fight next (N3 a; default: the map's order). Example: battle ingermanland"
        ),
        DECISIONS,
    ),
    _verb(
        "hit",
        lambda c: O.Hit(c.thing("block")),
        {O.Hit: lambda o: f"hit {o.block}"},
        t("hit <BLOCK>"),
        t(
            "Which of your equally strong blocks takes the hit (N3 e; default: "
            "the first in the block list). Example: hit repnin"
        ),
        DECISIONS,
    ),
    _verb(
        "retreat",
        lambda c: O.Retreat(c.thing("block"), c.thing("territory")),
        {O.Retreat: lambda o: f"retreat {o.block} {o.area}"},
        t("retreat <BLOCK> <AREA>"),
        t(
            "Where a retreating block goes (N3 g; default: the first free territory of the "
            "map). Example: retreat repnin novgorod"
        ),
        DECISIONS,
    ),
    _verb(
        "return",
        _return,
        {O.ReturnCharles: lambda o: f"return charles {o.area}"},
        t("return charles <AREA>"),
        t(
            "Where Charles XII returns from exile (4.9; default: the "
            "first free Swedish territory of the map). Example: return charles stockholm"
        ),
        DECISIONS,
        sides=("sweden",),
    ),
    _verb(
        "blocks",
        lambda c: O.Blocks(),
        {O.Blocks: lambda o: "blocks"},
        t("blocks"),
        t(
            "Your own blocks with their strength, and what you have reconnoitred (sent to you "
            "alone). Example: blocks"
        ),
        QUESTIONS,
        kind="query",
        private=True,
    ),
    _verb(
        "areas",
        lambda c: Areas(),
        {Areas: lambda o: "areas"},
        t("areas"),
        t(
            "Every area of the map: the id to type in an order, its name, who holds it, its "
            "fortress and its neighbours. Example: areas"
        ),
        QUESTIONS,
        kind="query",
    ),
)


def _russian(things: dict[str, Any]) -> list[tuple[str, str]]:
    """The Russian names players may type (issue 17), also with "е" for "ё" ("Петр I")."""
    found = []
    for key, thing in things.items():
        if thing.name_ru:
            found += [(key, thing.name_ru), (key, thing.name_ru.replace("ё", "е"))]
    return list(dict.fromkeys(found))


def lexicon(sc: Scenario) -> Lexicon:
    """The names players type: ids, English names and Russian names (the names are Msgs, so
    a message naming a thing, such as a did-you-mean, says it in the message's language)."""
    return Lexicon(
        [
            Kind(
                "block",
                {b: blk.named for b, blk in sc.blocks.items()},
                _russian(sc.blocks),
                leading_words=True,
            ),
            Kind(
                "territory",
                {x: terr.named for x, terr in sc.territories.items()},
                _russian(sc.territories),
            ),
            Kind("nation", {n: nat.named for n, nat in sc.nations.items()}, _russian(sc.nations)),
        ]
    )


def grammar(sc: Scenario) -> GrammarKit:
    """The kit's grammar; a refusal of an unknown territory says that `areas` lists them."""
    return AreaGrammar(lexicon(sc), SIDES, (*VERBS, *EDIT_VERBS))

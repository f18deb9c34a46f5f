"""The Russian words of the order language (issue 17), with the terms of the Russian rules
(003): "разыграть карточку за ОПР / за ОП / как событие", "сбросить", "взять карточки",
"раунд с 0 ОПР", "обнулить счет", "тотальная война", "колода", "рука". Each word is another
spelling of an English one: the order parsed is the same, and its canonical text (the log's)
stays English. "Did you mean" for a Cyrillic command word suggests Cyrillic words. Pure.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from adjudicator.core.i18n import Msg, t
from adjudicator.grammar.words import quoted

VERBS: dict[str, tuple[str, ...]] = {
    "play": ("разыграть", "сыграть", "играть"),
    "pass0": ("пас0", "0опр"),
    "spend": ("потратить", "расход"),
    "end": ("конец", "закончить"),
    "discard": ("сбросить", "сброс"),
    "draw": ("взять", "добор"),
    "roll": ("бросок", "бросить"),
    "totalwar": ("тотальная", "тотальнаявойна"),
    "hand": ("рука",),
    "options": ("варианты",),
    "deck": ("колода",),
    "track": ("трек",),
}
MODES = {"опр": "ops", "оп": "rp", "событие": "event", "оп+опр": "rp+ops", "оп+событие": "rp+event"}
MODE_FILLERS = ("за", "как")  # "разыграть 7 за опр", "разыграть 7 как событие"
VARIANTS = {"движение": "move", "обнулить": "reset", "обнуление": "reset"}
SWAP = ("заменить", "замена")
SPENDS = {
    "выход": "leave",
    "покинуть": "leave",
    "стратегическое": "strategic",
    "страт": "strategic",
    "бой": "combat",
}
STAYS = ("остаются", "остается", "остаётся")
NONE = ("никто", "нет")  # "остаются никто": every unit that started there leaves
FROM = ("из",)
AND = ("и",)
WAR = ("война",)  # "тотальная война"
DICE = ("к",)  # "2к6": два кубика по шесть граней
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def cyrillic(word: str) -> bool:
    return bool(_CYRILLIC.search(word))


def unknown_command(word: str, command_words: Mapping[str, str]) -> Msg:
    """The refusal of a Cyrillic command word no verb has: at most three Cyrillic suggestions."""
    russian = [w for w in command_words if cyrillic(w)]
    close = difflib.get_close_matches(word, russian, n=6, cutoff=0.6)
    seen: dict[str, str] = {}
    for w in close:  # one word a verb
        seen.setdefault(command_words[w], w)
    names = list(seen.values())[:3]
    if not names:
        return t("unknown command {word}. Say 'help' for the commands.", word=quoted(word))
    said: Msg = t("{word}", word=names[0])
    for other in names[1:]:
        said = t("{words} or {word}", words=said, word=other)
    return t(
        "unknown command {word}; did you mean {words}? Say 'help' for the commands.",
        word=quoted(word),
        words=said,
    )

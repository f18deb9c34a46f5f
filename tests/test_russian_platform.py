"""The platform's shared texts in Russian: the shared verbs' Russian words, help, parse errors
and did-you-mean, the lifecycle words, refusals, the post, the audit report and the map panel.

The canonical text of an order stays English (it is what the log stores): every Russian word
parses to the order its English word gives, and formats back to the English text.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from PIL import Image

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import Msg, say
from adjudicator.core.system import Side, Situation
from adjudicator.grammar import GrammarKit, Kind, Lexicon, ParseError, parse_lifecycle
from app import durations, intext, rewinds, roles, summary
from app.i18n import language
from render import panel
from render.text import font_of
from storage.audit import audit, format_report
from tests.i18n_support import english_left, russian_share
from tests.test_audit_offline import build

RU = language("ru")
SIDES = (Side("north", "North", ("n",)), Side("south", "South", ("s",)))
LEXICON = Lexicon((Kind("unit", {"u1": "First Regiment", "u2": None}), Kind("hex", {"a1": None})))
GRAMMAR = GrammarKit(LEXICON, SIDES)
# ids, user names, free text of the examples: never translated
IDS = {
    "north",
    "south",
    "alice",
    "bob",
    "carol",
    "u1",
    "u2",
    "a1",
    "n",
    "s",
    "st",
    "mod",
    "rm",
    "opt",
}


@pytest.fixture(autouse=True)
def _no_missing_form():
    RU.missing.clear()
    yield
    assert RU.missing == set()


def ru(text: object) -> str:
    return say(text, RU)


# -- the shared verbs' Russian words (the canonical text stays English)
ROUND_TRIPS = [
    ("статус", "status"),
    ("журнал", "log"),
    ("журнал 10", "log 10"),
    ("помощь", "help"),
    ("справка журнал", "help log"),
    ("помощь модератор добавить", "help moderator add"),
    ("умолчание", "default"),
    ("кубики 3 5", "dice 3 5"),
    ("соль мой кот прошёлся по клавиатуре", "salt мой кот прошёлся по клавиатуре"),
    ("броски 5", "rolls 5"),
    ("аудит", "audit"),
    ("отмена", "undo"),
    ("откат 12 бросок погоды введён дважды", "rewind 12 бросок погоды введён дважды"),
    ("пауза ждём решения", "pause ждём решения"),
    ("продолжить решение принято", "resume решение принято"),
    ("назначить north alice вместо bob", "seat north alice вместо bob"),
    ("освободить south вышел из игры", "unseat south вышел из игры"),
    ("модератор добавить carol", "moderator add carol"),
    ("модератор удалить carol ушла", "moderator remove carol ушла"),
    ("модератор снять carol", "moderator remove carol"),
]


@pytest.mark.parametrize(("russian", "english"), ROUND_TRIPS)
def test_russian_words_of_the_shared_verbs_round_trip_to_the_english_text(russian, english):
    order = GRAMMAR.parse(russian)
    assert order == GRAMMAR.parse(english)
    assert GRAMMAR.format(order) == english


def test_russian_command_words_are_read_in_any_case():
    assert GRAMMAR.parse("Статус") == GRAMMAR.parse("status") == C.Status()
    assert GRAMMAR.parse("ЖУРНАЛ 3") == C.Log(3)


@pytest.mark.parametrize(
    ("russian", "english"),
    [
        ("вступить north", "join north"),
        ("Выйти", "leave"),
        ("начать", "start"),
        ("новая hells-gate песочница", "new hells-gate sandbox"),
        ("связать ABC123", "link ABC123"),
        ("срок 48h", "deadline 48h"),
        ("срок решения 12h", "deadline decisions 12h"),
        ("срок напоминания 24h 1h", "deadline reminders 24h 1h"),
        ("продлить 12h", "extend 12h"),
        ("карта полная", "map full"),
    ],
)
def test_lifecycle_commands_in_russian_are_the_english_commands(russian, english):
    words = {"north": "north", "south": "south", "n": "north"}
    assert parse_lifecycle(russian, words) == parse_lifecycle(english, words) is not None


def test_the_russian_words_are_not_the_words_of_the_systems_orders():
    """Hell's Gate's "ход" (move) and "конец" (end) stay free for the system's own verbs. The
    shared `options` ("варианты", the kit's answer from legal orders) means what Hell's Gate's
    own `options` means, and a system's own verb of that word wins (test_kit_options)."""
    shared = {w for v in GRAMMAR.table.verbs.values() for w in v.aliases}
    assert {"ход", "конец", "атака", "потери", "отход"}.isdisjoint(shared)


# -- help in Russian
def test_russian_help_lists_the_russian_usage_lines():
    listing = ru(GRAMMAR.help())
    assert listing.startswith("Команды (подробнее: 'помощь <КОМАНДА>'):")
    for usage in ("помощь [<КОМАНДА>]", "журнал [<N>]", "откат <НОМЕР-ЗАПИСИ> <ПРИЧИНА...>",
                  "назначить north|south <ПОЛЬЗОВАТЕЛЬ>|ии [лёгкий|обычный] [<ПРИЧИНА...>]", "модератор удалить"):  # fmt: skip
        assert f"  {usage}" in listing
    assert "Вопросы:" in listing and "Отмена и модерация:" in listing
    assert english_left(listing, allowed=IDS) == []


def test_english_help_is_unchanged():
    listing = GRAMMAR.help()
    assert listing.startswith(
        "Commands (type 'help <COMMAND>' for more):\nQuestions:\n  status [full]\n"
    )
    assert GRAMMAR.help("log") == (
        "Usage: log [<N>]\nShow the last N entries of the game log, or all. Example: log 10"
    )


@pytest.mark.parametrize("command", list(GRAMMAR.commands))
def test_russian_help_of_each_shared_command_is_russian_and_its_example_parses(command):
    said = ru(GRAMMAR.help(command))
    assert said.startswith("Формат: ")
    assert english_left(said, allowed=IDS) == []
    russian = GRAMMAR.parse(said.split("Пример: ")[1].splitlines()[0])
    english = GRAMMAR.parse(GRAMMAR.help(command).split("Example: ")[1].splitlines()[0])
    assert type(russian) is type(english)  # the same command (its free text in Russian)
    if not isinstance(english, C.Salt | C.Rewind | C.Pause | C.Resume | C.Seat | C.Unseat):
        assert russian == english or isinstance(english, C.Moderator)


def test_help_of_a_russian_word_is_the_help_of_its_command():
    assert GRAMMAR.help("журнал") == GRAMMAR.help("log")
    assert ru(GRAMMAR.help("статус")).endswith("Другие написания: st, s")


# -- parse errors and did-you-mean
def test_did_you_mean_for_a_cyrillic_word_suggests_cyrillic_words():
    with pytest.raises(ParseError) as err:
        GRAMMAR.parse("статсу")
    said = ru(err.value.message)
    assert said == (
        "неизвестная команда 'статсу'; может быть, статус? Наберите 'помощь', чтобы увидеть "
        "команды."
    )
    assert russian_share(said.replace("'статсу'", "")) == 1.0


def test_did_you_mean_for_a_latin_word_suggests_the_english_words():
    with pytest.raises(ParseError) as err:
        GRAMMAR.parse("stauts")
    assert err.value.message == (
        "unknown command 'stauts'; did you mean status or seat or salt? Say 'help' for the "
        "commands."
    )
    assert "статус" not in ru(err.value.message)


def test_a_word_near_no_command_gets_no_suggestion_in_russian():
    with pytest.raises(ParseError) as err:
        GRAMMAR.parse("щщщщщ")
    assert ru(err.value.message) == (
        "неизвестная команда 'щщщщщ'. Наберите 'помощь', чтобы увидеть команды."
    )


@pytest.mark.parametrize(
    ("line", "russian"),
    [
        ("журнал x", "число: нужно целое число не меньше 1, а не 'x'. Формат: журнал [<N>]"),
        ("кубики 7", "кубик: нужно целое число от 1 до 6, а не '7'. Формат: кубики <N> [<N> ...]"),
        ("откат 3", ("не указано: причина (она попадёт в журнал). Формат: откат <НОМЕР-ЗАПИСИ> "
                    "<ПРИЧИНА...>")),
        ("назначить east bob", ("сторона: нужно north или south, а не 'east'. Формат: назначить "
                               "north|south <ПОЛЬЗОВАТЕЛЬ>|ии [лёгкий|обычный] [<ПРИЧИНА...>]")),
        ("модератор", ("модератор добавить или удалить? но ничего не указано. Формат: модератор "
                      "добавить <ПОЛЬЗОВАТЕЛЬ> [<ПРИЧИНА...>] | модератор удалить "
                      "<ПОЛЬЗОВАТЕЛЬ> [<ПРИЧИНА...>]")),
        ("статус сейчас", "лишнее в конце: 'сейчас'. Формат: статус [полностью]"),
    ],
)  # fmt: skip
def test_parse_errors_are_said_in_russian_with_the_russian_usage(line, russian):
    with pytest.raises(ParseError) as err:
        GRAMMAR.parse(line)
    assert ru(err.value.message) == russian


def test_lexicon_refusals_name_the_kind_in_russian():
    from adjudicator.grammar import Cursor

    def read(words, kind):
        c = Cursor(["x", *words], "x", lexicon=LEXICON, usage=lambda _: "x <ЧАСТЬ>")
        with pytest.raises(ParseError) as err:
            c.thing(kind)
        return ru(err.value.message)

    assert read(["a1"], "unit") == "a1 — это гекс, а здесь нужно указать: часть. Формат: x <ЧАСТЬ>"
    assert read(["firts", "regiment"], "unit").startswith(
        "не найдено: часть 'firts'; может быть, u1 (First Regiment)?"
    )
    assert read([], "hex") == "не указано: гекс. Формат: x <ЧАСТЬ>"


# -- refusals, the post and plural forms in real texts
@pytest.mark.parametrize(
    ("n", "said"),
    [(1, "1 бросок отменяется"), (2, "2 броска отменяются"), (5, "5 бросков отменяются"),
     (21, "21 бросок отменяется"), (12, "12 бросков отменяются")],
)  # fmt: skip
def test_the_rewind_counts_its_discarded_rolls_with_russian_plurals(n, said):
    rolls = [{"row": 3, "purpose": "attack", "value": 4, "epoch": 1, "n": k} for k in range(n)]
    text = rewinds.rolls_text(rolls)
    assert ru(text).startswith(f"{said}: строка 3 attack 4 (эпоха 1, n 0)")
    assert text.startswith(f"{n} {'roll is' if n == 1 else 'rolls are'} discarded: row 3 attack 4")


@pytest.mark.parametrize(
    ("n", "said"), [(101, "101 строка"), (102, "102 строки"), (111, "111 строк")]
)
def test_a_long_message_is_refused_with_the_russian_plural(n, said):
    _, refusal = intext.normalise("x\n" * (n - 1) + "x")
    assert ru(refusal).startswith(f"в сообщении {said}; читается не больше 100")


def test_undo_and_moderation_refusals_in_russian_leave_no_english():
    refusals = []
    target = {"index": 4, "text": "attack a1", "payload": {"rolls": [{"value": 3}]}}
    before = [{"index": k, "kind": "order"} for k in range(5)]
    for rows, effective in (([], []), ([*before, {"index": 5, "kind": "reveal"}], []),
                            ([], [{"index": 6, "actor": "south"}])):  # fmt: skip
        try:
            roles.check_undo({**target, "payload": {} if rows or effective else target["payload"]},
                             rows, effective)  # fmt: skip
        except Rejection as exc:
            refusals.append(exc.message)
    assert len(refusals) == 3
    for text in refusals:
        assert isinstance(text, Msg) and english_left(ru(text), allowed=IDS | {"attack"}) == []


def test_the_after_phase_post_in_russian():
    sit = Situation(turn=2, phase="combat", label="turn 2, combat", to_move=("north",))
    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    post = summary.Post("g1", sit, SIDES, frozenset({"X"}),
                        events=[{"kind": "X", "text": "u1 moved."}], head_index=57,
                        head_hash="3f2a", deadline_at=now + timedelta(hours=3, minutes=12),
                        now=now)  # fmt: skip
    text = summary.post_text(post, {"north": "alice"})
    assert text.splitlines()[-1] == "Log row 57, head hash 3f2a."
    said = ru(text).splitlines()
    assert said == [
        "**g1: ход 2, combat**", "Что произошло:", "- u1 moved.",
        "Ходит North (alice): ход 2, combat.",
        "Срок: 2026-12-01 15:12 по UTC (через 3 ч 12 мин).", "Строка журнала 57, хеш вершины 3f2a.",
    ]  # fmt: skip


def test_durations_in_russian():
    assert ru(durations.format_duration(timedelta(hours=47))) == "47 ч"
    assert ru(summary.in_words(timedelta(days=3, hours=4))) == "3 дн 4 ч"
    with pytest.raises(durations.DeadlineError) as err:
        durations.parse_duration("soon")
    assert (
        ru(str(err.value)) == "'soon' — не длительность: пишите, например, 48ч, 90м, 2д или 1д 12ч"
    )
    assert durations.parse_duration("3 дн 4 ч") == timedelta(days=3, hours=4)  # as it is written


# -- the audit report
def test_the_audit_summary_is_said_in_russian():
    header, rows, _ = build()
    text = format_report(audit(header, rows))
    assert text.startswith("Audit of game 'g1' (hells-gate, uid ")
    said = ru(text)
    assert said.startswith("Аудит игры 'g1' (hells-gate, uid ")
    assert re.search(r"OK: цепочка цела, \d+ раскрыт\w+ зер\w+ совпада\w+", said)
    allowed = IDS | {"uid", "hells-gate", "soviet", "german", "weather", "combat", "draw", "card",
                     "retreat", "breakout", "chi2"}  # fmt: skip
    assert english_left(said, allowed=allowed) == []


def test_an_audit_failure_is_said_in_russian_without_its_row_prefix():
    header, rows, where = build()
    rows[where["salt"]]["payload"]["salt"] = 7  # a salt that is no text, rechained
    from tests.test_audit_offline import relink

    relink(header, rows)
    said = ru(format_report(audit(header, rows)))
    assert f"ОШИБКА в строке {where['salt']}: соль — не текст" in said
    assert "  ожидалось: текст" in said


# -- the map panel
@pytest.mark.parametrize(
    ("lang", "said"), [("ru", "... и ещё 8 строк"), ("en", "... and 8 more lines")]
)
def test_the_panels_more_lines_line_is_said_in_the_maps_language(monkeypatch, lang, said):
    drawn: list[str] = []
    monkeypatch.setattr(panel, "text", lambda img, xy, s, *a, **k: drawn.append(s))
    img = Image.new("RGB", (400, 60), (255, 255, 255))
    lines = [(f"строка {k}", (0, 0, 0), 15) for k in range(9)]
    shown = panel.text_block(img, 5, 5, 60, lines, (0, 0, 0), language=language(lang))
    assert drawn[-1] == said and shown == 1


def test_cyrillic_text_is_drawn_with_a_font_that_has_cyrillic_letters():
    f = font_of("Ход", 20)
    assert bytes(f.getmask("Х")) != bytes(f.getmask("Ж"))  # not one box for every letter
    assert font_of("turn 2", 20) is font_of("move", 20)  # English keeps the bundled font

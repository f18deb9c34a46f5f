"""The small pieces behind replies sized for a chat: plurals, quoting what a user typed, fitting a
reply into one platform message (the end-to-end cases: tests/test_e2e_chat_replies.py)."""

from __future__ import annotations

import pytest

from adjudicator.core.text import noun, plural
from adjudicator.grammar import QUOTE_LIMIT, quoted
from bots.chat import LIMITS, fit


@pytest.mark.parametrize(
    ("count", "word", "said"),
    [
        (1, "hit", "1 hit"),
        (2, "hit", "2 hits"),
        (0, "hit", "0 hits"),
        (1, "hex", "1 hex"),
        (3, "hex", "3 hexes"),
        (2, "step loss", "2 step losses"),
        (1, "more line", "1 more line"),
        (2, "refuge", "2 refuges"),
    ],
)
def test_plurals_agree_with_their_count(count, word, said):
    assert plural(count, word) == said
    assert noun(count, word) == said.split(" ", 1)[1]


def test_a_refusal_quotes_at_most_60_characters():
    assert quoted("attack") == "'attack'"
    long = quoted("x" * 10_000)
    assert len(long) == QUOTE_LIMIT + 2 and long.endswith("…'")


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_a_reply_is_cut_to_one_message_with_the_count_of_lines_left_out(platform):
    limit = LIMITS[platform]
    text = "\n".join(f"line {n} " + "y" * 40 for n in range(500))
    cut = fit(text, platform)
    assert len(cut) <= limit and cut.startswith("line 0 ")
    kept = cut.count("\n")
    assert cut.endswith(f"… ({500 - kept} more lines not shown: ask for less, e.g. `log 20`, "
                        "`units <HEX>`, `options <UNIT>`)")  # fmt: skip
    one_line = fit("z" * 10_000, platform)
    assert len(one_line) <= limit and one_line.startswith("zzz")
    assert one_line.endswith("… (the rest of the line not shown: ask for less, e.g. `log 20`, "
                             "`units <HEX>`, `options <UNIT>`)")  # fmt: skip
    assert fit("short", platform) == "short" and fit(text, "terminal") == text


def test_telegram_counts_utf16_code_units():
    text = "\n".join("🙂" * 30 for _ in range(100))  # 60 code units a line
    cut = fit(text, "telegram")
    assert sum(2 if ord(c) > 0xFFFF else 1 for c in cut) <= LIMITS["telegram"]

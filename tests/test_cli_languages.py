"""The command line in the players' languages and whole: `pbem say|show|render|play --lang ru`;
`pbem play`'s pass-the-keyboard prompt says what it waits for and a line typed at it is refused
with the reason, never dropped unsaid; `pbem demo` prints every order of a phase, no line cut."""

from __future__ import annotations

import io
import re

import pytest

from adjudicator.core import registry
from app.i18n import LANGUAGES
from bots import cli, cli_parser
from tests.systems import duel

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path, capsys) -> str:
    path = str(tmp_path / "g.db")
    assert run(capsys, "new", "g", "--db", path)[0] == 0
    return path


def test_the_parser_offers_every_language_the_bot_speaks():
    assert set(cli_parser.LANGUAGES) == set(LANGUAGES)


def test_say_answers_in_russian_with_lang_ru(capsys, db):
    code, ru, _ = run(capsys, "say", "g", "--as", "soviet", "status", "--lang", "ru", "--db", db)
    assert code == 0 and CYRILLIC.search(ru), ru
    code, en, _ = run(capsys, "say", "g", "--as", "soviet", "status", "--db", db)
    assert code == 0 and not CYRILLIC.search(en), en
    code, ru, _ = run(capsys, "say", "g", "--as", "soviet", "end", "--lang", "ru", "--db", db)
    assert code == 0 and CYRILLIC.search(ru), ru
    code, ru, _ = run(capsys, "say", "g", "--as", "soviet", "fly D7", "--lang", "ru", "--db", db)
    assert code == 1 and ru.startswith("Отказано"), ru  # a refusal too


def test_show_in_russian_with_lang_ru(capsys, db):
    code, ru, _ = run(capsys, "show", "g", "--lang", "ru", "--db", db)
    assert code == 0 and "СССР" in ru, ru
    code, en, _ = run(capsys, "show", "g", "--db", db)
    assert code == 0 and "Soviet" in en and not CYRILLIC.search(en), en
    assert run(capsys, "show", "g", "--lang", "fr", "--db", db)[0] == 2  # a usage error


def test_render_draws_russian_labels_with_lang_ru(capsys, db, tmp_path):
    en, ru = tmp_path / "en.png", tmp_path / "ru.png"
    assert run(capsys, "render", "g", "-o", str(en), "--db", db)[0] == 0
    assert run(capsys, "render", "g", "-o", str(ru), "--lang", "ru", "--db", db)[0] == 0
    again = tmp_path / "en2.png"
    assert run(capsys, "render", "g", "-o", str(again), "--lang", "en", "--db", db)[0] == 0
    assert en.read_bytes() == again.read_bytes()  # the drawing is deterministic ...
    assert en.read_bytes() != ru.read_bytes()  # ... so the difference is the language


@pytest.fixture
def duel_system():
    registry.register(duel.SYSTEM)
    yield duel.SYSTEM
    registry.unregister(duel.SYSTEM.id)


def _play(capsys, monkeypatch, db: str, typed: list[str], *lang: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    code, out, _ = run(capsys, "play", "d", "--db", db, *lang)
    assert code == 0
    return out


def test_play_refuses_a_line_typed_at_the_pass_the_keyboard_prompt(
    duel_system, capsys, monkeypatch, tmp_path
):
    db = str(tmp_path / "d.db")
    assert run(capsys, "new", "d", "--game", "hidden-duel", "--db", db)[0] == 0
    # north plays a round; "draw" is typed at south's pass prompt: refused, said why, asked
    # again; Enter passes the keyboard, and south's own "draw" is taken
    typed = ["", "draw", "roll", "play", "draw", "", "draw", "quit"]
    out = _play(capsys, monkeypatch, db, typed)
    assert "[south: press Enter]" in out  # the prompt says what it waits for
    refusal = "Not taken: `draw`. This prompt waits for Enter from south alone"
    assert out.count(refusal) == 1, out
    before, after = out.split(refusal)
    assert len(re.findall(r"You draw the \d", before)) == 1  # north's, before the refusal
    assert len(re.findall(r"You draw the \d", after)) == 1  # south's, after Enter
    assert after.count("[south: press Enter]") == 1  # the prompt asked again

    # quit at the prompt ends the session; in Russian with --lang ru
    assert run(capsys, "new", "e", "--game", "hidden-duel", "--db", db)[0] == 0
    monkeypatch.setattr("sys.stdin", io.StringIO("status\nquit\n"))
    code, out, _ = run(capsys, "play", "e", "--db", db, "--lang", "ru")
    assert code == 0 and "Не принято: `status`" in out and "нажмите Enter" in out, out


def test_demo_lines_are_whole(capsys):
    code, out, _ = run(capsys, "demo", "--seed", "3")
    assert code == 0 and "Result after" in out
    assert "…" not in out  # no line cut short
    # every order of a phase is printed: a long phase goes on, indented, on the next lines
    continued = [line for line in out.splitlines() if re.match(r" {20}\S", line)]
    assert continued, out[:2000]
    phases = [line for line in out.splitlines() if re.match(r"T\d+ | {20}\S", line)]
    assert max(map(len, phases)) <= 150  # a phone-friendly width kept, by lines, not cuts

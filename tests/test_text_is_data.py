"""Text is data (issue 13, item 7): a property test over arbitrary Unicode and the short CI
version of the message fuzz (bench/bench_fuzz_messages.py runs the long one).

Every message, whatever its code points (lone surrogates, NUL, controls, non-characters,
separators, astral planes), gets an answer from `ChatService.handle` without an exception
(raised, or caught and logged by its last-resort handler), and a refused message changes
nothing: the log, the seats, the moderators, the pause flag and the outbox stay as they were.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.core import registry
from app import intext

_SPEC = importlib.util.spec_from_file_location(
    "bench_fuzz_messages", Path(__file__).resolve().parent.parent / "bench/bench_fuzz_messages.py"
)
assert _SPEC is not None and _SPEC.loader is not None
fuzz_mod = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = fuzz_mod  # (its dataclasses look their module up)
_SPEC.loader.exec_module(fuzz_mod)

ANY = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
HEADS = st.sampled_from(("", *fuzz_mod.HEADS))


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    f = fuzz_mod.Fuzz(str(tmp_path_factory.mktemp("fuzz")))
    yield f
    f.close()


# No deadline and no too_slow health check here: on a loaded machine hypothesis is slow, not wrong.
@given(st.text(ANY, max_size=300))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_normalise_makes_any_text_storable_and_bounded(text):
    clean, refusal = intext.normalise(text)
    clean.encode("utf-8")  # never a lone surrogate
    assert "\x00" not in clean and "\r" not in clean
    assert len(clean.splitlines()) <= clean.count("\n") + 1  # the lines counted are all
    assert refusal is None  # 300 code points are within both limits
    assert intext.normalise(clean) == (clean, None)  # idempotent


@given(head=HEADS, rest=st.text(ANY, max_size=80), user=st.sampled_from((1, 2, 3)))
@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_handle_answers_any_text_and_a_refusal_changes_nothing(fuzz, head, rest, user):
    before = fuzz.fingerprint()
    errors = fuzz.errors.count
    outs = fuzz.say(user, f"{head} {rest}", private=False)
    assert fuzz.errors.count == errors  # nothing caught by the last-resort handler either
    assert isinstance(outs, list)
    if outs and all("Refused" in o.text.split("\n")[0] for o in outs):
        assert fuzz.fingerprint() == before


def test_the_line_and_length_limits_are_refusals_with_the_limit_named():
    _, refusal = intext.normalise("x" * (intext.MAX_CHARS + 1))
    assert refusal is not None and f"at most {intext.MAX_CHARS} are read" in refusal
    _, refusal = intext.normalise("\u2028".join(["status"] * (intext.MAX_LINES + 1)))
    assert refusal is not None and f"at most {intext.MAX_LINES} are read" in refusal
    assert intext.normalise("\n".join(["status"] * intext.MAX_LINES))[1] is None


def test_20000_fuzzed_messages_are_normalised_and_every_grammar_reads_them_without_raising():
    """The text layer alone, 20,000 messages of the fuzz's generator: each normalised, every
    fourth then parsed by each installed system's grammar (a refusal is a ParseError, never
    an exception; all of them would make the test slow: did-you-mean is not cheap)."""
    rng = random.Random(13)
    grammars = [registry.get(s.id).load(*_scenario(s)).grammar for s in registry.systems()]
    refused = 0
    for n in range(20_000):
        text, refusal = intext.normalise(fuzz_mod.message(rng))
        text.encode("utf-8")
        if refusal is not None:
            refused += 1
            continue
        for g in grammars if n % 4 == 0 else ():
            g.parse_message(text)
    assert 0 < refused < 20_000


def _scenario(kind):
    from app import games

    return games.scenario_text(kind, None)


def test_a_fuzz_of_2000_messages_through_the_chat_service(fuzz):
    counts = fuzz.run(2000, seed=7)
    assert counts.messages == 2000
    assert counts.exceptions == 0, counts.first_failures
    assert counts.changed_by_refused == 0, counts.first_failures
    assert counts.refused > 1500  # most random text is refused, and is answered


def test_pbem_say_normalises_its_text_too(tmp_path, monkeypatch, capsys):
    from bots.cli import main
    from storage import Store

    monkeypatch.delenv("PBEM_DB", raising=False)
    db = str(tmp_path / "games.db")
    assert main(["new", "g", "--db", db, "--creator", "mod"]) == 0
    assert main(["say", "g", "--db", db, "--user", "mod", "pause \ud800 lunch"]) == 0
    assert main(["say", "g", "--db", db, "--as", "soviet", "status\n" * 150]) == 2
    capsys.readouterr()
    store = Store(db)
    try:
        assert store.load("g", with_log=False).paused_why == "\ufffd lunch"
    finally:
        store.close()

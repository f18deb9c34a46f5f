"""Section 8, a bare `losses` (no unit, no retreat) under the rules versions (issue 26).

Rules 2 (every new game): a bare `losses` names neither the units that take the hits (8.25) nor
whether the last hit is a retreat (8.29) of every unit without a Retreat marker (8.31); it stands
for the one legal answer where exactly one is legal, and is refused, with the legal answers,
where more than one is. Rules 1 (every stored game: its setup row names no rules version): it
takes the hits as step losses where only one set of step losses is legal, even where a retreat
is legal too, as it did when those games were played.

The issue's position: the setup (turn 1); 20tk and 29tk attack the lone 389id in C6 from C7
with die 6: 6:1, 2 hits; 389id may retreat to B7 or D6 (German units there, 12.3).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from adjudicator.core.dice import FixedDice
from adjudicator.core.i18n import say
from adjudicator.hells_gate import bare_losses
from adjudicator.hells_gate.grammar import help_text
from adjudicator.hells_gate.state import RULES_VERSION, GameState
from adjudicator.hells_gate.system import HellsGateSystem
from app.i18n import language
from app.service import GameService
from storage import Store, state_hash
from tests.hells_gate.helpers import A, Game, L, grammar_of
from tests.hells_gate.test_08_hits_and_retreats import attack_c4

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HIT = (("moderator", "dice 6"), ("soviet", "attack A1 with 47rc"))  # 1 hit on the lone 34id
BARE = L()


def lone_389id(scenario, rules: int = RULES_VERSION) -> Game:
    """The issue's position: 2 hits on the lone 389id in C6, a retreat to B7 or D6 legal."""
    g = Game(scenario)
    if rules != RULES_VERSION:  # a game set up under older rules (a stored game's state)
        g.state = GameState.from_json({**g.state.to_json(), "rules": rules})
    out = g.do("soviet", A("C6", ("20tk", "29tk")), dice=[6])
    assert out.combat["hits"] == 2 and [u.id for u in g.state.units_in("C6")] == ["389id"]
    assert {a.retreat for a in g.legal("german")} == {None, "B7", "D6"}
    return g


def quoted(scenario, text: str) -> set:
    """The answers a text quotes (`losses ...`, `потери ...`), parsed."""
    grammar = grammar_of(scenario)
    return {grammar.parse(q) for q in re.findall(r"`((?:losses|потери)\b[^`]*)`", text)}


# -- rules 2 -------------------------------------------------------------------------------------


def test_2_7_a_new_game_is_set_up_under_the_newest_rules_and_a_stored_state_reads_as_rules_1(
    scenario,
):
    """core.system: a new game takes the newest rules version; the state JSON of a game under
    rules 1 is written as before (no `rules` key: its snapshots and hashes stay equal) and a
    state without the key reads back as rules 1."""
    system = HellsGateSystem(scenario)
    assert system.rules_version == RULES_VERSION == 2
    new = Game(scenario).state
    assert new.rules == 2 and new.to_json()["rules"] == 2
    assert GameState.from_json(new.to_json()) == new
    old = GameState.from_json({k: v for k, v in new.to_json().items() if k != "rules"})
    assert old.rules == 1 and "rules" not in old.to_json()
    assert old.clone().rules == 1 and new.clone().rules == 2
    assert system.initial(False, FixedDice([]), rules=1).state.rules == 1
    with pytest.raises(ValueError, match="rules versions 1 to 2"):
        system.initial(False, FixedDice([]), rules=3)


def test_8_29_8_31_rules_2_a_bare_losses_on_the_lone_389id_with_a_legal_retreat_is_refused(
    scenario,
):
    """The issue: 2 hits on the lone 389id, a retreat legal; a bare `losses` took both hits as
    step losses and destroyed it. Under rules 2 it is refused (8.29: the last hit may be a
    retreat; 8.31; 8.25), the refusal lists every legal answer, and nothing changes."""
    g = lone_389id(scenario)
    rej = g.refuse("german", BARE)  # Game.refuse: the state is unchanged
    assert (rej.code, rej.rule) == ("losses-choice", "8.29")
    assert "2 hits in C6" in rej.message
    assert all(rule in rej.message for rule in ("8.25", "8.29", "8.31")), rej.message
    assert "`losses 389id 389id` or `losses 389id retreat B7` or `losses 389id retreat D6`" in (
        rej.message
    )
    assert quoted(scenario, rej.message) == set(g.legal("german"))  # the answers: the legal ones
    assert g.state.pending and g.unit("389id").hex == "C6" and not g.unit("389id").reduced
    out = g.do("german", L(("389id",), "D6"))  # one of them answers
    assert [e.kind for e in out.events] == ["UnitFlipped", "UnitRetreated"]
    assert g.unit("389id").hex == "D6" and g.unit("389id").retreated


def test_8_29_rules_2_the_refusal_is_said_in_russian_with_answers_that_parse(scenario):
    """Every text a player reads has its Russian form; the answers it lists are Russian orders
    (`потери 389id отход D6`) that parse to the legal answers."""
    ru = language("ru")
    ru.missing.clear()
    g = lone_389id(scenario)
    said = say(g.refuse("german", BARE).message, ru)
    assert ru.missing == set()
    assert said.startswith("2 удара в C6: «потери» без продолжения не говорят"), said
    assert "`потери 389id отход D6`" in said and "8.31" in said
    assert quoted(scenario, said) == set(g.legal("german"))


def test_8_25_rules_2_two_units_and_step_losses_only_a_bare_losses_is_refused_citing_8_25(
    scenario,
):
    """8.25: either of two full-strength units may take the hit, no retreat is legal (D4 and D5
    hold Soviet units, C3 and C5 are in the attacker's ZOC): refused, naming both answers."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 1, extra={"48rc": "D4", "75rc": "D5"})
    assert {a.retreat for a in g.legal("german")} == {None}
    rej = g.refuse("german", BARE)
    assert (rej.code, rej.rule) == ("losses-choice", "8.25")
    assert "1 hit in C4" in rej.message and "retreat" not in rej.message
    assert quoted(scenario, rej.message) == {L(("88id",)), L(("72id",))}


def test_8_29_rules_2_many_answers_are_shortened_and_options_named(scenario):
    """Four full-strength units and 2 hits, two retreat hexes: 14 legal answers; the refusal
    lists the first of them and says how many more `options` lists."""
    g, _ = attack_c4(scenario, ["88id", "72id", "57id", "389id"], 2)
    answers = g.legal("german")
    assert len(answers) == 14
    rej = g.refuse("german", BARE)
    assert rej.code == "losses-choice"
    assert f"or {14 - bare_losses.EXAMPLES} more (`options` lists them)" in rej.message
    assert quoted(scenario, rej.message) == set(answers[: bare_losses.EXAMPLES])


def test_8_23_rules_2_with_exactly_one_legal_answer_a_bare_losses_is_that_answer(scenario):
    """1 hit on the lone 389id; then (a moderator's edit) Soviet units stand in both retreat
    hexes, so that a step loss is the one legal answer (8.34): the bare `losses` takes it and
    is logged as the answer it stands for."""
    g, _ = attack_c4(scenario, ["389id"], 1)
    assert len(g.legal("german")) == 3  # a step loss, or a retreat to D4 or D5
    for uid, hex_id in (("48rc", "D4"), ("75rc", "D5")):
        g.state.units[uid].box, g.state.units[uid].hex = "map", hex_id
    assert g.legal("german") == [L(("389id",))]
    out = g.do("german", BARE)
    assert out.order == L(("389id",))
    assert g.unit("389id").reduced and g.unit("389id").hex == "C4" and not g.state.pending


def test_8_30_rules_2_when_the_one_legal_answer_is_a_retreat_a_bare_losses_retreats(scenario):
    """8.30: 2 hits on the lone Soviet 48rc: the last must be a retreat, to C5 (75rc there) or
    D5 (D4 is in the ZOC of 88id in E3). Once 75rc has left C5 (a moderator's edit), D5 is the
    one legal answer: a bare `losses` flips 48rc and retreats it there. Under rules 1 the same
    order is refused (8.30): it reads a bare `losses` as step losses only."""
    extra = {"75rc": "C5", "88id": "E3"}
    for rules in (2, 1):
        g, _ = attack_c4(scenario, ["48rc"], 2, side="german", extra=extra, rules=rules)
        assert {a.retreat for a in g.legal("soviet")} == {"C5", "D5"}
        g.state.units["75rc"].box, g.state.units["75rc"].hex = "off", None
        assert g.legal("soviet") == [L(("48rc",), "D5")]
        if rules == 1:
            assert g.refuse("soviet", BARE).rule == "8.30"
            continue
        out = g.do("soviet", BARE)
        assert out.order == L(("48rc",), "D5")
        assert [e.kind for e in out.events] == ["UnitFlipped", "UnitRetreated"]
        assert g.unit("48rc").hex == "D5" and g.unit("48rc").reduced and g.unit("48rc").retreated


# -- rules 1 -------------------------------------------------------------------------------------


def test_8_29_rules_1_a_bare_losses_on_the_lone_389id_still_takes_both_hits(scenario):
    """A game set up under rules 1 keeps the old reading: the only set of step losses is taken,
    389id is destroyed, though a retreat was legal; the order is logged as `losses 389id 389id`."""
    g = lone_389id(scenario, rules=1)
    out = g.do("german", BARE)
    assert out.order == L(("389id", "389id"))
    assert [e.kind for e in out.events] == ["UnitFlipped", "UnitEliminated"]
    assert g.unit("389id").box == "eliminated" and g.state.rules == 1


def test_8_23_rules_1_two_units_a_bare_losses_is_refused_as_before(scenario):
    """Rules 1: with 1 hit on two units in the hex a bare `losses` was refused for naming no
    unit (8.23); rules 2 refuses it naming the choice (8.29), with the answers."""
    g, _ = attack_c4(scenario, ["88id", "72id"], 1, rules=1)
    rej = g.refuse("german", BARE)
    assert (rej.code, rej.rule) == ("wrong-number-of-losses", "8.23")
    g, _ = attack_c4(scenario, ["88id", "72id"], 1)
    rej = g.refuse("german", BARE)
    assert (rej.code, rej.rule) == ("losses-choice", "8.29")
    assert quoted(scenario, rej.message) == set(g.legal("german"))


# -- help ----------------------------------------------------------------------------------------


def test_8_29_help_losses_says_what_a_bare_losses_does():
    """Help and behaviour agree: no more "'losses' alone takes no step loss"."""
    text = help_text("losses")
    assert "takes no step loss" not in text
    assert "'losses' alone stands for the only legal answer" in text
    assert "refused, with the legal answers, where more than one is legal" in text
    assert "rules version 1" in text


# -- the app: the rules version in the setup row -------------------------------------------------


def _play(service: GameService, game: str, lines) -> list:
    replies = []
    for actor, text in lines:
        (reply,) = service.say(game, actor, text)
        replies.append(reply)
    return replies


def test_8_29_a_new_game_records_rules_2_and_refuses_the_bare_losses():
    """app.lifecycle: a new game's setup row records rules 2 and its state keeps it; there a
    bare `losses` on the lone 34id (1 hit, a retreat to A2 or B2 legal) is refused."""
    service = GameService(Store(":memory:"))
    service.new_game("new", sandbox=True)
    assert service.store.log("new")[0].payload["rules"] == 2
    assert service.state("new").rules == 2
    assert "Rules version 2." in service.status("new").splitlines()
    *_, reply = _play(service, "new", [*HIT, ("german", "losses")])
    assert not reply.ok and reply.error["code"] == "losses-choice", reply.reply
    assert "`losses 34id` or `losses retreat A2` or `losses retreat B2`" in reply.reply
    assert service.store.log("new")[-1].text == "attack A1 with 47rc"  # nothing logged
    (reply,) = service.say("new", "german", "losses 34id")
    assert reply.ok
    assert service.audit("new")[0]
    service.verify("new")


def test_8_29_a_game_whose_setup_row_names_no_rules_replays_and_plays_under_rules_1(monkeypatch):
    """A game set up as every stored game was (its setup row without "rules"): it is set up again
    under rules 1 on replay, and a bare `losses` still takes the hit as a step loss."""
    monkeypatch.setattr(HellsGateSystem, "rules_version", 1)  # the code before rules 2
    service = GameService(Store(":memory:"))
    service.new_game("old", sandbox=True)
    monkeypatch.undo()
    assert "rules" not in service.store.log("old")[0].payload
    assert "rules" not in service.store.snapshot("old")
    assert "Rules version" not in service.status("old")  # as stored games' status always read
    *_, reply = _play(service, "old", [*HIT, ("german", "losses")])
    assert reply.ok and "34id (34th Infantry Division) takes a hit and is reduced" in reply.reply
    assert service.store.log("old")[-1].text == "losses 34id"
    replayed = service.replay("old")
    assert replayed.rules == 1
    assert state_hash(service.system("old").state_to_json(replayed)) == state_hash(
        service.store.snapshot("old")
    )
    assert service.audit("old")[0]
    service.verify("old")


def test_8_29_the_stored_games_of_the_legacy_fixture_replay_under_rules_1(tmp_path):
    """tests/fixtures/legacy-0.1.db: no setup row names a rules version; every Hell's Gate game
    is set up again under rules 1 (test_legacy_games checks that they replay as they did)."""
    path = tmp_path / "legacy.db"
    shutil.copy(FIXTURES / "legacy-0.1.db", path)
    store = Store(str(path))
    try:
        service = GameService(store)
        games = [g.name for g in store.list_games()]
        assert games
        for name in games:
            assert "rules" not in store.log(name)[0].payload
            if service.system(name).id == "hells-gate":
                assert service.replay(name).rules == 1
    finally:
        store.close()

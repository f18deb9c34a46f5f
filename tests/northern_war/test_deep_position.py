"""A position deep in a game set up with the moderator's tools only (issue 26): year 2, its
winter turn, Charles XII in exile (4.6), a few strengths and a control changed, all in a sandbox
game through the application (every edit a chained row), then played on with real orders to the
end of the year, and the game audits clean: the chain, the replay of every row (edits included)
and the dice. Also: no view of the other side or of the public holds a strength the moderator
set (2.4, 2.19). Set up by the editor, not played to: fast."""

from __future__ import annotations

import hashlib
import json
import time

from adjudicator.core.dice import FixedDice, HashDice
from adjudicator.core.events import Viewer
from adjudicator.core.system import MODERATOR_ACTOR
from adjudicator.northern_war.state import EXILE
from app.service import GameService
from storage import Store
from tests.northern_war.helpers import sample

MOD = MODERATOR_ACTOR


def service() -> GameService:
    epochs = iter(hashlib.sha256(b"deep %d" % n).hexdigest() for n in range(1, 100))
    svc = GameService(Store(":memory:"), seeds=lambda: next(epochs))
    svc.new_game("deep", system="northern-war", sandbox=True, creator="mod")
    for line in ("seat sweden alice", "seat coalition bob"):
        say(svc, "mod", line)
    return svc


def say(svc: GameService, user: str, text: str) -> str:
    (reply,) = svc.say("deep", None, text, user=user)
    assert reply.ok, (text, reply.error)
    return str(reply.reply)


def test_4_6_n13_year_2_winter_turn_charles_in_exile_set_up_by_the_editor_plays_on_and_audits():
    began = time.process_time()
    svc = service()
    system = svc.system("deep")
    sc = system.scenario
    for line in (
        "set year 2",
        f"set turn {sc.turns_per_year}",  # the winter turn (N13)
        "place charles exile",
        "set exile 1",  # one return roll made already (4.8)
        "set strength repnin 2",
        "set strength rehnskiold 3",
        "set control ingermanland coalition",
        "place sheremetev novgorod",
        "set first coalition",  # before the rolls: the side first on a tie (5.5)
        "dice 3 5",  # Sweden 3 (2 actions), the Coalition 5 (3 actions): the Coalition first
    ):
        say(svc, "mod", line)
    for view in ("sweden", "public"):  # the secret edits' values reach neither
        told = svc.log_text("deep", view=view)
        assert "Moderator changes the strength of a block of Russia in Novgorod." in told
        assert "Repnin" not in told and "set strength" not in told, view
    assert "Moderator sets the strength of Repnin to 2." in svc.log_text("deep", view="coalition")
    state = svc.state("deep")
    assert (state.year, state.turn, state.phase) == (2, sc.turns_per_year, "entry")
    assert (state.status["charles"], state.exile_attempts) == (EXILE, 1)
    assert state.strength["repnin"] == 2 and state.control["ingermanland"] == "coalition"

    say(svc, "alice", "end")  # the entry phase: the action rolls, fixed
    state = svc.state("deep")
    assert state.rolls == {"sweden": 3, "coalition": 5} and state.to_move == "coalition"
    say(svc, "bob", "replace repnin")  # 5.32: Novgorod is Russian home territory (N8 c)
    say(svc, "bob", "end")
    assert svc.state("deep").strength["repnin"] == 3
    say(svc, "alice", "move lewenhaupt estonia")
    say(svc, "alice", "end")

    state = svc.state("deep")
    if sc.years == 2:  # the last year: no winter campaign without Charles (6.7), the end (N15)
        assert state.result is not None and state.phase == "over"
    else:  # the next year's entry phase rolls his second return (4.7, 4.8)
        assert state.year == 3 and state.exile_attempts in (None, 2)
    ok, text, _ = svc.audit("deep")
    assert ok, text
    assert "every event, state hash and the final state matches" in text
    assert "(fixed)" in text  # the moderator's dice, marked as such
    assert time.process_time() - began < 10  # CPU seconds


def test_2_19_no_view_of_the_other_side_or_the_public_holds_a_strength_the_moderator_set():
    system = sample()
    state = system.initial(True, HashDice(7)).state
    for text in ("set strength peter 1", "set strength repnin 1", "place sheremetev moscow"):
        state = system.apply(state, MOD, system.grammar.parse(text), FixedDice([])).state
    state = system.apply(state, "sweden", system.grammar.parse("end"), FixedDice([3, 5])).state
    assert (state.strength["peter"], state.strength["repnin"]) == (1, 1)
    for viewer in (Viewer.of(["sweden"]), Viewer.public()):
        seen = system.view(state, viewer)
        shown = json.dumps(system.show(seen))
        for block in ("peter", "repnin", "sheremetev"):
            assert f'"{block}"' not in shown, (viewer, block)
        russian = [b for b in seen.strength if b.startswith("?russia@")]
        assert russian and all(seen.strength[b] == 0 for b in russian)  # face down: no value
        assert "?russia@moscow#2" in seen.at  # where and whose only: Sheremetev joined one
    own = system.view(state, Viewer.of(["coalition"]))
    assert (own.strength["peter"], own.at["sheremetev"]) == (1, "moscow")

"""Hidden information of the block game, at the engine and view level (no images): over 200
random legal games, what any viewer gets (the view, `status`, `blocks`, the events he may see)
never depends on a value hidden from him (rule 2.19, N22-N24); a planted leak is found. And a
pixel comparison: the group's image and each side's image are the same, pixel for pixel, for a
state whose hidden values differ (5 games); a leaky drawer's image is not."""

from __future__ import annotations

import random

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.northern_war import drawer, views
from adjudicator.northern_war import orders as O
from adjudicator.northern_war.system import NorthernWar
from tests.northern_war.helpers import hidden_from, perturbed, play, sample, viewers

GAMES = 200
BATTLE_KINDS = {"BattleBegan", "SiegeDice", "SiegeResolved", "SiegeLapsed"}


def what_he_gets(system, state, viewer: Viewer) -> tuple:
    seen = system.view(state, viewer)
    actor = next(iter(viewer.sides), "moderator")
    status = system.answer(seen, actor, C.Status()).text
    blocks = system.answer(seen, actor, O.Blocks()).text
    return system.state_to_json(seen), status, blocks


def leaks_in_views(system, games: range, every: int = 8) -> list[str]:
    found, rng = [], random.Random(1)
    for seed in games:
        for n, (state, _side, _order, _out) in enumerate(play(system, seed)):
            if n % every:
                continue
            for viewer in viewers()[:3]:  # a moderator's view is the public one (tested below)
                if not hidden_from(system, state, viewer):
                    continue
                other = perturbed(system, state, viewer, rng)
                if what_he_gets(system, state, viewer) != what_he_gets(system, other, viewer):
                    found.append(f"game {seed}, order {n}, viewer {viewer.label}")
    return found


def visible_events(events, viewer: Viewer) -> list[str]:
    shown = []
    for e in events:
        if e.kind in BATTLE_KINDS:  # a battle reveals its blocks; a siege's result is public
            break
        if e.audience.sees(viewer):
            shown.append(e.text)
    return shown


def leaks_in_events(system, games: range) -> list[str]:
    """The events an order gives, as the opponent (and the public) sees them, are the same when
    the hidden values of the side giving it differ (up to a battle, which reveals them)."""
    found, rng = [], random.Random(2)
    for seed in games:
        for n, (state, side, order, out) in enumerate(play(system, seed)):
            opponent = Viewer.of(["coalition" if side == "sweden" else "sweden"])
            other = perturbed(system, state, opponent, rng, shuffle=False)  # his own orders
            try:
                again = system.apply(other, side, order, fixed_like(out))
            except Rejection:
                continue  # e.g. a replacement on a block now at its maximum
            for viewer in (opponent, Viewer.public()):
                if visible_events(out.events, viewer) != visible_events(again.events, viewer):
                    found.append(f"game {seed}, order {n}: {order}")
    return found


def fixed_like(out):
    from adjudicator.core.dice import FixedDice

    return FixedDice([r.value for r in out.rolls] + [1] * 200)


def test_2_19_no_view_status_or_block_list_depends_on_a_hidden_value_over_200_games():
    assert leaks_in_views(sample(), range(GAMES)) == []


def test_n23_no_event_a_viewer_sees_depends_on_a_hidden_value_of_the_other_side():
    assert leaks_in_events(sample(), range(40)) == []


class LeakyView(NorthernWar):
    """A planted leak: the public view keeps Repnin's identity and strength."""

    def view(self, state, viewer):
        seen = super().view(state, viewer)
        where = state.at["repnin"]
        if "coalition" not in viewer.sides and not viewer.over and where and not seen.battle:
            anon = next(b for b in seen.at if b.startswith(f"?russia@{where}#"))
            for table in (seen.at, seen.strength, seen.status):
                del table[anon]
            seen.at["repnin"], seen.status["repnin"] = where, "map"
            seen.strength["repnin"] = state.strength["repnin"]
        return seen


class LeakyReplacement(NorthernWar):
    """A planted leak: the public replacement news names the block's new strength."""

    def apply(self, state, actor, order, dice):
        out = super().apply(state, actor, order, dice)
        if isinstance(order, O.Replace):
            out.events[0] = type(out.events[0])(
                "StepReplaced", f"{order.block} now {out.state.strength[order.block]}", {}
            )
        return out


def test_the_scan_finds_a_planted_leak_in_a_view():
    assert leaks_in_views(sample(LeakyView), range(3)) != []


def test_the_scan_finds_a_planted_leak_in_a_public_event():
    assert leaks_in_events(sample(LeakyReplacement), range(30)) != []


def images_of(system, state, view: str | None) -> bytes:
    viewer = Viewer.of([view] if view else [])
    return drawer.draw(system, system.view(state, viewer), view=view)


def test_2_19_the_group_image_and_each_side_image_hide_what_they_must_over_5_games():
    system, rng, compared = sample(), random.Random(3), 0
    for seed in range(5):
        for n, (state, _side, _order, _out) in enumerate(play(system, seed)):
            if n % 12:
                continue
            for view in (None, "sweden", "coalition"):
                viewer = Viewer.of([view] if view else [])
                other = perturbed(system, state, viewer, rng)
                assert images_of(system, state, view) == images_of(system, other, view), (seed, n)
                compared += 1
    assert compared >= 20


def test_a_leaky_view_changes_the_group_image():
    system, leaky = sample(), sample(LeakyView)
    state = next(s for s, *_ in play(system, 1) if s.phase == "action")
    other = perturbed(system, state, Viewer.public(), random.Random(4))
    assert images_of(leaky, state, None) != images_of(leaky, other, None)


def test_2_19_the_public_view_holds_no_enemy_identity_and_no_strength():
    system = sample()
    state = next(s for s, *_ in play(system, 2) if s.phase == "action" and s.battle is None)
    seen = system.view(state, Viewer.public())
    on_map = [b for b in seen.at if seen.status[b] == "map"]
    assert on_map and all(views.anonymous(b) and seen.strength[b] == 0 for b in on_map)
    own = system.view(state, Viewer.of(["sweden"]))
    assert {b for b in own.at if not views.anonymous(b) and own.status[b] == "map"} == {
        b for b in state.at if state.status[b] == "map" and system.scenario.side_of(b) == "sweden"
    }

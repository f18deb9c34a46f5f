"""The flags of the grammar verbs (adjudicator/grammar/verbs.py: kind, private, sides) give
kind_of, is_private and a side's help; and core.hexgrid reads both id schemes."""

from __future__ import annotations

import pytest

from adjudicator.core import registry
from adjudicator.core.hexgrid import Digits, HexGrid, Letters
from app import games
from tests.systems import duel, race, secret_dice

# fmt: off
TODAY = {  # (verb, order type) -> (kind_of, is_private) as each system answered before the kit
    'borodino': {
        ('at', 'At'): ('order', False),
        ('disorder', 'Disorder'): ('order', False),
        ('rout', 'Rout'): ('order', False),
        ('eliminate', 'Eliminate'): ('order', False),
        ('activated', 'Activated'): ('order', False),
        ('dispute', 'Dispute'): ('order', False),
        ('activate', 'Activate'): ('order', False),
        ('end', 'End'): ('order', False),
        ('rally', 'Rally'): ('order', False),
        ('morale', 'Morale'): ('order', False),
        ('recovery', 'Recovery'): ('order', False),
        ('return', 'Return'): ('order', False),
        ('status', 'Status'): ('query', False),
        ('log', 'Log'): ('query', False),
        ('help', 'Help'): ('query', False),
        ('default', 'Default'): ('moderator', False),
        ('dice', 'Dice'): ('moderator', False),
        ('place', 'Place'): ('edit', False),
        ('set', 'SetState'): ('edit', False),
        ('set', 'SetLosses'): ('edit', False),
        ('set', 'SetCollapsed'): ('edit', False),
        ('set', 'SetTurn'): ('edit', False),
        ('set', 'SetPhase'): ('edit', False),
        ('salt', 'Salt'): ('order', False),
        ('rolls', 'Rolls'): ('order', False),
        ('audit', 'Audit'): ('order', False),
        ('undo', 'Undo'): ('order', False),
        ('rewind', 'Rewind'): ('order', False),
        ('pause', 'Pause'): ('order', False),
        ('resume', 'Resume'): ('order', False),
        ('seat', 'Seat'): ('order', False),
        ('unseat', 'Unseat'): ('order', False),
        ('moderator', 'Moderator'): ('order', False),
    },
    'hells-gate': {
        ('attack', 'Attack'): ('order', False),
        ('preview', 'Preview'): ('query', True),
        ('losses', 'Losses'): ('order', False),
        ('move', 'Move'): ('order', False),
        ('enter', 'Enter'): ('order', False),
        ('rebuild', 'Rebuild'): ('order', False),
        ('breakout', 'Breakout'): ('order', False),
        ('end', 'End'): ('order', False),
        ('default', 'Default'): ('moderator', False),
        ('options', 'Options'): ('query', True),
        ('status', 'Status'): ('query', False),
        ('units', 'Units'): ('query', False),
        ('supply', 'Supply'): ('query', False),
        ('log', 'Log'): ('query', False),
        ('help', 'Help'): ('query', False),
        ('place', 'Place'): ('edit', False),
        ('flip', 'Flip'): ('edit', False),
        ('set', 'SetTurn'): ('edit', False),
        ('set', 'SetPhase'): ('edit', False),
        ('set', 'SetWeather'): ('edit', False),
        ('set', 'SetOOS'): ('edit', False),
        ('set', 'SetRetreat'): ('edit', False),
        ('dice', 'Dice'): ('moderator', False),
        ('salt', 'Salt'): ('order', False),
        ('rolls', 'Rolls'): ('order', False),
        ('audit', 'Audit'): ('order', False),
        ('undo', 'Undo'): ('order', False),
        ('rewind', 'Rewind'): ('order', False),
        ('pause', 'Pause'): ('order', False),
        ('resume', 'Resume'): ('order', False),
        ('seat', 'Seat'): ('order', False),
        ('unseat', 'Unseat'): ('order', False),
        ('moderator', 'Moderator'): ('order', False),
    },
    'northern-war': {
        ('recon', 'Recon'): ('order', False),
        ('move', 'Move'): ('order', False),
        ('siege', 'Siege'): ('order', False),
        ('policy', 'Policy'): ('order', False),
        ('replace', 'Replace'): ('order', False),
        ('winter', 'Winter'): ('order', False),
        ('winter', 'WinterNone'): ('order', False),
        ('end', 'End'): ('order', False),
        ('battle', 'BattleAt'): ('order', False),
        ('hit', 'Hit'): ('order', False),
        ('retreat', 'Retreat'): ('order', False),
        ('return', 'ReturnCharles'): ('order', False),
        ('blocks', 'Blocks'): ('query', True),
        # the position editor (issue 26): a moderator's edits, not in the game before the kit
        ('place', 'Place'): ('edit', False),
        ('place', 'PlaceOff'): ('edit', False),
        ('set', 'SetStrength'): ('edit', False),
        ('set', 'SetControl'): ('edit', False),
        ('set', 'SetExile'): ('edit', False),
        ('set', 'SetTurn'): ('edit', False),
        ('set', 'SetYear'): ('edit', False),
        ('set', 'SetFirst'): ('edit', False),
        ('set', 'SetPhase'): ('edit', False),
        ('status', 'Status'): ('query', False),
        ('log', 'Log'): ('query', False),
        ('help', 'Help'): ('query', False),
        ('default', 'Default'): ('order', False),
        ('dice', 'Dice'): ('moderator', False),
        ('salt', 'Salt'): ('order', False),
        ('rolls', 'Rolls'): ('order', False),
        ('audit', 'Audit'): ('order', False),
        ('undo', 'Undo'): ('order', False),
        ('rewind', 'Rewind'): ('order', False),
        ('pause', 'Pause'): ('order', False),
        ('resume', 'Resume'): ('order', False),
        ('seat', 'Seat'): ('order', False),
        ('unseat', 'Unseat'): ('order', False),
        ('moderator', 'Moderator'): ('order', False),
    },
    'stalins-war': {
        ('play', 'Play'): ('order', False),
        ('pass0', 'Zero'): ('order', False),
        ('spend', 'SpendLeave'): ('order', False),
        ('spend', 'SpendStrategic'): ('order', False),
        ('spend', 'SpendCombat'): ('order', False),
        ('end', 'End'): ('order', False),
        ('discard', 'Discard'): ('order', False),
        ('draw', 'Draw'): ('order', False),
        ('roll', 'Roll'): ('order', False),
        ('totalwar', 'TotalWar'): ('order', False),
        ('hand', 'HandQ'): ('query', True),
        ('options', 'OptionsQ'): ('query', True),
        ('deck', 'DeckQ'): ('query', False),
        ('track', 'TrackQ'): ('query', False),
        ('place', 'PlaceHidden'): ('edit', False),  # the editor (issue 26)
        ('place', 'PlaceOpen'): ('edit', False),
        ('set', 'SetDeck'): ('edit', False),
        ('set', 'SetNumber'): ('edit', False),
        ('set', 'SetRp'): ('edit', False),
        ('set', 'SetTurn'): ('edit', False),
        ('set', 'SetRound'): ('edit', False),
        ('set', 'SetMud'): ('edit', False),
        ('status', 'Status'): ('query', False),
        ('log', 'Log'): ('query', False),
        ('help', 'Help'): ('query', False),
        ('default', 'Default'): ('order', False),
        ('dice', 'Dice'): ('order', False),
        ('salt', 'Salt'): ('order', False),
        ('rolls', 'Rolls'): ('order', False),
        ('audit', 'Audit'): ('order', False),
        ('undo', 'Undo'): ('order', False),
        ('rewind', 'Rewind'): ('order', False),
        ('pause', 'Pause'): ('order', False),
        ('resume', 'Resume'): ('order', False),
        ('seat', 'Seat'): ('order', False),
        ('unseat', 'Unseat'): ('order', False),
        ('moderator', 'Moderator'): ('order', False),
    },
    'hidden-duel': {
        ('draw', 'Draw'): ('order', False),
        ('roll', 'RollDie'): ('order', False),
        ('play', 'Play'): ('order', False),
        ('status', 'Status'): ('query', False),
        ('log', 'Log'): ('query', False),
        ('help', 'Help'): ('query', False),
        ('default', 'Default'): ('order', False),
        ('dice', 'Dice'): ('order', False),
        ('salt', 'Salt'): ('order', False),
        ('rolls', 'Rolls'): ('order', False),
        ('audit', 'Audit'): ('order', False),
        ('undo', 'Undo'): ('order', False),
        ('rewind', 'Rewind'): ('order', False),
        ('pause', 'Pause'): ('order', False),
        ('resume', 'Resume'): ('order', False),
        ('seat', 'Seat'): ('order', False),
        ('unseat', 'Unseat'): ('order', False),
        ('moderator', 'Moderator'): ('order', False),
    },
    'dice-race': {
        ('roll', 'Roll'): ('order', False),
        ('pass', 'Pass'): ('order', False),
        ('status', 'Status'): ('query', False),
        ('log', 'Log'): ('query', False),
        ('help', 'Help'): ('query', False),
        ('default', 'Default'): ('order', False),
        ('dice', 'Dice'): ('order', False),
        ('salt', 'Salt'): ('order', False),
        ('rolls', 'Rolls'): ('order', False),
        ('audit', 'Audit'): ('order', False),
        ('undo', 'Undo'): ('order', False),
        ('rewind', 'Rewind'): ('order', False),
        ('pause', 'Pause'): ('order', False),
        ('resume', 'Resume'): ('order', False),
        ('seat', 'Seat'): ('order', False),
        ('unseat', 'Unseat'): ('order', False),
        ('moderator', 'Moderator'): ('order', False),
    },
    'secret-dice': {
        ('roll', 'Roll'): ('order', False),
        ('pass', 'Pass'): ('order', False),
        ('status', 'Status'): ('query', False),
        ('log', 'Log'): ('query', False),
        ('help', 'Help'): ('query', False),
        ('default', 'Default'): ('order', False),
        ('dice', 'Dice'): ('order', False),
        ('salt', 'Salt'): ('order', False),
        ('rolls', 'Rolls'): ('order', False),
        ('audit', 'Audit'): ('order', False),
        ('undo', 'Undo'): ('order', False),
        ('rewind', 'Rewind'): ('order', False),
        ('pause', 'Pause'): ('order', False),
        ('resume', 'Resume'): ('order', False),
        ('seat', 'Seat'): ('order', False),
        ('unseat', 'Unseat'): ('order', False),
        ('moderator', 'Moderator'): ('order', False),
    },
}
# fmt: on
# What the kit changes on purpose: `default` and `dice` are a moderator's in every system (they
# were "order" where a system did not list them; the application treats both as a moderator's
# command whatever kind_of says).
CHANGED = {
    **{
        (s, ("default", "Default")): ("moderator", False)
        for s in ("northern-war", "stalins-war", "hidden-duel", "dice-race", "secret-dice")
    },
    **{
        (s, ("dice", "Dice")): ("moderator", False)
        for s in ("stalins-war", "hidden-duel", "dice-race", "secret-dice")
    },
}
# Added since (issue 26): the shared question `options` (core/options.py), where a system has no
# `options` of its own, Borodino's bare `activate` (refused by its check, 2.1) and the block
# game's `areas`.
ADDED = {
    **{
        (s, ("options", "Options")): ("query", True)
        for s in ("borodino", "northern-war", "hidden-duel", "dice-race", "secret-dice")
    },
    ("borodino", ("activate", "ActivateWhich")): ("order", False),
    ("northern-war", ("areas", "Areas")): ("query", False),  # the list of the map's territories
}
KINDS = {k.id: k for k in (duel.SYSTEM, race.SYSTEM, secret_dice.SYSTEM)}


def bound(system_id: str):
    kind = KINDS.get(system_id) or registry.get(system_id)
    return kind.load(*games.default_scenario(kind))


@pytest.mark.parametrize("system_id", sorted(TODAY))
def test_kind_of_and_is_private_equal_the_answers_before_the_kit(system_id):
    system = bound(system_id)
    found = {}
    for verb in system.grammar.table.verbs.values():
        for typ in verb.formats:
            order = object.__new__(typ)  # (kind_of reads the type only)
            found[(verb.word, typ.__name__)] = (system.kind_of(order), system.is_private(order))
    expected = {
        key: CHANGED.get((system_id, key), answer) for key, answer in TODAY[system_id].items()
    } | {key: answer for (s, key), answer in ADDED.items() if s == system_id}
    assert found == expected


def test_12_16_12_17_a_sides_help_lists_only_the_verbs_that_side_may_use():
    grammar = bound("hells-gate").grammar
    every, soviet, german = grammar.help(), grammar.help(side="soviet"), grammar.help(side="german")
    assert "rebuild" in every and "breakout" in every
    assert "rebuild" in soviet and "breakout" not in soviet
    assert "breakout" in german and "rebuild" not in german
    assert "attack" in soviet and "attack" in german
    assert every == grammar.help(None)  # without a side: as before


def test_6_winter_and_4_9_return_are_listed_for_sweden_only():
    grammar = bound("northern-war").grammar
    assert "winter" in grammar.help(side="sweden") and "return charles" in grammar.help()
    assert "winter" not in grammar.help(side="coalition")
    assert "return charles" not in grammar.help(side="coalition")


def test_a_players_help_answer_is_his_sides():
    system = bound("hells-gate")
    state = system.initial(False, None).state
    help_ = system.grammar.parse("help")
    assert "breakout" not in system.answer(state, "soviet", help_).text
    assert "breakout" in system.answer(state, "moderator", help_).text


# -- the hex grid's id schemes
def test_1_4_the_grid_reads_letter_and_row_ids():
    grid = HexGrid("ABCDEF", 1, 9)
    assert grid.coords("B7") == (2, 7) and Letters("ABCDEF").name(2, 7) == "B7"
    assert grid.neighbours("C6") == ("B6", "B7", "C5", "C7", "D6", "D7")
    assert grid.distance("A1", "F9") == 10


def test_1_11_the_grid_reads_four_digit_ids():
    grid = HexGrid.numbered((1, 12), (1, 12), "odd")
    assert grid.coords("0712") == (7, 12) and Digits().name(7, 12) == "0712"
    assert "0712" in grid and "1301" not in grid and len(grid.hexes) == 144
    assert grid.neighbours("0303") == ("0203", "0204", "0302", "0304", "0403", "0404")
    even = HexGrid.numbered((1, 12), (1, 12), "even")
    assert even.neighbours("0303") == ("0202", "0203", "0302", "0304", "0402", "0403")


def test_1_11_distance_on_four_digit_ids_is_the_shortest_chain_of_adjacent_hexes():
    for low in ("odd", "even"):
        grid = HexGrid.numbered((3, 9), (2, 8), low)
        for a in grid.hexes:
            seen, frontier = {a: 0}, [a]
            while frontier:
                nxt = []
                for h in frontier:
                    for n in grid.neighbours(h):
                        if n not in seen:
                            seen[n] = seen[h] + 1
                            nxt.append(n)
                frontier = nxt
            assert all(grid.distance(a, b) == d for b, d in seen.items()), (low, a)


def test_borodinos_board_is_the_core_grid():
    system = bound("borodino")
    assert isinstance(system.scenario.map, HexGrid)
    assert isinstance(system.scenario.map.scheme, Digits)

"""A moderator's edit of the block game's position (the words: grammar_edit.py).

`edit(sc, state, order)` checks the value against the scenario and the rules and changes a copy
of the state: every refusal says what is wrong, what is legal and which rule. An edit is no
action, move, retreat or roll for any rule: a block placed has not moved (7.8), and one that
moved this turn before it was placed still has; a strength set is no hit or replacement step
(2.7, 2.9). No edit is taken while a battle is being fought or a decision waits (the battle's
bookkeeping and the decision's choices would no longer match the blocks), nor once the game is
over.

Hidden values (2.4, 2.19): a block placed on the map (its identity in that territory) and a
strength set are told in full only to the block's owner (Audience.of_side) and the moderators
(MODERATORS_ONLY); the public event names the nation and the territory, which every viewer sees
anyway. The kit marks these edits secret (grammar_edit.SECRET). Pure: no I/O.
"""

from __future__ import annotations

from adjudicator.core.errors import Rejection
from adjudicator.core.events import MODERATORS_ONLY, Audience, Event
from adjudicator.core.i18n import Msg, t, tn
from adjudicator.core.system import Outcome
from adjudicator.northern_war import board, legal
from adjudicator.northern_war import grammar_edit as E
from adjudicator.northern_war.data import SIDE_IDS, Scenario
from adjudicator.northern_war.state import EXILE, ON_MAP, POOL, REMOVED, NWState
from adjudicator.northern_war.texts import Side, place, side
from adjudicator.northern_war.turns import result_text

CHARLES = "charles"  # the royal block that goes into exile (4.6)
DECISIONS = {"battle": "N3 a", "hit": "N3 e", "retreat": "N3 g", "return": "4.9"}  # their rules


def edit(sc: Scenario, state: NWState, order: object) -> Outcome:
    """The edit carried out on a copy of `state` (Rejection if a value is not legal)."""
    _editable(sc, state)
    new = state.clone()
    if isinstance(order, E.Place):
        events = _place(sc, new, order)
    elif isinstance(order, E.PlaceOff):
        events = _place_off(sc, new, order)
    elif isinstance(order, E.SetStrength):
        events = _strength(sc, new, order)
    elif isinstance(order, E.SetControl):
        events = _control(sc, new, order)
    elif isinstance(order, E.SetExile):
        events = _exile(sc, new, order)
    elif isinstance(order, E.SetTurn | E.SetYear):
        events = _calendar(sc, new, order)
    elif isinstance(order, E.SetFirst):
        events = _first(new, order)
    elif isinstance(order, E.SetPhase):
        events = _phase(sc, new, order)
    else:
        raise TypeError(f"not an edit of the block game: {order!r}")
    return Outcome(new, events, order=order)


def _editable(sc: Scenario, state: NWState) -> None:
    if state.result is not None:
        raise Rejection(
            "game-over",
            t(
                "the game is over ({result}): there is no position left to edit",
                result=result_text(state.result),
            ),
            "N15",
        )
    if state.battle is not None:
        raise Rejection(
            "battle-on",
            t(
                "a battle is being fought in {area}: edit the position before or after it "
                "(the battle's blocks and hits are counted as it goes)",
                area=sc.territories[state.battle["area"]].named,
            ),
            "N3",
        )
    if state.pending is not None:
        raise Rejection(
            "decision-waits",
            t(
                "a decision waits ({prompt}): edit the position once it is taken (or after the "
                "moderator's `default`)",
                prompt=legal.prompt(sc, state),
            ),
            DECISIONS.get(str(state.pending["kind"])),
        )


def _private(
    sc: Scenario, block: str, kind: str, text: Msg, data: dict[str, object]
) -> list[Event]:
    """The full text, to the block's owner and to the moderators (2.19)."""
    owner = Audience.of_side(sc.side_of(block))
    return [Event(kind, text, dict(data), owner), Event(kind, text, dict(data), MODERATORS_ONLY)]


def _take_off(state: NWState, block: str) -> None:
    """The block out of this turn's records: the open movement group, the besieging groups."""
    state.move_group = [b for b in state.move_group if b != block]
    state.sieges = [[a, s, [b for b in g if b != block]] for a, s, g in state.sieges]
    state.free_sieges = [[a, [b for b in g if b != block]] for a, g in state.free_sieges]


def _nation_at_war(sc: Scenario, state: NWState, block: str) -> None:
    nation = sc.blocks[block].nation
    if nation in state.armistice:
        raise Rejection(
            "armistice",
            t(
                "{nation} is out of the war (armistice): its blocks take no part any more; "
                "only blocks of nations at war go on the map",
                nation=sc.nations[nation].named,
            ),
            "N11",
        )


def _place(sc: Scenario, state: NWState, order: E.Place) -> list[Event]:
    block, area = order.block, order.area
    _nation_at_war(sc, state, block)
    if state.status[block] == ON_MAP and state.at[block] == area:
        raise Rejection(
            "already-there",
            t(
                "{block} already stands in {area}; place it in another territory, in the pool "
                "or out of the game",
                block=sc.blocks[block].named,
                area=sc.territories[area].named,
            ),
            None,
        )
    was = state.status[block]
    _take_off(state, block)
    state.status[block], state.at[block] = ON_MAP, area
    if was != ON_MAP:
        state.strength[block] = max(1, state.strength[block])  # off the map it may stand at 0
    if block == CHARLES:
        state.exile_attempts = None  # on the map: no longer in exile (4.6)
    owner = sc.side_of(block)
    if state.phase in ("action", "winter"):  # as if there at the start of the turn (N3 b)
        state.holders.setdefault(area, owner)
    nation, where = sc.nations[sc.blocks[block].nation].named, sc.territories[area].named
    public = t("Moderator places a block of {nation} in {area}.", nation=nation, area=where)
    mine = t(
        "Moderator places {block} (strength {strength}) in {area}.",
        block=sc.blocks[block].named,
        strength=state.strength[block],
        area=where,
    )
    data = {"block": block, "area": area, "strength": state.strength[block]}
    return [
        Event("BlockPlaced", public, {"nation": sc.blocks[block].nation, "area": area}),
        *_private(sc, block, "OwnBlockPlaced", mine, data),
    ]


def _place_off(sc: Scenario, state: NWState, order: E.PlaceOff) -> list[Event]:
    block, box = order.block, order.box
    if box == EXILE and block != CHARLES:
        raise Rejection(
            "not-charles",
            t(
                "only Charles XII goes into exile; another block goes to the pool or is "
                "removed from the game"
            ),
            "4.6",
        )
    if state.status[block] == box:
        raise Rejection(
            "already-there",
            t(
                "{block} is already there ({box}); the places off the map are pool, removed "
                "and (Charles XII alone) exile",
                block=sc.blocks[block].named,
                box=place(box),
            ),
            None,
        )
    _take_off(state, block)
    state.status[block], state.at[block] = box, None
    if block == CHARLES:  # a new exile counts its attempts from 1 (4.11)
        state.exile_attempts = 0 if box == EXILE else None
    texts = {
        POOL: t("Moderator puts {block} in the replacement pool.", block=sc.blocks[block].named),
        REMOVED: t("Moderator removes {block} from the game.", block=sc.blocks[block].named),
        EXILE: t("Moderator sends Charles XII into exile (4.6)."),
    }
    return [Event("BlockPlaced", texts[box], {"block": block, "where": box})]


def _strength(sc: Scenario, state: NWState, order: E.SetStrength) -> list[Event]:
    block, n = order.block, order.strength
    blk = sc.blocks[block]
    if state.status[block] != ON_MAP:
        raise Rejection(
            "not-on-map",
            t(
                "{block} is not on the map ({box}): only a block on the map has a strength "
                "that counts; place it first",
                block=blk.named,
                box=place(state.status[block]),
            ),
            "2.4",
        )
    if not 1 <= n <= blk.max_strength:
        raise Rejection(
            "bad-strength",
            t(
                "the strength of {block} is 1 to its maximum {max}, not {n}",
                block=blk.named,
                max=blk.max_strength,
                n=n,
            ),
            "2.6",
        )
    state.strength[block] = n
    where = sc.territories[str(state.at[block])].named
    public = t(
        "Moderator changes the strength of a block of {nation} in {area}.",
        nation=sc.nations[blk.nation].named,
        area=where,
    )
    mine = t("Moderator sets the strength of {block} to {n}.", block=blk.named, n=n)
    return [
        Event("StrengthSet", public, {"nation": blk.nation, "area": state.at[block]}),
        *_private(sc, block, "OwnStrengthSet", mine, {"block": block, "strength": n}),
    ]


def _control(sc: Scenario, state: NWState, order: E.SetControl) -> list[Event]:
    if order.side not in SIDE_IDS:
        raise Rejection(
            "bad-side",
            t("a territory is controlled by sweden or coalition, not {side}", side=order.side),
            "N5",
        )
    if state.control[order.area] == order.side:
        raise Rejection(
            "already-so",
            t(
                "{side} already controls {area}",
                side=Side(order.side),
                area=sc.territories[order.area].named,
            ),
            "N5",
        )
    state.control[order.area] = order.side
    text = t(
        "Moderator gives control of {area} to {side} (N5).",
        area=sc.territories[order.area].named,
        side=side(order.side),
    )
    return [Event("ControlSet", text, {"area": order.area, "side": order.side})]


def _exile(sc: Scenario, state: NWState, order: E.SetExile) -> list[Event]:
    if state.status[CHARLES] != EXILE or state.exile_attempts is None:
        raise Rejection(
            "not-in-exile",
            t(
                "Charles XII is not in exile ({box}): send him there first with "
                "'place charles exile'",
                box=place(state.status[CHARLES]),
            ),
            "4.6",
        )
    if not 0 <= order.attempts <= 5:
        raise Rejection(
            "bad-attempts",
            t(
                "the return attempts made so far are 0 to 5 (the 6th is automatic), not {n}",
                n=order.attempts,
            ),
            "4.8",
        )
    state.exile_attempts = order.attempts
    text = tn(
        "Moderator records {n} return attempt of Charles XII so far: the next is attempt "
        "{next} (4.8).",
        "Moderator records {n} return attempts of Charles XII so far: the next is attempt "
        "{next} (4.8).",
        order.attempts,
        next=order.attempts + 1,
    )
    return [Event("ExileSet", text, {"attempts": order.attempts})]


def _calendar(sc: Scenario, state: NWState, order: E.SetTurn | E.SetYear) -> list[Event]:
    """The turn of the year or the year; the game turn (`count`, the dice epoch) follows."""
    if isinstance(order, E.SetTurn):
        if not 1 <= order.turn <= sc.turns_per_year:
            raise Rejection(
                "bad-turn",
                t(
                    "the turns of a year are 1 to {n} (the last is the winter turn), not {turn}",
                    n=sc.turns_per_year,
                    turn=order.turn,
                ),
                "N13",
            )
        state.turn = order.turn
    else:
        if not 1 <= order.year <= sc.years:
            last = sc.first_year + sc.years - 1
            raise Rejection(
                "bad-year",
                t(
                    "the years of the game are 1 to {n} ({first} to {last}), not {year}",
                    n=sc.years,
                    first=sc.first_year,
                    last=last,
                    year=order.year,
                ),
                "N15",
            )
        state.year = order.year
    state.count = (state.year - 1) * sc.turns_per_year + state.turn
    text = t("Moderator sets the date: {when}.", when=board.label(sc, state))
    return [Event("DateSet", text, {"year": state.year, "turn": state.turn})]


def _first(state: NWState, order: E.SetFirst) -> list[Event]:
    if order.side not in SIDE_IDS:
        raise Rejection(
            "bad-side",
            t("the first player is sweden or coalition, not {side}", side=order.side),
            "5.4",
        )
    second = board.other(order.side)
    state.first, state.prev_second = order.side, second
    fresh = state.phase == "action" and not state.last_kind and state.move_open is None
    if fresh and order.side not in state.finished:
        state.to_move = order.side  # nobody has acted yet: the first player begins (5.7)
    text = t("Moderator makes {side} the first player (5.4).", side=side(order.side))
    return [Event("FirstSet", text, {"side": order.side})]


def _phase(sc: Scenario, state: NWState, order: E.SetPhase) -> list[Event]:
    """`entry`: this turn again from its action rolls (Sweden's `end` makes them, as in the
    first entry phase); `winter`: the Swedish winter campaign of this year, as the end of the
    winter turn opens it. The turn's records (moves, actions, open sieges) are cleared."""
    if order.phase not in ("entry", "winter"):
        raise Rejection(
            "bad-phase",
            t(
                "the editor sets the phase 'entry' (the action rolls come next, with Sweden's "
                "'end') or 'winter' (the Swedish winter campaign), not {phase}: an action "
                "phase begins with the action rolls, a battle phase when both have acted",
                phase=order.phase,
            ),
            "8.4",
        )
    if order.phase == "winter":
        if state.turn != sc.turns_per_year:
            raise Rejection(
                "not-winter-turn",
                t(
                    "the winter campaign follows the winter turn, turn {n} of the year: "
                    "'set turn {n}' first",
                    n=sc.turns_per_year,
                ),
                "8.3",
            )
        if state.status[CHARLES] != ON_MAP:
            raise Rejection(
                "no-charles",
                t(
                    "there is no winter campaign without Charles XII on the map ({box}): "
                    "place him first",
                    box=place(state.status[CHARLES]),
                ),
                "6.7",
            )
    state.phase, state.to_move, state.winter_moved = order.phase, "sweden", False
    state.finished, state.moved, state.last_kind = [], [], {}
    state.move_open, state.move_group, state.free_sieges, state.sieges = None, [], [], []
    if order.phase == "entry":
        state.actions, state.rolls = {}, {}
    else:
        state.holders = {
            str(state.at[b]): sc.side_of(b) for b in sc.blocks if state.status[b] == ON_MAP
        }
    text = (
        t("Moderator sets the phase: before the action rolls; Sweden's 'end' makes them.")
        if order.phase == "entry"
        else t("Moderator sets the phase: the Swedish winter campaign.")
    )
    return [Event("PhaseSet", text, {"phase": order.phase})]


__all__ = ["CHARLES", "edit"]

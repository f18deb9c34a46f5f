"""`games`: where a player's games stand, one short line each (a phone's width): the game, his
side, whose move it is and the deadline, said in the reader's language. Only what every chat of
the game is told (the sides, the phase, the deadline), never what only a side sees.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from adjudicator.core.i18n import cat, t
from app import names, notify
from app.durations import format_deadline
from storage import Store
from storage import clocks as clock_rows


def line(store: Store, game: str, me: Iterable[str], now: datetime) -> str:
    """ "**NAME** (SIDE): your move, turn 2, combat; deadline ..." for a player (`me`: his
    accounts); without his side for one who holds none."""
    mine = set(me)
    standing = notify.standing(store, game)
    here, seats = standing.situation, standing.record.seats
    sides = [standing.side_name(s) for s, u in seats.items() if u and u in mine]
    head = (
        t("**{game}** ({sides})", game=game, sides=cat(*sides, sep=", "))
        if sides
        else t("**{game}**", game=game)
    )
    gc = clock_rows.load(store, game)
    if here.over:
        return t("{head}: game over", head=head)
    if gc.started_at is None:
        free = [standing.side_name(s) for s, u in seats.items() if not u]
        if free:
            return t("{head}: not started; free: {free}", head=head, free=notify.both(free))
        return t("{head}: not started; `start` begins it", head=head)
    if any(seats.get(s) in mine for s in here.to_move):
        waits = t("your move")
    else:
        players = names.of_sides(store, seats)
        movers = [
            t("{side} ({user})", side=standing.side_name(s), user=players[s])
            if players.get(s)
            else standing.side_name(s)
            for s in here.to_move
        ]
        waits = t("waiting for {who}", who=notify.both(movers))
    said = t("{head}: {waits}, {label}", head=head, waits=waits, label=here.label)
    if gc.clock_paused:
        return t("{said}; clock stopped", said=said)
    if gc.deadline_at is not None:
        return t(
            "{said}; deadline {deadline}",
            said=said,
            deadline=format_deadline(gc.deadline_at, now),
        )
    return said


__all__ = ["line"]

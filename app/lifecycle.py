"""A game's life before and around play: creating it, players joining and leaving, the start.

Every change is a chained log row written in the game's transaction, like any order: a join is a
`seat` row (actor system, the user who joined), a leave an `unseat` row, and `start` arms the
first deadline and makes the first post in the same transaction. A seat row brings along the
private messages of the setup's private events for its side (app/seat_secrets.py). The sides
come from the game's system; a redelivered message (same key) is answered again and changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from adjudicator.core import registry
from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import ENGLISH, Msg, cat, lines, t, tn
from adjudicator.core.i18n import name as i18n_name
from adjudicator.core.system import GameSystem, Outcome, Side
from adjudicator.grammar.lexicon import all_of
from app import after, clock, games, integrity, sealing, seat_secrets
from app.context import Core
from app.replies import fair_lines
from storage import Conflict, GameTx, Store, Tampered, clocks
from storage import dice as committed
from storage import outbox as outbox_rows

T = TypeVar("T")
DEFAULT_SYSTEM = "hells-gate"


def new_game(
    core: Core,
    name: str,
    scenario_path: str | Path | None = None,
    sandbox: bool = False,
    creator: str | None = None,
    system_id: str = DEFAULT_SYSTEM,
) -> str:
    """Create a game; raises UnknownSystem, ScenarioError (bad file), OSError, GameExists."""
    kind = registry.get(system_id)
    text, source = games.scenario_text(kind, scenario_path)
    system = games.bind(system_id, text, source)
    uid, seed, hidden_seed = core.uids(), core.seeds(), core.seeds()
    out, rolls, roll_secrets = set_up(system, sandbox, uid, seed, hidden_seed)
    events, hidden, secret = sealing.seal(out.events)  # private setup events: sealed
    doc = system.state_to_json(out.state)
    rec = core.store.create_game(
        name,
        system_id,
        text,
        sandbox,
        doc,
        events=events,
        hidden=hidden,
        secret=secret or None,
        rolls=rolls,
        roll_secrets=roll_secrets,
        rules=system.rules_version,
        creator=creator,
        sides=[s.id for s in system.sides],
        uid=uid,
        seed=seed,
        hidden_seed=hidden_seed,
        turn=system.situation(out.state).turn or 1,
        state_digest=sealing.state_digest(system, out.state),
        state_hmac=sealing.hmac_fields(system, doc, hidden_seed).get(sealing.STATE_HMAC),
    )
    title = t("Game {name} created: {title}", name=repr(name), title=system.title)
    if sandbox:
        title = t("{title} (sandbox)", title=title)
    said: list[str] = [
        t("{title}; moderator {user}.", title=title, user=creator) if creator else cat(title, ".")
    ]
    said += [e.text for e in out.events if e.audience.public]
    said.append(whose_move(system, out.state))
    said += fair_lines(rec)
    return lines(said)


def set_up(
    system: GameSystem, sandbox: bool, uid: str, seed: str, hidden_seed: str
) -> tuple[Outcome, list[dict[str, Any]], list[dict[str, Any]] | None]:
    """The system's setup with dice like any order's: drawn from epoch 1's committed seeds
    (no salt can come before the game exists), and the records of its draws for epoch 1's row
    (each hidden draw's value kept off the chain, as an order's)."""
    dice = committed.CommittedDice(seed, uid, 1, 1, committed.EMPTY_SALT_DIGEST, hidden_seed)
    out = system.initial(sandbox, dice)
    records = [committed.roll_entry(d) for d in dice.drawn]
    secrets = [s for _, s in records if s is not None]
    return out, [r for r, _ in records], secrets or None


def whose_move(system: GameSystem, state: object) -> str:
    s = system.situation(state)
    if s.over:
        return t("Game over: {result}", result=s.result)
    who = s.to_move[0] if s.to_move else None
    return t("Turn {turn}, {phase}: {side} to move.", turn=s.turn, phase=s.phase_said, side=who)


def transact(store: Store, game: str, fn: Callable[[GameTx], T], system: GameSystem) -> T:
    """Run a lifecycle change after the snapshot's check (app/integrity.py: a forged one
    freezes the game); a Conflict becomes a Rejection for the user."""

    def checked(tx: GameTx) -> T:
        integrity.checked_state(tx, system)
        return fn(tx)

    try:
        return store.transact(game, checked)
    except Conflict as exc:
        raise Rejection("conflict", str(exc), None) from exc
    except Tampered as exc:  # frozen (app/integrity.py)
        raise Rejection("frozen", str(exc), None) from exc


def join(
    core: Core, game: str, user: str, side: str, key: str | None, now: datetime | None = None
) -> dict[str, Any]:
    """Seat `user` on the free `side`: the payload of the seat row (its text: seat_text). The
    setup's private events for the side go to him privately with it (app/seat_secrets.py)."""
    system = games.system_of(core.store, game)

    def take(tx: GameTx) -> dict[str, Any]:
        done = tx.find_key(key) if key else None
        if done:
            return done[0].payload
        seats = tx.seats()
        if tx.clock().started_at is not None:
            raise _started_refusal(system, seats, tx.moderators(), side, user)
        if seats.get(side) == user:
            raise Rejection("already-seated", t("you already play {side}", side=side), None)
        if seats.get(side) is not None:
            ids = [s.id for s in system.sides if seats.get(s.id) is None]
            free = cat(*ids, sep=", ") if ids else t("none")
            raise Rejection(
                "seat-taken",
                t(
                    "{side} is played by {user}; the free sides: {free}",
                    side=side,
                    user=seats[side],
                    free=free,
                ),
                None,
            )
        mine = [s for s, u in seats.items() if u == user]
        if mine and not tx.sandbox:
            raise Rejection(
                "one-seat",
                t(
                    "you already play {side}: one side per player (a sandbox game allows both)",
                    side=mine[0],
                ),
                None,
            )
        tx.set_seat(side, user)
        payload = {
            "action": "seat",
            "side": side,
            "user": user,
            "previous": None,
            "why": "joined in the chat",
        }
        row = tx.append("moderation", "system", f"seat {side} {user}", payload, user=user, key=key)
        seat_secrets.tell_seated(
            tx, row, now=now or core.now()
        )  # the setup's private events for him
        return payload

    payload = transact(core.store, game, take, system)
    outbox_rows.notify()  # wake this process's senders: his private messages are committed
    return payload


def _started_refusal(
    system: GameSystem, seats: dict[str, str | None], mods: list[str], side: str, user: str
) -> Rejection:
    """`join` once the game has started: whoever asks (a spectator, a stranger, a player who
    was unseated), a seat is filled only by a moderator's `seat`."""
    if seats.get(side) == user:
        return Rejection("already-seated", t("you already play {side}", side=side), None)
    holder = seats.get(side)
    taken = (
        t("{side} is played by {user}", side=side, user=holder)
        if holder
        else t("{side} is free", side=side)
    )
    return Rejection(
        "started",
        t(
            "the game has started: {taken}, and after the start a seat is filled only by a "
            "moderator ({moderators}), who says `seat {side} @USER`; ask one of "
            "them. Until then you may follow the game and ask questions (`status`, `log`).",
            taken=taken,
            side=side,
            moderators=cat(*mods, sep=", ") if mods else t("none"),
        ),
        None,
    )


def leave(
    core: Core, game: str, user: str, wanted: str | None, key: str | None
) -> list[dict[str, Any]]:
    """Free the user's side(s) before the start: the payloads of the unseat rows."""

    def free(tx: GameTx) -> list[dict[str, Any]]:
        done = tx.find_key(key) if key else None
        if done:
            return [done[0].payload]
        if tx.clock().started_at is not None:
            raise Rejection(
                "started",
                t(
                    "the game has started: a player leaves only when a moderator frees his side "
                    "(`unseat <SIDE> <REASON>`)"
                ),
                None,
            )
        mine = [s for s, u in tx.seats().items() if u == user and wanted in (None, s)]
        if not mine:
            raise Rejection("not-seated", t("you hold no side in this game"), None)
        payloads = []
        for n, side in enumerate(mine):
            tx.set_seat(side, None)
            payload = {"action": "unseat", "side": side, "user": user, "why": "left"}
            row_key = key if n == 0 or key is None else f"{key}#{n + 1}"
            text = f"unseat {side} left"
            tx.append("moderation", "system", text, payload, user=user, key=row_key)
            payloads.append(payload)
        return payloads

    return transact(core.store, game, free, games.system_of(core.store, game))


def start(
    core: Core,
    game: str,
    user: str,
    key: str | None,
    now: datetime,
    reply_chat: tuple[str, str] | None = None,
) -> bool:
    """Start the game once every side is taken: the clock starts, the first deadline is armed
    and the first post is made, in one transaction. False: it had started already."""
    system = games.system_of(core.store, game)

    def begin(tx: GameTx) -> bool:
        if tx.clock().started_at is not None:
            return False
        seats = tx.seats()
        free = [s.id for s in system.sides if seats.get(s.id) is None]
        if free:
            raise Rejection(
                "seats-free",
                tn(
                    "{sides} is not taken yet: `join {side}` first",
                    "{sides} are not taken yet: `join {side}` first",
                    len(free),
                    sides=all_of(free),
                    side=free[0],
                ),
            )
        if user not in seats.values() and user not in tx.moderators():
            raise Rejection(
                "not-a-player", t("only a player or a moderator of this game starts it")
            )
        clocks.set_started(tx.conn, game, now)
        tx.flush()
        here = system.situation(system.state_from_json(tx.snapshot))
        clock.rearm_in(tx, here, now)
        after.post(
            tx,
            system,
            game,
            here,
            key=key,
            now=now,
            start=True,
            reply_chat=reply_chat,
            images=core.images,
        )
        return True

    started = transact(core.store, game, begin, system)
    outbox_rows.notify()
    return started


def seat_text(payload: dict[str, Any], name: str | None = None, sides: Sequence[Side] = ()) -> str:
    """ "bob now plays <SIDE>." (name: the user's display name; "you", the local terminal's
    user, gets "You now play <SIDE>."). sides: the game's, so that another language names the
    side as its players read it (English keeps the side's id)."""
    who = name or payload["user"]
    you = who.lower() == "you"
    side: str = payload["side"]
    named = next((s.name for s in sides if s.id == side), None)
    if isinstance(named, Msg) and named.forms:
        side = i18n_name(side, **{k: v for k, v in named.forms.items() if k != ENGLISH})
    if payload.get("action") == "seat":
        return (
            t("You now play {side}.", side=side)
            if you
            else t("{user} now plays {side}.", user=who, side=side)
        )
    return (
        t("You no longer play {side}.", side=side)
        if you
        else t("{user} no longer plays {side}.", user=who, side=side)
    )


__all__ = ["join", "leave", "new_game", "seat_text", "start", "transact", "whose_move"]

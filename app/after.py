"""What follows an accepted change, inside the same transaction: the deadline re-arm, then the
after-phase post to every chat of the game (or the mirror of the change to its other chats).

A post is due after a change that ends a phase, starts a turn, ends the game or puts a decision
to a side (the platform's POST_EVENTS), and after a rewind; it tells what happened since the
last posted map, whose move it is with a mention, the deadline and the head hash, and carries
the map as a render spec (drawn by the outbox sender, off the message path; "focus": the system's
focus image if its drawer offers one, for phones) where the system's `post_image` says the
post tells something with it (every post of a map game; Stalin's War once a turn; `map` draws it
on request; a system without the member: every post). A system with
`side_maps` also sends each seated side its own map (the spec with the side's "view") privately. Any other accepted
change is mirrored, line by line, to the game's other chats, so linked chats follow the game move
by move. The private events go by private message to their audience, and the speaker's own
private lines (a drawn card) to him when he spoke where everyone reads the answer. Rows are
keyed by the message's idempotency key: a redelivery adds nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from adjudicator.core.events import (
    DEFAULT_APPLIED,
    MODERATORS,
    POST_EVENTS,
    Audience,
    audience_of,
    event_text,
)
from adjudicator.core.i18n import lines, t
from adjudicator.core.system import GameSystem, Situation
from app import clock, fold, frames, names, post_queue, rewinds, seat_secrets
from app.hashes import shown
from app.images import with_seen
from app.messages import Outgoing
from app.replies import Reply
from app.summary import Post, free_seats_line, post_text, side_name, who
from storage import GameTx, chat_store
from storage import watch as chain_watch

REPLY_FIRST = timedelta(seconds=2)  # a post waits this long in the chat whose message caused it


def after_change(tx: GameTx, run: Any, before: Any, state: Any, done: list[Reply]) -> None:
    """Re-arm the deadline, then the post of a phase end (or the mirror of the change)."""
    system: GameSystem = run.system
    here = system.situation(state)
    gc = tx.clock()
    if gc.started_at is not None or gc.deadline_at is not None or gc.clock_paused:
        tx.flush()  # the clock reads the game row's pause flag through the same connection
        clock.rearm_in(tx, here, run.now)
    private_posts(tx, run)
    _speakers_lines(tx, run, done)
    posting = any(e.get("kind") in POST_EVENTS for r in done for e in r.events)
    rewound = [r for r in tx.written if r.kind == "rewind"]  # applied, not only proposed
    if posting or run.deadline_at or rewound:
        was = None if rewound else system.situation(before)  # a rewind sets a position: None
        note = _default_note(tx, system, before, run, done) if run.deadline_at else None
        if rewound:  # every chat of the game learns which rolls stopped counting
            p = rewound[-1].payload
            said = rewinds.announcement(p.get("to"), rewound[-1].user, None, p.get("discarded"))
            note = names.pretty(tx.conn, said)
        post(
            tx,
            system,
            run.game,
            here,
            key=run.key,
            now=run.now,
            note=note,
            reply_chat=run.actor.where,
            images=run.core.images,
            before=was,
            state=state,
        )
    else:
        _mirror(tx, run, done)


def post(
    tx: GameTx,
    system: GameSystem,
    game: str,
    here: Situation,
    *,
    key: str | None,
    now: datetime,
    note: str | None = None,
    start: bool = False,
    reply_chat: tuple[str, str] | None = None,
    images: bool = True,
    before: Situation | None = None,
    state: Any = None,
) -> list[int]:
    """The after-phase post to every chat bound to the game (dedupe key f"{key}:post"). before:
    the situation before the change it follows (None: the first post, a rewind, an edit); the
    post carries the image if `images` and the system's `post_image(before, here)` say so.
    state: the state at the head (None: read from the snapshot); its viewer's view goes with the
    image's spec, so that the sender draws it without the log (app/images.py). A phase ended:
    the serving process's chain check runs a pass soon (storage/watch.py)."""
    chain_watch.poke(game)
    chats = chat_store.bindings(tx.conn, game)
    if not chats:
        return []
    gc = tx.clock()
    after = None if start else gc.last_image_index
    tail = tx.rows(0 if after is None else after + 1)  # the rows since the last map: an undo
    # or rewind among them removes what it names there, as over the whole log
    events = [] if start else fold.events_since([r.to_dict() for r in tail], after)
    seats = tx.seats()
    side_names = names.of_sides(tx.conn, seats)
    text = post_text(
        Post(
            game,
            here,
            system.sides,
            system.headlines,
            events,
            tx.head_index,
            tx.head_hash,
            gc.deadline_at,
            gc.clock_paused,
            tx.g.paused_why if tx.paused else None,
            now,
            note,
            _trust_lines(
                tx,
                system,
                seats,
                started=start or gc.started_at is not None,
                opening=start or any(r.kind == "epoch" for r in tx.written),
            ),
        ),
        side_names,
    )
    title = frames.heading(game, here)
    drawn = images and carries_image(system, before, here)
    render = None
    if drawn:
        state = system.state_from_json(tx.snapshot) if state is None else state
        spec = {"after": after, "upto": tx.head_index, "title": title, "focus": True}
        render = with_seen(spec, system, state)
    outs = [
        Outgoing(
            platform,
            chat_id,
            text,
            image_name=f"{game}-{tx.head_index}.png",
            mentions=names.mentions(seats, here.to_move, platform),
            render=render,
            asks=asks(game, here),
        )
        for platform, chat_id in chats
    ]
    hold = {reply_chat: REPLY_FIRST} if reply_chat else None
    ids = post_queue.write_in(
        tx.conn,
        game,
        outs,
        key=None if key is None else f"{key}:post",
        now=now,
        image_index=tx.head_index,
        hold=hold,
    )
    if render is not None and system.side_maps:
        ids += _side_maps(tx, game, here, render, key=key, now=now, system=system, state=state)
    return ids


def carries_image(system: GameSystem, before: Situation | None, here: Situation) -> bool:
    """Whether a post from `before` to `here` carries the image: the system's `post_image`
    (the kit's default: every post); a system not written on the kit that lacks the member
    carries it with every post, as before the member existed."""
    ask = getattr(system, "post_image", None)
    return True if ask is None else bool(ask(before, here))


def confirmed(
    tx: GameTx,
    system: GameSystem,
    game: str,
    here: Situation,
    *,
    key: str | None,
    now: datetime,
    note: str,
    reply_chat: tuple[str, str] | None,
    images: bool,
) -> None:
    """A confirmed proposal applied (a rewind, a moderator's edit): the deadline re-armed on
    the situation it leaves, and its post, with `note`, to every chat of the game."""
    if tx.clock().started_at is not None:
        tx.flush()
        clock.rearm_in(tx, here, now)
    post(tx, system, game, here, key=key, now=now, note=note, reply_chat=reply_chat, images=images)


def asks(game: str, here: Situation) -> dict[str, str] | None:
    """What a post asks: the side the game waits for (a decision first) at this situation key;
    its answer key is made when it is sent, and expires with the key (bots/taps.py)."""
    if here.over or not here.key:
        return None
    if here.pending:
        return {"game": game, "key": here.key, "side": here.pending[0].side, "decision": "yes"}
    if here.to_move:
        return {"game": game, "key": here.key, "side": here.to_move[0]}
    return None


def _trust_lines(
    tx: GameTx,
    system: GameSystem,
    seats: dict[str, str | None],
    *,
    started: bool,
    opening: bool = False,
) -> list[str]:
    """The free seats of a started game, and the open epoch's commitment: every post carries
    it, short; the post that opens the epoch (the game's first post, the first of a turn, the
    one after a rewind) in full, so every chat sees it whole before the first roll it covers."""
    said = []
    free = [s.id for s in system.sides if not seats.get(s.id)] if started else []
    if free:
        said.append(free_seats_line(system, free))
    g = tx.g
    if g.epoch:
        salts = (
            t("open (`salt <TEXT>`)") if g.epoch_next_n == 1 else t("closed (the epoch has rolled)")
        )
        said.append(
            t(
                "Dice: epoch {epoch} (turn {turn}), commitment {commitment}; salts {salts}.",
                epoch=g.epoch,
                turn=g.epoch_turn,
                commitment=shown(g.epoch_commitment, opening),
                salts=salts,
            )
        )
    return said


def _side_maps(
    tx: GameTx,
    game: str,
    here: Situation,
    render: dict[str, Any],
    *,
    key: str | None,
    now: datetime,
    system: GameSystem,
    state: Any,
) -> list[int]:
    """Each seated side's own map with a post, by a private message to its player: the render
    spec of the public map with "view" set to the side (drawn from that side's view only, the
    one it carries)."""
    ids: list[int] = []
    for side, user in sorted(tx.seats().items()):
        for out in (
            seat_secrets.dm(tx, game, user, t("your map, {label}", label=here.label))
            if user
            else ()
        ):
            out.render, out.image_name = (
                with_seen({**render, "view": side}, system, state),
                f"{game}-{tx.head_index}-{side}.png",
            )
            ids += post_queue.write_in(
                tx.conn,
                game,
                [out],
                key=None if key is None else f"{key}:map:{side}",
                now=now,
                fallback_chat_id=out.chat_id,
            )
    return ids


def _default_note(tx: GameTx, system: GameSystem, before: Any, run: Any, done: list[Reply]) -> str:
    """What a passed deadline's default did, first in its post."""
    side = next(iter(system.situation(before).to_move), None)
    side_names = names.of_sides(tx.conn, tx.seats())
    head = t(
        "The deadline for {who} passed ({when} UTC). Done on {side}'s behalf:",
        who=who(system.sides, side or "", side_names),
        when=f"{run.deadline_at:%Y-%m-%d %H:%M}",
        side=side_name(system.sides, side),
    )
    did = [event_text(e) for r in done for e in r.events if e.get("kind") == DEFAULT_APPLIED]
    return lines([head, *(t("- {did}", did=d) for d in did)])


def private_posts(tx: GameTx, run: Any) -> None:
    """Each private event of the message to its audience (a side's player, or the moderators)
    by a private message, but the speaker's own: his reply carries those."""
    speaker = run.actor.side or next(
        iter(s for s, u in tx.seats().items() if u and u == run.actor.user), None
    )
    outs: list[Outgoing] = []
    for row in tx.written:
        for entry in row.secret or []:
            event = entry.get("value")
            if not isinstance(event, dict) or "kind" not in event:
                continue  # a hidden die, not an event
            for user in _audience_users(tx, audience_of(event), speaker, run.actor.user):
                outs += seat_secrets.dm(
                    tx, run.game, user, event_text(event) if "text" in event else ""
                )
    for n, out in enumerate(outs):
        key = None if run.key is None else f"{run.key}:dm:{n}"
        post_queue.write_in(
            tx.conn, run.game, [out], key=key, now=run.now, fallback_chat_id=out.chat_id
        )


def _speakers_lines(tx: GameTx, run: Any, done: list[Reply]) -> None:
    """The speaker's own private lines (a drawn card), by a private message, when he spoke
    where everyone reads his answer: written with the order, so it stands or falls with it (a
    private message that cannot be delivered waits; the chat he spoke in is told)."""
    hidden = [line for reply in done for line in reply.private_lines]
    actor = run.actor
    if not hidden or not actor.mine_by_dm or actor.where is None or not actor.user:
        return
    platform, chat_id = actor.where
    text = t("**{game}** (only you see this): {text}", game=run.game, text=lines(hidden))
    out = Outgoing(platform, chat_id, text, user_id=actor.user.partition(":")[2], private=True)
    key = None if run.key is None else f"{run.key}:mine"
    post_queue.write_in(tx.conn, run.game, [out], key=key, now=run.now, fallback_chat_id=chat_id)


def _audience_users(
    tx: GameTx, audience: Audience, speaker: str | None, user: str | None
) -> list[str]:
    if audience.kind == "side":
        seated = tx.seats().get(audience.side or "")
        return [seated] if seated and audience.side != speaker and seated != user else []
    if audience.kind == MODERATORS:
        return [m for m in tx.moderators() if m != user]
    return []


def _mirror(tx: GameTx, run: Any, done: list[Reply]) -> None:
    others = [c for c in chat_store.bindings(tx.conn, run.game) if c != run.actor.where]
    if not others:
        return
    speaker = run.actor.name or run.actor.user or t("the operator")
    hidden = run.system.hidden_information  # an order given privately may name a secret
    said: list[str] = []
    for reply in done:
        said.append(
            t("**{speaker}**:", speaker=speaker)
            if hidden or reply.sealed
            else t("**{speaker}**: `{line}`", speaker=speaker, line=reply.line)
        )
        said.append(names.pretty(tx.conn, reply.reply if reply.shown is None else reply.shown))
    outs = [Outgoing(p, c, lines(said)) for p, c in others]
    key = None if run.key is None else f"{run.key}:mirror"
    post_queue.write_in(tx.conn, run.game, outs, key=key, now=run.now)


__all__ = ["REPLY_FIRST", "after_change", "carries_image", "post", "private_posts"]

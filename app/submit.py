"""submit(): the one path of every change to a game.

    result = submit(core, game, actor, text, key, now=now)

parses the message once with the game system's grammar, answers a message of questions only
from one read, and otherwise runs every line in ONE store transaction: the idempotency key is
looked up, the role and seat are checked, the system applies the order with the open epoch's
committed dice, and the log rows, the snapshot, the deadline re-arm and the outbox rows (the
after-phase post with its map, or the mirror of the change to the game's other chats, and the
private messages: a side's private events, the speaker's own lines) commit together. The first refused line stops the message; the lines before it stand. On a conflict
the store runs the whole message again on a fresh read, so nothing is applied against a stale
state. A deadline default is one more message: actor `system`, text `default`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.i18n import lines, t
from adjudicator.core.system import SYSTEM_ACTOR, GameSystem
from adjudicator.grammar import ParseError
from adjudicator.grammar.lexicon import any_of
from app import changes, freezes, games, identities, integrity, queries, roles
from app.after import after_change
from app.context import Actor, Core
from app.replies import Reply, change_reply, not_applied, refused, row_text
from storage import Conflict, GameTx, Tampered
from storage import outbox as outbox_rows

SHARED_QUERIES = (*C.SERVICE_QUERIES, *C.SHARED_QUERIES)


@dataclass
class Submitted:
    """The replies to a message, a line each, and whether it changed the game."""

    replies: list[Reply]
    changed: bool = False
    lines: list[tuple[str, object]] = field(default_factory=list)  # (line, parsed)


def is_query(system: GameSystem, item: object) -> bool:
    return isinstance(item, SHARED_QUERIES) or (
        not isinstance(item, ParseError | C.Command | C.Dice | C.Default)
        and system.kind_of(item) == "query"
    )


def submit(
    core: Core,
    game: str,
    actor: Actor,
    text: str,
    key: str | None = None,
    *,
    now: datetime | None = None,
    deadline_at: datetime | None = None,
    expect: str | None = None,
    at_head: int | None = None,
) -> Submitted:
    """Apply a message line by line (stop at the first refusal) in one transaction.

    key: the message's idempotency key; line n > 1 uses f"{key}#{n}". deadline_at: this is the
    default of the deadline due then (actor system): the post says what was done on the
    player's behalf. expect: apply only while the game's situation key is still this one, else
    refuse with code "deadline-stale" (a retried delivery of the same key is answered again).
    at_head: apply only while the game's log still ends at that row (the opponent's decision,
    made for that position), else refuse with code "opponent-stale"."""
    system = games.system_of(core.store, game)
    parsed = system.grammar.parse_message(text)
    if not parsed:
        msg = t("the message has no orders; type 'help' for the commands.")
        return Submitted([refused(text, "empty", msg, None)])
    if all(is_query(system, item) or isinstance(item, ParseError) for _, item in parsed):
        return Submitted(_questions(core, game, system, actor, parsed), False, parsed)
    run = _Run(core, game, system, actor, parsed, key, now or core.now(), deadline_at, expect)
    run.at_head = at_head
    try:
        replies = core.store.transact(game, run)
    except _NothingWritten as nothing:  # every line refused: the transaction is rolled back
        replies = nothing.replies
    except Conflict as exc:
        return Submitted([refused(parsed[0][0], "conflict", str(exc), None)], False, parsed)
    except Tampered as exc:  # frozen: nothing is applied until a moderator's `pbem repair`
        frozen = freezes.frozen_text(exc.failure, game)
        return Submitted([refused(parsed[0][0], integrity.FROZEN, frozen, None)], False, parsed)
    outbox_rows.notify()  # wake this process's senders: the posts are committed
    for pos, (line, item) in enumerate(parsed[: len(replies)]):  # questions: after the commit
        if replies[pos] is None:
            replies[pos] = _question(core, game, system, actor, line, item)
    answered = [r for r in replies if r is not None]  # every question is answered by now
    return Submitted(answered, any(r.ok and r.log_index is not None for r in answered), parsed)


def _questions(
    core: Core, game: str, system: GameSystem, actor: Actor, parsed: list[tuple[str, object]]
) -> list[Reply]:
    replies: list[Reply] = []
    for n, (line, item) in enumerate(parsed):
        reply = _question(core, game, system, actor, line, item)
        replies.append(reply)
        if not reply.ok:
            replies += not_applied(reply, [ln for ln, _ in parsed[n + 1 :]])
            break
    return replies


def _question(
    core: Core, game: str, system: GameSystem, actor: Actor, line: str, item: object
) -> Reply:
    if isinstance(item, ParseError):
        return refused(line, item.code, item.message, item.rule)
    try:
        return queries.answer(core, game, system, actor, item, line)
    except Rejection as rej:
        return refused(line, rej.code, rej.message, rej.rule)


def _viewer(system: GameSystem, actor: str) -> Viewer:
    """The speaker as a viewer: his side's private events come back to him."""
    return Viewer.of([actor] if actor in {s.id for s in system.sides} else [])


class _NothingWritten(Exception):
    """No line of the message wrote a row: roll its transaction back, answer the replies."""

    def __init__(self, replies: list[Reply | None]) -> None:
        super().__init__("nothing written")
        self.replies = replies


class _Run:
    """The body of the message's transaction (run again on a conflict: it keeps no state)."""

    def __init__(
        self,
        core: Core,
        game: str,
        system: GameSystem,
        actor: Actor,
        parsed: list[tuple[str, object]],
        key: str | None,
        now: datetime,
        deadline_at: datetime | None,
        expect: str | None,
    ) -> None:
        self.core, self.game, self.system, self.actor = core, game, system, actor
        self.parsed, self.key, self.now = parsed, key, now
        self.deadline_at, self.expect = deadline_at, expect
        self.at_head: int | None = None

    def __call__(self, tx: GameTx) -> list[Reply | None]:
        before = integrity.checked_state(tx, self.system)
        state = before
        replies: list[Reply | None] = []
        self.applied: list[tuple[object, Reply]] = []  # (line's order, its reply), this attempt
        for n, (line, item) in enumerate(self.parsed):
            line_key = None if self.key is None else self.key if n == 0 else f"{self.key}#{n + 1}"
            if is_query(self.system, item):
                replies.append(None)  # answered after the commit, from what it wrote
                continue
            reply, state = self._line(tx, state, line, item, line_key)
            replies.append(reply)
            if reply.ok:
                self.applied.append((item, reply))
            if not reply.ok:
                replies += not_applied(reply, [ln for ln, _ in self.parsed[n + 1 :]])
                break
        done = [r for r in replies if r is not None and r.ok]
        if any(not r.duplicate for r in done):
            after_change(tx, self, before, state, done)
        if not tx.written:
            raise _NothingWritten(replies)
        return replies

    def _line(
        self, tx: GameTx, state: Any, line: str, item: object, key: str | None
    ) -> tuple[Reply, Any]:
        if isinstance(item, ParseError):
            return refused(line, item.code, item.message, item.rule), state
        if key is not None and (rows := tx.find_key(key)):
            who = _viewer(self.system, rows[0].actor)
            return change_reply(tx, rows, line, duplicate=True, viewer=who), state
        first = len(tx.written)
        try:
            user = self.actor.user
            also = identities.for_change(tx, user, key)  # linked accounts
            mark = len(tx.written)  # after the row linking them in this game, if written now
            self._check_expected(tx, state)
            self._check_started(tx, item)
            actor = roles.actor_for(tx, self.system, state, self.actor.side, user, item, also)
            self._check_paused(tx, actor)
            change = changes.Change(
                self.system,
                actor,
                self.actor.user,
                key,
                self.core.seeds,
                self.now,
                self.actor.private if self.actor.where is not None else None,
            )
            state = changes.apply(tx, change, state, item)
        except Rejection as rej:
            return refused(line, rej.code, rej.message, rej.rule), state
        reply = change_reply(tx, tx.written[mark:], line, viewer=_viewer(self.system, actor))
        linked = [row_text(tx, r) for r in tx.written[first:mark]]
        if linked:
            reply.reply = lines([*linked, reply.reply])
        return reply, state

    def _check_expected(self, tx: GameTx, state: Any) -> None:
        if self.expect is not None and self.system.situation(state).key != self.expect:
            raise Rejection(
                "deadline-stale", t("the game moved on before the deadline's default was applied")
            )
        if self.at_head is not None and tx.head_index != self.at_head:
            raise Rejection("opponent-stale", t("the game moved on before the order was given"))

    def _check_started(self, tx: GameTx, item: object) -> None:
        """A chat game takes no player's order before its `start` (the operator's games have
        no start: they are played from the command line)."""
        playing = isinstance(item, C.Salt | C.Undo) or (
            not isinstance(item, C.Command | C.Dice | C.Default)
            and self.system.kind_of(item) == "order"
        )
        if self.actor.where is None or not playing:
            return
        if tx.clock().started_at is None:
            joins = any_of([t("`join {side}`", side=s.id) for s in self.system.sides])
            raise Rejection(
                "not-started",
                t(
                    "the game {game} has not started yet: take a side with {joins}, "
                    "then say `start`.",
                    game=self.game,
                    joins=joins,
                ),
            )

    def _check_paused(self, tx: GameTx, actor: str) -> None:
        players = {s.id for s in self.system.sides} | {SYSTEM_ACTOR}
        if tx.paused and actor in players:
            raise Rejection(
                "paused",
                t(
                    "the game is paused by a moderator ({why}); orders wait until a "
                    "moderator says `resume`. Questions still work.",
                    why=tx.g.paused_why,
                ),
                None,
            )


__all__ = ["Actor", "Submitted", "is_query", "submit"]

"""ChatService: what the Discord and Telegram adapters (and the local terminal) call.

    chat = ChatService(GameService(store), clock=SystemClock())
    outgoings = chat.handle(incoming)         # in a worker thread: it reads and writes the database

`handle` finds the game bound to the chat, runs the chat's lifecycle commands itself (`new`,
`join`, `leave`, `start`, `link`, `deadline`, `extend`, `map`, `help`) and hands everything else
(orders, questions, moderation) to `GameService.say` as the user "platform:id" with the message
id as idempotency key, so the seat and role checks of the fairness layer apply and a redelivered
message is applied once (and answered with the same reply).

What comes back is what answers the message, sent by the adapter in place:
- public replies to the chat (answering the message);
- private ones (`private=True`, `user_id`): `options` and `preview` (they show a side's
  possibilities), and refusals when the platform can answer privately in place (a Discord slash
  command: `incoming.ephemeral_ok`); other refusals are public (they reveal nothing). In a private
  chat with the bot everything is simply a reply there.

What every chat of the game must see goes through the persisted outbox (bots/outbox.py) instead,
keyed by the message id (a redelivery adds nothing): after a change that ends a phase, starts a
turn, ends the game or puts a decision to a side, each bound chat gets the post of bots/summary.py
(what happened, whose move with a mention, the deadline, the head hash) with the map drawn with
the events since the last posted map (`last_image_index` on the game row); an accepted change that
posts nothing is mirrored to the game's other chats, so linked chats follow the game move by move.

Binding: a chat hosts at most one game; `new` binds the chat it is said in, `link` prints a
one-time code and `link CODE` binds another chat (same or other platform) to the same game. A
private chat with no game of its own speaks for the one game its user is seated in.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.state import GameState
from bots import deadlines, outbox, summary
from bots.clock import SystemClock
from bots.messages import Incoming, Outgoing
from bots.service import PLAYER_COMMANDS, QUERIES, SIDES, GameService, Reply
from storage import Conflict, GameExists, GameNotFound, GameRecord, GameTx, chat_store
from storage.chat_models import game_clock

log = logging.getLogger(__name__)

GAME_KINDS = {"hells-gate": "hells-gate", "hellsgate": "hells-gate", "hg": "hells-gate"}
SIDE_WORDS = {"soviet": "soviet", "soviets": "soviet", "sov": "soviet", "ussr": "soviet"} | {
    "german": "german",
    "germans": "german",
    "ger": "german",
    "de": "german",
}
PRIVATE_QUERIES = (O.Options, O.Preview)  # a side's possibilities: only its player sees them
POST_EVENTS = frozenset({"PhaseBegan", "GameEnded", "DecisionPending"})
LIFECYCLE = ("new", "join", "leave", "start", "link", "deadline", "extend", "map", "help")
REPLY_FIRST = timedelta(seconds=2)  # a post waits this long in the chat whose message caused it

NO_GAME_HELP = """No game is played in this chat yet. To start one:
`new hells-gate` — a new game of Hell's Gate here (`new hells-gate sandbox` for a sandbox, where \
a moderator may set up any position); you become its moderator.
`join soviet` or `join german` — take a side (each player in turn).
`start` — once both sides are taken: the map is posted and the Soviet player is called.
To follow a game that is played in another chat (here or on the other platform): say `link` \
there, then `link <CODE>` here."""

CHAT_HELP = """Chat commands:
  new hells-gate [sandbox] — a new game in this chat (when none is running)
  join soviet|german — take a free side; leave — give it back (before the start)
  start — begin once both sides are taken
  link — a one-time code; link <CODE> — make another chat follow this game
  map [full] — the map now
  deadline <DURATION> | deadline decisions <DURATION> — moderators: the time per phase / per \
decision (48h, 90m, 2d)
  extend <DURATION> — moderators: more time for the current deadline"""

_DISCORD_MENTION = re.compile(r"<@!?(\d+)>")
_AT_NAME = re.compile(r"(?<![\w@])@([A-Za-z0-9_]{2,64})")
_USER_ID = re.compile(r"\b((?:discord|telegram|terminal):[\w-]*\w)")
_SLUG = re.compile(r"[^a-z0-9]+")


@dataclass
class _Ctx:
    incoming: Incoming
    user: str  # "platform:id"
    key: str | None
    now: datetime

    @property
    def platform(self) -> str:
        return self.incoming.platform

    @property
    def chat_id(self) -> str:
        return self.incoming.chat_id


class _Refused(Exception):
    """A refusal of a chat command: the message is for the user."""


class ChatService:
    def __init__(self, service: GameService, *, clock=None, images: bool = True):
        """images=False: posts carry no map (tests and benchmarks that measure text only)."""
        self.service = service
        self.store = service.store
        self.clock = clock or SystemClock()
        self.images = images
        self._names: dict[str, str] = {}  # user -> the display name recorded in this process

    # ------------------------------------------------------------------ entry points
    def handle(self, incoming: Incoming) -> list[Outgoing]:
        """The answer to one message (see the module doc). Never raises for a user's mistake."""
        ctx = _Ctx(
            incoming, f"{incoming.platform}:{incoming.user_id}", incoming.message_id, self._now()
        )
        self._remember(ctx)
        text = incoming.text.strip()
        words = text.split()
        head = words[0].lower() if words else ""
        game = chat_store.binding(self.store, incoming.platform, incoming.chat_id)
        try:
            if head in ("new", "link"):
                return getattr(self, f"_cmd_{head}")(ctx, game, words)
            if game is None and incoming.private:
                game = self._private_game(ctx)
            if game is None:
                return self._no_game(ctx, head)
            if head in LIFECYCLE:
                if head == "help" and len(words) > 1 and words[1].lower() not in LIFECYCLE:
                    return self._order(ctx, game, text)
                return getattr(self, f"_cmd_{head}")(ctx, game, words)
            return self._order(ctx, game, text)
        except _Refused as exc:
            return self._answer(ctx, refusals=[f"Refused: {exc}"])
        except GameNotFound as exc:
            return self._answer(ctx, refusals=[f"Refused: {exc}"])

    def chat_migrated(self, platform: str, old: str, new: str) -> None:
        """A chat got a new id (Telegram: a group became a supergroup): the game follows it."""
        if chat_store.migrate_chat(self.store, platform, old, new):
            log.info("%s chat %s is now %s: its game binding followed", platform, old, new)

    def announce(
        self,
        game: str,
        *,
        key: str | None,
        note: str | None = None,
        start: bool = False,
        reply_chat: tuple[str, str] | None = None,
    ) -> list[int]:
        """Post the after-phase summary, the map and the mention of the side(s) to move to every
        chat bound to `game`, through the outbox (dedupe key f"{key}:post"): ids of the rows
        written. Also for deadline defaults (`note`: what was done on the player's behalf).
        reply_chat: the chat whose message caused it; its post waits REPLY_FIRST, so that the
        adapter's direct reply to the message comes before it."""
        chats = chat_store.bindings(self.store, game)
        if not chats:
            return []
        post_key = None if key is None else f"{key}:post"
        probes = [Outgoing(p, c) for p, c in chats]
        keys = [k for k in outbox.dedupe_keys(post_key, probes) if k is not None]
        if keys and len(outbox.known_keys(self.store, keys)) == len(keys):
            return []  # posted already (a redelivery): no second render
        clock = chat_store.clock(self.store, game)
        after = None if start else clock.last_image_index
        rec, events = self.service.events_since(game, after)
        state = GameState.from_dict(rec.snapshot)
        image = None
        if self.images:
            title = f"{game}: turn {state.turn}, {state.phase}"
            if state.result is not None:
                title += " (game over)"
            image = self.service.render_record(rec, events, title)
        post = summary.Post(
            game,
            state,
            [] if start else events,
            rec.head_index,
            rec.head_hash,
            clock.deadline_at,
            clock.clock_paused,
            rec.paused_why if rec.paused else None,
            self._now(),
            note,
        )
        movers = summary.movers(state)
        names = self._side_names(rec)
        outs = []
        for platform, chat_id in chats:
            mention = [
                uid.partition(":")[2]
                for side in movers
                if (uid := rec.seats.get(side)) and uid.startswith(f"{platform}:")
            ]
            outs.append(
                Outgoing(
                    platform,
                    chat_id,
                    summary.post_text(post, names),
                    image=image,
                    image_name=f"{game}-{rec.head_index}.png",
                    mentions=list(dict.fromkeys(mention)),
                )
            )
        return outbox.enqueue(
            self.store,
            game,
            outs,
            key=post_key,
            now=self._now(),
            image_index=rec.head_index,
            hold={reply_chat: REPLY_FIRST} if reply_chat else None,
        )

    def broadcast(
        self,
        game: str,
        text: str,
        *,
        ping: Iterable[str] = (),
        key: str | None = None,
        skip: tuple[str, str] | None = None,
        image: bytes | None = None,
    ) -> list[int]:
        """Post `text` to every chat of the game (but `skip`, a (platform, chat)), mentioning the
        players of the sides in `ping` where they are on that platform: outbox row ids."""
        rec = self.service.record(game)
        outs = []
        for platform, chat_id in chat_store.bindings(self.store, game):
            if (platform, chat_id) == skip:
                continue
            mention = [
                uid.partition(":")[2]
                for side in ping
                if (uid := rec.seats.get(side)) and uid.startswith(f"{platform}:")
            ]
            outs.append(Outgoing(platform, chat_id, text, image=image, mentions=mention))
        return outbox.enqueue(self.store, game, outs, key=key, now=self._now())

    # ------------------------------------------------------------------ orders and questions
    def _order(self, ctx: _Ctx, game: str, text: str) -> list[Outgoing]:
        text = self._resolve_mentions(ctx, text)
        parsed = self.service.parse(game, text)
        if not self._started(game) and any(isinstance(item, PLAYER_COMMANDS) for _, item in parsed):
            raise _Refused(
                f"the game {game} has not started yet: take a side with `join soviet` or "
                "`join german`, then say `start`."
            )
        replies = self.service.say(game, None, text, user=ctx.user, key=ctx.key)
        public: list[str] = []
        private: list[str] = []
        refusals: list[str] = []
        changes: list[tuple[object, Reply]] = []
        items = [item for _, item in parsed] or [None]
        for item, reply in zip(items, replies, strict=False):
            if not reply.ok:
                refusals.append(self._pretty(reply.reply))
            elif isinstance(item, PRIVATE_QUERIES) and not ctx.incoming.private:
                private.append(reply.reply)
            else:
                public.append(self._pretty(reply.reply))
            if reply.ok and item is not None and not isinstance(item, QUERIES):
                changes.append((item, reply))
        if changes:
            self._after_change(ctx, game, changes)
        return self._answer(ctx, public=public, private=private, refusals=refusals)

    def _after_change(self, ctx: _Ctx, game: str, changes: list[tuple[object, Reply]]) -> None:
        """Re-arm the deadline, then the post of a phase end (or the mirror of the change)."""
        fresh = [r for _, r in changes if not r.duplicate]
        if fresh:
            self._rearm(game)
        posting = any(e.get("kind") in POST_EVENTS for _, r in changes for e in r.events) or any(
            isinstance(item, C.Rewind) for item, _ in changes
        )
        if posting:
            self.announce(game, key=ctx.key, reply_chat=(ctx.platform, ctx.chat_id))
            return
        others = [
            c for c in chat_store.bindings(self.store, game) if c != (ctx.platform, ctx.chat_id)
        ]
        if not others:
            return
        who = ctx.incoming.user_name or ctx.user
        lines = []
        for _, reply in changes:
            lines.append(f"**{who}**: `{reply.line}`")
            lines += self._pretty(reply.reply).split("\n")
        outs = [Outgoing(p, c, "\n".join(lines)) for p, c in others]
        mirror_key = None if ctx.key is None else f"{ctx.key}:mirror"
        outbox.enqueue(self.store, game, outs, key=mirror_key, now=self._now())

    def _rearm(self, game: str) -> None:
        if not self._started(game):
            return
        try:
            deadlines.rearm(self.store, game, self.service.state(game), self.clock)
        except Exception:  # the order stands; the next tick's adjudication sees the state
            log.exception("game %r: re-arming the deadline failed", game)

    # ------------------------------------------------------------------ lifecycle commands
    def _cmd_new(self, ctx: _Ctx, game: str | None, words: list[str]) -> list[Outgoing]:
        kind = GAME_KINDS.get(words[1].lower()) if len(words) > 1 else None
        flags = [w.lower() for w in words[2:]]
        if kind is None or any(f != "sandbox" for f in flags):
            raise _Refused("say `new hells-gate`, or `new hells-gate sandbox` for a sandbox game.")
        sandbox = "sandbox" in flags
        bound = chat_store.binding_key(self.store, ctx.platform, ctx.chat_id)
        if bound is not None and ctx.key is not None and bound[1] == ctx.key:
            name = bound[0]  # a redelivered `new`: its game (made now if the first try died)
        else:
            replace = None
            if bound is not None:
                if not self._over(bound[0]):
                    raise _Refused(
                        f"this chat hosts the game {bound[0]}, which is not over: one game per "
                        "chat (start another one in another chat or thread)."
                    )
                replace = bound[0]
            name = self._reserve_name(ctx, replace)
        try:
            self.service.new_game(name, sandbox=sandbox, creator=ctx.user)
        except GameExists:
            pass  # made by the first delivery of this message
        what = "a sandbox game of Hell's Gate" if sandbox else "a game of Hell's Gate"
        text = (
            f"New game **{name}**: {what}; moderator {self._name(ctx.user)}.\n"
            "Players: `join soviet` or `join german`; then `start`. "
            "`link` lets another chat (Discord or Telegram) follow the game."
        )
        return self._answer(ctx, public=[text])

    def _reserve_name(self, ctx: _Ctx, replace: str | None) -> str:
        """Bind the chat to a fresh game name (before the game is made: see chat_models)."""
        slug = _SLUG.sub("", ctx.chat_id.lower()) or "chat"
        prefix = f"hg-{ctx.platform}-{slug}-"
        taken = set(chat_store.game_names(self.store, prefix))
        n = len(taken) + 1
        for _ in range(100):
            name = f"{prefix}{n}"
            if name not in taken:
                try:
                    chat_store.bind(
                        self.store,
                        ctx.platform,
                        ctx.chat_id,
                        name,
                        key=ctx.key,
                        now=ctx.now,
                        replace=replace,
                    )
                except chat_store.ChatBound as exc:
                    raise _Refused(str(exc)) from exc
                return name
            n += 1
        raise _Refused("no free game name for this chat")

    def _cmd_join(self, ctx: _Ctx, game: str, words: list[str]) -> list[Outgoing]:
        side = SIDE_WORDS.get(words[1].lower()) if len(words) == 2 else None
        if side is None:
            raise _Refused("say `join soviet` or `join german`.")

        def take(tx: GameTx) -> str:
            done = tx.find_key(ctx.key) if ctx.key else None
            if done:
                return self._pretty(_seat_text(done[0].payload))
            seats = tx.seats()
            if seats.get(side) == ctx.user:
                raise Rejection("already-seated", f"you already play {side}", None)
            if seats.get(side) is not None:
                raise Rejection(
                    "seat-taken",
                    f"{side} is played by {self._name(seats[side])}; the free sides: "
                    f"{', '.join(s for s in SIDES if seats.get(s) is None) or 'none'}",
                    None,
                )
            mine = [s for s, u in seats.items() if u == ctx.user]
            if mine and not tx.sandbox:
                raise Rejection(
                    "one-seat",
                    f"you already play {mine[0]}: one side per player (a sandbox game allows both)",
                    None,
                )
            tx.set_seat(side, ctx.user)
            payload = {
                "action": "seat",
                "side": side,
                "user": ctx.user,
                "previous": None,
                "why": "joined in the chat",
            }
            tx.append(
                "moderation",
                "system",
                f"seat {side} {ctx.user}",
                payload,
                user=ctx.user,
                key=ctx.key,
            )
            return self._pretty(_seat_text(payload))

        text = self._transact(game, take)
        seats = self.service.record(game).seats
        if all(seats.get(s) for s in SIDES) and not self._started(game):
            text += "\nBoth sides are taken: say `start` to begin."
        self._mirror_text(ctx, game, text, "join")
        return self._answer(ctx, public=[text])

    def _cmd_leave(self, ctx: _Ctx, game: str, words: list[str]) -> list[Outgoing]:
        wanted = SIDE_WORDS.get(words[1].lower()) if len(words) > 1 else None

        def free(tx: GameTx) -> str:
            done = tx.find_key(ctx.key) if ctx.key else None
            if done:
                return self._pretty(_seat_text(done[0].payload))
            if _started_in(tx):
                raise Rejection(
                    "started",
                    "the game has started: a player leaves only when a moderator frees his side "
                    "(`unseat <SIDE> <REASON>`)",
                    None,
                )
            mine = [s for s, u in tx.seats().items() if u == ctx.user and wanted in (None, s)]
            if not mine:
                raise Rejection("not-seated", "you hold no side in this game", None)
            lines = []
            for n, side in enumerate(mine):
                tx.set_seat(side, None)
                payload = {"action": "unseat", "side": side, "user": ctx.user, "why": "left"}
                key = ctx.key if n == 0 or ctx.key is None else f"{ctx.key}#{n + 1}"
                tx.append(
                    "moderation", "system", f"unseat {side} left", payload, user=ctx.user, key=key
                )
                lines.append(self._pretty(_seat_text(payload)))
            return "\n".join(lines)

        text = self._transact(game, free)
        self._mirror_text(ctx, game, text, "leave")
        return self._answer(ctx, public=[text])

    def _cmd_start(self, ctx: _Ctx, game: str, words: list[str]) -> list[Outgoing]:
        def begin(tx: GameTx) -> bool:
            if _started_in(tx):
                return False
            seats = tx.seats()
            free = [s for s in SIDES if seats.get(s) is None]
            if free:
                raise Rejection(
                    "seats-free",
                    f"{' and '.join(free)} {'is' if len(free) == 1 else 'are'} not taken yet: "
                    "`join " + free[0] + "` first",
                    None,
                )
            if ctx.user not in seats.values() and ctx.user not in tx.moderators():
                raise Rejection(
                    "not-a-player", "only a player or a moderator of this game starts it", None
                )
            tx.s.execute(
                game_clock.update().where(game_clock.c.id == tx.g.id).values(started_at=ctx.now)
            )
            return True

        started = self._transact(game, begin)
        rec = self.service.record(game)
        names = self._side_names(rec)
        if started:
            self._rearm(game)
        elif not self._is_redelivery(ctx, game):
            raise _Refused(f"the game {game} has started already; `status` tells where it stands.")
        self.announce(game, key=ctx.key, start=True, reply_chat=(ctx.platform, ctx.chat_id))
        text = (
            f"**{game}** begins: {summary.who('soviet', names)} against "
            f"{summary.who('german', names)}. The map and the first move follow."
        )
        return self._answer(ctx, public=[text])

    def _is_redelivery(self, ctx: _Ctx, game: str) -> bool:
        if ctx.key is None:
            return False
        chats = chat_store.bindings(self.store, game)
        keys = outbox.dedupe_keys(f"{ctx.key}:post", [Outgoing(p, c) for p, c in chats])
        return bool(outbox.known_keys(self.store, [k for k in keys if k]))

    def _cmd_link(self, ctx: _Ctx, game: str | None, words: list[str]) -> list[Outgoing]:
        if len(words) > 2:
            raise _Refused("say `link` for a code, or `link <CODE>` to follow a game here.")
        if len(words) == 2:
            return self._link_here(ctx, game, words[1])
        if game is None:
            return self._no_game(ctx, "link")
        rec = self.service.record(game)
        if ctx.user not in rec.moderators and ctx.user not in rec.seats.values():
            raise _Refused("only the players and moderators of this game hand out link codes.")
        code, expires = chat_store.new_link_code(self.store, game, now=ctx.now, key=ctx.key)
        text = (
            f"Link code for **{game}**: `{code}` (single use, valid until "
            f"{expires:%Y-%m-%d %H:%M} UTC). In the other chat (Discord or Telegram), say "
            f"`link {code}`: it then gets every post of this game."
        )
        return self._answer(ctx, public=[text])

    def _link_here(self, ctx: _Ctx, game: str | None, code: str) -> list[Outgoing]:
        if game is not None and not self._over(game):
            bound = chat_store.binding_key(self.store, ctx.platform, ctx.chat_id)
            if bound is None or bound[1] != ctx.key:
                raise _Refused(
                    f"this chat hosts the game {game}, which is not over: one game per chat."
                )
        try:
            if game is not None and self._over(game):
                chat_store.unbind(self.store, ctx.platform, ctx.chat_id)
            linked = chat_store.redeem_link_code(
                self.store, code, ctx.platform, ctx.chat_id, now=ctx.now, key=ctx.key
            )
        except chat_store.ChatStoreError as exc:
            raise _Refused(str(exc)) from exc
        chats = chat_store.bindings(self.store, linked)
        where = ", ".join(f"{p} {c}" for p, c in chats if (p, c) != (ctx.platform, ctx.chat_id))
        text = (
            f"This chat now follows **{linked}** (also played in: {where or 'no other chat'}); "
            "its posts come here too.\n" + self.service.status(linked)
        )
        return self._answer(ctx, public=[self._pretty(text)])

    def _cmd_deadline(self, ctx: _Ctx, game: str, words: list[str]) -> list[Outgoing]:
        return self._clock_command(ctx, game, words, "deadline_command")

    def _cmd_extend(self, ctx: _Ctx, game: str, words: list[str]) -> list[Outgoing]:
        return self._clock_command(ctx, game, words, "extend")

    def _clock_command(
        self, ctx: _Ctx, game: str, words: list[str], function: str
    ) -> list[Outgoing]:
        """`deadline ...` and `extend <DURATION>`, carried out by bots/deadlines.py. A change
        (anything but a bare `deadline`) is for moderators, and leaves a receipt keyed by the
        message, so a redelivered `extend` is answered again, not applied twice."""
        fn = {"deadline_command": deadlines.deadline_command, "extend": deadlines.extend}[function]
        args = " ".join(words[1:])
        changes = function == "extend" or bool(args)
        rec = self.service.record(game)
        if changes and ctx.user not in rec.moderators:
            raise _Refused(
                f"only the moderators of this game ({self._names_of(rec.moderators)}) change "
                "its deadlines."
            )
        receipt = f"receipt:{ctx.key}" if changes and ctx.key else None
        done = chat_store.get_state(self.store, receipt) if receipt else None
        if done is not None:
            return self._answer(ctx, public=[done[0]])
        try:
            text = fn(self.store, game, args, self.clock)
        except ValueError as exc:  # deadlines.DeadlineError: the message is for the user
            raise _Refused(str(exc)) from exc
        if receipt:
            chat_store.set_state(self.store, receipt, text, now=self._now())
        if changes:
            self._mirror_text(ctx, game, text, words[0].lower())
        return self._answer(ctx, public=[text])

    def _cmd_map(self, ctx: _Ctx, game: str, words: list[str]) -> list[Outgoing]:
        if len(words) > 1 and not (len(words) == 2 and words[1].lower() == "full"):
            raise _Refused("say `map` (or `map full` for the full-resolution file).")
        state = self.service.state(game)
        image = self.service.image(game)
        text = f"{game}: turn {state.turn}, {state.phase}."
        return [
            Outgoing(
                ctx.platform,
                ctx.chat_id,
                text,
                image=image,
                image_name=f"{game}-now.png",
                reply_to=ctx.key,
            )
        ]

    def _cmd_help(self, ctx: _Ctx, game: str, words: list[str]) -> list[Outgoing]:
        if len(words) > 1:  # help of a chat command
            return self._answer(ctx, public=[CHAT_HELP])
        (reply,) = self.service.say(game, None, "help", user=ctx.user)
        return self._answer(ctx, public=[f"Game **{game}**.\n{reply.reply}\n\n{CHAT_HELP}"])

    def _no_game(self, ctx: _Ctx, head: str) -> list[Outgoing]:
        if head == "help" or not head:
            return self._answer(ctx, public=[NO_GAME_HELP])
        return self._answer(ctx, refusals=[NO_GAME_HELP])

    # ------------------------------------------------------------------ helpers
    def _now(self) -> datetime:
        now = self.clock.now()
        if now.utcoffset() is None:
            raise ValueError("the clock must give aware UTC datetimes")
        return now

    def _answer(
        self,
        ctx: _Ctx,
        *,
        public: list[str] = (),  # type: ignore[assignment]
        private: list[str] = (),  # type: ignore[assignment]
        refusals: list[str] = (),  # type: ignore[assignment]
    ) -> list[Outgoing]:
        inc = ctx.incoming
        public, private = list(public), list(private)
        if inc.ephemeral_ok and not inc.private:
            private += refusals
        else:
            public += refusals
        if inc.private:
            public, private = public + private, []
        outs = []
        if public:
            outs.append(
                Outgoing(inc.platform, inc.chat_id, "\n".join(public), reply_to=inc.message_id)
            )
        if private:
            outs.append(
                Outgoing(
                    inc.platform,
                    inc.chat_id,  # where a notice goes if the private message cannot
                    "\n".join(private),
                    user_id=inc.user_id,
                    private=True,
                )
            )
        return outs

    def _transact(self, game: str, fn) -> object:
        try:
            return self.store.transact(game, fn)
        except Rejection as rej:
            raise _Refused(rej.message) from rej
        except Conflict as exc:
            raise _Refused(str(exc)) from exc

    def _mirror_text(self, ctx: _Ctx, game: str, text: str, what: str) -> None:
        """Tell the game's other chats about a chat command that changed the game."""
        others = [
            c for c in chat_store.bindings(self.store, game) if c != (ctx.platform, ctx.chat_id)
        ]
        if others:
            key = None if ctx.key is None else f"{ctx.key}:{what}"
            outs = [Outgoing(p, c, text) for p, c in others]
            outbox.enqueue(self.store, game, outs, key=key, now=self._now())

    def _started(self, game: str) -> bool:
        return chat_store.clock(self.store, game).started_at is not None

    def _over(self, game: str) -> bool:
        try:
            return self.service.state(game).result is not None
        except GameNotFound:
            return True

    def _private_game(self, ctx: _Ctx) -> str | None:
        """The game a private chat speaks for: the one running game its user is seated in."""
        games = [g for g in chat_store.seated_games(self.store, ctx.user) if not self._over(g)]
        if len(games) == 1:
            return games[0]
        if games:
            raise _Refused(
                f"you play {len(games)} games ({', '.join(games)}): give each its orders in "
                "its own chat."
            )
        return None

    def _remember(self, ctx: _Ctx) -> None:
        name = ctx.incoming.user_name
        if name and self._names.get(ctx.user) != name:
            try:
                chat_store.remember_user(self.store, ctx.user, name, now=ctx.now)
            except Exception:  # a name is a nicety; never refuse an order for it
                log.exception("could not record the name of %s", ctx.user)
                return
            self._names[ctx.user] = name

    def _name(self, user: str | None) -> str:
        if user is None:
            return "nobody"
        if user not in self._names:
            found = chat_store.user_names(self.store, [user])
            if user in found:
                self._names[user] = found[user]
        return self._names.get(user, user)

    def _names_of(self, users: Iterable[str]) -> str:
        return ", ".join(self._name(u) for u in users) or "none"

    def _side_names(self, rec: GameRecord) -> dict[str, str | None]:
        return {s: (self._name(u) if u else None) for s, u in rec.seats.items()}

    def _pretty(self, text: str) -> str:
        """User ids ("telegram:123") shown by their names where known."""
        ids = set(_USER_ID.findall(text))
        if not ids:
            return text
        names = {u: self._name(u) for u in ids}
        return _USER_ID.sub(lambda m: names.get(m.group(1), m.group(1)), text)

    def _resolve_mentions(self, ctx: _Ctx, text: str) -> str:
        """Discord mentions (<@123>) and known @names become user ids ("discord:123")."""
        text = _DISCORD_MENTION.sub(lambda m: f"discord:{m.group(1)}", text)

        def named(m: re.Match) -> str:
            user = chat_store.find_user(self.store, ctx.platform, m.group(1))
            return user or m.group(0)

        return _AT_NAME.sub(named, text) if "@" in text else text


def _started_in(tx: GameTx) -> bool:
    q = game_clock.select().with_only_columns(game_clock.c.started_at)
    return tx.s.execute(q.where(game_clock.c.id == tx.g.id)).scalar() is not None


def _seat_text(payload: dict) -> str:
    if payload.get("action") == "seat":
        return f"{payload['user']} now plays {payload['side']}."
    return f"{payload['user']} no longer plays {payload['side']}."


__all__ = ["ChatService"]

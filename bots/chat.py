"""ChatService: what the Discord and Telegram adapters (and the local terminal) call.

    chat = ChatService(GameService(store), clock=SystemClock())
    outgoings = chat.handle(incoming)         # in a worker thread: it reads and writes the database

`handle` (the one entry point) normalises the message; `_route` finds the game bound to the
chat, routes the chat's lifecycle commands (`new`, `join`,
`leave`, `start`, `link`, `deadline`, `extend`, `map`, `help`: bots/chat_commands.py) and hands
everything else (orders, questions, moderation) to `to_game`: the application core's one path,
`app.submit`, as the user "platform:id" with the message id as idempotency key: the seat and role
checks apply, a redelivered message is applied once (and answered with the same reply), and the
order, the deadline re-arm and the posts to every chat of the game commit together.

What comes back is what answers the message, sent by the adapter in place:
- public replies to the chat (answering the message);
- private ones (`private=True`, `user_id`): the answers the system marks private (a side's
  possibilities: `options`, `preview`), and refusals when the platform can answer privately in
  place (a Discord slash command: `incoming.ephemeral_ok`); other refusals are public (they reveal
  nothing). In a private chat with the bot everything is simply a reply there.

Binding: a chat hosts at most one game; `new` binds the chat it is said in, `link` prints a
one-time code and `link CODE` binds another chat (same or other platform) to the same game. A
private chat with no game of its own speaks for the one game its user is seated in; a user who
plays several names it (`use NAME` once, or `in NAME` after a command), else the reply lists his
games.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import EN, Language, cat, lines, say, t
from adjudicator.core.text import plural
from adjudicator.grammar.lifecycle import CHAT_WORDS, canonical_words
from app import confirm_edit, confirm_rewind, intext, languages, names
from app.context import Actor
from app.messages import Incoming, Outgoing
from app.service import GameService
from app.submit import submit
from bots import chat_audit, chat_language, chat_my_games, chat_private, chat_users, dm_wait
from bots import chat_commands as commands
from bots.chat_base import ChatRefused, Ctx, mirror
from bots.chat_commands import LIFECYCLE
from bots.clock import Clock, SystemClock
from bots.taps import Taps
from storage import GameNotFound, chat_languages, chat_store
from storage import outbox as outbox_rows

log = logging.getLogger(__name__)


LIMITS = {"discord": 2000, "telegram": 4096}  # characters of one message (Telegram: UTF-16)


def _cut(n: object, language: Language) -> str:
    said = t("… ({n} not shown: ask for less, e.g. `log 20`, `units <HEX>`, `options <UNIT>`)", n=n)
    return say(said, language)


def _size(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)  # UTF-16 code units


def fit(text: str, platform: str, language: Language = EN) -> str:
    """A reply within one message of the platform: the lines that fit, then how many did not
    (a reply is never split into a flood of messages; a long line is cut). The text is said in
    `language` first; what is cut is told in it."""
    text = say(text, language)
    limit = LIMITS.get(platform)
    if limit is None or _size(text) <= limit:
        return text
    rows, size = text.split("\n"), 0
    kept: list[str] = []
    rest = t("the rest of the line")
    tail = max(_size(_cut(plural(len(rows), "more line"), language)), _size(_cut(rest, language)))
    room = limit - tail - 2
    for line in rows:
        if size + _size(line) + 1 > room:
            if not kept:  # one line longer than a message: its start
                kept.append("".join(_upto(line, room - 1)) + "…")
                return "\n".join([*kept, _cut(rest, language)])
            break
        kept.append(line)
        size += _size(line) + 1
    return "\n".join([*kept, _cut(plural(len(rows) - len(kept), "more line"), language)])


def _message(exc: Exception) -> str:
    """A refusal's text, the Msg it was raised with kept (str(exc) would make it English)."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return first if isinstance(first, str) else str(exc)


def _upto(line: str, room: int) -> list[str]:
    out, size = [], 0
    for ch in line:
        size += _size(ch)
        if size > room:
            break
        out.append(ch)
    return out


def _normalised(incoming: Incoming) -> tuple[Incoming, str | None]:
    """The message with its text and its sender's name made storable (app.intext)."""
    text, refusal = intext.normalise(incoming.text)
    name = intext.clean(str(incoming.user_name or ""))[:200]
    fields: dict[str, Any] = {"text": text, "user_name": name}
    for f in ("platform", "chat_id", "user_id"):
        fields[f] = intext.clean(str(getattr(incoming, f)))
    if incoming.message_id is not None:
        fields["message_id"] = intext.clean(str(incoming.message_id))
    return dataclasses.replace(incoming, **fields), refusal


class ChatService:
    def __init__(
        self, service: GameService, *, clock: Clock | None = None, images: bool = True
    ) -> None:
        """clock: where "now" comes from (default: the wall clock). images=False: posts carry
        no map (tests and benchmarks that measure text only). The chat works on a Core of its
        own, `service`'s with this clock and image setting: the shared one is never changed."""
        self.clock: Clock = clock or SystemClock()
        self.core = dataclasses.replace(service.core, now=self.now, images=images)
        self.service = GameService.on(self.core)
        self.store = service.store
        self._names: dict[str, str] = {}  # user -> the display name recorded in this process
        self._locales: dict[str, str] = {}  # user -> the platform locale recorded in this process

    @functools.cached_property
    def taps(self) -> Taps:
        """Playing by taps: completions, menus and presses (bots/taps.py)."""
        return Taps(self)

    # ------------------------------------------------------------------ entry points
    def handle(self, incoming: Incoming) -> list[Outgoing]:
        """The answer to one message (see the module doc). Never raises, for any input: its
        text is normalised first (app.intext: unstorable code points replaced, a message too
        long refused), and an unexpected failure is logged and answered, not raised."""
        try:
            incoming, refusal = _normalised(incoming)
        except Exception:  # a malformed Incoming from an adapter: nothing to answer it with
            log.exception("an incoming message could not be read")
            return []
        ctx = Ctx(
            incoming, f"{incoming.platform}:{incoming.user_id}", incoming.message_id, self.now()
        )
        if refusal is not None:  # text is data: the grammar never sees a message out of bounds
            return self.answer(ctx, refusals=[t("Refused: {why}", why=refusal)])
        try:
            return self._route(ctx)
        except Exception:
            log.exception(
                "message %r in %s %s failed",
                incoming.message_id,
                incoming.platform,
                incoming.chat_id,
            )
            failed = t(
                "Refused: this message could not be handled (the error is logged for the host); "
                "`status` tells whether the game changed."
            )
            return self.answer(ctx, refusals=[failed])

    def _route(self, ctx: Ctx) -> list[Outgoing]:
        incoming = ctx.incoming
        self._remember(ctx)
        text = incoming.text.strip()
        words = text.split()
        if words and words[0].lower() in CHAT_WORDS:  # a chat command in Russian: in English
            words = canonical_words(words)
            text = " ".join(words)
        head = words[0].lower() if words else ""
        here = chat_languages.chat_scope(ctx.platform, ctx.chat_id)
        scopes = [here, chat_languages.user_scope(ctx.user)]
        game, ctx.known = chat_languages.binding_and_choices(
            self.store, ctx.platform, ctx.chat_id, scopes
        )  # one read: where the message goes and the languages its answer is said in
        try:
            if head in chat_language.WORDS:
                return chat_language.command(self, ctx, game, words)
            if head in ("new", "link"):
                return commands.run(self, ctx, head, game, words)
            if head == "identity":
                return chat_users.identity(self, ctx, words)
            if head in chat_my_games.WORDS:  # `games`, `remind`: the player's, in any chat
                return chat_my_games.run(self, ctx, game, words)
            if head == "whoami" and (game is not None or not incoming.private):
                return chat_users.whoami(self, ctx, game)  # (a private chat: its game below)
            if game is None and incoming.private:
                if chat_private.greets(words):  # first contact: `help`, Telegram's Start
                    return chat_private.greeting(self, ctx, words)
                if head == "use":
                    return chat_private.use(self, ctx, words)
                game, text = chat_private.named_game(self, ctx, text)
                words = text.split()
                game = game or chat_private.private_game(self, ctx)
                if head == "whoami":
                    return chat_users.whoami(self, ctx, game)
            if game is None:
                return commands.no_game(self, ctx, head)
            if head == "audit" and len(words) > 1 and words[1].lower() in chat_audit.SUBCOMMANDS:
                return chat_audit.run(self, ctx, game, words)
            if head in ("confirm", "cancel") and words[1:2] == ["rewind"]:
                return self._rewind(ctx, game, cancel=head == "cancel")
            if head in ("confirm", "cancel") and [w.lower() for w in words[1:2]] == ["edit"]:
                return self._edit(ctx, game, cancel=head == "cancel")
            if head in LIFECYCLE:
                return commands.run(self, ctx, head, game, words)
            return self.to_game(ctx, game, text)
        except (ChatRefused, Rejection, GameNotFound) as exc:
            message = exc.message if isinstance(exc, Rejection) else _message(exc)
            return self.answer(ctx, refusals=[t("Refused: {why}", why=self.pretty(message))])

    def chat_migrated(self, platform: str, old: str, new: str) -> None:
        """A chat got a new id (Telegram: a group became a supergroup): the game follows it."""
        if chat_store.migrate_chat(self.store, platform, old, new):
            log.info("%s chat %s is now %s: its game binding followed", platform, old, new)

    # ------------------------------------------------------------------ orders and questions
    def to_game(self, ctx: Ctx, game: str, text: str) -> list[Outgoing]:
        """The text for the game (orders, questions, moderation) through `app.submit`, as the
        user with the message id as idempotency key; its replies as the message's answer."""
        text, chosen = chat_users.resolve_lines(self, ctx, text)  # seat <SIDE> <USER> ...
        inc = ctx.incoming
        by_dm = not (inc.private or inc.ephemeral_ok)  # else the answer shows his lines to him
        where = (ctx.platform, ctx.chat_id)
        who = Actor(ctx.user, None, inc.user_name or None, where, by_dm, inc.private)
        replies = submit(self.core, game, who, text, ctx.key, now=ctx.now).replies
        public: list[str] = []
        private: list[str] = []
        refusals: list[str] = []
        for reply in replies:
            if not reply.ok and (reply.error or {}).get("code") == "not-applied":
                continue  # the refusal before it names the lines it stopped
            if not reply.ok:
                refusals.append(self.pretty(reply.reply))
            elif reply.private and not inc.private:
                private.append(reply.reply)
            else:
                public.append(cat(self.pretty(reply.reply), self._seat_note(reply.line)))
            private += reply.private_lines  # what only the speaker's side may see
        if public and chosen:
            public.append(cat(*chosen, sep=" "))  # whom a display name chose
        if by_dm:  # his lines went by a private message, written with the order (app.after)
            hidden = [line for r in replies for line in r.private_lines]
            private = [p for p in private if p not in hidden]
        said_in = ctx.known  # an order changes no language: those read with the binding hold
        return self.answer(ctx, public=public, private=private, refusals=refusals, known=said_in)

    def _rewind(self, ctx: Ctx, game: str, cancel: bool) -> list[Outgoing]:
        """`confirm rewind` / `cancel rewind`: the pending rewind proposal (app.confirm_rewind)."""
        where = (ctx.platform, ctx.chat_id)
        text = confirm_rewind.confirm(self.core, game, ctx.user, ctx.key, ctx.now, cancel, where)
        if cancel:  # (an applied rewind is posted to every chat of the game)
            mirror(self, ctx, game, self.pretty(text), "cancel-rewind")
        outbox_rows.notify()
        return self.answer(ctx, public=[self.pretty(text)])

    def _edit(self, ctx: Ctx, game: str, cancel: bool) -> list[Outgoing]:
        """`confirm edit` / `cancel edit`: the pending edit proposal (app.confirm_edit)."""
        where = (ctx.platform, ctx.chat_id)
        text = confirm_edit.confirm(self.core, game, ctx.user, ctx.key, ctx.now, cancel, where)
        if cancel:  # (an applied edit is posted to every chat of the game)
            mirror(self, ctx, game, self.pretty(text), "cancel-edit")
        outbox_rows.notify()
        return self.answer(ctx, public=[self.pretty(text)])

    def _seat_note(self, line: str) -> str:
        """After an accepted `seat <SIDE> <USER>`: the warning if that user's DMs fail."""
        words = line.split()
        if len(words) < 3 or words[0].lower() != "seat":
            return ""
        return dm_wait.notes(self.store, [(words[2], self.name(words[2]))])

    def answer(
        self,
        ctx: Ctx,
        *,
        public: Sequence[str] = (),
        private: Sequence[str] = (),
        refusals: Sequence[str] = (),
        known: chat_languages.Known | None = None,
    ) -> list[Outgoing]:
        """The outgoings answering the message; `known`: its languages, read already."""
        inc = ctx.incoming
        source = known or self.store
        public, private = list(public), list(private)
        if inc.ephemeral_ok and not inc.private:
            private += refusals
        else:
            public += refusals
        if inc.private:
            public, private = public + private, []
        outs = []
        if public:  # said now, in the language of the chat or of the speaker (app.languages)
            language = languages.for_reply(source, inc)
            text = fit(lines(public), inc.platform, language)
            outs.append(Outgoing(inc.platform, inc.chat_id, text, reply_to=inc.message_id))
        if private:
            language = languages.for_reply(source, inc, private=True)
            outs.append(
                Outgoing(
                    inc.platform,
                    inc.chat_id,  # where a notice goes if the private message cannot
                    fit(lines(private), inc.platform, language),
                    user_id=inc.user_id,
                    private=True,
                )
            )
        return outs

    # ------------------------------------------------------------------ helpers
    def now(self) -> datetime:
        now = self.clock.now()
        if now.utcoffset() is None:
            raise ValueError("the clock must give aware UTC datetimes")
        return now

    def _remember(self, ctx: Ctx) -> None:
        self._remember_locale(ctx)
        name = ctx.incoming.user_name
        if name and self._names.get(ctx.user) != name:
            try:
                chat_store.remember_user(self.store, ctx.user, name, now=ctx.now)
            except Exception:  # a name is a nicety; never refuse an order for it
                log.exception("could not record the name of %s", ctx.user)
                return
            self._names[ctx.user] = name

    def _remember_locale(self, ctx: Ctx) -> None:
        """The user's platform locale, for the private messages he is sent later."""
        locale = ctx.incoming.locale
        if not locale or self._locales.get(ctx.user) == locale:
            return
        try:
            chat_languages.remember_locale(self.store, ctx.user, locale, now=ctx.now)
        except Exception:  # a nicety too
            log.exception("could not record the locale of %s", ctx.user)
            return
        self._locales[ctx.user] = locale

    def name(self, user: str | None) -> str:
        if user is None:
            return t("nobody")
        if user not in self._names:
            found = names.of_users(self.store, [user])
            if found[user] != user:
                self._names[user] = found[user]
        return self._names.get(user, user)

    def names_of(self, users: Iterable[str]) -> str:
        found = [self.name(u) for u in users]
        return cat(*found, sep=", ") if found else t("none")

    def pretty(self, text: str) -> str:
        """User ids ("telegram:123") shown by their names where known."""
        return names.pretty(self.store, text)


__all__ = ["ChatService"]

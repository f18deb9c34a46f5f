"""Playing by taps: the menus, completions and presses both chat platforms offer, built from the
one gate (`legal_orders`) and `order_templates` (app/choices.py), and kept behind stored tokens
(storage/taps.py). Platform-neutral: an adapter draws a `Keyboard` its own way (Discord buttons,
select menus and modals; Telegram inline keyboards and reply prompts) and hands each press back.

    taps = Taps(chat)                              # the ChatService
    taps.complete(incoming)                        # [(label, canonical text)], at most 25
    taps.options(incoming)                         # the speaker's menu, private
    taps.press(incoming, token, values)            # an order applied, or the next step's menu
    taps.decorate(outgoing)                        # a post's answer key, added when it is sent

Every press that gives an order goes through the chat service's one order path (`submit`), as
the presser, keyed `tap:<token>`: a double tap applies the order at most once, and the second
press is told the button was used. A press is refused, changing nothing, when its token is
unknown or forged, when the game has moved on from the situation it was offered in, or when the
presser is not the player of the side it was offered to. Menus and completions are built from
the asking side's own orders and reach only him (ephemeral or private).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from adjudicator.core.i18n import Language, say, t
from app import choices, games, identities, languages
from app.i18n import language, normal_code
from app.messages import Incoming, Key, Keyboard, Outgoing
from bots import chat_private
from bots.chat_base import Chat, ChatRefused, Ctx
from bots.taps_menus import Menus, Place
from storage import GameNotFound, chat_languages
from storage import taps as tokens

log = logging.getLogger(__name__)

LIMIT = 25  # choices of one completion (Discord's limit)
LABEL_LIMIT = 100  # characters of a completion's name (Discord's limit)
_CACHED = 64  # (game, head, side) entries of legal orders kept


class Taps:
    def __init__(self, chat: Chat):
        self.chat = chat
        self.store = chat.store
        self._cache: OrderedDict[tuple[str, int, str], Place] = OrderedDict()
        self._lock = threading.Lock()

    # ---------------------------------------------------------------- where the speaker plays
    def _ctx(self, incoming: Incoming, key: str | None = None) -> Ctx:
        user = f"{incoming.platform}:{incoming.user_id}"
        return Ctx(incoming, user, key, self.chat.now())

    def _game(self, ctx: Ctx) -> str:
        here = chat_languages.chat_scope(ctx.platform, ctx.chat_id)
        scopes = [here, chat_languages.user_scope(ctx.user)]
        game, ctx.known = chat_languages.binding_and_choices(
            self.store, ctx.platform, ctx.chat_id, scopes
        )
        if game is None and ctx.incoming.private:
            game = chat_private.private_game(self.chat, ctx)
        if game is None:
            raise ChatRefused(t("no game is played here: say `help` for how to start one."))
        return game

    def place(self, game: str, side: str | None, user: str | None) -> Place:
        """The game as it stands, for `side` (None: the speaker's side the game waits for
        first). Kept per game, log row and side: a completion reads only the head and seats."""
        found = tokens.head(self.store, game)
        if found is None:
            raise GameNotFound(game)
        head, seats = found
        mine = self._sides(seats, user) if user is not None else []
        if side is None and len(mine) > 1:
            to_move = self._place(game, head, seats, None).situation.to_move
            side = next((s for s in to_move if s in mine), mine[0])
        return self._place(game, head, seats, side if side is not None else next(iter(mine), None))

    def _place(self, game: str, head: int, seats: dict[str, str | None], side: str | None) -> Place:
        key = (game, head, side or "")
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                return found
        system = games.system_of(self.store, game)
        state = system.state_from_json(self.store.snapshot(game))
        found = Place(game, system, state, system.situation(state), side, seats)
        with self._lock:
            self._cache[key] = found
            while len(self._cache) > _CACHED:
                self._cache.popitem(last=False)
        return found

    def _language(self, incoming: Incoming, known: Any = None) -> Language:
        """A menu or a completion, which the speaker alone sees: in his own setting, else his
        client's language (the interaction's locale), else the chat's."""
        source = known or self.store
        user = f"{incoming.platform}:{incoming.user_id}"
        code = languages.user_setting(source, user) or normal_code(incoming.locale)
        return language(code or languages.chat_code(source, incoming.platform, incoming.chat_id))

    def _sides(self, seats: dict[str, str | None], user: str) -> list[str]:
        me = set(identities.accounts(self.store, user))
        return [side for side, who in seats.items() if who in me]

    # ---------------------------------------------------------------- completion
    def complete(self, incoming: Incoming) -> list[tuple[str, str]]:
        """The completions of `incoming.text` (what the speaker has typed so far): his legal
        orders and the starts of his order templates, in his language; [] where he has none.
        Never raises (a completion that fails offers nothing)."""
        try:
            ctx = self._ctx(incoming)
            place = self.place(self._game(ctx), None, ctx.user)
            if place.side is None:
                return []
            language = self._language(incoming, ctx.known)
            menus = Menus(place, language)
            found = choices.best(menus.completions(), incoming.text, menus.verbs(), LIMIT)
            return [(_fit(label, LABEL_LIMIT), value) for label, value in found]
        except (ChatRefused, GameNotFound):
            return []
        except Exception:
            log.exception("completing %.40r failed", incoming.text)
            return []

    # ---------------------------------------------------------------- menus
    def options(self, incoming: Incoming) -> list[Outgoing]:
        """The speaker's orders now, as a menu only he sees."""
        ctx = self._ctx(incoming)
        try:
            game = self._game(ctx)
            place = self.place(game, None, ctx.user)
            if place.side is None:
                raise ChatRefused(
                    t("you hold no seat in this game: only a player has orders to choose.")
                )
            return [self._menu(incoming, place, {"prefix": []})]
        except (ChatRefused, GameNotFound) as exc:
            return self._refuse(incoming, exc)

    def _menu(self, incoming: Incoming, place: Place, payload: dict[str, Any]) -> Outgoing:
        language = self._language(incoming)
        menus = Menus(place, language)
        text, offers, shape = menus.menu(payload)
        now = self.chat.now()
        issued = tokens.issue(
            self.store, place.game, place.situation.key, place.side or "", offers, now=now
        )
        keyboard = shape(issued)
        return Outgoing(
            incoming.platform,
            incoming.chat_id,
            say(text, language),
            user_id=incoming.user_id,
            private=True,
            keyboard=keyboard,
            game=place.game,
        )

    # ---------------------------------------------------------------- presses
    def press(
        self, incoming: Incoming, token: str, values: list[str] | None = None
    ) -> list[Outgoing]:
        """A button, a select menu or a free line answered (see the module doc)."""
        try:
            tap = tokens.find(self.store, token)
            if tap is None:
                raise ChatRefused(
                    t("this button is no longer valid: ask `options` for the orders you have now.")
                )
            place = self._pressable(incoming, tap)
            if tap.kind == "order":
                return self._order(incoming, tap, place)
            if tap.kind == "answer":
                return [self._menu(incoming, place, {"prefix": []})]
            language = self._language(incoming)
            payload = Menus(place, language).after(dict(tap.payload), list(values or ()))
            return [self._menu(incoming, place, payload)]
        except (ChatRefused, GameNotFound) as exc:
            return self._refuse(incoming, exc)

    def _pressable(self, incoming: Incoming, tap: tokens.Tap) -> Place:
        user = f"{incoming.platform}:{incoming.user_id}"
        place = self.place(tap.game, tap.side, user)
        if place.situation.key != tap.situation or not place.situation.key:
            raise ChatRefused(
                t(
                    "this choice was for an earlier moment of the game ({now} now): "
                    "ask `options` for the orders you have now.",
                    now=place.situation.label,
                )
            )
        if tap.side not in self._sides(place.seats, user):
            raise ChatRefused(
                t(
                    "only the player of {side} may answer this: a button offered to a side is "
                    "pressed by its player alone.",
                    side=place.side_name(tap.side),
                )
            )
        return place

    def _order(self, incoming: Incoming, tap: tokens.Tap, place: Place) -> list[Outgoing]:
        if tap.used:
            raise ChatRefused(
                t("this button was pressed already: its order was given once, and only once.")
            )
        text = str(tap.payload["text"])
        key = f"tap:{tap.token}"
        pressed = dataclasses.replace(incoming, text=text, message_id=key)
        ctx = self._ctx(pressed, key)
        self._game_known(ctx)
        outs = self.chat.to_game(ctx, tap.game, text)
        tokens.use(self.store, tap.token, now=ctx.now)
        return [dataclasses.replace(o, reply_to=None) for o in outs]

    def _game_known(self, ctx: Ctx) -> None:
        scopes = [
            chat_languages.chat_scope(ctx.platform, ctx.chat_id),
            chat_languages.user_scope(ctx.user),
        ]
        _, ctx.known = chat_languages.binding_and_choices(
            self.store, ctx.platform, ctx.chat_id, scopes
        )

    def _refuse(self, incoming: Incoming, exc: Exception) -> list[Outgoing]:
        why = exc.message if hasattr(exc, "message") else exc.args[0]
        ctx = self._ctx(incoming)
        outs: list[Outgoing] = self.chat.answer(
            ctx, private=[t("Refused: {why}", why=self.chat.pretty(why))]
        )
        return [dataclasses.replace(o, private=True, user_id=incoming.user_id) for o in outs]

    def sending(self, send: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """A platform's send that first adds a post's answer key (`decorate`), for the outbox."""

        @functools.wraps(send)
        async def decorated(out: Outgoing, *args: Any, **kwargs: Any) -> Any:
            if out.asks:
                out = await asyncio.to_thread(self.decorate, out)
            return await send(out, *args, **kwargs)

        return decorated

    # ---------------------------------------------------------------- posts
    def decorate(self, out: Outgoing) -> Outgoing:
        """A post that asks a side to move or decide, as it is sent: with the key that opens
        that side's choices (to its player alone); a decision already answered is no longer
        asked (its mentions dropped, said to be answered). Never raises."""
        asks = out.asks
        if not asks or out.private:
            return out
        game = asks["game"]
        try:
            place = self.place(game, asks["side"], None)
            language = languages.for_outgoing(self.store, out)
            if place.situation.key != asks.get("key"):
                if not asks.get("decision"):
                    return out
                note = say(t("(Answered already.)"), language)
                return dataclasses.replace(out, text=f"{note}\n{out.text}", mentions=[])
            offer = tokens.Offer("answer", {})
            now = self.chat.now()
            side = asks["side"]
            [token] = tokens.issue(self.store, game, place.situation.key, side, [offer], now=now)
            label = t("Answer") if asks.get("decision") else t("My orders")
            return dataclasses.replace(out, keyboard=Keyboard((Key(say(label, language), token),)))
        except Exception:
            log.exception("the answer key of a post of %s could not be made", game)
            return out


def _fit(label: str, limit: int) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


__all__ = ["LIMIT", "Language", "Taps"]

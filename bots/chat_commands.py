"""The chat's own commands: `new`, `join`, `leave`, `start`, `link`, `deadline`, `extend`, `map`,
`help`. Routing and wording only: the changes are made by the application core (app.lifecycle,
app.clock), the game systems are found in the registry, and the sides come from the system.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.core import registry
from adjudicator.core.i18n import cat, lines, say, t
from adjudicator.core.system import SystemType, side_words
from adjudicator.grammar import quoted
from app import clock, game_names, games, identities, languages, lifecycle, post_queue
from app.game_clock import When
from app.messages import Outgoing
from app.summary import who
from bots import chat_help, chat_language, dm_wait, opponent_join
from bots.chat_base import Chat, ChatRefused, Ctx, mirror, over, started
from storage import GameExists, Store, chat_store
from storage import game_names as names_taken
from storage import outbox as outbox_rows

LIFECYCLE = ("new", "join", "leave", "start", "link", "deadline", "extend", "map", "help")


def _initials(system_id: str) -> str:
    return "".join(part[0] for part in system_id.split("-") if part)


def system_words() -> dict[str, SystemType]:
    """`new hells-gate`, `new hellsgate`, `new hg`: the words for each registered system."""
    words: dict[str, SystemType] = {}
    for system in registry.systems():
        for word in (system.id, system.id.replace("-", ""), _initials(system.id)):
            words.setdefault(word, system)
    return words


def no_game_help() -> str:
    """How to start a game, for every installed system (read when asked: systems may be added)."""
    said: list[str] = [t("No game is played in this chat yet. To start one:")]
    for s in registry.systems():
        said.append(
            t(
                "`new {id}` — a new game of {name} here (`new {id} sandbox` for a sandbox, "
                "where a moderator may set up any position); you become its moderator.",
                id=s.id,
                name=s.name,
            )
        )
    for s in registry.systems():
        joins = _or(t("`join {side}`", side=side.id) for side in s.sides)
        said.append(
            t("{joins} — take a side of {name} (each player in turn).", joins=joins, name=s.name)
        )
    said += [
        t("`start` — once every side is taken: the map is posted and the first player is called."),
        t(
            "To follow a game that is played in another chat (here or on the other platform): "
            "say `link` there, then `link <CODE>` here."
        ),
        t("`language ru` or `language en` — the language of this chat."),
    ]
    return lines(said)


def _or(parts: object) -> str:
    """Commands to type, "a or b or c" (the words to type are not translated)."""
    found = list(parts)  # type: ignore[call-overload]
    said: str = found[0] if found else ""
    for part in found[1:]:
        said = t("{a} or {b}", a=said, b=part)
    return said


def run(chat: Chat, ctx: Ctx, head: str, game: str | None, words: list[str]) -> list[Outgoing]:
    return COMMANDS[head](chat, ctx, game, words)


def _sides_help(game: str | None, chat: Chat) -> str:
    sides = games.system_of(chat.store, game).sides if game else ()
    return _or(t("`join {side}`", side=s.id) for s in sides) or t("`join <SIDE>`")


# ------------------------------------------------------------------ new
def new(chat: Chat, ctx: Ctx, game: str | None, words: list[str]) -> list[Outgoing]:
    kind = system_words().get(words[1].lower()) if len(words) > 1 else None
    flags = [w.lower() for w in words[2:]]
    chosen = [f for f in flags if f != "sandbox"]
    if kind is None or len(chosen) > 1:
        ids = ", ".join(f"`new {s.id}`" for s in registry.systems())
        raise ChatRefused(
            t(
                "say {ids}; add `sandbox` for a sandbox game, and a name if you want one "
                "(`new {id} korsun`).",
                ids=ids,
                id=lifecycle.DEFAULT_SYSTEM,
            )
        )
    sandbox = "sandbox" in flags
    bound = chat_store.binding_key(chat.store, ctx.platform, ctx.chat_id)
    if bound is not None and ctx.key is not None and bound[1] == ctx.key:
        name = bound[0]  # a redelivered `new`: its game (made now if the first try died)
    else:
        replace = None
        if bound is not None:
            if not over(chat, bound[0]):
                raise ChatRefused(
                    t(
                        "this chat hosts the game {game}, which is not over: one game per "
                        "chat (start another one in another chat or thread).",
                        game=bound[0],
                    )
                )
            replace = bound[0]
        name = _reserve_name(chat, ctx, kind, replace, chosen[0] if chosen else None)
    try:
        lifecycle.new_game(chat.core, name, sandbox=sandbox, creator=ctx.user, system_id=kind.id)
    except GameExists:
        if bound is None or bound[1] != ctx.key:  # not this message's: another chat's, made
            chat_store.unbind(chat.store, ctx.platform, ctx.chat_id)  # meanwhile
            raise ChatRefused(names_taken.NameTaken(name).args[0]) from None
        # else made by the first delivery of this message
    what = (
        t("a sandbox game of {system}", system=kind.name)
        if sandbox
        else t("a game of {system}", system=kind.name)
    )
    text = t(
        "New game **{name}**: {what}; moderator {moderator}.\n"
        "Players: {sides}; then `start`. "
        "`link` lets another chat (Discord or Telegram) follow the game.",
        name=name,
        what=what,
        moderator=chat.name(ctx.user),
        sides=_sides_help(name, chat),
    )
    chat_language.from_creator(chat, ctx)  # the chat's language: the creator's, if none
    return chat.answer(ctx, public=[text])


def _reserve_name(
    chat: Chat, ctx: Ctx, kind: SystemType, replace: str | None, chosen: str | None
) -> str:
    """Bind the chat to the game's name before the game is made (see chat_models): the name
    the creator chose, or the system's id and the next number free in the database."""
    if chosen is not None:
        name = game_names.normal(chosen)
        if (why := game_names.problem(name)) is not None:
            raise ChatRefused(why)
    for _ in range(100):
        if chosen is None:
            name = game_names.numbered(kind.id, names_taken.starting(chat.store, kind.id))
        try:
            names_taken.reserve(
                chat.store,
                ctx.platform,
                ctx.chat_id,
                name,
                key=ctx.key,
                now=ctx.now,
                replace=replace,
            )
        except names_taken.NameTaken as exc:
            if chosen is not None:
                raise ChatRefused(exc.args[0]) from exc
            continue  # reserved by another chat meanwhile: the next number
        except chat_store.ChatBound as exc:
            raise ChatRefused(str(exc)) from exc
        return name
    raise ChatRefused(t("no free game name: say `new` again"))


# ------------------------------------------------------------------ seats and the start
def join(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    system = games.system_of(chat.store, game)
    ai = opponent_join.level(words)  # `join <SIDE> ai [<LEVEL>]`: the opponent takes it
    side = side_words(system.sides).get(words[1].lower()) if len(words) == 2 or ai else None
    if side is None:
        raise ChatRefused(t("say {sides}.", sides=_sides_help(game, chat)))
    if ai:
        payload = opponent_join.join(chat, ctx, game, side, ai)
    else:
        payload = lifecycle.join(chat.core, game, ctx.user, side, ctx.key, ctx.now)
    text = chat.pretty(lifecycle.seat_text(payload, chat.name(payload["user"]), system.sides))
    seats = chat.service.record(game).seats
    if all(seats.get(s.id) for s in system.sides) and not started(chat, game):
        every = (
            t("Both sides are taken: say `start` to begin.")
            if len(system.sides) == 2
            else t("Every side is taken: say `start` to begin.")
        )
        text = t("{text}\n{every}", text=text, every=every)
    mirror(chat, ctx, game, text, "join")
    note = dm_wait.notes(chat.store, [(ctx.user, chat.name(ctx.user))])  # DMs that fail
    return chat.answer(ctx, public=[cat(text, note)])


def leave(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    system = games.system_of(chat.store, game)
    wanted = side_words(system.sides).get(words[1].lower()) if len(words) > 1 else None
    payloads = lifecycle.leave(chat.core, game, ctx.user, wanted, ctx.key)
    text = lines(
        chat.pretty(lifecycle.seat_text(p, chat.name(ctx.user), system.sides)) for p in payloads
    )
    mirror(chat, ctx, game, text, "leave")
    return chat.answer(ctx, public=[text])


def start(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    where = (ctx.platform, ctx.chat_id)
    started = lifecycle.start(chat.core, game, ctx.user, ctx.key, ctx.now, reply_chat=where)
    if not started and not _is_redelivery(chat, ctx, game):
        raise ChatRefused(
            t("the game {game} has started already; `status` tells where it stands.", game=game)
        )
    system = games.system_of(chat.store, game)
    seats = chat.service.record(game).seats
    names = {s: (chat.name(u) if u else None) for s, u in seats.items()}
    parts = [who(system.sides, s.id, names) for s in system.sides]
    against: str = parts[0] if parts else ""
    for part in parts[1:]:
        against = t("{a} against {b}", a=against, b=part)
    text = t(
        "**{game}** begins: {against}. The map and the first move follow.",
        game=game,
        against=against,
    )
    notes = dm_wait.notes(chat.store, [(u, chat.name(u)) for u in seats.values() if u])
    return chat.answer(ctx, public=[cat(text, notes)])


def _is_redelivery(chat: Chat, ctx: Ctx, game: str) -> bool:
    if ctx.key is None:
        return False
    chats = chat_store.bindings(chat.store, game)
    keys = post_queue.dedupe_keys(f"{ctx.key}:post", [Outgoing(p, c) for p, c in chats])
    return bool(outbox_rows.known_keys(chat.store, [k for k in keys if k]))


# ------------------------------------------------------------------ linked chats
def link(chat: Chat, ctx: Ctx, game: str | None, words: list[str]) -> list[Outgoing]:
    if len(words) > 2:
        raise ChatRefused(t("say `link` for a code, or `link <CODE>` to follow a game here."))
    if len(words) == 2:
        return _link_here(chat, ctx, game, words[1])
    if game is None:
        return no_game(chat, ctx, "link")
    rec = chat.service.record(game)
    me = set(identities.accounts(chat.store, ctx.user))
    if not me & set(rec.moderators) and not me & set(rec.seats.values()):
        raise ChatRefused(t("only the players and moderators of this game hand out link codes."))
    code, expires = chat_store.new_link_code(chat.store, game, now=ctx.now, key=ctx.key)
    text = t(
        "Link code for **{game}**: `{code}` (single use, valid until "
        "{until} UTC). In the other chat (Discord or Telegram), say "
        "`link {code}`: it then gets every post of this game.",
        game=game,
        code=code,
        until=f"{expires:%Y-%m-%d %H:%M}",
    )
    return chat.answer(ctx, public=[text])


def _link_here(chat: Chat, ctx: Ctx, game: str | None, code: str) -> list[Outgoing]:
    problem = chat_store.link_code_problem(chat.store, code, ctx.platform, ctx.chat_id, now=ctx.now)
    if problem is not None:
        raise ChatRefused(problem)
    if game is not None and not over(chat, game):
        bound = chat_store.binding_key(chat.store, ctx.platform, ctx.chat_id)
        if bound is None or bound[1] != ctx.key:
            raise ChatRefused(
                t(
                    "this chat hosts the game {game}, which is not over: one game per chat.",
                    game=game,
                )
            )
    try:
        if game is not None and over(chat, game):
            chat_store.unbind(chat.store, ctx.platform, ctx.chat_id)
        linked = chat_store.redeem_link_code(
            chat.store, code, ctx.platform, ctx.chat_id, now=ctx.now, key=ctx.key
        )
    except chat_store.ChatStoreError as exc:
        raise ChatRefused(str(exc)) from exc
    chats = chat_store.bindings(chat.store, linked)
    where = ", ".join(f"{p} {c}" for p, c in chats if (p, c) != (ctx.platform, ctx.chat_id))
    text = t(
        "This chat now follows **{game}** (also played in: {where}); "
        "its posts come here too.\n{status}",
        game=linked,
        where=where or t("no other chat"),
        status=chat.service.status(linked),
    )
    return chat.answer(ctx, public=[chat.pretty(text)])


# ------------------------------------------------------------------ deadlines
def deadline(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    return _clock_command(chat, ctx, game, words, clock.deadline_command)


def extend(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    return _clock_command(chat, ctx, game, words, clock.extend)


def _clock_command(
    chat: Chat, ctx: Ctx, game: str, words: list[str], fn: Callable[[Store, str, str, When], str]
) -> list[Outgoing]:
    """`deadline ...` and `extend <DURATION>`, carried out by app.clock. A change (anything but
    a bare `deadline`) is for moderators, and leaves a receipt keyed by the message, so a
    redelivered `extend` is answered again, not applied twice."""
    args = " ".join(words[1:])
    changes = fn is clock.extend or bool(args)
    rec = chat.service.record(game)
    me = set(identities.accounts(chat.store, ctx.user))
    if changes and not me & set(rec.moderators):
        raise ChatRefused(
            t(
                "only the moderators of this game ({who}) change its deadlines.",
                who=chat.names_of(rec.moderators),
            )
        )
    receipt = f"receipt:{ctx.key}" if changes and ctx.key else None
    done = chat_store.get_state(chat.store, receipt) if receipt else None
    if done is not None:
        return chat.answer(ctx, public=[languages.unkept(done[0])])
    try:
        text = fn(chat.store, game, args, chat.clock)
    except ValueError as exc:  # clock.DeadlineError: the message is for the user
        raise ChatRefused(str(exc)) from exc
    if receipt:
        chat_store.set_state(chat.store, receipt, languages.kept(text), now=ctx.now)
    if changes:
        mirror(chat, ctx, game, text, words[0].lower())
    return chat.answer(ctx, public=[text])


# ------------------------------------------------------------------ the map and help
def map_(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    if len(words) > 1 and not (len(words) == 2 and words[1].lower() == "full"):
        raise ChatRefused(t("say `map` (or `map full` for the full-resolution file)."))
    system = games.system_of(chat.store, game)
    label = system.situation(chat.service.state(game)).label
    lang = languages.for_reply(chat.store, ctx.incoming)  # `map full`: the whole map
    image = chat.service.image(game, focus=len(words) == 1, language=lang)
    return [
        Outgoing(
            ctx.platform,
            ctx.chat_id,
            say(t("{game}: {label}.", game=game, label=label), lang),
            image=image,
            image_name=f"{game}-now.png",
            reply_to=ctx.key,
        )
    ]


def help_(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    return chat_help.help_command(chat, ctx, game, words)  # `help`, `help all`, `help <COMMAND>`


def no_game(chat: Chat, ctx: Ctx, head: str) -> list[Outgoing]:
    if head == "help" or not head:
        return chat.answer(ctx, public=[no_game_help()])
    ids = [s.id for s in registry.systems()]
    ids.sort(key=lambda i: i != lifecycle.DEFAULT_SYSTEM)  # the flagship first
    said, new = quoted(head), _or(f"`new {i}`" for i in ids[:4]) or "`new <GAME>`"
    text = t(
        "Refused: no game is played in this chat, so {said} means nothing here yet: say "
        "{new} to start one, `link <CODE>` to follow one, or `help`.",
        said=said,
        new=new,
    )
    return chat.answer(ctx, refusals=[text])


# a command: (the chat, the message, the chat's game, its words) -> the answer
Command = Callable[[Chat, Ctx, Any, list[str]], list[Outgoing]]
COMMANDS: dict[str, Command] = {
    "new": new,
    "join": join,
    "leave": leave,
    "start": start,
    "link": link,
    "deadline": deadline,
    "extend": extend,
    "map": map_,
    "help": help_,
}

__all__ = ["LIFECYCLE", "no_game_help", "run"]

"""The audit files in chat: `audit export` (the JSONL export) and `audit page` (the offline page
that verifies it in any browser), and `audit spectators on|off`.

Who may ask: every player (a user seated in the game) and every moderator, at any time. The open
dice epoch is in the files (its rows' chain and commitment are checked; its seed is secret until
it ends, so its rolls are checkable only after that turn) and the reply says so; a game with hidden information gives its files only once it
has ended (app.audit.player_export, Withheld). Spectators (anyone else in the chat) get the files only where a
moderator said `audit spectators on`. Decision: the default is OFF: a game's players and
moderators choose whether onlookers may pull the whole log as files (everything in it has been
posted in the chat already, so allowing it gives nothing secret away).

The file goes back as a document attachment on either platform (Outgoing.document).
"""

from __future__ import annotations

import json

from adjudicator.core.i18n import lines, say, t, tn
from app import audit, games, languages
from app.messages import Outgoing
from bots.chat_base import Chat, ChatRefused, Ctx
from storage import chat_store
from storage.audit.page import page_html

FILES = ("export", "page")
SUBCOMMANDS = (*FILES, "spectators")
SPECTATORS_DEFAULT = False  # Decision (see the module doc): spectators may not, until allowed


def _spectators_key(game: str) -> str:
    return f"audit-spectators:{game}"


def spectators_allowed(chat: Chat, game: str) -> bool:
    found = chat_store.get_state(chat.store, _spectators_key(game))
    return SPECTATORS_DEFAULT if found is None else found[0] == "on"


def run(chat: Chat, ctx: Ctx, game: str, words: list[str]) -> list[Outgoing]:
    what = words[1].lower()
    rec = chat.store.load(game, with_log=False)
    moderator = ctx.user in rec.moderators
    if what == "spectators":
        return _spectators(chat, ctx, game, words, moderator)
    if len(words) > 2:
        raise ChatRefused(t("say `audit {what}` (it takes nothing after it).", what=what))
    player = ctx.user in rec.seats.values()
    if not (player or moderator or spectators_allowed(chat, game)):
        raise ChatRefused(
            t(
                "{who} is not a player or moderator of {game}: the audit files are"
                " for its players and moderators (a moderator may allow spectators with"
                " `audit spectators on`).",
                who=chat.name(ctx.user),
                game=game,
            )
        )
    try:
        data, still_open, rows = audit.player_export(chat.store, game)
    except audit.Withheld as exc:
        raise ChatRefused(str(exc)) from exc
    head = _head_hash(data)
    said: list[str] = [
        tn(
            "**{game}**: {what}: {n} row, 0-{last}, head hash {head}.",
            "**{game}**: {what}: {n} rows, 0-{last}, head hash {head}.",
            rows,
            game=game,
            what=_what(what),
            last=rows - 1,
            head=head,
        )
    ]
    said += _notes(chat, game, still_open)
    if what == "export":
        name = f"{game}-audit.jsonl"
        said.append(
            t(
                "Check it anywhere with `pbem audit --verify {name}`, or ask `audit page` for a page"
                " that checks it in any browser.",
                name=name,
            )
        )
    else:
        name = f"{game}-audit.html"
        data = page_html(data).encode()
        said.append(
            t(
                "Open it in any browser, even offline: it checks every row, seed and roll itself,"
                " and says VERIFIED or the first row that fails."
            )
        )
    text = say(lines(said), languages.for_reply(chat.store, ctx.incoming))
    out = Outgoing(
        ctx.platform,
        ctx.chat_id,
        text,
        image=data,
        image_name=name,
        reply_to=ctx.key,
        document=True,
    )
    return [out]


def _what(what: str) -> str:
    return t("the audit export") if what == "export" else t("the audit page")


def _head_hash(data: bytes) -> str:
    return str(json.loads(data.split(b"\n", 1)[0]).get("head_hash"))


def _notes(chat: Chat, game: str, still_open: audit.OpenEpoch | None) -> list[str]:
    if still_open is None:
        notes: list[str] = [t("Nothing left out: every dice epoch's seed is revealed.")]
    elif still_open.turn is None:
        notes = [
            t(
                "Dice epoch {epoch} is still open (rows from {row} on): its rows are in the file"
                " and checked, its rolls become checkable when the epoch closes and its seed is"
                " revealed; ask again then.",
                epoch=still_open.epoch,
                row=still_open.row,
            )
        ]
    else:
        notes = [
            t(
                "Dice epoch {epoch} (turn {turn}) is still open (rows from {row} on): its rows"
                " are in the file and checked, its rolls become checkable after turn {turn},"
                " when its seed is revealed; ask again then.",
                epoch=still_open.epoch,
                turn=still_open.turn,
                row=still_open.row,
            )
        ]
    if games.system_of(chat.store, game).hidden_information:
        over = games.system_of(chat.store, game).situation(chat.service.state(game)).over
        notes.append(
            t(
                "Hidden information: included (the game has ended), so every hidden draw and"
                " private event is checked too."
            )
            if over
            else t(
                "Hidden information: sealed until the game ends (the file holds only its"
                " commitments)."
            )
        )
    return notes


def _spectators(
    chat: Chat, ctx: Ctx, game: str, words: list[str], moderator: bool
) -> list[Outgoing]:
    now = "on" if spectators_allowed(chat, game) else "off"
    if len(words) == 2:
        return chat.answer(ctx, public=[_spectators_text(game, now)])
    if len(words) != 3 or words[2].lower() not in ("on", "off"):
        raise ChatRefused(t("say `audit spectators on` or `audit spectators off`."))
    if not moderator:
        who = chat.name(ctx.user)
        raise ChatRefused(
            t(
                "{who} is not a moderator of {game}: only a moderator says whether"
                " spectators get the audit files (now: on).",
                who=who,
                game=game,
            )
            if now == "on"
            else t(
                "{who} is not a moderator of {game}: only a moderator says whether"
                " spectators get the audit files (now: off).",
                who=who,
                game=game,
            )
        )
    value = words[2].lower()
    chat_store.set_state(chat.store, _spectators_key(game), value, now=ctx.now)
    return chat.answer(ctx, public=[_spectators_text(game, value)])


def _spectators_text(game: str, value: str) -> str:
    if value == "on":
        return t("Spectators' audit files in {game}: on.", game=game)
    return t("Spectators' audit files in {game}: off.", game=game)


__all__ = ["SPECTATORS_DEFAULT", "SUBCOMMANDS", "run", "spectators_allowed"]

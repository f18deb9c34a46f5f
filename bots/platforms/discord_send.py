"""Sending for the Discord adapter: an `Outgoing` split into messages under 2,000 characters, its
image attached as a NEW `discord.File` each send, posts and DMs (with the refused-DM fallback),
and the answer to a slash command (ephemeral private parts, the deferred "thinking" slot).

A channel that refuses the image (403 Missing Permissions: no Attach Files) gets the text
without it, and once a day (per channel and process) a line saying which permission to grant: a
post is never lost for its picture. A post the channel refuses for a permission raises
`NoPermission` (the outbox keeps it waiting until the permission returns)."""

from __future__ import annotations

import io
import logging
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.core.i18n import say, t
from app.i18n import language, normal_code
from app.messages import Incoming, Outgoing
from bots.platforms.common import (
    DISCORD_LIMIT,
    DmClosed,
    NoPermission,
    NoticeOnce,
    Undeliverable,
    split_message,
)
from bots.platforms.discord_keys import Keys, view_of

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

log = logging.getLogger("bots.platforms.discord")  # the adapter's one logger

PLATFORM = "discord"
PRIVATE_SLOT_NOTE = t("Answered privately.")
IMAGE_REFUSED = t(
    "The map could not be posted here: the bot lacks the permission Attach Files in this "
    "channel. The posts go out as text until it is granted (the channel's settings > "
    "Permissions, or the bot's role)."
)  # fills a public "thinking" slot
DONE = t("Done.")  # a slash command whose answers all went elsewhere
DM_CLOSED_CODE = 50007  # "Cannot send messages to this user": he does not accept DMs
PERMISSION_CODES = (50001, 50013)  # Missing Access, Missing Permissions
IMAGE_NOTICES = NoticeOnce()  # channel id -> when it was last told its images are refused
DM_REFUSED = (
    "<@{user}>, I could not send you a private message: please allow direct messages from this "
    "server's members (Privacy Settings), then ask again."
)


def _said(text: str, locale: object) -> str:
    """A note of the adapter's own in the language of a Discord locale (an interaction's, a
    server's preferred one): English where the bot does not speak it."""
    return say(text, language(normal_code(str(locale) if locale else None)))


def dm_refused(user: str, locale: object = None) -> str:
    """DM_REFUSED for a user, in the server's language."""
    said = t(
        "<@{user}>, I could not send you a private message: please allow direct messages from "
        "this server's members (Privacy Settings), then ask again.",
        user=user,
    )
    return _said(said, locale)


@dataclass
class _Part:
    """One Discord message: up to 2,000 characters, at most the one image, and the buttons
    of the Outgoing's keyboard (on its last part)."""

    content: str
    image: bytes | None
    image_name: str
    mentions: discord.AllowedMentions
    view: Keys | None = None

    def file(self) -> discord.File | None:  # a NEW File each call: a File is single use
        if self.image is None:
            return None
        return discord.File(io.BytesIO(self.image), filename=self.image_name)

    def kwargs(self) -> dict[str, Any]:
        kw: dict[str, Any] = {"allowed_mentions": self.mentions}
        if self.content:
            kw["content"] = self.content
        if (f := self.file()) is not None:
            kw["file"] = f
        if self.view is not None:
            kw["view"] = self.view
        return kw


def _parts(out: Outgoing) -> list[_Part]:
    text = out.text or ""
    missing = [u for u in out.mentions if f"<@{u}>" not in text and f"<@!{u}>" not in text]
    if missing:
        text = " ".join(f"<@{u}>" for u in missing) + (f" {text}" if text else "")
    allowed = discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=int(u)) for u in out.mentions],
    )
    view = view_of(out.keyboard)
    empty = [""] if out.image else ["…"] if view else []  # buttons need a message to ride on
    chunks = split_message(text, DISCORD_LIMIT) or empty
    last = len(chunks) - 1
    return [
        _Part(
            chunk,
            out.image if i == last else None,
            out.image_name,
            allowed,
            view if i == last else None,
        )
        for i, chunk in enumerate(chunks)
    ]


def _for_discord(outs: Iterable[Outgoing]) -> list[Outgoing]:
    mine = []
    for out in outs:
        if out.platform != PLATFORM:
            log.warning("discord adapter skips an outgoing for %s", out.platform)
        else:
            mine.append(out)
    return mine


async def send_outgoing(bot: discord.Client, out: Outgoing) -> None:
    """Send one Outgoing with no update behind it (a reminder, a deadline, the outbox): a post to
    its channel, or a DM. A DM Discord refuses raises `DmClosed` (403, code 50007: the user does
    not accept DMs; the outbox keeps it waiting and tells the group) or `Undeliverable`."""
    await _deliver(bot, out, here=None, here_id=None)


async def _deliver(bot: discord.Client, out: Outgoing, *, here: Any, here_id: str | None) -> None:
    """A post or a DM; `here` is the channel of the update being answered (or None)."""
    if out.platform != PLATFORM:
        log.warning("discord adapter skips an outgoing for %s", out.platform)
        return
    if out.private:
        await _deliver_private(bot, out, here=here)
        return
    if out.chat_id is None:
        log.error("a public outgoing without chat_id was dropped")
        return
    target = (
        here if here is not None and out.chat_id == here_id else await _channel(bot, out.chat_id)
    )
    try:
        await _post(target, _parts(out), reply_to=out.reply_to, chat_id=out.chat_id)
    except discord.Forbidden as exc:
        if exc.code not in PERMISSION_CODES:
            raise
        raise NoPermission(f"discord channel {out.chat_id} refused a post: {exc.text}") from exc


async def _deliver_private(bot: discord.Client, out: Outgoing, *, here: Any) -> None:
    """A DM; if Discord refuses it, a line asking the user to allow DMs (without the content) in
    `here` (the channel of the update answered); with no update behind it, `DmClosed` (the user
    refuses DMs) or `Undeliverable` (any other refusal)."""
    if out.user_id is None:
        log.error("a private outgoing without user_id was dropped")
        return
    try:
        dm = await bot.create_dm(discord.Object(id=int(out.user_id)))
        await _post(dm, _parts(out))
    except discord.Forbidden as exc:
        log.info("discord: DM to %s refused (%s)", out.user_id, exc.code)
        if here is None:
            error = DmClosed if exc.code == DM_CLOSED_CODE else Undeliverable
            raise error(f"discord refused a DM to {out.user_id}: {exc.text}") from exc
        await here.send(
            dm_refused(
                out.user_id, getattr(getattr(here, "guild", None), "preferred_locale", None)
            ),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(id=int(out.user_id))]
            ),
        )


async def _channel(bot: discord.Client, chat_id: str) -> Any:
    if chat_id.startswith("dm:"):
        return await bot.create_dm(discord.Object(id=int(chat_id[3:])))
    return bot.get_channel(int(chat_id)) or bot.get_partial_messageable(int(chat_id))


async def _post(
    target: Any, parts: Sequence[_Part], *, reply_to: str | None = None, chat_id: str | None = None
) -> None:
    reference = None
    if (
        reply_to
        and reply_to.startswith("dc:")
        and chat_id
        and not chat_id.startswith("dm:")
        and _may_reply(target)
    ):
        reference = discord.MessageReference(
            message_id=int(reply_to[3:]), channel_id=int(chat_id), fail_if_not_exists=False
        )
    dropped = False
    for i, part in enumerate(parts):
        kw = part.kwargs()
        if i == 0 and reference is not None:
            kw["reference"] = reference
        try:
            await target.send(**kw)
        except discord.Forbidden as exc:
            if "file" not in kw or exc.code not in PERMISSION_CODES:
                raise
            log.warning("discord: channel %s refused an image (%s); sent as text", chat_id, exc)
            dropped = True
            del kw["file"]
            if kw.get("content"):
                await target.send(**kw)
    if dropped and chat_id and IMAGE_NOTICES.due(chat_id, time.monotonic()):
        locale = getattr(getattr(target, "guild", None), "preferred_locale", None)
        try:  # the post went out: a notice that fails is only logged
            await target.send(_said(IMAGE_REFUSED, locale))
        except discord.HTTPException as exc:
            log.warning(
                "discord: could not tell channel %s its images are refused: %s", chat_id, exc
            )


def _may_reply(target: Any) -> bool:
    """Discord refuses a reply (a message reference) without Read Message History: the answer
    then goes out as a plain message (the permission check says what is missing)."""
    guild = getattr(target, "guild", None)
    if guild is None or guild.me is None or not hasattr(target, "permissions_for"):
        return True
    return bool(target.permissions_for(guild.me).read_message_history)


def _sort_answers(
    interaction: discord.Interaction, incoming: Incoming, outs: list[Outgoing]
) -> tuple[list[tuple[bool, _Part]], list[Outgoing]]:
    """(parts answered through the interaction as (ephemeral, part), outgoings sent elsewhere)."""
    user_id = str(interaction.user.id)
    here: list[tuple[bool, _Part]] = []  # (ephemeral, part)
    elsewhere: list[Outgoing] = []
    for out in _for_discord(outs):
        if out.private and out.user_id == user_id:
            here += [(True, p) for p in _parts(out)]
        elif not out.private and out.chat_id == incoming.chat_id:
            here += [(False, p) for p in _parts(out)]
        else:
            elsewhere.append(out)
    return here, elsewhere


async def _fill_thinking_slot(
    interaction: discord.Interaction, here: list[tuple[bool, _Part]]
) -> None:
    """Replace a public defer's "thinking..." with the first public part (taken out of `here`),
    or with a note when there is none."""
    public = next((i for i, (eph, _) in enumerate(here) if not eph), None)
    if public is None:
        note = PRIVATE_SLOT_NOTE if here else DONE
        await interaction.edit_original_response(content=_said(note, interaction.locale))
        return
    _, part = here.pop(public)
    kw = part.kwargs()
    file = kw.pop("file", None)
    await interaction.edit_original_response(
        content=kw.get("content"),
        attachments=[file] if file else [],
        allowed_mentions=part.mentions,
        view=discord.utils.MISSING if part.view is None else part.view,  # MISSING: keep it
    )


async def _answer_interaction(
    bot: discord.Client,
    interaction: discord.Interaction,
    incoming: Incoming,
    outs: list[Outgoing],
    *,
    deferred: bool,
) -> None:
    """Answer a slash command: posts to its channel and private messages to its user go through
    the interaction (the private ones ephemeral); anything else is delivered normally."""
    here, elsewhere = _sort_answers(interaction, incoming, outs)
    if deferred:  # the public "thinking" slot must be filled first, by a public message
        await _fill_thinking_slot(interaction, here)
    elif not here:
        done = _said(DONE, interaction.locale)
        here.append((True, _Part(done, None, "", discord.AllowedMentions.none())))

    for ephemeral, part in here:
        if not interaction.response.is_done():
            await interaction.response.send_message(ephemeral=ephemeral, **part.kwargs())
        else:
            await interaction.followup.send(ephemeral=ephemeral, **part.kwargs())
    for out in elsewhere:
        await _deliver(bot, out, here=interaction.channel, here_id=incoming.chat_id)

"""Playing by taps on Discord: the completions of `/order text:`, the `/options` menu, and every
press of a button of ours (bots/platforms/discord_keys.py), handed to the chat service's tap core
(`service.taps`, bots/taps.py).

- A completion runs in a worker thread and is answered within Discord's 3 s whatever happens
  (nothing is offered when it is late): at most 25 choices, each the canonical order text.
- `/options` (no unit) answers, ephemerally, with the speaker's menu as buttons.
- A press ("pbem:<token>", or a modal's "pbem:m:<token>" with the line written) is deferred
  unless answered at once, handed to `taps.press` in a worker thread, in the chat's order
  (its lock), keyed by the interaction's id. What the presser alone may see is answered
  ephemerally: on a menu of his (an ephemeral message) the menu itself is replaced by the next
  one, or its buttons removed once an order is given or refused; pressed on a post (its
  "Answer" key) a new ephemeral message opens his menu. Public answers (an order's result) are
  posted to the channel.
- A key that asks for a line of free text ("pbem:w:<token>") opens a modal at once (a modal
  must be the first answer to a press).

The presses are found by their custom id in `on_interaction`, never in discord.py's view store,
so a button of a message sent before a restart works as well as a new one.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import warnings
from typing import Any

from adjudicator.core.i18n import say, t
from app.i18n import language, normal_code
from app.messages import Incoming, Outgoing
from bots.platforms import discord_keys as keys
from bots.platforms.discord_client import PbemClient
from bots.platforms.discord_commands import (
    _ask,
    _handle_context,
    answer_when_done,
    interaction_incoming,
    reply_later,
)
from bots.platforms.discord_send import DONE, _deliver, _Part, _parts, _said

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord
    from discord import app_commands

log = logging.getLogger("bots.platforms.discord")

COMPLETE_WITHIN = 2.5  # seconds: Discord drops an autocomplete not answered within 3 s
CHOICES = 25
NAME = 100  # characters of a choice's name and value
MODAL_TITLE = 45  # characters of a modal's title and of a text input's label
LINE = "line"  # the custom id of the modal's one text input
ANSWER_LABEL = t("Your answer")


def _taps(bot: PbemClient) -> Any:
    return getattr(bot.service, "taps", None)


# ---------------------------------------------------------------- completion
async def complete(
    bot: PbemClient, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The choices of `/order text:` for what the speaker has typed so far."""
    taps = _taps(bot)
    if taps is None:
        return []
    # as typed (not stripped): a trailing space says the last word is complete
    incoming = dataclasses.replace(interaction_incoming(interaction, ""), text=current or "")
    try:
        found = await asyncio.wait_for(asyncio.to_thread(taps.complete, incoming), COMPLETE_WITHIN)
    except TimeoutError:
        log.warning("discord: a completion of %.40r was late: nothing offered", current)
        return []
    return [
        app_commands.Choice(name=_fit(label, NAME), value=value)
        for label, value in found[:CHOICES]
        if 0 < len(value) <= NAME
    ]


# ---------------------------------------------------------------- /options
async def options(bot: PbemClient, ctx: Any, unit: str) -> None:
    """`/options`: the speaker's menu as buttons (ephemeral); `/options <UNIT>` and `!options`
    answer as text, as before."""
    interaction = ctx.interaction
    taps = _taps(bot)
    if interaction is None or unit.strip() or taps is None:
        await _handle_context(bot, ctx, f"options {unit}".strip())
        return
    incoming = interaction_incoming(interaction, "options")
    work = asyncio.ensure_future(_ask(bot, incoming, taps.options))
    await answer_when_done(bot, interaction, incoming, work, ephemeral=True)


# ---------------------------------------------------------------- presses
async def on_interaction(bot: PbemClient, interaction: discord.Interaction) -> None:
    """A press of a button of ours, or a modal of ours submitted; anything else is left to
    discord.py (slash commands, autocompletes)."""
    if interaction.type not in (
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return
    data: dict[str, Any] = dict(interaction.data or {})
    found = keys.parse(str(data.get("custom_id", "")))
    taps = _taps(bot)
    if found is None or taps is None:
        return
    kind, token = found
    try:
        if kind == "write":
            await _ask_line(interaction, token)
            return
        values = [_line(data.get("components") or [])] if kind == "line" else None
        await _press(bot, taps, interaction, token, values)
    except Exception:
        log.exception("discord: the press %s failed", interaction.id)


async def _ask_line(interaction: discord.Interaction, token: str) -> None:
    """The modal that asks for the line of free text; its submit is a press of `token`."""
    lang = language(normal_code(str(interaction.locale)))
    wanted = keys.custom_id(token, "write")
    prompt = (keys.label_of(interaction.message, wanted) or "").removeprefix("✎ ").strip()
    modal = discord.ui.Modal(
        title=_fit(prompt or say(ANSWER_LABEL, lang), MODAL_TITLE),
        custom_id=keys.custom_id(token, "line"),
        timeout=600,
    )
    field: discord.ui.TextInput[Any] = discord.ui.TextInput(
        custom_id=LINE, placeholder=_fit(prompt, NAME) or None, max_length=200
    )
    modal.add_item(
        discord.ui.Label(text=_fit(say(ANSWER_LABEL, lang), MODAL_TITLE), component=field)
    )
    await interaction.response.send_modal(modal)


def _line(components: list[Any]) -> str:
    """The text written in the modal's input (an action row's or a label's)."""
    for item in components:
        if not isinstance(item, dict):
            continue
        if item.get("custom_id") == LINE and "value" in item:
            return str(item["value"] or "")
        inner = [item["component"]] if "component" in item else item.get("components") or []
        said = _line(inner)
        if said:
            return said
    return ""


async def _press(
    bot: PbemClient,
    taps: Any,
    interaction: discord.Interaction,
    token: str,
    values: list[str] | None,
) -> None:
    incoming = interaction_incoming(interaction, "")
    press = functools.partial(_pressed, taps, token=token, values=values)
    work = asyncio.ensure_future(_ask(bot, incoming, press))
    menu = _on_a_menu(interaction)
    if bot.defer_after > 0:
        await asyncio.wait({work}, timeout=bot.defer_after)
    try:
        if not work.done():
            if menu:
                await interaction.response.defer()  # the menu itself will be edited
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as exc:
        log.warning("discord: could not defer %s (%s)", incoming.message_id, exc)
    outs = await work
    try:
        await _answer_press(bot, interaction, incoming, outs, menu)
    except Exception as exc:  # noqa: BLE001 - the in-band answer failed: the outbox posts it
        for n, out in enumerate(outs):
            await reply_later(bot, out, f"reply:{incoming.message_id}:{n}", exc)


def _pressed(
    taps: Any, incoming: Incoming, *, token: str, values: list[str] | None
) -> list[Outgoing]:
    return list(taps.press(incoming, token, values))


def _on_a_menu(interaction: discord.Interaction) -> bool:
    """Pressed on an ephemeral message of ours (a menu): the answer replaces it."""
    message = interaction.message
    return message is not None and bool(message.flags.ephemeral)


async def _answer_press(
    bot: PbemClient,
    interaction: discord.Interaction,
    incoming: Incoming,
    outs: list[Outgoing],
    menu: bool,
) -> None:
    user = str(interaction.user.id)
    mine = [p for o in outs if o.private and o.user_id == user for p in _parts(o)]
    public = [o for o in outs if not (o.private and o.user_id == user)]
    if menu:
        await _replace_menu(interaction, mine)
    elif not mine:
        mine = [_Part(_said(DONE, interaction.locale), None, "", discord.AllowedMentions.none())]
    for part in mine:
        if not interaction.response.is_done():
            await interaction.response.send_message(ephemeral=True, **part.kwargs())
        else:
            await interaction.followup.send(ephemeral=True, **part.kwargs())
    for out in public:
        await _deliver(bot, out, here=interaction.channel, here_id=incoming.chat_id)


async def _replace_menu(interaction: discord.Interaction, mine: list[_Part]) -> None:
    """The pressed menu becomes the next one (taken out of `mine`); where the press gave or
    refused an order, the menu keeps its text, says the key pressed, and loses its buttons."""
    if mine and mine[0].view is not None:
        part = mine.pop(0)
        content, view = part.content, part.view
    else:
        message = interaction.message
        data: dict[str, Any] = dict(interaction.data or {})
        pressed = keys.label_of(message, str(data.get("custom_id", "")))
        said = message.content if message is not None else ""
        content, view = (f"{said}\n→ {pressed}" if pressed else said) or "…", None
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, view=view)
    else:
        await interaction.response.edit_message(content=content, view=view)


def _fit(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["complete", "on_interaction", "options"]

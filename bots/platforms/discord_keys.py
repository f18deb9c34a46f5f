"""A `Keyboard` (app/messages.py) drawn as Discord components, and the custom ids that bring a
press back.

Each key is a button whose custom id is "pbem:<token>"; the keyboard's line of free text (a
template part with no names to offer) is a button "pbem:w:<token>" that opens a modal, whose
submit comes back as "pbem:m:<token>". The token alone is carried: what it stands for stays in
the database (storage/taps.py), so a press is understood after a restart and nothing a client
sends can be forged into an order. At most 5 rows of 5 buttons (Discord's limit).

The views drawn here are never kept in discord.py's view store: every press is handled by the
bot's `on_interaction` by its custom id (bots/platforms/discord_taps.py), whichever process sent
the message and whenever.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

from app.messages import Keyboard

with warnings.catch_warnings():
    # discord.py (voice support) imports the stdlib audioop, deprecated since Python 3.11
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord

PREFIX = "pbem:"
ROW = 5  # buttons of one row
MOST = 25  # buttons of one message (5 rows of 5)
LABEL = 80  # characters of a button's label
_CUSTOM_ID = re.compile(r"pbem:(?:(?P<kind>[wm]):)?(?P<token>[A-Za-z0-9_-]{1,64})")
KINDS = {None: "key", "w": "write", "m": "line"}


class Keys(discord.ui.View):
    """The buttons of a keyboard. Not dispatchable: discord.py must not keep it (see the module
    doc); the bot's own handler answers its presses."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def custom_id(token: str, kind: str = "key") -> str:
    """The custom id of a key ("key"), of the button opening a modal ("write"), or of the modal
    ("line")."""
    return {"key": PREFIX, "write": PREFIX + "w:", "line": PREFIX + "m:"}[kind] + token


def parse(custom_id: str) -> tuple[str, str] | None:
    """(kind, token) of one of ours, or None."""
    found = _CUSTOM_ID.fullmatch(custom_id or "")
    if found is None:
        return None
    return KINDS[found["kind"]], found["token"]


def view_of(keyboard: Keyboard | None) -> Keys | None:
    """The buttons of a keyboard (None: no keyboard, or an empty one)."""
    if keyboard is None or (not keyboard.keys and keyboard.free is None):
        return None
    view = Keys()
    buttons: list[discord.ui.Button[Any]] = []
    if keyboard.free is not None:
        label = _fit("✎ " + (keyboard.free_prompt or "…"))
        buttons.append(
            discord.ui.Button(
                label=label,
                custom_id=custom_id(keyboard.free, "write"),
                style=discord.ButtonStyle.primary,
            )
        )
    for key in keyboard.keys:
        style = discord.ButtonStyle.secondary if _steps(key.label) else discord.ButtonStyle.primary
        buttons.append(
            discord.ui.Button(label=_fit(key.label), custom_id=custom_id(key.token), style=style)
        )
    for n, button in enumerate(buttons[:MOST]):
        button.row = n // ROW
        view.add_item(button)
    return view


def label_of(message: discord.Message | None, wanted: str) -> str | None:
    """The label of the button with this custom id on a message (what the presser saw)."""
    if message is None:
        return None
    for row in message.components:
        for item in getattr(row, "children", ()):
            if getattr(item, "custom_id", None) == wanted:
                label = getattr(item, "label", None)
                return str(label) if label else None
    return None


def _steps(label: str) -> bool:
    """A key that leads to another menu (a next word, a page, back) rather than an order."""
    return label.endswith(("…", "▶")) or label.startswith(("«", "◀"))


def _fit(label: str) -> str:
    return label if len(label) <= LABEL else label[: LABEL - 1] + "…"


__all__ = ["Keys", "custom_id", "label_of", "parse", "view_of"]

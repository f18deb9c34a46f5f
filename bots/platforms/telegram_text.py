"""Text for the Telegram adapter: commands parsed ("/cmd@bot rest"), the order text of a command,
and plain text with a little Markdown turned into escaped MarkdownV2 (with inline mentions)."""

from __future__ import annotations

import re

from telegram import Message
from telegram.helpers import escape_markdown

ORDER_COMMANDS = ("order", "o")
SHORT_COMMANDS = ("map", "status", "options", "help")
_COMMAND = re.compile(r"/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?=\s|$)")
_INLINE = re.compile(r"`([^`\n]+)`|\*\*(?=\S)(.+?)(?<=\S)\*\*")


def parse_command(text: str, bot_username: str | None) -> tuple[str, str] | None:
    """("command", "rest of the text") for "/command@bot rest", None if it is not a command or
    is addressed to another bot. The rest keeps its line breaks (multi-line orders)."""
    m = _COMMAND.match(text)
    if m is None:
        return None
    target = m.group(2)
    if target and (not bot_username or target.lower() != bot_username.lower()):
        return None
    return m.group(1).lower(), text[m.end() :].strip()


def order_text(command: str, rest: str) -> str:
    """The order-language text of a command: /order and /o carry it, others are its first word."""
    if command in ORDER_COMMANDS:
        return rest
    return f"{command} {rest}".strip()


def wants_full_resolution(text: str) -> bool:
    """`/map full`: the map as a document (a photo is recompressed by Telegram)."""
    return text.lower().split()[:2] == ["map", "full"]


def to_markdown_v2(text: str) -> str:
    """Plain text with a little Markdown (``` blocks, `code`, **bold**) as Telegram MarkdownV2.

    Everything else is escaped, so user-provided text (names, echoed orders) renders literally
    and can never break the message: no links, no stray entities.
    """
    out: list[str] = []
    in_block = False
    for line in text.split("\n"):
        stripped = line.rstrip()
        if stripped.startswith("```"):
            if in_block:
                out.append("```")
                in_block = False
                continue
            if len(stripped) > 6 and stripped.endswith("```"):  # ```one-line code```
                code = stripped[3:-3]
                out.append(f"`{escape_markdown(code, version=2, entity_type='code')}`")
                continue
            lang = re.sub(r"[^\w+-]", "", stripped[3:])
            out.append(f"```{lang}")
            in_block = True
        elif in_block:
            out.append(escape_markdown(line, version=2, entity_type="pre"))
        else:
            out.append(_inline_markdown_v2(line))
    if in_block:
        out.append("```")
    return "\n".join(out)


def _inline_markdown_v2(line: str) -> str:
    parts: list[str] = []
    pos = 0
    for m in _INLINE.finditer(line):
        parts.append(escape_markdown(line[pos : m.start()], version=2))
        if m.group(1) is not None:
            parts.append(f"`{escape_markdown(m.group(1), version=2, entity_type='code')}`")
        else:
            parts.append(f"*{escape_markdown(m.group(2), version=2)}*")
        pos = m.end()
    parts.append(escape_markdown(line[pos:], version=2))
    return "".join(parts)


def mention_v2(user_id: str | int, name: str) -> str:
    """An inline mention that pings the user even without a username."""
    return f"[{escape_markdown(name, version=2)}](tg://user?id={int(user_id)})"


def text_with_ids(message: Message) -> str:
    """The text with each text mention (a user with no @username, picked from the member list)
    written `telegram:<id>`: how `seat <SIDE> <USER>` names that user."""
    text = message.text or ""
    spans = [e for e in message.entities or () if e.type == "text_mention" and e.user]
    raw = text.encode("utf-16-le", "surrogatepass")  # offsets count UTF-16 code units; a lone
    # surrogate is data too (the chat service replaces it), never an error here
    for e in sorted(spans, key=lambda e: -e.offset):
        uid = f"telegram:{e.user.id}".encode("utf-16-le")  # type: ignore[union-attr]
        raw = raw[: 2 * e.offset] + uid + raw[2 * (e.offset + e.length) :]
    return raw.decode("utf-16-le", "surrogatepass")

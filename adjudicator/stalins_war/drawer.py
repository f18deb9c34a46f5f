"""The public card state as an image: the turn track, each player's Consecutive OPS track with
his marker, his action round boxes of this turn (5.8, 5.9: green, yellow, grey), the RP recorded,
the counts of hand, deck, discard pile and removed cards, and the cards played face up. It draws
the state it is given (a viewer's view); it never draws a hand (the hand is text, for its owner).
Every label is said in the language given (`language`, English by default).
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import EN, ENGLISH, Language, Msg, cat, name, say, t
from render import canvas, labels, png, text

INK, PAPER, BACK = (25, 25, 25), (248, 246, 238), (226, 222, 208)
BOXES = {"green": (90, 170, 90), "yellow": (230, 200, 70), "grey": (160, 160, 160)}
SIDE_COLOURS = {"axis": (90, 100, 110), "soviet": (170, 50, 40)}
NAMES = {"axis": name("Axis", ru="Ось"), "soviet": name("Soviet", ru="СССР")}
KIND_BOX = {"ops": "green", "zero-move": "yellow"}
# Drawn for a phone: a chat shows the image 390 px wide, where a 480 px image's 12 px text keeps
# capitals 7 px high (tests/test_small_system_images.py); so every text is 12 px or more, and the
# image grows downwards (the turn track in rows, long lines wrapped) instead of sideways.
WIDTH = 480
SMALL, MEDIUM, LARGE = 12, 14, 16  # font sizes: the least, lines of their own, side names
LINE = 17  # the height of a line of SMALL text
TRACK = 7  # boxes drawn on the Consecutive OPS track: 0 to 5, then one for 6 and more (7.8)
PER_ROW = 9  # turn boxes in a row of the turn track
GAP = "   "  # between the parts of the counts and RP lines: where they may break


def _wrapped(s: str, size: int = SMALL, width: int = WIDTH - 32) -> list[str]:
    """s in lines no wider than width: broken at its GAPs first, then at spaces."""
    out: list[str] = []
    for part in s.split(GAP):
        if out and text.text_length(out[-1] + GAP + part, size) <= width:
            out[-1] += GAP + part
        else:
            out += text.wrap(part, size, width)
    return out


def _turn_track(image: Any, pen: Any, state: Any, turns: int, lang: Language, y: int) -> int:
    text.text(image, (12, y + 5), say(t("Turn"), lang), MEDIUM, INK)
    for n in range(1, turns + 1):
        x, top = 60 + (n - 1) % PER_ROW * 45, y + (n - 1) // PER_ROW * 30
        here = n == state.turn
        pen.rectangle(
            (x, top, x + 40, top + 25), fill=(250, 230, 150) if here else PAPER, outline=INK
        )
        text.text(image, (x + 20, top + 13), str(n), SMALL, INK, anchor="mm")
    return y + -(-turns // PER_ROW) * 30


def _box(n: int) -> Msg:
    """A box of the Consecutive OPS track: "0 N/A", "full", "-1" (7.6)."""
    if n == 0:
        return t("0 N/A")
    if n == 1:
        return t("full")
    return t("-{reduction}", reduction=n - 1)


def _label(n: int, count: int) -> Msg:
    """The label of box n. The last box holds every count from TRACK - 1 up (7.8: no upper
    limit, the reduction is count - 1): with the marker in it, it reads the marker's count and
    reduction ("7: -6"); else the rule ("6+: count-1")."""
    if n < TRACK - 1:
        return t("{n}: {box}", n=n, box=_box(n))
    if count >= n:
        return t("{n}: {box}", n=count, box=_box(count))
    return t("{n}+: count-1", n=n)


def _texts(system: Any, state: Any, side: str, lang: Language) -> list[str]:
    """The side's lines under its tracks: counts, RP, the cards face up and removed."""
    p = state.players[side]
    counts = t(
        "hand {hand}   deck {deck}   discard {discard}   removed {removed}   hand size {size}",
        hand=len(p.hand) + p.hidden,
        deck=len(p.deck),
        discard=len(p.discard),
        removed=len(p.removed),
        size=p.hand_size,
    )
    deck = system.deck
    parts = [t("{nation} {value}", nation=deck.nation(k), value=v) for k, v in p.rp.items() if v]
    rp = t(
        "RP recorded: {rp}   RP plays this turn: {plays}",
        rp=cat(*parts, sep=", ") if parts else t("none"),
        plays=p.rp_plays,
    )
    up = [deck.card(side, n).label for n, face_up in p.discard[-4:] if face_up and n is not None]
    gone = [deck.card(side, n).label for n in p.removed[-4:]]
    shown = t("Face up (last): {cards}", cards=cat(*up, sep=", ") if up else "-")
    removed = t("Removed: {cards}", cards=cat(*gone, sep=", ") if gone else "-")
    return [line for m in (counts, rp, shown, removed) for line in _wrapped(say(m, lang))]


def _side(image: Any, pen: Any, system: Any, state: Any, side: str, y: int, lang: Language) -> int:
    """The side's panel from y down; the y below it."""
    p = state.players[side]
    colour = SIDE_COLOURS[side]
    said = _texts(system, state, side, lang)
    height = 140 + len(said) * LINE
    pen.rectangle((6, y, WIDTH - 6, y + height), fill=PAPER, outline=colour, width=2)
    text.text(image, (14, y + 8), say(NAMES[side], lang), LARGE, colour)
    text.text(image, (14, y + 34), say(t("Consecutive OPS"), lang), SMALL, INK)
    for n in range(TRACK):
        x, wide = 14 + n * 63, 60 if n < TRACK - 1 else 76  # the last box: "6+: count-1"
        pen.rectangle((x, y + 62, x + wide, y + 86), fill=BACK, outline=INK)
        label = say(_label(n, p.count), lang)
        if text.text_length(label, SMALL) <= wide - 4:
            text.text(image, (x + wide // 2, y + 74), label, SMALL, INK, anchor="mm")
        else:  # "1: полн.": the count over the box's name, in two lines
            top, _, bottom = label.partition(": ")
            text.text(image, (x + wide // 2, y + 67), top, SMALL, INK, anchor="mm")
            text.text_fitted(image, (x + wide // 2, y + 80), bottom, SMALL, INK, wide - 4)
        if min(p.count, TRACK - 1) == n:
            mid = x + wide // 2  # the marker, above its box
            pen.ellipse((mid - 9, y + 48, mid + 9, y + 64), fill=colour, outline=INK)
    text.text(image, (14, y + 100), say(t("Actions"), lang), SMALL, INK)
    for n in range(5):
        x = 100 + n * 44
        kind = p.boxes[n] if n < len(p.boxes) else None
        fill = BOXES[KIND_BOX.get(kind, "grey")] if kind else PAPER
        pen.rectangle((x, y + 96, x + 38, y + 120), fill=fill, outline=INK)
        text.text(image, (x + 19, y + 108), str(n + 1), SMALL, INK, anchor="mm")
    for k, line in enumerate(said):
        text.text(image, (14, y + 132 + k * LINE), line, SMALL, INK)
    return y + height


def _where(state: Any) -> Msg | str:
    who = NAMES.get(state.to_move, "")
    if state.result:
        return t("Game over after turn {turn} (rule 12.5)", turn=state.turn)
    if state.phase == "action":
        return t(
            "Turn {turn}, action round {round}: {side} to act",
            turn=state.turn,
            round=state.round,
            side=who,
        )
    if state.phase == "draw":
        return t("Turn {turn}, draw phase: {side} decides", turn=state.turn, side=who)
    if state.phase == "setup":
        return t("Setup: {side} draws his hand", side=who)
    return ""


def draw(
    system: Any,
    state: Any,
    events: Any = (),
    view: Any = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    with text.wide_font(language.code != ENGLISH):  # every text in one font, measured in it
        return _draw(system, state, title, language)


def _draw(system: Any, state: Any, title: str | None, language: Language) -> bytes:
    image = canvas.new_image((WIDTH, 2000), BACK)  # cut to what is drawn
    pen = canvas.draw(image)
    head = title or system.title
    y = 8
    for line in _wrapped(say(head, language), MEDIUM, WIDTH - 24)[:3]:
        text.text(image, (12, y), line, MEDIUM, INK)
        y += 19
    y = _turn_track(image, pen, state, system.deck.turns, language, y + 6) + 8
    for side in ("axis", "soviet"):
        y = _side(image, pen, system, state, side, y, language) + 6
    for line in _wrapped(say(_where(state), language), MEDIUM, WIDTH - 24):
        text.text(image, (12, y + 2), line, MEDIUM, INK)
        y += 19
    labels.crop((0, 0, WIDTH, y + 8))
    return png.encode(image.crop((0, 0, WIDTH, y + 8)))

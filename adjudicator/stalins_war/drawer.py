"""The public card state as an image: the turn track, each player's Consecutive OPS track with
his marker, his action round boxes of this turn (5.8, 5.9: green, yellow, grey), the RP recorded,
the counts of hand, deck, discard pile and removed cards, and the cards played face up. It draws
the state it is given (a viewer's view); it never draws a hand (the hand is text, for its owner).
Every label is said in the language given (`language`, English by default).
"""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import EN, Language, Msg, cat, name, say, t
from render import canvas, png, text

INK, PAPER, BACK = (25, 25, 25), (248, 246, 238), (226, 222, 208)
BOXES = {"green": (90, 170, 90), "yellow": (230, 200, 70), "grey": (160, 160, 160)}
SIDE_COLOURS = {"axis": (90, 100, 110), "soviet": (170, 50, 40)}
NAMES = {"axis": name("Axis", ru="Ось"), "soviet": name("Soviet", ru="СССР")}
KIND_BOX = {"ops": "green", "zero-move": "yellow"}
WIDTH, HEIGHT = 760, 336
TRACK = 7  # boxes drawn on the Consecutive OPS track: 0 to 5, then one for 6 and more (7.8)


def _turn_track(image: Any, pen: Any, state: Any, turns: int, lang: Language) -> None:
    text.text(image, (12, 38), say(t("Turn"), lang), 12, INK)
    for n in range(1, turns + 1):
        x = 60 + (n - 1) * 36
        here = n == state.turn
        pen.rectangle((x, 32, x + 32, 52), fill=(250, 230, 150) if here else PAPER, outline=INK)
        text.text(image, (x + 16, 42), str(n), 11, INK, anchor="mm")


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


def _side(image: Any, pen: Any, system: Any, state: Any, side: str, y: int, lang: Language) -> None:
    p = state.players[side]
    colour = SIDE_COLOURS[side]
    pen.rectangle((8, y, WIDTH - 8, y + 122), fill=PAPER, outline=colour, width=2)
    text.text(image, (16, y + 8), say(NAMES[side], lang), 14, colour)
    text.text(image, (16, y + 30), say(t("Consecutive OPS"), lang), 11, INK)
    for n in range(TRACK):
        x, wide = 130 + n * 56, 52 if n < TRACK - 1 else 80  # the last box: "6+: count-1"
        pen.rectangle((x, y + 24, x + wide, y + 46), fill=BACK, outline=INK)
        label = _label(n, p.count)
        text.text(image, (x + wide // 2, y + 35), say(label, lang), 10, INK, anchor="mm")
        if min(p.count, TRACK - 1) == n:
            mid = x + wide // 2  # the marker
            pen.ellipse((mid - 8, y + 13, mid + 8, y + 27), fill=colour, outline=INK)
    text.text(image, (16, y + 58), say(t("Actions"), lang), 11, INK)
    for n in range(5):
        x = 130 + n * 40
        kind = p.boxes[n] if n < len(p.boxes) else None
        fill = BOXES[KIND_BOX.get(kind, "grey")] if kind else PAPER
        pen.rectangle((x, y + 52, x + 34, y + 72), fill=fill, outline=INK)
        text.text(image, (x + 17, y + 62), str(n + 1), 10, INK, anchor="mm")
    counts = t(
        "hand {hand}   deck {deck}   discard {discard}   removed {removed}   hand size {size}",
        hand=len(p.hand) + p.hidden,
        deck=len(p.deck),
        discard=len(p.discard),
        removed=len(p.removed),
        size=p.hand_size,
    )
    text.text(image, (350, y + 58), say(counts, lang), 11, INK)
    deck = system.deck
    parts = [t("{nation} {value}", nation=deck.nation(k), value=v) for k, v in p.rp.items() if v]
    rp = t(
        "RP recorded: {rp}   RP plays this turn: {plays}",
        rp=cat(*parts, sep=", ") if parts else t("none"),
        plays=p.rp_plays,
    )
    text.text(image, (16, y + 82), say(rp, lang), 11, INK)
    up = [deck.card(side, n).label for n, face_up in p.discard[-4:] if face_up and n is not None]
    gone = [deck.card(side, n).label for n in p.removed[-4:]]
    shown = t("Face up (last): {cards}", cards=cat(*up, sep=", ") if up else "-")
    text.text(image, (16, y + 98), say(shown, lang)[:110], 10, INK)
    shown = t("Removed: {cards}", cards=cat(*gone, sep=", ") if gone else "-")
    text.text(image, (16, y + 110), say(shown, lang)[:110], 10, INK)


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
    image = canvas.new_image((WIDTH, HEIGHT), BACK)
    pen = canvas.draw(image)
    head = title or system.title
    text.text(image, (12, 8), say(head, language)[:100], 14, INK)
    _turn_track(image, pen, state, system.deck.turns, language)
    for row, side in enumerate(("axis", "soviet")):
        _side(image, pen, system, state, side, 62 + row * 128, language)
    text.text(image, (12, HEIGHT - 12), say(_where(state), language), 11, INK, anchor="lm")
    return png.encode(image)

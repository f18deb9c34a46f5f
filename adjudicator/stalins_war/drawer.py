"""The public card state as an image: the turn track, each player's Consecutive OPS track with
his marker, his action round boxes of this turn (5.8, 5.9: green, yellow, grey), the RP recorded,
the counts of hand, deck, discard pile and removed cards, and the cards played face up. It draws
the state it is given (a viewer's view); it never draws a hand (the hand is text, for its owner).
"""

from __future__ import annotations

from typing import Any

from render import canvas, png, text

INK, PAPER, BACK = (25, 25, 25), (248, 246, 238), (226, 222, 208)
BOXES = {"green": (90, 170, 90), "yellow": (230, 200, 70), "grey": (160, 160, 160)}
SIDE_COLOURS = {"axis": (90, 100, 110), "soviet": (170, 50, 40)}
NAMES = {"axis": "Axis", "soviet": "Soviet"}
KIND_BOX = {"ops": "green", "zero-move": "yellow"}
WIDTH, HEIGHT = 760, 336
TRACK = 7  # boxes drawn on the Consecutive OPS track: 0 to 6+


def _turn_track(image: Any, pen: Any, state: Any, turns: int) -> None:
    text.text(image, (12, 38), "Turn", 12, INK)
    for t in range(1, turns + 1):
        x = 60 + (t - 1) * 36
        here = t == state.turn
        pen.rectangle((x, 32, x + 32, 52), fill=(250, 230, 150) if here else PAPER, outline=INK)
        text.text(image, (x + 16, 42), str(t), 11, INK, anchor="mm")


def _side(image: Any, pen: Any, system: Any, state: Any, side: str, y: int) -> None:
    p = state.players[side]
    colour = SIDE_COLOURS[side]
    pen.rectangle((8, y, WIDTH - 8, y + 122), fill=PAPER, outline=colour, width=2)
    text.text(image, (16, y + 8), NAMES[side], 14, colour)
    text.text(image, (16, y + 30), "Consecutive OPS", 11, INK)
    for n in range(TRACK):
        x = 130 + n * 56
        label = "0 N/A" if n == 0 else ("full" if n == 1 else f"-{n - 1}")
        pen.rectangle((x, y + 24, x + 52, y + 46), fill=BACK, outline=INK)
        text.text(
            image,
            (x + 26, y + 35),
            f"{n}{'+' if n == TRACK - 1 else ''}: {label}",
            10,
            INK,
            anchor="mm",
        )
        if min(p.count, TRACK - 1) == n:
            pen.ellipse((x + 18, y + 13, x + 34, y + 27), fill=colour, outline=INK)  # the marker
    text.text(image, (16, y + 58), "Actions", 11, INK)
    for n in range(5):
        x = 130 + n * 40
        kind = p.boxes[n] if n < len(p.boxes) else None
        fill = BOXES[KIND_BOX.get(kind, "grey")] if kind else PAPER
        pen.rectangle((x, y + 52, x + 34, y + 72), fill=fill, outline=INK)
        text.text(image, (x + 17, y + 62), str(n + 1), 10, INK, anchor="mm")
    hand = len(p.hand) + p.hidden
    counts = (
        f"hand {hand}   deck {len(p.deck)}   discard {len(p.discard)}   removed "
        f"{len(p.removed)}   hand size {p.hand_size}"
    )
    text.text(image, (350, y + 58), counts, 11, INK)
    rp = ", ".join(f"{k} {v}" for k, v in p.rp.items() if v) or "none"
    text.text(image, (16, y + 82), f"RP recorded: {rp}   RP plays this turn: {p.rp_plays}", 11, INK)
    up = [
        system.deck.card(side, n).label
        for n, face_up in p.discard[-4:]
        if face_up and n is not None
    ]
    gone = [system.deck.card(side, n).label for n in p.removed[-4:]]
    text.text(image, (16, y + 98), f"Face up (last): {', '.join(up) or '-'}"[:110], 10, INK)
    text.text(image, (16, y + 110), f"Removed: {', '.join(gone) or '-'}"[:110], 10, INK)


def draw(
    system: Any, state: Any, events: Any = (), view: Any = None, title: str | None = None
) -> bytes:
    image = canvas.new_image((WIDTH, HEIGHT), BACK)
    pen = canvas.draw(image)
    head = title or system.title
    text.text(image, (12, 8), head[:100], 14, INK)
    _turn_track(image, pen, state, system.deck.turns)
    for row, side in enumerate(("axis", "soviet")):
        _side(image, pen, system, state, side, 62 + row * 128)
    who = NAMES.get(state.to_move, "")
    where = {
        "action": f"Turn {state.turn}, action round {state.round}: {who} to act",
        "draw": f"Turn {state.turn}, draw phase: {who} decides",
        "setup": f"Setup: {who} draws his hand",
    }.get(state.phase, "")
    if state.result:
        where = f"Game over after turn {state.turn} (rule 12.5)"
    text.text(image, (12, HEIGHT - 12), where, 11, INK, anchor="lm")
    return png.encode(image)

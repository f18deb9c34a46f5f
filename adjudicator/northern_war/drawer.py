"""The map of the block game, drawn with the render toolkit from a viewer's view of the state
(system.view): the viewer's own blocks face up (name, rating, strength as pips and a number),
blocks a battle now reveals face up too, every other block face down (its nation's colour
only), and the viewer's reconnaissance records as "seen tN" notes where they were seen. The
public image (no side) shows every block face down. It never reads the full state."""

from __future__ import annotations

from typing import Any

from render import canvas, png, text

SIZE = (900, 640)
BACKGROUND, INK, SEA = (226, 232, 236), (25, 25, 30), (120, 120, 130)
CONTROL = {"sweden": (196, 214, 240), "coalition": (236, 214, 204)}
R = 44  # a territory's radius
BLOCK = 28
NOTE = (130, 20, 20)  # reconnaissance notes


def _block_face(image: canvas.Canvas, pen: canvas.Draw, x: float, y: float,
                colour: tuple[int, ...], label: str | None, strength: int) -> None:  # fmt: skip
    box = (x, y, x + BLOCK, y + BLOCK)
    if label is None:  # face down: the nation's colour only
        pen.rectangle(box, fill=colour, outline=INK)
        return
    pen.rectangle(box, fill=(250, 248, 240), outline=colour, width=3)
    for n in range(strength):  # the diamonds on the top edge (2.4)
        cx = x + 5 + n * 4
        pen.polygon([(cx, y + 3), (cx + 2, y + 5), (cx, y + 7), (cx - 2, y + 5)], fill=INK)
    text.text(image, (x + BLOCK / 2, y + 14), str(strength), 11, INK, anchor="mm")
    text.text(image, (x + BLOCK / 2, y + 23), label, 7, INK, anchor="mm")


def draw(system: Any, state: Any, events: Any = (), view: str | None = None,
         title: str | None = None) -> bytes:  # fmt: skip
    sc = system.scenario
    image = canvas.new_image(SIZE, BACKGROUND)
    pen = canvas.draw(image)
    for t, terr in sc.territories.items():
        for other in terr.borders:
            if t < other:
                pen.line([terr.pos, sc.territories[other].pos], fill=SEA, width=3)
    for t in sc.territories:
        _territory(image, pen, system, state, t)
    for t in sc.territories:  # on top of every territory
        _notes(image, pen, system, state, t, view)
    heading = title or f"{sc.title}"
    text.text(image, (10, 8), heading, 13, INK)
    who = f"seen by {view}" if view else "public view: every block face down"
    when = f"{sc.first_year + state.year - 1}, turn {state.turn}, {state.phase} - {who}"
    text.text(image, (10, 26), when, 12, INK)
    legend = (
        "Your blocks face up (diamonds = strength, name, rating); others face down in "
        "their nation's colour; 'seen tN' = reconnoitred in game turn N (strength then); "
        "thick ring = victory territory; [n] = fortress."
    )
    for n, line in enumerate(text.wrap(legend, 10, SIZE[0] - 20)):
        text.text(image, (10, SIZE[1] - 50 + 13 * n), line, 10, INK)
    x = 10
    for n in sc.nations.values():
        pen.rectangle((x, SIZE[1] - 18, x + 12, SIZE[1] - 6), fill=n.colour, outline=INK)
        text.text(image, (x + 16, SIZE[1] - 18), n.name, 10, INK)
        x += 30 + int(text.text_length(n.name, 10))
    return png.encode(image)


def _territory(image: canvas.Canvas, pen: canvas.Draw, system: Any, state: Any, t: str) -> None:
    sc = system.scenario
    terr = sc.territories[t]
    x, y = terr.pos
    pen.ellipse((x - R, y - R, x + R, y + R), fill=CONTROL[state.control[t]], outline=INK,
                width=3 if t in sc.victory else 1)  # fmt: skip
    name = terr.name + (f" [{terr.fortress}]" if terr.fortress else "")
    text.text(image, (x, y - R + 10), name, 11, INK, anchor="mm")
    here = [b for b in state.at if state.at[b] == t and state.status[b] == "map"]
    for n, b in enumerate(here):
        row = min(3, len(here) - (n // 3) * 3)
        bx = x - row * (BLOCK + 1) / 2 + (n % 3) * (BLOCK + 1)
        by = y - 22 + (n // 3) * (BLOCK + 1)
        if b.startswith("?"):
            colour = sc.nations[b[1:].split("@")[0]].colour
            _block_face(image, pen, bx, by, colour, None, 0)
        else:
            blk = sc.blocks[b]
            face = blk.name.split()[0][:4]
            _block_face(image, pen, bx, by, sc.nations[blk.nation].colour, face,
                        state.strength[b])  # fmt: skip


def _notes(image: canvas.Canvas, pen: canvas.Draw, system: Any, state: Any, t: str,
           view: str | None) -> None:  # fmt: skip
    sc = system.scenario
    x, y = sc.territories[t].pos
    notes = [f"seen t{rec[1]}: {sc.blocks[b].name.split()[0][:6]} {rec[0]}"
             for side in ([view] if view else []) for b, rec in state.seen.get(side, {}).items()
             if rec[3] == t]  # fmt: skip
    for n, note in enumerate(notes[-3:]):
        half, ny = text.text_length(note, 9) / 2 + 3, y + R + 8 + 12 * n
        pen.rectangle((x - half, ny - 6, x + half, ny + 6), fill=(255, 250, 235), outline=NOTE)
        text.text(image, (x, ny), note, 9, NOTE, anchor="mm")

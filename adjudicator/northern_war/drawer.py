"""The map of the block game, drawn with the render toolkit from a viewer's view of the state
(system.view): the viewer's own blocks face up (strength as diamonds and a number, the combat
rating, the name),
blocks a battle now reveals face up too, every other block face down (its nation's colour
only), and the viewer's reconnaissance records as "seen tN" notes where they were seen. The
public image (no side) shows every block face down. It never reads the full state.

Every label is said in the `language` asked for (issue 17): names in the scenario's Russian
forms, the heading, the legend and the notes from the package's catalogue."""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import EN, Language, Msg, name, say, t
from adjudicator.northern_war import texts
from render import canvas, png, text

SIZE = (900, 640)
BACKGROUND, INK, SEA = (226, 232, 236), (25, 25, 30), (120, 120, 130)
CONTROL = {"sweden": (196, 214, 240), "coalition": (236, 214, 204)}
R = 44  # a territory's radius
BLOCK = 28
NOTE = (130, 20, 20)  # reconnaissance notes


def _named(thing: Any) -> Msg:
    """A scenario entry's name with its Russian form (name_ru), if it has one."""
    return name(thing.name, ru=getattr(thing, "name_ru", None))


def _block_face(
    image: canvas.Canvas,
    pen: canvas.Draw,
    x: float,
    y: float,
    colour: tuple[int, ...],
    label: str | None,
    strength: int,
    rating: str = "",
) -> None:
    """A face-up block: the strength as diamonds on the top edge (2.4) and as a number beside
    them, the combat rating (2.10) in the middle, the name below; face down: the colour only."""
    box = (x, y, x + BLOCK, y + BLOCK)
    if label is None:  # face down: the nation's colour only
        pen.rectangle(box, fill=colour, outline=INK)
        return
    pen.rectangle(box, fill=(250, 248, 240), outline=colour, width=3)
    for n in range(strength):  # the diamonds on the top edge (2.4)
        cx = x + 5 + n * 4
        pen.polygon([(cx, y + 3), (cx + 2, y + 5), (cx, y + 7), (cx - 2, y + 5)], fill=INK)
    text.text(image, (x + BLOCK - 5, y + 6), str(strength), 7, INK, anchor="mm")
    text.text(image, (x + BLOCK / 2, y + 15), rating, 10, INK, anchor="mm")
    text.text(image, (x + BLOCK / 2, y + 23), label, 7, INK, anchor="mm")


def draw(
    system: Any,
    state: Any,
    events: Any = (),
    view: str | None = None,
    title: str | None = None,
    *,
    language: Language = EN,
) -> bytes:
    sc = system.scenario
    image = canvas.new_image(SIZE, BACKGROUND)
    pen = canvas.draw(image)
    for x, terr in sc.territories.items():
        for other in terr.borders:
            if x < other:
                pen.line([terr.pos, sc.territories[other].pos], fill=SEA, width=3)
    for x in sc.territories:
        _territory(image, pen, system, state, x, language)
    for x in sc.territories:  # on top of every territory
        _notes(image, pen, system, state, x, view, language)
    heading = title or name(sc.title, ru=getattr(sc, "title_ru", None))
    text.text(image, (10, 8), say(heading, language), 13, INK)
    if view:
        who = t("seen by {side}", side=texts.side(view))
    else:
        who = t("public view: every block face down")
    phase = texts.phase(state.phase)
    when = t(
        "{year}, turn {turn}, {phase} - {who}",
        year=sc.first_year + state.year - 1,
        turn=state.turn,
        phase=phase,
        who=who,
    )
    text.text(image, (10, 26), say(when, language), 12, INK)
    if view:
        legend = t(
            "Your blocks face up (diamonds and the small number = strength, the rating such "
            "as B2 in the middle, the name below); others face down in their nation's colour; "
            "'seen tN' = seen in game turn N, by reconnaissance or in battle (strength then); "
            "thick ring = victory territory; [n] = fortress."
        )
    else:  # the public map: no block is anyone's face up here
        legend = t(
            "Every block face down in its nation's colour (a battle shows its blocks); "
            "light blue: Swedish control, light red: Coalition control; thick ring = "
            "victory territory; [n] = fortress."
        )
    wrapped = _wrap(say(legend, language), 10, SIZE[0] - 20)
    for n, line in enumerate(wrapped):  # above the row of nations, however many lines
        text.text(image, (10, SIZE[1] - 24 - 13 * (len(wrapped) - n)), line, 10, INK)
    x0 = 10
    for nation in sc.nations.values():
        label = say(_named(nation), language)
        pen.rectangle((x0, SIZE[1] - 18, x0 + 12, SIZE[1] - 6), fill=nation.colour, outline=INK)
        text.text(image, (x0 + 16, SIZE[1] - 18), label, 10, INK)
        x0 += 30 + int(text.text_length(label, 10))
    return png.encode(image)


def _wrap(said: str, size: int, width: float) -> list[str]:
    """Words wrapped into lines no wider than width, each line measured whole (render's
    text.wrap adds up the words' widths, which can fall short of the line's and then cuts a
    word in two)."""
    lines: list[str] = []
    for word in said.split():
        longer = f"{lines[-1]} {word}" if lines else word
        if lines and text.text_length(longer, size) <= width:
            lines[-1] = longer
        else:
            lines.append(word)
    return lines


def _territory(
    image: canvas.Canvas, pen: canvas.Draw, system: Any, state: Any, where: str, language: Language
) -> None:
    sc = system.scenario
    terr = sc.territories[where]
    x, y = terr.pos
    pen.ellipse(
        (x - R, y - R, x + R, y + R),
        fill=CONTROL[state.control[where]],
        outline=INK,
        width=3 if where in sc.victory else 1,
    )
    label = say(_named(terr), language) + (f" [{terr.fortress}]" if terr.fortress else "")
    text.text(image, (x, y - R + 10), label, 11, INK, anchor="mm")
    here = [b for b in state.at if state.at[b] == where and state.status[b] == "map"]
    for n, b in enumerate(here):
        row = min(3, len(here) - (n // 3) * 3)
        bx = x - row * (BLOCK + 1) / 2 + (n % 3) * (BLOCK + 1)
        by = y - 22 + (n // 3) * (BLOCK + 1)
        if b.startswith("?"):
            colour = sc.nations[b[1:].split("@")[0]].colour
            _block_face(image, pen, bx, by, colour, None, 0)
        else:
            blk = sc.blocks[b]
            face = say(_named(blk), language).split()[0][:4]
            colour = sc.nations[blk.nation].colour
            _block_face(image, pen, bx, by, colour, face, state.strength[b], blk.rating)


def _notes(
    image: canvas.Canvas,
    pen: canvas.Draw,
    system: Any,
    state: Any,
    where: str,
    view: str | None,
    language: Language,
) -> None:
    sc = system.scenario
    x, y = sc.territories[where].pos
    notes = [
        say(
            t(
                "seen t{turn}: {block} {strength}",
                turn=rec[1],
                strength=rec[0],
                block=say(_named(sc.blocks[b]), language).split()[0][:6],
            ),
            language,
        )
        for side in ([view] if view else [])
        for b, rec in state.seen.get(side, {}).items()
        if rec[3] == where
    ]
    for n, note in enumerate(notes[-3:]):
        half, ny = text.text_length(note, 9) / 2 + 3, y + R + 8 + 12 * n
        pen.rectangle((x - half, ny - 6, x + half, ny + 6), fill=(255, 250, 235), outline=NOTE)
        text.text(image, (x, ny), note, 9, NOTE, anchor="mm")

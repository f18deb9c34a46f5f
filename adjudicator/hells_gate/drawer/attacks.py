"""Retreats and attacks of a Hell's Gate phase image: short arrows across the hexside, over the
counters, and beside each attacked hex a label with the attack's number, final odds, die and
hits. `f` is the frame being composed (drawer/frame.py: Frame)."""

from __future__ import annotations

from adjudicator.core.i18n import say, t
from adjudicator.hells_gate.drawer import colours, symbols, words
from adjudicator.hells_gate.drawer.colours import RGB
from adjudicator.hells_gate.drawer.events import Attack, Summary
from adjudicator.hells_gate.drawer.layers import Frame
from adjudicator.hells_gate.drawer.sizes import SMALL
from render import overlay
from render.canvas import Colour
from render.placement import Segment, arrow_span, label_box
from render.text import text_length

LABEL_H = 50


def draw_retreats(f: Frame, summary: Summary) -> None:
    scenario = f.scenario
    for uid, a, b in summary.retreats:
        if uid not in f.seen or a not in scenario.hexes or b not in scenario.hexes:
            continue
        p, q = arrow_span(f.lay, a, b, f.boxes_by_hex, f.text_occ, 4)
        overlay.draw_arrow(
            f.img, p, q, colours.RETREAT_ARROW, width=7, head_len=15, head_w=19, halo_w=2.5, dash=7
        )
        f.occ.line(p, q, 16, 200)
        f.dbg["retreats"].append({"unit": uid, "from": a, "to": b, "arrow": (p, q)})
        f.drawn.add("retreat_arrow")


def draw_attacks(f: Frame, summary: Summary) -> None:
    """Every attack's arrows first, then the labels (placed clear of all the arrows)."""
    labels: list[tuple[Attack, str, list[Segment], RGB, list[str]]] = []
    for atk in summary.attacks:
        target = atk.hex
        if target not in f.scenario.hexes:
            continue
        origins = _origins(f, atk)
        side = atk.side if atk.side in colours.SIDE else "soviet"
        colour = colours.SIDE[side]["arrow"]
        arrows: list[Segment] = []
        for h in origins:
            p, q = arrow_span(f.lay, h, target, f.boxes_by_hex, f.text_occ, 5)
            overlay.draw_arrow(f.img, p, q, colour)
            f.occ.line(p, q, 22, 200)
            arrows.append((p, q))
        labels.append((atk, target, arrows, colour, origins))
        f.drawn.add(f"attack_{side}")
    for atk, target, arrows, colour, origins in labels:
        box = _attack_label(f, atk, target, arrows, colour)
        f.occ.box(box, 255, pad=3)
        f.dbg["attacks"].append(
            {
                "number": atk.number,
                "hex": atk.hex,
                "origins": origins,
                "arrows": arrows,
                "label_box": box,
                "final_column": atk.final_column,
                "die": atk.die,
                "hits": atk.hits,
                "attackers": atk.attackers,
            }
        )


def _origins(f: Frame, atk: Attack) -> list[str]:
    """The hexes the attackers attacked from (where they are now if the event does not say)."""
    origins: list[str] = []
    for uid in atk.attackers:
        h = atk.origins.get(uid)
        if h is None and uid in f.state.units and f.state.units[uid].box == "map":
            h = f.state.units[uid].hex
        if h in f.scenario.hexes and h != atk.hex and h not in origins:
            origins.append(h)
    return origins


def _symbol_boxes(f: Frame) -> list[tuple[float, float, float, float]]:
    """The boxes of the supply and airfield symbols (a label avoids them as it avoids ids)."""
    out = []
    for h, slots in f.st.slots.items():
        for slot in slots:
            x, y = symbols.slot_center(f.lay, h, slot)
            out.append((x - 16, y - 16, x + 16, y + 16))
    return out


def _attack_label(
    f: Frame, atk: Attack, target: str, arrows: list[Segment], colour: Colour
) -> tuple[int, int, int, int]:
    """A small box next to the target: number, final odds, die and hits. Placed where it covers
    the least of the counters, names, arrows and other labels."""
    lang = f.lang
    column = str(atk.final_column)
    if atk.decisive:
        line1 = say(t("{column} decisive", column=column), lang)
    elif atk.overstack:
        line1 = say(t("{column} overstack", column=column), lang)
    else:
        line1 = column
    result = words.result_text(atk.hits, lang)
    line2 = say(t("die {die}: {result}", die=atk.die, result=result), lang)
    size = f.label_size  # SMALL, or larger on the whole map of a post
    grow = size / SMALL
    step = round(22 * grow)
    parts = [] if f.brief_labels else [line2]
    if (
        parts and size > SMALL and text_length(line2, size) > 1.4 * f.lay.R
    ):  # large: narrower, taller
        head, colon, rest = line2.partition(": ")
        parts = [head + colon.rstrip(), rest] if colon and rest else parts
    lines = [(line1, size + 1, 4)] + [(s, size, 4 + step * (i + 1)) for i, s in enumerate(parts)]
    badge = round(24 * grow)
    w = overlay.badge_label_width(lines, badge=badge)
    height = round(LABEL_H * grow) + step * (len(parts) - 1)
    if not parts:  # one line, the badge as high as the box
        badge = round(size * 1.3)
        height = badge + 8
        lines = [(line1, size + 1, (height - size) // 2 - 1)]
        w = overlay.badge_label_width(lines, badge=badge)
    mx0, _, mx1, _ = f.lay.map_box
    bounds = (mx0 - 10, 2, mx1 + 14, f.img.height - 2)
    # the hex ids too, but on the whole map of a post (where they are not to be read and its
    # large labels would rarely find a place clear of them all); other labels always
    ids = [] if f.brief_labels else f.st.text_boxes
    others = [a["label_box"] for a in f.dbg["attacks"]]
    avoid = [*ids, *f.dbg["names"].values(), *_symbol_boxes(f), *others]
    box = label_box(f.lay, target, arrows, w, height, f.occ, bounds, avoid=avoid)
    overlay.badge_label(
        f.img, box, str(atk.number), lines, colour, colours.PANEL_TEXT, badge, badge_size=size
    )
    return box

"""The per-phase part of the side panel: title, turn track, phase track, whose move, weather,
victory points, and what happened since the last image."""

from __future__ import annotations

from PIL import ImageDraw

from render import counters, style
from render.events import Summary

PHASE_ROWS = ("soviet", "german")
PHASE_COLS = (
    ("supply", "Supply"),
    ("combat", "Combat"),
    ("movement", "Move"),
    ("recovery", "Recovery"),
)
SHIFT_NAMES = {
    "S1": "def. OOS",
    "S2": "def. OOS",
    "S3": "mud",
    "S4": "woods",
    "S5": "river",
    "S6": "att. OOS",
    "S7": "att. OOS",
}
WHITE = (255, 255, 255)


def shift_text(shift: dict) -> str:
    code = shift.get("code", "")
    name = SHIFT_NAMES.get(code, code)
    if code == "S4" and "cherkassy" in str(shift.get("reason", "")):
        name = "city"
    return f"{name}{NB}{shift.get('columns', 0):+d}"


NB = "\u00a0"  # keeps "die 5: 1 hit" on one line; drawn as a plain space


def wrap(text: str, size: int, width: float) -> list[str]:
    """Greedy word wrap at spaces (not at NB)."""
    space = style.text_length(" ", size)
    lines, cur, cur_w = [], [], 0.0
    for word in (w.replace(NB, " ") for w in text.split(" ") if w):
        w = style.text_length(word, size)
        if cur and cur_w + space + w > width:
            lines.append(" ".join(cur))
            cur, cur_w = [word], w
        else:
            cur_w = cur_w + space + w if cur else w
            cur.append(word)
    if cur:
        lines.append(" ".join(cur))
    return lines


def draw_panel(
    img, st, scenario, state, summary: Summary, vp: dict, view, title, dbg: dict
) -> None:
    lay = st.layout
    d = ImageDraw.Draw(img)
    T = style.text
    x0 = st.panel_x + 16
    W = lay.panel_w - 32
    y = 14
    # -- title
    head = title or scenario.title
    T(img, (x0, y), head, style.fit_size(head, 24, W, 14), style.PANEL_TEXT)
    y += 30
    if title:
        T(
            img,
            (x0, y),
            scenario.title,
            style.fit_size(scenario.title, 15, W, 10),
            style.PANEL_MUTED,
        )
        y += 20
    if view:
        T(img, (x0, y), f"{view.title()} player's view", 15, style.PANEL_MUTED)
        y += 20
    y += 6
    # -- turn track: the current turn black, red turns framed in red
    red = set(scenario.flags.get("red_turns", []))
    n = scenario.turns
    gap = 5
    bw = (W - gap * (n - 1)) / n
    T(img, (x0, y), "TURN", 14, style.PANEL_MUTED)
    y += 18
    for t in range(1, n + 1):
        bx = x0 + (bw + gap) * (t - 1)
        box = (round(bx), y, round(bx + bw), y + 42)
        current = t == state.turn
        fill = style.HILITE if current else ((226, 222, 212) if t < state.turn else WHITE)
        d.rectangle(
            box,
            fill=fill,
            outline=style.RED_TURN if t in red else style.PANEL_LINE,
            width=3 if t in red else 1,
        )
        col = WHITE if current else (style.RED_TURN if t in red else style.PANEL_TEXT)
        T(img, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(t), 22, col, "mm")
    y += 48
    red_txt = ", ".join(str(t) for t in sorted(red))
    T(
        img,
        (x0, y),
        f"Turn {state.turn} of {n}"
        + (f"   ·   red turns {red_txt}: Soviet rebuild" if red else ""),
        14,
        style.PANEL_MUTED,
    )
    y += 26
    # -- phase track
    T(img, (x0, y), "PHASE", 14, style.PANEL_MUTED)
    y += 18
    label_w = 34
    cw = (W - label_w - 3 * 4) / 4
    for r, side in enumerate(PHASE_ROWS):
        yy = y + r * 32
        counters.emblem(d, side, x0 + 12, yy + 14, 10)
        for c, (kind, label) in enumerate(PHASE_COLS):
            bx = x0 + label_w + c * (cw + 4)
            box = (round(bx), yy, round(bx + cw), yy + 28)
            on = state.phase == f"{side}-{kind}"
            d.rectangle(
                box,
                fill=style.SIDE[side]["face"] if on else WHITE,
                outline=style.HILITE if on else style.PANEL_LINE,
                width=3 if on else 1,
            )
            T(
                img,
                ((box[0] + box[2]) / 2, yy + 14),
                label,
                15,
                style.SIDE[side]["text"] if on else style.PANEL_MUTED,
                "mm",
            )
    yy = y + 64
    box = (x0 + label_w, yy, x0 + W, yy + 26)
    on = state.phase == "joint"
    d.rectangle(box, fill=style.HILITE if on else WHITE, outline=style.PANEL_LINE)
    T(
        img,
        ((box[0] + box[2]) / 2, yy + 13),
        "Joint phase (weather, end of turn)",
        15,
        WHITE if on else style.PANEL_MUTED,
        "mm",
    )
    y = yy + 36
    # -- whose move
    y = _banner(img, d, x0, y, W, state)
    # -- weather and victory points
    snow = state.weather == "snow"
    fg = style.SNOW_TEXT if snow else style.MUD_TEXT
    d.rectangle(
        (x0, y, x0 + 130, y + 46), fill=style.SNOW if snow else style.MUD, outline=style.PANEL_LINE
    )
    T(img, (x0 + 10, y + 5), "WEATHER", 11, fg)
    T(img, (x0 + 10, y + 18), state.weather.upper(), 22, fg)
    vx = x0 + 142
    d.rectangle((vx, y, x0 + W, y + 46), fill=WHITE, outline=style.PANEL_LINE)
    T(
        img,
        (vx + 10, y + 5),
        "VICTORY POINTS" + (" (final)" if state.result else " so far"),
        11,
        style.PANEL_MUTED,
    )
    sv, gv = vp["soviet"]["total"], vp["german"]["total"]
    xx = vx + 10
    for side, v in (("soviet", sv), ("german", gv)):
        counters.emblem(d, side, xx + 8, y + 31, 8)
        t = f"{style.SIDE[side]['name']} {v}"
        T(img, (xx + 20, y + 31), t, 20, style.PANEL_TEXT, "lm")
        xx += 20 + style.text_length(t, 20) + 22
    y += 58
    dbg["panel"] = {
        "turn": state.turn,
        "phase": state.phase,
        "weather": state.weather,
        "active": state.active_side,
        "vp": {"soviet": sv, "german": gv},
    }
    # -- what happened
    _happened(img, d, scenario, summary, x0, y, W, st.legend_top - 8, dbg)


def _banner(img, d, x0, y, W, state) -> int:
    T = style.text
    if state.result is not None:
        r = state.result
        win = r.get("winner")
        c = style.SIDE.get(win, {"face": style.HILITE, "text": WHITE, "line": style.HILITE})
        text = "GAME OVER: DRAW" if win == "draw" else f"GAME OVER: {str(win).upper()} WINS"
        d.rectangle((x0, y, x0 + W, y + 52), fill=c["face"], outline=c["line"], width=2)
        T(img, (x0 + W / 2, y + 26), text, style.fit_size(text, 26, W - 20), c["text"], "mm")
        return y + 62
    side = state.active_side
    if side not in style.SIDE:
        return y
    c = style.SIDE[side]
    d.rectangle((x0, y, x0 + W, y + 52), fill=c["face"], outline=c["line"], width=2)
    counters.emblem(d, side, x0 + 28, y + 26, 15)
    pending = state.pending[0] if state.pending else None
    T(
        img,
        (x0 + 54, y + 26),
        f"{c['name'].upper()} TO {'DECIDE' if pending else 'MOVE'}",
        28,
        c["text"],
        "lm",
    )
    y += 58
    if pending:
        for line in wrap(f"{c['name']} must {pending.prompt}.", 15, W)[:3]:
            T(img, (x0, y), line, 15, style.PANEL_TEXT)
            y += 19
        y += 4
    return y + 4


def _happened(img, d, scenario, s: Summary, x0, y, W, bottom, dbg) -> None:
    d.line((x0, y, x0 + W, y), fill=style.PANEL_LINE, width=2)
    y += 8
    lines: list[tuple[str, tuple, int]] = []  # (text, colour, size)
    if s.attacks:
        turn, _ = s.combat_phase or (None, "")
        side = s.attacks[0].side
        when = f"{style.SIDE[side]['name'] if side in style.SIDE else ''} combat".strip()
        lines.append(
            (f"ATTACKS, {when}" + (f", turn {turn}" if turn else ""), style.PANEL_TEXT, 18)
        )
        for a in s.attacks:
            shifts = ", ".join(shift_text(sh) for sh in a.shifts)
            kind = " decisive" if a.decisive else (" overstack" if a.overstack else "")
            text = (
                f"{a.number}. {a.hex} by {' '.join(a.attackers)}: {a.attack_strength}:"
                f"{a.defense_strength}, {a.raw_column}"
                + (f" ({shifts})" if shifts else "")
                + f" = {a.final_column}{kind}, die{NB}{a.die}:{NB}{a.result.replace(' ', NB)}"
            )
            for i, line in enumerate(wrap(text, 17, W - 16)):
                lines.append(("    " * (i > 0) + line, style.PANEL_TEXT, 17))
    groups = [
        (
            "DESTROYED",
            style.RETREAT,
            [
                f"{u} ({scenario.units[u].designation})" + (f" in {h}" if h else "")
                for u, h, _ in s.destroyed
                if u in scenario.units
            ],
        ),
        ("Retreated", style.PANEL_TEXT, [f"{u} {a} to {b}" for u, a, b in s.retreats]),
        ("Reduced", style.PANEL_TEXT, list(dict.fromkeys(s.flipped))),
        ("Rebuilt", style.PANEL_TEXT, s.rebuilt),
        ("Entered", style.PANEL_TEXT, [f"{u} at {h}" for u, h in s.entered]),
        ("Broke out", style.PANEL_TEXT, [f"{u} from {h}" for u, h in s.broke_out]),
        ("Never enters", style.PANEL_TEXT, s.never_entered),
        ("Moved", style.PANEL_TEXT, [f"{u} {'-'.join(p)}" for u, p in s.moves]),
    ]
    for head, col, items in groups:
        if not items:
            continue
        size = 18 if head == "DESTROYED" else 17
        for i, line in enumerate(wrap(f"{head}: " + ", ".join(items), size, W)):
            lines.append(("    " * (i > 0) + line, col, size))
    if s.weather:
        lines.append((s.weather, style.PANEL_MUTED, 17))
    if not lines:
        lines.append(("Nothing happened on the map since the last image.", style.PANEL_MUTED, 17))
    shown = 0
    for i, (text, col, size) in enumerate(lines):
        if y + 23 > bottom - (23 if i < len(lines) - 1 else 0):
            style.text(img, (x0, y), f"... and {len(lines) - i} more lines", 17, style.PANEL_MUTED)
            break
        style.text(img, (x0, y), text, size, col)
        y += 23
        shown += 1
    dbg["happened"] = [t for t, _, _ in lines]
    dbg["happened_shown"] = shown
    dbg["destroyed"] = [u for u, _, _ in s.destroyed]

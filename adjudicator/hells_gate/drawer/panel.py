"""The per-phase part of the Hell's Gate side panel: title, turn track, phase track, whose move,
weather, victory points, then what happened since the last image (drawer/happened.py)."""

from __future__ import annotations

from typing import Any

from adjudicator.core.i18n import EN, Language, say, t
from adjudicator.hells_gate.drawer import colours, counters, happened
from adjudicator.hells_gate.drawer.colours import RGB, Banner
from adjudicator.hells_gate.drawer.events import Summary
from adjudicator.hells_gate.drawer.layers import Static
from adjudicator.hells_gate.drawer.sizes import SMALL
from adjudicator.hells_gate.drawer.words import scenario_title, side_word
from adjudicator.hells_gate.scenario import Scenario
from adjudicator.hells_gate.state import GameState, Result, SideVP
from adjudicator.hells_gate.texts import side_name, weather_title
from render import canvas
from render.canvas import Canvas, Draw
from render.panel import track
from render.text import fit_size, text, text_length, wrap

PHASE_ROWS = ("soviet", "german")
PHASE_COLS = (
    ("supply", t("Supply")),
    ("combat", t("Combat")),
    ("movement", t("Move")),
    ("recovery", t("Recovery")),
)
WHITE = (255, 255, 255)
PAST_TURN = (226, 222, 212)


def draw_panel(
    img: Canvas,
    st: Static,
    scenario: Scenario,
    state: GameState,
    summary: Summary,
    vp: dict[str, SideVP],
    view: str | None,
    title: str | None,
    dbg: dict[str, Any],
    language: Language = EN,
) -> None:
    d = canvas.draw(img)
    x0 = st.panel_x + 16
    W = st.layout.panel_w - 32
    y = _title(img, x0, 14, W, scenario, view, title, language)
    y = _turn_track(img, d, x0, y, W, scenario, state, language)
    y = _phase_track(img, d, x0, y, W, state, language)
    y = _banner(img, d, x0, y, W, state, language)
    sv, gv = vp["soviet"]["total"], vp["german"]["total"]
    y = _weather_and_vp(img, d, x0, y, W, state, sv, gv, language)
    dbg["panel"] = {
        "turn": state.turn,
        "phase": state.phase,
        "weather": state.weather,
        "active": state.active_side,
        "vp": {"soviet": sv, "german": gv},
    }
    stacks = [(h, us) for h, us in dbg.get("stacks", {}).items()]
    bottom = st.legend_top - 8
    happened.draw_happened(img, d, scenario, summary, x0, y, W, bottom, dbg, stacks, language)


def _title(
    img: Canvas,
    x0: float,
    y: int,
    W: float,
    scenario: Scenario,
    view: str | None,
    title: str | None,
    lang: Language,
) -> int:
    game = say(scenario_title(scenario), lang)
    head = say(title, lang) if title else game
    for line in wrap(head, 24, W)[:2]:
        text(img, (x0, y), line, 24, colours.PANEL_TEXT)
        y += 30
    if title:
        for line in wrap(game, SMALL, W)[:2]:
            text(img, (x0, y), line, SMALL, colours.PANEL_MUTED)
            y += 22
    if view:
        seen = say(t("{side} player's view", side=side_name(view)), lang)
        text(img, (x0, y), seen, SMALL, colours.PANEL_MUTED)
        y += 22
    return y + 6


def _turn_track(
    img: Canvas,
    d: Draw,
    x0: float,
    y: int,
    W: float,
    scenario: Scenario,
    state: GameState,
    lang: Language,
) -> int:
    """The current turn black, past turns grey, red turns framed in red."""
    red = set(scenario.flags.get("red_turns", []))
    n = scenario.turns
    text(img, (x0, y), say(t("TURN"), lang), SMALL, colours.PANEL_MUTED)
    y += 22
    cells: list[tuple[str, RGB, RGB, int, RGB]] = []
    for turn in range(1, n + 1):
        current = turn == state.turn
        fill = colours.HILITE if current else (PAST_TURN if turn < state.turn else WHITE)
        outline = colours.RED_TURN if turn in red else colours.PANEL_LINE
        col = WHITE if current else (colours.RED_TURN if turn in red else colours.PANEL_TEXT)
        cells.append((str(turn), fill, outline, 3 if turn in red else 1, col))
    track(img, d, x0, y, W, 42, cells, 22, gap=5)
    y += 48
    red_txt = ", ".join(str(turn) for turn in sorted(red))
    if red:
        said = t(
            "Turn {turn} of {turns}, red turns {red}: Soviet rebuild", red=red_txt, **_of(state, n)
        )
    else:
        said = t("Turn {turn} of {turns}", **_of(state, n))
    line = say(said, lang)
    text(img, (x0, y), line, fit_size(line, SMALL, W, SMALL), colours.PANEL_MUTED)
    return y + 28


def _of(state: GameState, turns: int) -> dict[str, int]:
    return {"turn": state.turn, "turns": turns}


def _phase_track(
    img: Canvas, d: Draw, x0: float, y: int, W: float, state: GameState, lang: Language
) -> int:
    """A row of phases per side (its emblem at the left), then the joint phase."""
    text(img, (x0, y), say(t("PHASE"), lang), SMALL, colours.PANEL_MUTED)
    y += 22
    label_w = 34
    for r, side in enumerate(PHASE_ROWS):
        yy = y + r * 32
        counters.emblem(d, side, x0 + 12, yy + 14, 10)
        c = colours.SIDE[side]
        cells: list[tuple[str, RGB, RGB, int, RGB]] = []
        for kind, label in PHASE_COLS:
            on = state.phase == f"{side}-{kind}"
            cells.append(
                (
                    say(label, lang),
                    c["face"] if on else WHITE,
                    colours.HILITE if on else colours.PANEL_LINE,
                    3 if on else 1,
                    c["text"] if on else colours.PANEL_MUTED,
                )
            )
        track(img, d, x0 + label_w, yy, W - label_w, 28, cells, SMALL, gap=4)
    yy = y + 64
    box = (x0 + label_w, yy, x0 + W, yy + 26)
    on = state.phase == "joint"
    d.rectangle(box, fill=colours.HILITE if on else WHITE, outline=colours.PANEL_LINE)
    text(
        img,
        ((box[0] + box[2]) / 2, yy + 13),
        say(t("Joint phase (weather, end of turn)"), lang),
        SMALL,
        WHITE if on else colours.PANEL_MUTED,
        "mm",
    )
    return yy + 36


def _banner(
    img: Canvas, d: Draw, x0: float, y: int, W: float, state: GameState, lang: Language
) -> int:
    """Game over, or whose move (and what they must decide, if anything)."""
    if state.result is not None:
        return _game_over(img, d, x0, y, W, state.result, lang)
    side = state.active_side
    if side not in colours.SIDE:
        return y
    c = colours.SIDE[side]
    d.rectangle((x0, y, x0 + W, y + 52), fill=c["face"], outline=c["line"], width=2)
    counters.emblem(d, side, x0 + 28, y + 26, 15)
    pending = state.pending[0] if state.pending else None
    who = side_word(side, lang).upper()
    said = t("{side} TO DECIDE", side=who) if pending else t("{side} TO MOVE", side=who)
    banner = say(said, lang)
    text(img, (x0 + 54, y + 26), banner, fit_size(banner, 28, W - 60, SMALL), c["text"], "lm")
    y += 58
    if pending:
        must = t("{side} must {prompt}.", side=side_name(side), prompt=pending.prompt)
        for line in wrap(say(must, lang), SMALL, W)[:3]:
            text(img, (x0, y), line, SMALL, colours.PANEL_TEXT)
            y += 22
        y += 4
    return y + 4


def _game_over(
    img: Canvas, d: Draw, x0: float, y: int, W: float, result: Result, lang: Language
) -> int:
    win = result.get("winner")
    neutral: Banner = {"face": colours.HILITE, "text": WHITE, "line": colours.HILITE}
    c: Banner = colours.SIDE.get(win, neutral)
    if win == "draw":
        s = say(t("GAME OVER: DRAW"), lang)
    else:
        s = say(t("GAME OVER: {side} WINS", side=side_word(str(win), lang).upper()), lang)
    d.rectangle((x0, y, x0 + W, y + 52), fill=c["face"], outline=c["line"], width=2)
    text(img, (x0 + W / 2, y + 26), s, fit_size(s, 26, W - 20, SMALL), c["text"], "mm")
    return y + 62


def _weather_and_vp(
    img: Canvas,
    d: Draw,
    x0: float,
    y: int,
    W: float,
    state: GameState,
    sv: int,
    gv: int,
    lang: Language,
) -> int:
    snow = state.weather == "snow"
    fg = colours.SNOW_TEXT if snow else colours.MUD_TEXT
    d.rectangle(
        (x0, y, x0 + 130, y + 56),
        fill=colours.SNOW if snow else colours.MUD,
        outline=colours.PANEL_LINE,
    )
    text(img, (x0 + 10, y + 5), say(t("WEATHER"), lang), SMALL, fg)
    text(img, (x0 + 10, y + 27), say(weather_title(state.weather), lang).upper(), 22, fg)
    vx = x0 + 142
    d.rectangle((vx, y, x0 + W, y + 56), fill=WHITE, outline=colours.PANEL_LINE)
    text(
        img,
        (vx + 10, y + 5),
        say(t("VICTORY POINTS (final)") if state.result else t("VICTORY POINTS so far"), lang),
        SMALL,
        colours.PANEL_MUTED,
    )
    xx = vx + 10
    for side, v in (("soviet", sv), ("german", gv)):
        counters.emblem(d, side, xx + 8, y + 40, 8)
        said = f"{side_word(side, lang)} {v}"  # said already: a plain text to draw
        text(img, (xx + 20, y + 40), said, 20, colours.PANEL_TEXT, "lm")
        xx += 20 + text_length(said, 20) + 22
    return y + 68

"""The text parts of the phone image, each drawn from the top of its own strip: the heading,
the battle (N3, N24: the blocks engaged as the view shows them, the round, what happened), the
viewer's own blocks by territory (2.4: strength and rating, by the id a player types), what the
viewer has seen (2.19, N24: strength then) and the legend. Each returns the height it used."""

from __future__ import annotations

from typing import Any

from adjudicator.core.events import event_text
from adjudicator.core.i18n import Language, Msg, name, say, t
from adjudicator.northern_war import legal, texts
from adjudicator.northern_war.drawer import style as S
from adjudicator.northern_war.system import BATTLES
from render import canvas, text

INNER = S.WIDTH - 2 * S.MARGIN
BATTLE_EVENTS = BATTLES  # the battle report's events, as the group is told them (N24)
LAST_LINES = 10  # of a battle's report: the end of it


def heading(
    image: canvas.Canvas,
    sc: Any,
    state: Any,
    view: str | None,
    title: str | None,
    language: Language,
) -> float:
    said = title or name(sc.title, ru=getattr(sc, "title_ru", None))
    y = S.paragraph(image, S.MARGIN, 12, say(said, language), INNER, S.INK, S.HEAD)
    who = (
        t("seen by {side}", side=texts.side(view))
        if view
        else t("public view: every block face down")
    )
    when = t(
        "{year}, turn {turn}, {phase} - {who}",
        year=sc.first_year + state.year - 1,
        turn=state.turn,
        phase=texts.phase(state.phase),
        who=who,
    )
    return S.paragraph(image, S.MARGIN, y + 4, say(when, language), INNER, S.GREY) + 6


def block_said(sc: Any, b: str, language: Language) -> str:
    """A face-up block as a player types it, with its rating and (if other) its name:
    "charles A2 Charles XII"."""
    blk = sc.blocks[b]
    named = say(blk.named, language)
    if named.lower() == b:
        return f"{b} {blk.rating}"
    return f"{b} {blk.rating} {named}"


def battle_groups(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events of each battle among events, a battle from its BattleBegan on."""
    groups: list[list[dict[str, Any]]] = []
    for e in events:
        if e.get("kind") == "BattleBegan" or (e.get("kind") in BATTLE_EVENTS and not groups):
            groups.append([e])
        elif e.get("kind") in BATTLE_EVENTS:
            groups[-1].append(e)
    return groups


def battle(
    image: canvas.Canvas, sc: Any, state: Any, events: list[dict[str, Any]], language: Language
) -> float:
    """The battle now fought (state.battle) and the battles the events report, if any: 0 if
    none."""
    groups = battle_groups(events)
    fought = state.battle
    choosing = fought is None and state.pending is not None and state.pending["kind"] == "battle"
    if fought is None and not groups and not choosing:
        return 0.0
    y = 10.0
    if fought is not None:
        y = _fought(image, sc, state, fought, y, language)
        now = [g for g in groups if g[0].get("area") == fought["area"]]
        groups = now[-1:]
    for group in groups[-2:]:
        y = _report(image, sc, group, y, fought is None, language)
    if choosing:  # N3 a: the first player picks the next battle among these
        areas = texts.listed(sc.territories[x].named for x in state.pending["choices"])
        y = _band(image, y, say(t("Battles to fight: {areas}", areas=areas), language))
        waiting = t("Waiting for {prompt}.", prompt=legal.prompt(sc, state))
        y = S.paragraph(image, S.MARGIN, y, say(waiting, language), INNER, S.BATTLE) + 4
    return y + 6


def _fought(
    image: canvas.Canvas, sc: Any, state: Any, fought: dict[str, Any], y: float, language: Language
) -> float:
    head = t(
        "Battle in {area}, round {round} of 3",
        area=sc.territories[fought["area"]].named,
        round=fought["round"],
    )
    y = _band(image, y, say(head, language))
    here = [b for b in state.at if state.at[b] == fought["area"] and state.status[b] == "map"]
    for role, who in (("defender", fought["defender"]), ("attacker", fought["attacker"])):
        said = (
            t("{side} defends:", side=texts.Side(who))
            if role == "defender"
            else t("{side} attacks:", side=texts.Side(who))
        )
        flow = S.Flow(image, S.MARGIN, y, INNER, indent=28)
        flow.add(S.Item(say(said, language), fill=S.BATTLE))
        for b in here:
            if b.startswith("?"):  # (a battle shows its blocks: none is face down here)
                continue
            if sc.side_of(b) == who:
                colour = sc.nations[sc.blocks[b].nation].colour
                flow.add(
                    S.Item(block_said(sc, b, language), colour, state.strength[b], square=True)
                )
        y = flow.bottom()
    if state.pending is not None:
        waiting = t("Waiting for {prompt}.", prompt=legal.prompt(sc, state))
        y = S.paragraph(image, S.MARGIN, y + 2, say(waiting, language), INNER, S.BATTLE)
    return y + 4


def _report(
    image: canvas.Canvas,
    sc: Any,
    group: list[dict[str, Any]],
    y: float,
    band: bool,
    language: Language,
) -> float:
    area = next((e["area"] for e in group if "area" in e), None)
    if band and area in sc.territories:
        head = t("Battle in {area}", area=sc.territories[area].named)
        y = _band(image, y, say(head, language))
    said = [S.wrapped(say(event_text(e), language), INNER - 16) for e in group]
    first = said.pop(0) if group[0].get("kind") == "BattleBegan" else []  # who fought whom
    rest = [line for lines in said for line in lines]
    if len(rest) > LAST_LINES:  # the end of a long battle: how it went at last
        rest = ["...", *rest[-LAST_LINES + 1 :]]
    lines = first + rest
    for line in lines:
        text.text(image, (S.MARGIN + 16, y), line, S.BODY, S.INK)
        y += S.LINE
    return y + 4


def _band(image: canvas.Canvas, y: float, said: str) -> float:
    pen = canvas.draw(image)
    pen.rectangle((0, y, S.WIDTH, y + S.LINE + 8), fill=S.BATTLE)
    text.text(image, (S.MARGIN, y + (S.LINE + 8) / 2), said, S.BODY, (255, 255, 255), "lm")
    return y + S.LINE + 16


def own_blocks(image: canvas.Canvas, sc: Any, state: Any, view: str, language: Language) -> float:
    """The viewer's blocks on the map by territory, then those off it."""
    y = S.paragraph(
        image, S.MARGIN, 8, say(t("Your blocks ({side}):", side=texts.side(view)), language), INNER
    )
    own = [b for b in sc.blocks if b in state.at and sc.side_of(b) == view]
    flow = S.Flow(image, S.MARGIN, y, INNER, indent=28)
    for x, terr in sc.territories.items():
        mine = [b for b in own if state.at[b] == x and state.status[b] == "map"]
        if not mine:
            continue
        flow.newline()
        flow.add(S.Item(say(terr.named, language) + ":", fill=S.GREY), gap=10)
        for b in mine:
            colour = sc.nations[sc.blocks[b].nation].colour
            flow.add(S.Item(block_said(sc, b, language), colour, state.strength[b], square=True))
    y = flow.bottom()
    off = [
        t("{block} ({place})", block=sc.blocks[b].named, place=texts.place(state.status[b]))
        for b in own
        if state.status[b] != "map"
    ]
    if off:
        said = t("Off the map: {blocks}.", blocks=texts.listed(off))
        y = S.paragraph(image, S.MARGIN, y + 2, say(said, language), INNER, S.GREY)
    return y + 6


def seen(image: canvas.Canvas, sc: Any, state: Any, view: str, language: Language) -> float:
    """2.19, N24: the enemy blocks the viewer has seen, where and when, and their strength
    then: 0 if none."""
    records = sorted(state.seen.get(view, {}).items(), key=lambda r: (-r[1][1], r[0]))
    if not records:
        return 0.0
    head = t("Seen by reconnaissance or in battle (strength then):")
    y = S.paragraph(image, S.MARGIN, 8, say(head, language), INNER)
    flow = S.Flow(image, S.MARGIN, y, INNER)
    for b, (strength, count, _when, area) in records:
        said = t(
            "t{turn} {area}: {block} {strength}",
            turn=count,
            area=sc.territories[area].named,
            block=sc.blocks[b].named,
            strength=strength,
        )
        flow.add(S.Item(say(said, language), fill=S.GREY))
    return flow.bottom() + 6


def legend(image: canvas.Canvas, sc: Any, view: str | None, language: Language) -> float:
    """What the marks mean, and the nations' colours."""
    pen = canvas.draw(image)
    pen.line((S.MARGIN, 4, S.WIDTH - S.MARGIN, 4), fill=S.SEA, width=2)
    flow = S.Flow(image, S.MARGIN, 14, INNER, kind="legend")
    for nation in sc.nations.values():
        flow.add(
            S.Item(
                say(name(nation.name, ru=nation.name_ru), language),
                nation.colour,
                None,
                square=True,
            )
        )
    flow.newline()
    if view:
        mine = next(n.colour for n in sc.nations.values() if n.side == view)
        flow.add(S.Item(say(t("your block: its strength"), language), mine, 3, square=True))
        flow.add(S.Item(say(t("enemy block, face down"), language), S.GREY, None, square=True))
    else:
        flow.add(S.Item(say(t("a block, face down"), language), S.GREY, None, square=True))
    flow.newline()
    for side, said in (("sweden", t("Swedish control")), ("coalition", t("Coalition control"))):
        flow.add(S.Item(say(said, language), S.CONTROL[side], None, square=True))
    marks: list[Msg] = [
        t("thick ring: victory territory; framed number: fortress"),
        t("red ring: a battle (thick: the one fought now); arrow: a move since the last map"),
        t("'areas' lists the territories by the ids to type"),
    ]
    y = flow.bottom()
    for said in marks:
        y = S.paragraph(image, S.MARGIN, y, say(said, language), INNER, S.INK, kind="legend")
    return y + 8


__all__ = ["battle", "battle_groups", "block_said", "heading", "legend", "own_blocks", "seen"]

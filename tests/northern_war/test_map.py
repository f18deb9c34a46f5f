"""The block game's map (drawer.py): what the legend promises is what the blocks show. A face-up
block shows its strength (2.4: diamonds and a number) and its combat rating (2.10); the legend
of a side's map names both, and it sits above the row of nations in every language."""

from __future__ import annotations

from adjudicator.core.events import Viewer
from adjudicator.northern_war import drawer
from app.i18n import language
from tests.northern_war.helpers import play, sample

SYSTEM = sample()


def _drawn(monkeypatch, state, view, lang=None) -> list[tuple[str, float]]:
    """(text, y) of every text the drawer draws."""
    said: list[tuple[str, float]] = []
    real = drawer.text.text

    def record(image, xy, text, *args, **kwargs):
        said.append((text, xy[1]))
        return real(image, xy, text, *args, **kwargs)

    monkeypatch.setattr(drawer.text, "text", record)
    viewer = Viewer.of([view]) if view else Viewer.public()
    kwargs = {"language": lang} if lang else {}
    drawer.draw(SYSTEM, SYSTEM.view(state, viewer), (), view=view, **kwargs)
    return said


def test_2_10_own_blocks_show_the_rating_the_legend_names(monkeypatch):
    sc = SYSTEM.scenario
    state = next(s for s, *_ in play(SYSTEM, 2) if s.phase == "action")
    said = [text for text, _ in _drawn(monkeypatch, state, "sweden")]
    legend = " ".join(said)
    assert "the rating such as B2" in legend and "= strength" in legend
    own = [b for b in sc.blocks if sc.side_of(b) == "sweden" and state.status[b] == "map"]
    for b in own:  # each block's rating, and its strength as a number, is drawn
        assert said.count(sc.blocks[b].rating) >= 1, b
    ratings = [sc.blocks[b].rating for b in own]
    assert sum(said.count(r) for r in set(ratings)) == len(ratings)
    enemy = {sc.blocks[b].rating for b in sc.blocks if sc.side_of(b) == "coalition"}
    public = [text for text, _ in _drawn(monkeypatch, state, None)]
    assert not (enemy | set(ratings)) & set(public)  # face down: no rating, no legend of one
    assert "rating" not in " ".join(public)


def test_2_10_the_legend_stands_above_the_nations_in_russian_too(monkeypatch):
    state = next(s for s, *_ in play(SYSTEM, 2) if s.phase == "action")
    for lang in (None, language("ru")):
        drawn = _drawn(monkeypatch, state, "sweden", lang)
        legend = [y for text, y in drawn if y >= drawer.SIZE[1] - 80]
        nations = drawer.SIZE[1] - 18  # the row of nations' colours
        assert len(legend) >= 2 + len(SYSTEM.scenario.nations)
        assert max(y for y in legend if y < nations) + 13 <= nations

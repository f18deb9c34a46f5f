"""Stalin's War's board image and Borodino's boxes image read on a phone: every label drawn
through render.text is recorded (render/labels.py) and measured as a chat shows the image 390 px
wide: no label's capitals below 7 px there, no two labels over each other, in English and in
Russian, at the start, in the middle and at the end of a game played with random legal orders."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from importlib import import_module
from itertools import pairwise
from typing import Any

import pytest
from PIL import Image

from adjudicator.core.events import Viewer
from adjudicator.core.i18n import EN, Language
from app.i18n import language
from app.service import GameService
from bots.demo import DemoSeeds, choose, demo_uid, legal_texts
from render import labels
from storage import Store

RU = language("ru")
LANGUAGES = {"en": EN, "ru": RU}
SIDES = {"stalins-war": ("axis", "soviet"), "borodino": ("russian", "french")}


def states(system: str, seed: int, stops: tuple[int, ...]) -> Iterator[tuple[Any, Any]]:
    """(the bound system, its public view) after each count of random legal orders in stops
    (and at the game's end, if it comes first)."""
    store = Store(":memory:")
    service = GameService(store, seeds=DemoSeeds(seed), uids=lambda: demo_uid(seed, system))
    service.new_game("g", system=system)
    rules = service.system("g")
    rng = random.Random(seed)
    done = 0
    for stop in stops:
        while done < stop:
            here = rules.situation(service.state("g"))
            if here.over:
                break
            side = here.pending[0].side if here.pending else here.to_move[0]
            (reply, *_) = service.say(
                "g", side, choose(rng, legal_texts(rules, service.state("g"), side))
            )
            assert reply.ok, reply
            done += 1
        yield rules, rules.view(service.state("g"), Viewer.public())
        if rules.situation(service.state("g")).over:
            break
    store.close()


def measured(rules: Any, view: Any, lang: Language) -> tuple[Image.Image, labels.Legibility]:
    drawer: Any = import_module(rules.drawer)
    with labels.recording() as found:
        png = drawer.draw(rules, view, language=lang)
    image = Image.open(io.BytesIO(png))
    return image, labels.legibility(found, image.width)


@pytest.fixture(scope="module", params=["stalins-war", "borodino"])
def played(request) -> tuple[str, list[tuple[Any, Any]]]:
    """A system's public views at the start, after 60 and 400 random orders, and at the end."""
    return request.param, list(states(request.param, 3, (0, 60, 400, 5000)))


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_every_label_reads_at_a_phones_width_and_none_overlaps(played, code):
    system, views = played
    assert len(views) >= 3
    for k, (rules, view) in enumerate(views):
        image, seen = measured(rules, view, LANGUAGES[code])
        assert len(seen.labels) >= 10, (system, k)  # the drawer records what it writes
        small = [(lab.text, round(lab.cap, 1)) for lab in seen.too_small]
        assert small == [], (system, code, k, image.width, small[:5])
        pairs = [(a.text, b.text) for a, b in seen.overlapping]
        assert pairs == [], (system, code, k, pairs[:5])
        assert image.width <= 480  # shown 390 px wide, a phone scales it by 0.81 at least


def test_6_3_borodinos_threshold_bars_read_on_a_phone():
    """The one thing only the boxes image shows: each Activation Group's losses against its
    collapse threshold, a bar of numbered cells at least 19 px wide at 390 px, its numbers
    legible, one bar per group on a line of its own."""
    views = list(states("borodino", 3, (400,)))
    rules, view = views[-1]
    seen = measured(rules, view, EN)[1]
    for gid in rules.scenario.groups:
        said = [lab for lab in seen.labels if lab.text.startswith(f"{gid} (")]
        assert len(said) == 1, gid
    numbers = [lab for lab in seen.labels if lab.text.isdigit()]
    assert numbers and all(lab.cap >= 7 for lab in numbers)
    cells = sorted({lab.box[0] for lab in numbers})
    widths = [b - a for a, b in pairwise(cells)]
    assert widths and min(widths) >= 19, widths  # (the labels are measured 390 px wide)

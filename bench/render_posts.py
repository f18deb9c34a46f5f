"""bench_render.py's part 4: posts drawn by the sender and `map` late in a game, each paired with a
bare encode of the same picture (see bench_render.py's doc). Not a benchmark of its own."""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable
from pathlib import Path

from bench_post_image import ORDERS, last_spec, paired, start
from PIL import Image

from adjudicator.core.i18n import EN, say
from app import frames, games, images
from storage import Store
from tests.playing import play_random


def bare_encode(png: bytes) -> Callable[[], object]:
    """A bare encode of the picture `png` shows: decoded to RGB beforehand, saved with Pillow's
    default PNG settings."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return lambda: img.save(io.BytesIO(), "PNG")


def case(rows: list, system: str, label: str, draw: Callable[[], bytes], pairs: int) -> bytes:
    png = draw()  # warms the drawer's caches too
    (dw,), (dc,), (bw,), (bc,) = paired(draw, bare_encode(png), pairs)
    rows.append((system, label, dw, dc, bw, bc))
    print(
        f"{system:13} {label:16} {dw * 1e3:8.1f} ms (cpu {dc * 1e3:7.1f})  bare encode "
        f"{bw * 1e3:7.1f} ms (cpu {bc * 1e3:7.1f})  {dw / bw:5.2f}x (cpu {dc / bc:5.2f}x)",
        flush=True,
    )
    return png


def replayed_map(service, name: str, focus: bool) -> bytes:
    """The map of now as drawn before app/map_now.py: the last frame of a replay of the log."""
    frame = frames.pick(service.frames(name), None, None)
    title = say(frames.title(name, frame), EN)
    return games.draw(service.system(name), frame.state, frame.events, None, title, focus)


def bench_system(system: str, args: argparse.Namespace, rows: list, tmp: Path) -> None:
    url = str(tmp / f"{system}.db")
    store = Store(url)
    service, name = start(store, system, args.seed)
    play_random(service, name, ORDERS[system][1], seed=args.seed)
    late = last_spec(store, name)
    assert late is not None
    sender = lambda st=store: images.render_spec(st, name, late)
    case(rows, system, "post, at once", sender, args.pairs)
    play_random(service, name, args.move_on, seed=args.seed + 1)
    case(rows, system, "post, moved on", sender, args.pairs)
    head = store.load(name, with_log=False).head_index
    for label, focus in (("map, late", True), ("map full, late", False)):
        png = case(rows, system, label, lambda f=focus: service.image(name, focus=f), args.pairs)
        t = time.perf_counter()
        assert replayed_map(service, name, focus) == png, (system, label)  # the same picture
        took = (time.perf_counter() - t) * 1e3
        print(f"{'':30} at row {head}; before (a replay of the log): {took:.1f} ms", flush=True)
    store.close()
    fresh = Store(url)  # as after a restart
    case(rows, system, "post, restart", lambda: images.render_spec(fresh, name, late), args.pairs)
    fresh.close()


__all__ = ["bench_system"]

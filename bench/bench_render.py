"""Render time of phase images over a whole seeded demo game, next to bare Pillow PNG encodes of
images of the same size, measured in the same run.

    python bench/bench_render.py [--seed N] [--repeat N] [--out DIR]

1. Plays a whole game with random legal orders (seeded, as `pbem demo` does) and keeps, at every
   phase end, the state and the events since the previous phase image.
2. Renders every phase image with adjudicator.hells_gate.drawer.draw_map (static layer already
   cached; the cold first render, which builds it, is reported apart), `--repeat` times each,
   keeping the fastest.
3. Baselines, measured image by image between the renders:
   - "encode of the same image": the composed RGB image of that phase saved with
     `Image.save(BytesIO(), "PNG")` and Pillow's default settings;
   - "encode of a blank image": `Image.new("RGB", size).save(BytesIO(), "PNG")`, same size.
   Target: a phase image costs at most 2x the bare encode.
4. Posts and `map` in every system, as players get them (skip with --no-posts): a seeded game per
   system played through the chat service in a SQLite file (bench/bench_post_image.py's), its
   phase posts queued as in production (Stalin's War's carry its board). Timed, each paired with
   a bare encode of the same picture (the PNG decoded to RGB, saved with Pillow's defaults),
   alternating which goes first, medians of wall and CPU time:
     post, at once     the last post late in the game drawn by the sender (app.images.render_spec)
     post, moved on    the same post drawn after the game moved on
     post, restart     the same post drawn by a fresh Store
     map, late         `map` asked for late in the game (GameService.image, focus as the chat
                       asks; `map full`: the whole map), beside the replay it needed before
                       (the frames of the whole log), its picture checked the same
Not part of the test run. The last line: `render: worst X x a bare encode (system, case)`.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from PIL import Image

from adjudicator.core.dice import HashDice
from adjudicator.hells_gate import grammar
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.drawer import clear_cache, compose, draw_map
from adjudicator.hells_gate.loader import load_scenario
from adjudicator.hells_gate.system import HellsGateSystem

END_WEIGHT = 0.15  # as bots/demo.py


def play(seed: int):
    """(state, events since the previous image) at every phase end of a whole game."""
    scen = load_scenario()
    rules = HellsGateSystem(scen)
    out = rules.initial(False, HashDice(f"bench-{seed}-0"))
    state, events, frames = out.state, list(out.events), []
    rng = random.Random(seed)
    n = 0
    while state.result is None and n < 5000:
        legal = sorted(rules.legal_orders(state, state.active_side), key=grammar.format_order)
        ends = [o for o in legal if isinstance(o, O.End)]
        others = [o for o in legal if not isinstance(o, O.End)]
        order = (
            ends[0] if ends and (not others or rng.random() < END_WEIGHT) else rng.choice(others)
        )
        key = (state.turn, state.phase)
        n += 1
        out = rules.apply(state, state.active_side, order, HashDice(f"bench-{seed}-{n}"))
        state = out.state
        events.extend(e.to_dict() for e in out.events)  # as the service stores them
        if (state.turn, state.phase) != key or state.result is not None:
            frames.append((state, events))
            events = []
    return scen, frames, n


def timed(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def encode_default(img: Image.Image) -> None:
    img.save(io.BytesIO(), "PNG")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3, help="renders per phase image (fastest kept)")
    p.add_argument("--out", help="write the largest phase image here (a directory)")
    p.add_argument("--no-posts", dest="posts", action="store_false", help="skip part 4")
    p.add_argument("--systems", default="borodino,hells-gate,northern-war,stalins-war")
    p.add_argument("--pairs", type=int, default=7, help="timed pairs per case of part 4")
    p.add_argument("--move-on", type=int, default=10, help="orders before the moved-on cases")
    args = p.parse_args(argv)
    scen, frames, orders = play(args.seed)
    clear_cache()
    t0 = time.perf_counter()
    draw_map(scen, frames[0][0], frames[0][1])
    cold = time.perf_counter() - t0
    render_t, same_t, blank_t, sizes = [], [], [], []
    biggest = (0, None)
    for state, events in frames:
        png = draw_map(scen, state, events)
        sizes.append(len(png))
        if len(png) > biggest[0]:
            biggest = (len(png), png)
        img, _ = compose(scen, state, events)
        blank = Image.new("RGB", img.size)
        render_t.append(timed(partial(draw_map, scen, state, events), args.repeat))
        same_t.append(timed(partial(encode_default, img), args.repeat))
        blank_t.append(timed(partial(encode_default, blank), args.repeat))
    size = img.size
    ms = 1000.0
    med_r, worst_r = statistics.median(render_t), max(render_t)
    med_s, med_b = statistics.median(same_t), statistics.median(blank_t)
    print(
        f"demo game: seed {args.seed}, {orders} orders, {len(frames)} phase images of "
        f"{size[0]}x{size[1]} px; fastest of {args.repeat} per image"
    )
    print(f"cold first render (builds static layer + palette): {cold * ms:8.1f} ms")
    print(f"{'':44} {'median':>8} {'worst':>8}   (ms)")
    print(f"{'draw_map (phase image, PNG bytes)':44} {med_r * ms:8.1f} {worst_r * ms:8.1f}")
    for label, med, worst in (
        ("bare encode, same image (RGB, PNG defaults)", med_s, max(same_t)),
        ("bare encode, blank image of the same size", med_b, max(blank_t)),
    ):
        print(f"{label:44} {med * ms:8.1f} {worst * ms:8.1f}")
    per_image = [r / s for r, s in zip(render_t, same_t)]
    per_blank = [r / b for r, b in zip(render_t, blank_t)]
    print(
        f"ratio render / encode of the same image:  median {med_r / med_s:.2f}x, worst "
        f"{worst_r / med_s:.2f}x (per image: median {statistics.median(per_image):.2f}x, "
        f"max {max(per_image):.2f}x)"
    )
    print(
        f"ratio render / encode of a blank image:   median {med_r / med_b:.2f}x, worst "
        f"{worst_r / med_b:.2f}x (per image: median {statistics.median(per_blank):.2f}x, "
        f"max {max(per_blank):.2f}x)"
    )
    print(
        f"PNG size: median {statistics.median(sizes) / 1024:.0f} KiB, largest "
        f"{max(sizes) / 1024:.0f} KiB (limit 1024 KiB)"
    )
    target = "met" if worst_r <= 2 * med_s else "NOT met"
    print(f"target (phase image <= 2x bare encode of the same image, worst case): {target}")
    if args.out:
        path = Path(args.out) / f"bench-render-seed{args.seed}-largest.png"
        path.write_bytes(biggest[1])
        print(f"largest image written to {path}")
    if not args.posts:
        return
    import render_posts  # the chat service's stack: imported only for this part

    rows: list = []
    with tempfile.TemporaryDirectory() as tmp:
        for system in args.systems.split(","):
            render_posts.bench_system(system, args, rows, Path(tmp))
    worst = max(rows, key=lambda r: r[2] / r[4])
    cpu = max(rows, key=lambda r: r[3] / r[5])
    print(f"worst by CPU time: {cpu[3] / cpu[5]:.2f}x ({cpu[0]}, {cpu[1]})")
    print(f"render: worst {worst[2] / worst[4]:.2f} x a bare encode ({worst[0]}, {worst[1]})")


if __name__ == "__main__":
    main()

"""What a drawer wrote where: every label's box, recorded while a recording is open, so that a
test can measure how legible an image is once a phone scales it (`recording`, `legibility`).

Drawing records nothing unless a recording is open (a context variable: drawers running side by
side in threads keep their own). A drawer that crops or scales the finished picture moves the
recorded boxes with it (`crop`, `scale`), so that they stay in the coordinates of the image a
player gets. Kinds: "label" (a name, a strength, a caption: what must be legible), "id" (a hex id
on a whole map: read on the focus crop or a full-size map, exempt from the size floor), "legend"
(the legend's own lines, which must be legible too), "symbol" (the text inside a legend's sample
of a map mark, whose meaning the legible line beside it says: exempt, as an id).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 outside)


@dataclass(frozen=True)
class Label:
    text: str
    box: Box  # the ink's box, in the image's pixels
    cap: float  # the height of a capital or a digit at the size drawn, in the image's pixels
    kind: str = "label"

    def scaled(self, factor: float) -> Label:
        x0, y0, x1, y1 = self.box
        box = (round(x0 * factor), round(y0 * factor), round(x1 * factor), round(y1 * factor))
        return replace(self, box=box, cap=self.cap * factor)


EXEMPT = ("id", "symbol")  # kinds read some other way than at a phone's width (see above)

_recording: ContextVar[list[Label] | None] = ContextVar("labels", default=None)


@contextmanager
def recording() -> Iterator[list[Label]]:
    """Within the block, every label drawn is appended to the list given."""
    found: list[Label] = []
    token = _recording.set(found)
    try:
        yield found
    finally:
        _recording.reset(token)


def active() -> bool:
    return _recording.get() is not None


def note(text: str, box: Box, cap: float, kind: str = "label") -> None:
    """Record a label drawn (nothing when no recording is open)."""
    found = _recording.get()
    if found is not None and text.strip():
        found.append(Label(text, tuple(int(v) for v in box), float(cap), kind))  # type: ignore[arg-type]


def add(found: list[Label]) -> None:
    """Record labels recorded elsewhere (a trial drawing kept after all)."""
    active_list = _recording.get()
    if active_list is not None:
        active_list.extend(found)


def crop(box: Box) -> None:
    """The picture was cropped to box: labels move with it, cut to it; those left wholly outside
    drop."""
    found = _recording.get()
    if found is None:
        return
    x0, y0, x1, y1 = box
    kept = []
    for lab in found:
        a, b, c, d = lab.box
        if c <= x0 or a >= x1 or d <= y0 or b >= y1:
            continue
        inside = (max(a, x0) - x0, max(b, y0) - y0, min(c, x1) - x0, min(d, y1) - y0)
        kept.append(replace(lab, box=inside))  # what the crop keeps of it
    found[:] = kept


def scale(factor: float) -> None:
    """The picture was resized by factor: labels scale with it."""
    found = _recording.get()
    if found is not None:
        found[:] = [lab.scaled(factor) for lab in found]


def shift(dx: int, dy: int, start: int = 0) -> None:
    """Labels recorded from index start on were drawn on a sprite pasted at (dx, dy)."""
    found = _recording.get()
    if found is not None:
        for i in range(start, len(found)):
            a, b, c, d = found[i].box
            found[i] = replace(found[i], box=(a + dx, b + dy, c + dx, d + dy))


def mark() -> int:
    """The index the next label will have (for `shift`)."""
    found = _recording.get()
    return len(found) if found is not None else 0


@dataclass(frozen=True)
class Legibility:
    """An image's labels as a phone shows them: scaled to width pixels wide."""

    too_small: list[Label]  # below the floor (hex ids exempt)
    overlapping: list[tuple[Label, Label]]  # two labels' ink over each other
    labels: list[Label]


def _overlap(a: Box, b: Box, slack: int) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def legibility(
    found: list[Label], image_width: int, width: int = 390, floor: float = 7.0, slack: int = 1
) -> Legibility:
    """The labels of an image image_width wide as seen width wide: those whose capitals are
    lower than floor pixels there (hex ids exempt), and pairs drawn over each other (more than
    slack pixels both ways, in the image's own pixels)."""
    factor = min(1.0, width / image_width)
    seen = [lab.scaled(factor) for lab in found]
    small = [lab for lab in seen if lab.kind not in EXEMPT and lab.cap < floor]
    pairs = [
        (a, b)
        for i, a in enumerate(found)
        for b in found[i + 1 :]
        if a.kind != "id" and b.kind != "id" and _overlap(a.box, b.box, slack)
    ]
    return Legibility(small, pairs, seen)

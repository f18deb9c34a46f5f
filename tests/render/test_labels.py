"""The label recorder: what drawers wrote where, measured as a phone shows the image."""

from render import labels, text
from render.canvas import new_image

WHITE, BLACK = (255, 255, 255), (0, 0, 0)


def _draw_three() -> tuple[list[labels.Label], int]:
    img = new_image((800, 400), WHITE)
    with labels.recording() as found:
        text.text(img, (10, 10), "Korsun", 20, BLACK)
        text.text(img, (12, 12), "Steblev", 10, BLACK)
        text.text(img, (100, 100), "B12", 8, BLACK, kind="id")
    return found, img.width


def test_nothing_is_recorded_outside_a_recording() -> None:
    img = new_image((100, 40), WHITE)
    text.text(img, (1, 1), "Lysianka", 12, BLACK)
    with labels.recording() as found:
        pass
    assert found == []


def test_small_labels_and_overlaps_are_found_at_phone_width() -> None:
    found, width = _draw_three()
    assert [lab.text for lab in found] == ["Korsun", "Steblev", "B12"]
    full = labels.legibility(found, width, width=width)
    phone = labels.legibility(found, width)
    assert "Korsun" not in [lab.text for lab in full.too_small]  # 14 px capitals at full size
    assert [lab.text for lab in phone.too_small] == ["Korsun", "Steblev"]  # hex ids exempt
    assert [(a.text, b.text) for a, b in phone.overlapping] == [("Korsun", "Steblev")]


def test_a_crop_moves_labels_and_drops_those_outside() -> None:
    img = new_image((400, 200), WHITE)
    with labels.recording() as found:
        text.text(img, (300, 150), "Shanderovka", 14, BLACK)
        text.text(img, (10, 10), "Olshana", 14, BLACK)
        labels.crop((200, 100, 400, 200))
        labels.scale(2.0)
    assert [lab.text for lab in found] == ["Shanderovka"]
    x0, y0, _, _ = found[0].box
    assert (x0, y0) == ((300 - 200) * 2, found[0].box[1]) and y0 >= 100

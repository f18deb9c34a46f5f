"""`pbem render` and `pbem demo --images`: the map image of now, of any past phase, of every phase."""

from __future__ import annotations

import io

from PIL import Image

from app.service import GameService
from bots.cli import main
from storage import Store


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).size


def test_render_writes_the_image_of_now_and_of_a_past_phase(capsys, tmp_path):
    db = str(tmp_path / "g.db")
    assert run(capsys, "new", "g", "--db", db)[0] == 0
    assert run(capsys, "say", "g", "--as", "soviet", "attack B7 with 29tk 48rc", "--db", db)[0] == 0
    state = GameService(Store(db)).state("g")
    if state.pending:  # the German answer to the hit, whatever the die gave
        run(capsys, "say", "g", "--as", "german", "losses 106id", "--db", db)
    assert run(capsys, "say", "g", "--as", "soviet", "end", "--db", db)[0] == 0

    now = tmp_path / "now.png"
    code, out, _ = run(capsys, "render", "g", "-o", str(now), "--db", db)
    assert code == 0 and "now.png" in out
    width, _ = png_size(now.read_bytes())
    assert width >= 1200 and now.stat().st_size < 1024 * 1024

    past = tmp_path / "combat.png"
    code, _, _ = run(
        capsys,
        "render",
        "g",
        "-o",
        str(past),
        "--turn",
        "1",
        "--phase",
        "soviet-combat",
        "--db",
        db,
    )
    assert code == 0 and png_size(past.read_bytes())[0] >= 1200

    frames = GameService(Store(db)).frames("g")
    attacks = [e for e in frames[-1].events if e["kind"] == "AttackResolved"]
    assert [a["hex"] for a in attacks] == ["B7"]  # the frame of the end of Soviet combat
    assert (1, "soviet-combat") in frames[-1].ended


def test_render_refuses_a_phase_that_has_not_ended(capsys, tmp_path):
    db = str(tmp_path / "g.db")
    run(capsys, "new", "g", "--db", db)
    code, _, err = run(capsys, "render", "g", "--turn", "3", "--phase", "german-combat", "--db", db)
    assert code == 2 and "no image for turn 3" in err


def test_demo_writes_one_image_per_phase(capsys, tmp_path):
    folder = tmp_path / "images"
    code, out, _ = run(capsys, "demo", "--seed", "2", "--images", str(folder))
    assert code == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names[0] == "000-start.png" and names[-1].endswith("-final.png")
    assert "001-t1-soviet-combat.png" in names
    # every player phase of every turn has its image: 8 turns x 4 player phases, at least
    assert len(names) >= 1 + 8 * 4
    assert f"Wrote {len(names)} map images" in out
    assert all(png_size((folder / n).read_bytes())[0] >= 1200 for n in names[:3])

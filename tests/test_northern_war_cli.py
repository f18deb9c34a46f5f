"""The block game on the command line: `pbem demo --game northern-war`, `pbem new --game
northern-war [--sandbox]`, and `pbem render --view SIDE|public` (own blocks face up for a side,
every block face down in the public image)."""

from __future__ import annotations

import io

from PIL import Image

from bots.cli import main


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_pbem_demo_game_plays_the_sample_scenario_to_a_result(capsys):
    code, out, _ = run(capsys, "demo", "--game", "northern-war", "--seed", "4")
    assert code == 0
    assert "Result after" in out and ("victory" in out or "draw" in out.lower())


def test_pbem_demo_game_names_an_unknown_system(capsys):
    code, _, err = run(capsys, "demo", "--game", "no-such-game", "--seed", "1")
    assert code != 0 and "no-such-game" in err


def test_pbem_new_and_render_views(capsys, tmp_path):
    db = str(tmp_path / "g.db")
    for name, extra in (("nw", ()), ("nws", ("--sandbox",))):
        code, _, err = run(capsys, "new", name, "--game", "northern-war", *extra, "--db", db)
        assert code == 0, err
    assert run(capsys, "say", "nw", "--as", "sweden", "end", "--db", db)[0] == 0
    images = {}
    for view in ("sweden", "coalition", "public"):
        path = tmp_path / f"{view}.png"
        code, _, err = run(capsys, "render", "nw", "--view", view, "-o", str(path), "--db", db)
        assert code == 0, err
        images[view] = Image.open(io.BytesIO(path.read_bytes())).convert("RGB")
    assert images["sweden"].size == (900, 640)
    assert images["sweden"].tobytes() != images["public"].tobytes()
    assert images["coalition"].tobytes() != images["sweden"].tobytes()

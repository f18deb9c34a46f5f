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
    assert images["sweden"].width == 720 < images["sweden"].height  # upright, for a phone
    assert images["sweden"].tobytes() != images["public"].tobytes()
    assert images["coalition"].tobytes() != images["sweden"].tobytes()


def test_pbem_new_scenario_loads_another_file_and_names_a_bad_entry(capsys, tmp_path):
    from importlib.resources import files

    text = files("adjudicator.northern_war").joinpath("sample.toml").read_text("utf-8")
    db = str(tmp_path / "g.db")
    short = tmp_path / "short.toml"
    short.write_text(text.replace("years = 2 ", "years = 1 "), "utf-8")
    code, _, err = run(
        capsys, "new", "a", "--game", "northern-war", "--scenario", str(short), "--db", db
    )
    assert code == 0, err
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("sample_rules = true", "sample_rules = false"), "utf-8")
    code, out, err = run(
        capsys, "new", "b", "--game", "northern-war", "--scenario", str(bad), "--db", db
    )
    assert code != 0 and "sample_rules" in out + err

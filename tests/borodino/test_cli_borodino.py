"""The command line with the Borodino referee: `pbem new NAME --game borodino [--sandbox]` and
`pbem demo --game borodino --seed N` (the demo's --game chooses the system, default hells-gate)."""

from __future__ import annotations

from app.service import GameService
from bots.cli import main
from storage import Store


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_pbem_new_game_borodino_sandbox_and_orders(capsys, tmp_path):
    db = str(tmp_path / "b.db")
    code, out, err = run(capsys, "new", "b", "--game", "borodino", "--sandbox", "--db", db)
    assert code == 0, err
    assert "SAMPLE order of battle" in out and "(sandbox)" in out
    code, out, _ = run(capsys, "say", "b", "--db", db, "--as", "russian", "rout odessa")
    assert code == 0 and "routs to the Withdrawn Box (1.6)" in out
    code, out, _ = run(capsys, "say", "b", "--db", db, "--as", "russian", "status")
    assert "Withdrawn: odessa" in out and "use_jager_rules is off" in out


def test_pbem_demo_game_borodino_reaches_a_result_and_replays(capsys, tmp_path):
    db = str(tmp_path / "demo.db")
    code, out, err = run(capsys, "demo", "--game", "borodino", "--seed", "2", "--db", db)
    assert code == 0, err
    assert "T1 activations" in out and "Result after" in out
    (game,) = Store(db).list_games()
    assert game.game == "borodino" and game.snapshot["result"] is not None
    GameService(Store(db)).verify(game.name)

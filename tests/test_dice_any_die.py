"""Dice of any number of faces, several dice, shuffles, picks and hidden draws: from the engine's
DiceSource (adjudicator/core/dice.py) through committed dice (storage/dice.py), the log records
(app/changes.py), the replay (app/fold.py) and the offline audit (storage/audit/)."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest

from adjudicator.core.dice import FixedDice, HashDice, RecordingDice, Roll
from adjudicator.core.system import Outcome
from app import fold
from app.changes import roll_records
from storage import dice
from storage.audit import audit, chi2_sf, chi_square_p, face_stats, format_report
from storage.chain import link
from storage.dice import CommittedDice, face_from_digest, roll_entry, roll_value, salt_digest

UID = "0123456789abcdef0123456789abcdef"
NO_SALT = salt_digest([])


def seed_of(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


# -- the d6 stays what it was
# Computed with the code of before dice of any number of faces (one d6 per draw), and frozen.
FROZEN_SEED = "42832de892e5fed4d5ffa6f67aed71ee8d61f1ab78706075277fcab41e89048d"
FROZEN_D6 = [
    6, 1, 6, 6, 2, 1, 3, 6, 6, 3, 3, 6, 2, 5, 1, 6, 6, 6, 5, 1, 3, 4, 1, 6, 1,
    6, 1, 5, 5, 3, 5, 4, 4, 4, 4, 4, 6, 3, 4, 1, 2, 4, 2, 3, 2, 6, 1, 4, 1, 4,
]  # fmt: skip
FROZEN_D6_SALTED = [6, 1, 3, 1, 3, 3, 5, 5, 4, 6, 5, 6, 1, 4, 4, 4, 3, 5, 4, 1]
FROZEN_HASH_DICE = [
    3, 6, 5, 1, 5, 6, 3, 4, 1, 6, 4, 5, 6, 3, 4, 5, 6, 2, 3, 6, 2, 6, 6, 2, 4, 6, 6, 2, 5, 1,
]  # fmt: skip


def test_the_d6_derivation_is_frozen():
    seed, salted = seed_of("frozen d6 vector"), salt_digest(["soviet: 42"])
    assert seed == FROZEN_SEED
    assert [roll_value(seed, UID, 1, n, "combat C6", NO_SALT) for n in range(1, 51)] == FROZEN_D6
    assert [roll_value(seed, UID, 1, n, "combat C6", NO_SALT, 6) for n in range(1, 51)] == FROZEN_D6
    weather = [roll_value(seed, UID, 3, n, "weather", salted) for n in range(1, 21)]
    assert weather == FROZEN_D6_SALTED
    d = CommittedDice(seed, UID, 1, 1, NO_SALT)
    assert [d.roll("combat C6") for _ in range(25)] + list(d.dice(25, 6, "combat C6")) == FROZEN_D6
    assert all("faces" not in roll_entry(x)[0] for x in d.drawn)
    h = HashDice("frozen")
    assert [h.roll("combat C6") for _ in range(30)] == FROZEN_HASH_DICE and h.n == 30


def test_the_d6_message_is_unchanged_and_other_dice_name_their_faces():
    base = f"{UID}|3|17|combat C6|{NO_SALT}".encode()
    assert dice.roll_message(UID, 3, 17, "combat C6", NO_SALT) == base
    assert dice.roll_message(UID, 3, 17, "combat C6", NO_SALT, 6) == base
    assert dice.roll_message(UID, 3, 17, "combat C6", NO_SALT, 10) == base + b"|d10"
    key = bytes.fromhex(seed_of("msg"))
    digest = hmac.new(key, base + b"|d10", hashlib.sha256).digest()
    first = next(b for b in digest if b < 250)
    assert roll_value(seed_of("msg"), UID, 3, 17, "combat C6", NO_SALT, 10) == first % 10 + 1


# -- rejection sampling
def test_small_dice_keep_an_equal_share_of_the_byte_values():
    for faces in (2, 3, 6, 10, 20, 100, 256):
        mapped = [face_from_digest(bytes([b]), faces) for b in range(256)]
        share = 256 // faces
        assert [mapped.count(f) for f in range(1, faces + 1)] == [share] * faces
        assert mapped.count(None) == 256 % faces
    assert face_from_digest(bytes([250, 251, 255, 249]), 10) == 10  # 250.. rejected: 249 % 10 + 1
    assert face_from_digest(bytes([255]), 2) == 2


def test_large_dice_use_two_byte_chunks():
    limit = 65536 - 65536 % 300  # 65400
    assert face_from_digest(limit.to_bytes(2, "big") + (5).to_bytes(2, "big"), 300) == 6
    assert face_from_digest((limit - 1).to_bytes(2, "big"), 300) == (limit - 1) % 300 + 1
    assert face_from_digest(bytes([0xFF, 0xFF]) * 16, 300) is None
    values = {roll_value(seed_of("d1000"), UID, 1, n, "x", NO_SALT, 1000) for n in range(1, 3001)}
    assert min(values) >= 1 and max(values) <= 1000 and len(values) > 900


def test_a_rejected_digest_continues_with_a_numbered_message(monkeypatch):
    calls = []
    real = dice._digest

    def fake(key, msg):
        calls.append(msg)
        return bytes([255]) * 32 if len(calls) < 3 else real(key, msg)

    monkeypatch.setattr(dice, "_digest", fake)
    face = roll_value(seed_of("x"), UID, 2, 9, "deal", NO_SALT, 10)
    base = dice.roll_message(UID, 2, 9, "deal", NO_SALT, 10)
    assert calls == [base, base + b"|1", base + b"|2"]
    assert face == face_from_digest(real(bytes.fromhex(seed_of("x")), base + b"|2"), 10)


@pytest.mark.parametrize("faces", [0, -1, 65537, True, 2.0])
def test_bad_faces_are_refused(faces):
    for draw in (
        lambda: roll_value(seed_of("x"), UID, 1, 1, "x", NO_SALT, faces),
        lambda: CommittedDice(seed_of("x"), UID, 1, 1, NO_SALT).die(faces, "x"),
        lambda: FixedDice([1]).die(faces, "x"),
    ):
        with pytest.raises(ValueError):
            draw()


# -- fairness of other dice
@pytest.mark.parametrize("faces", [2, 10, 20])
def test_20000_draws_of_a_die_pass_chi_square(faces):
    d = CommittedDice(seed_of(f"fair d{faces}"), UID, 1, 1, salt_digest([f"salt {faces}"]))
    values = d.dice(20_000, faces, f"d{faces} test")
    assert len(values) == 20_000 and d.next_n == 20_001
    assert min(values) == 1 and max(values) == faces
    counts = [values.count(f) for f in range(1, faces + 1)]
    chi2, p = chi_square_p(counts)
    assert p > 0.001, (counts, chi2, p)
    assert chi2_sf(chi2, faces - 1) == p
    assert abs(sum(values) / 20_000 - (faces + 1) / 2) < 4.5 * ((faces**2 - 1) / 12 / 20_000) ** 0.5


def test_chi_square_for_other_dice_matches_tables():
    for chi2, df, p in [(16.919, 9, 0.05), (21.666, 9, 0.01), (30.1435, 19, 0.05),
                        (36.191, 19, 0.01), (123.225, 99, 0.05)]:  # fmt: skip
        assert chi2_sf(chi2, df) == pytest.approx(p, rel=2e-4)
    assert chi2_sf(65535, 65535) == pytest.approx(0.5, abs=0.01)  # no overflow for huge dice
    assert chi2_sf(1e7, 99) == 0.0
    assert chi_square_p([5] * 10) == (0.0, 1.0) and chi_square_p([7]) == (0.0, 1.0)
    s = face_stats([1, 10, 10, 3], 10)
    assert s["faces"] == 10 and s["counts"] == [1, 0, 1, 0, 0, 0, 0, 0, 0, 2]
    assert s["mean"] == 6.0 and (s["chi2"], s["p"]) == chi_square_p(s["counts"])


# -- shuffles, picks, several dice
ORDERS = ["abc", "acb", "bac", "bca", "cab", "cba"]


def test_a_shuffle_is_a_permutation_uniform_over_the_orders():
    d = CommittedDice(seed_of("shuffle"), UID, 1, 1, NO_SALT)
    counts = dict.fromkeys(ORDERS, 0)
    for _ in range(12_000):
        out = d.shuffle(["a", "b", "c"], "deck")
        assert sorted(out) == ["a", "b", "c"]
        counts["".join(out)] += 1
    assert d.next_n == 24_001  # two draws (a d3, then a d2) per shuffle of three
    assert [x["faces"] for x in d.drawn[:4]] == [3, 2, 3, 2]
    chi2, p = chi_square_p(list(counts.values()))
    assert p > 0.001, (counts, chi2, p)
    deck = list(range(52))
    assert sorted(d.shuffle(deck, "deck")) == deck != d.shuffle(deck, "deck")  # deck unchanged
    assert d.shuffle([], "none") == [] and d.shuffle(["x"], "one") == ["x"]


def test_fisher_yates_takes_j_from_each_die():
    # i = 3: die(4) = 2 -> j = 1 (a d c b); i = 2: die(3) = 3 -> j = 2; i = 1: die(2) = 1 -> j = 0
    assert FixedDice([2, 3, 1]).shuffle("abcd", "deck") == ["d", "a", "c", "b"]
    assert FixedDice([3]).pick(["x", "y", "z"], "who") == "z"
    assert FixedDice([4, 1, 2]).dice(3, 4, "hits") == (4, 1, 2)
    with pytest.raises(ValueError):
        FixedDice([1]).pick([], "nobody")
    with pytest.raises(ValueError):
        FixedDice([1]).dice(-1, 6, "x")


def test_engine_and_storage_build_the_methods_alike():
    """CommittedDice's own methods and RecordingDice's (the engine's) over it draw the same."""

    def play(d):
        deck = d.shuffle(list(range(10)), "deck", hidden=True)
        return deck, d.pick("nesw", "wind"), d.dice(3, 8, "hits"), d.roll("weather")

    direct, under = (CommittedDice(seed_of("a"), UID, 2, 1, NO_SALT, seed_of("h")) for _ in "ab")
    rec = RecordingDice(under)
    assert play(direct) == play(rec)
    assert direct.drawn == under.drawn and len(rec.rolls) == 9 + 1 + 3 + 1
    assert [(r.purpose, r.value, r.faces, r.hidden) for r in rec.rolls] == [
        (x["purpose"], x["value"], x["faces"], x["hidden"]) for x in under.drawn
    ]


# -- hidden draws
def test_hidden_draws_come_from_the_hidden_seed_and_record_no_value():
    seed, hidden = seed_of("public"), seed_of("hidden")
    d = CommittedDice(seed, UID, 1, 1, NO_SALT, hidden_seed_hex=hidden)
    public = d.die(10, "deal")
    secret_value = d.die(10, "deal", hidden=True)
    assert public == roll_value(seed, UID, 1, 1, "deal", NO_SALT, 10)
    assert secret_value == roll_value(hidden, UID, 1, 2, "deal", NO_SALT, 10)
    many = [d.die(10, "deal", hidden=True) for _ in range(64)]
    assert many == [roll_value(hidden, UID, 1, n, "deal", NO_SALT, 10) for n in range(3, 67)]
    assert many != [roll_value(seed, UID, 1, n, "deal", NO_SALT, 10) for n in range(3, 67)]
    record, entry = roll_entry(d.drawn[1])
    assert record["value"] is None and record["hidden"] is True and record["faces"] == 10
    assert entry["value"] == secret_value
    assert dice.check_hidden(record["commitment"], secret_value, entry["salt"])
    assert roll_entry(d.drawn[0]) == (
        {"purpose": "deal", "value": public, "fixed": False, "epoch": 1, "n": 1,
         "hidden": False, "faces": 10},
        None,
    )  # fmt: skip
    with pytest.raises(dice.HiddenSeedMissing):
        CommittedDice(seed, UID, 1, 1, NO_SALT).pick("abc", "card", hidden=True)


# -- FixedDice, Roll, RecordingDice
def test_fixed_dice_refuse_a_value_the_die_cannot_show():
    for draw, die in [
        (lambda: FixedDice([7]).roll("combat"), "1-6"),
        (lambda: FixedDice([7]).die(6, "combat"), "1-6"),
        (lambda: FixedDice([11]).die(10, "deal"), "1-10"),
        (lambda: FixedDice([0]).die(10, "deal"), "1-10"),
        (lambda: RecordingDice(None, fixed=[7]).roll("combat"), "1-6"),
        (lambda: RecordingDice(FixedDice([11])).die(10, "deal"), "1-10"),
    ]:
        with pytest.raises(ValueError, match=die):
            draw()
    assert FixedDice([10]).die(10, "deal") == 10 and FixedDice([20]).die(20, "crit") == 20


def test_a_roll_writes_faces_and_hidden_only_when_they_say_something():
    assert Roll("combat C6", 3).to_dict() == {"purpose": "combat C6", "value": 3, "fixed": False}
    assert Roll("w", 2, fixed=True).to_dict() == {"purpose": "w", "value": 2, "fixed": True}
    r = Roll("deal", 8, faces=10, hidden=True)
    assert r.to_dict() == {"purpose": "deal", "value": 8, "fixed": False, "faces": 10,
                           "hidden": True}  # fmt: skip
    assert Roll.from_dict(r.to_dict()) == r
    assert Roll.from_dict(Roll("x", 1).to_dict()) == Roll("x", 1)


def test_recording_dice_records_every_draw_fixed_ones_first():
    rec = RecordingDice(FixedDice([1, 2, 10]), fixed=[4])
    assert rec.die(20, "crit") == 4
    assert rec.shuffle("abc", "deck", hidden=True) == ["c", "b", "a"]
    assert rec.die(10, "deal") == 10
    deck = [Roll("deck", 1, faces=3, hidden=True), Roll("deck", 2, faces=2, hidden=True)]
    assert rec.rolls == [Roll("crit", 4, fixed=True, faces=20), *deck, Roll("deal", 10, faces=10)]


def test_roll_records_join_faces_and_hidden():
    d = CommittedDice(seed_of("join"), UID, 3, 4, NO_SALT, hidden_seed_hex=seed_of("jh"))
    rec = RecordingDice(d, fixed=[5])
    rec.roll("weather")  # fixed
    rec.roll("combat C6")
    rec.die(10, "deal")
    rec.die(6, "c", hidden=True)
    records, secrets = roll_records(rec.rolls, d.drawn, 3)
    assert records[0] == {"purpose": "weather", "value": 5, "fixed": True, "epoch": 3,
                          "n": None, "hidden": False}  # fmt: skip
    assert records[1] == {"purpose": "combat C6", "value": d.drawn[0]["value"], "fixed": False,
                          "epoch": 3, "n": 4, "hidden": False}  # fmt: skip
    assert records[2]["faces"] == 10 and records[2]["value"] == d.drawn[1]["value"]
    assert records[3]["value"] is None and records[3]["hidden"] and "faces" not in records[3]
    assert secrets == [{"commitment": records[3]["commitment"], "value": d.drawn[2]["value"],
                        "salt": secrets[0]["salt"]}]  # fmt: skip
    with pytest.raises(AssertionError):
        roll_records([Roll("deal", d.drawn[1]["value"], faces=6)], d.drawn[1:2], 3)


# -- replay
def test_drawn_takes_hidden_values_from_the_secrets_or_says_they_are_sealed():
    c = "ab" * 32
    rolls = [
        {"purpose": "w", "value": 2, "fixed": True},
        {"purpose": "deal", "value": 9, "fixed": False, "faces": 10, "hidden": False},
        {"purpose": "card", "value": None, "fixed": False, "hidden": True, "commitment": c},
    ]
    assert fold.drawn(rolls, [{"commitment": c, "value": 4, "salt": "s"}]) == [9, 4]
    with pytest.raises(fold.ReplayMismatch, match="^sealed: .*revealed when the game ends"):
        fold.drawn(rolls)
    assert fold.drawn(rolls[:2]) == [9]


def test_walk_replays_a_hidden_draw_with_the_rows_secret():
    def apply(state, actor, order, dice_):
        return Outcome(state + [dice_.die(10, order, hidden=True)])

    system = SimpleNamespace(grammar=SimpleNamespace(parse=lambda text: text), apply=apply)
    c = "cd" * 32
    row = {"index": 1, "kind": "order", "actor": "a", "text": "deal", "payload": {
        "rolls": [{"purpose": "deal", "value": None, "fixed": False, "hidden": True,
                   "faces": 10, "commitment": c}]}}  # fmt: skip
    steps = list(fold.walk(system, [row | {"secret": [{"commitment": c, "value": 7}]}], []))
    assert steps[0].outcome.state == [7]
    with pytest.raises(fold.ReplayMismatch, match="^sealed: ") as caught:
        list(fold.walk(system, [row], []))
    assert caught.value.index == 1


# -- the audit of a d10 game
T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
SEEDS = {k: seed_of(f"d10 epoch {k}") for k in (1, 2)}
HIDDEN = seed_of("d10 hidden")


def _row(rows, kind, payload, actor="system", text=None, secret=None):
    row = {"index": len(rows), "kind": kind, "actor": actor, "user": None, "text": text,
           "payload": payload, "key": None,
           "created_at": (T0 + timedelta(minutes=len(rows))).isoformat()}  # fmt: skip
    rows.append(row | ({"secret": secret} if secret else {}))
    return row["index"]


def _order(rows, actor, d, draws):
    """An order row of `draws`, each (faces, purpose, hidden), drawn through CommittedDice."""
    records, secret = [], []
    for faces, purpose, hidden in draws:
        d.die(faces, purpose, hidden=hidden)
        record, entry = roll_entry(d.drawn[-1])
        records.append(record)
        secret += [entry] if entry else []
    return _row(rows, "order", {"rolls": records, "events": []}, actor, "go", secret or None)


def d10_game():
    rows: list[dict] = []
    _row(rows, "setup", {"events": [], "game_uid": UID, "name": "d10", "game": "dice"})
    _row(rows, "epoch", {"epoch": 1, "turn": 1, "commitment": dice.commitment(SEEDS[1]),
                         "hidden_commitment": dice.commitment(HIDDEN)})  # fmt: skip
    d1 = CommittedDice(SEEDS[1], UID, 1, 1, NO_SALT, hidden_seed_hex=HIDDEN)
    where = {"d10": _order(rows, "red", d1, [(10, "attack", False)] * 3 + [(6, "morale", False)])}
    where["hidden"] = _order(rows, "blue", d1, [(10, "ambush", True), (10, "attack", False)])
    _row(rows, "reveal", {"epoch": 1, "seed": SEEDS[1]})
    _row(rows, "epoch", {"epoch": 2, "turn": 2, "commitment": dice.commitment(SEEDS[2])})
    d2 = CommittedDice(SEEDS[2], UID, 2, 1, NO_SALT)
    where["d20"] = _order(rows, "red", d2, [(20, "crit", False), (10, "attack", False)])
    _row(rows, "reveal", {"epoch": 2, "seed": SEEDS[2]})
    _row(rows, "reveal-hidden", {"hidden_seed": HIDDEN})
    return rows, where


def header_of(rows):
    return {"format": "pbem-audit/1", "game_uid": UID, "name": "d10", "game": "dice",
            "head_hash": rows[-1]["hash"], "rows": len(rows)}  # fmt: skip


def test_the_audit_recomputes_a_d10_game():
    rows = link(d10_game()[0])
    report = audit(header_of(rows), rows)
    assert report.ok, report.first_failure
    assert report.rolls_checked == 7 and report.hidden_checked == 1
    by_die = report.stats["by_die"]
    assert list(by_die) == ["d6", "d10", "d20"]
    assert by_die["d10"]["faces"] == 10 and by_die["d10"]["all"]["n"] == 5
    assert len(by_die["d10"]["all"]["counts"]) == 10 and by_die["d20"]["all"]["n"] == 1
    assert set(by_die["d10"]["by_side"]) == {"red", "blue"}
    assert report.stats["all"] == by_die["d6"]["all"] and report.stats["all"]["n"] == 1
    text = format_report(report)
    assert "chi-square against a fair die of its size, df = faces - 1" in text
    words = [line.split() for line in text.splitlines()]
    heads = [w for w in words if len(w) > 1 and w[1] == "n"]
    assert [h[0] for h in heads] == ["d6", "d10", "d20"]
    assert heads[1][2:12] == [str(i) for i in range(1, 11)] and len(heads[2]) == 2 + 20 + 3


def tampered(change):
    """(first failure, where) of the d10 game after `change(rows, where)` and a re-chaining."""
    rows, where = d10_game()
    change(rows, where)
    rows = link(rows)
    return audit(header_of(rows), rows).first_failure, where


def test_the_audit_reports_a_tampered_d10_value():
    rows, where = d10_game()
    true_value = rows[where["d10"]]["payload"]["rolls"][1]["value"]
    forged = true_value % 10 + 1
    f, where = tampered(lambda r, w: r[w["d10"]]["payload"]["rolls"][1].update(value=forged))
    assert f["index"] == where["d10"]
    assert "roll does not recompute ('attack', d10, epoch 1, n 2)" in f["problem"]
    assert (f["expected"], f["found"]) == (true_value, forged)


def test_the_audit_refuses_a_d10_value_off_the_die_and_a_changed_die():
    f, where = tampered(lambda rows, w: rows[w["d10"]]["payload"]["rolls"][0].update(value=11))
    assert f["index"] == where["d10"] and "not 1-10" in f["problem"]
    f, where = tampered(lambda rows, w: rows[w["d20"]]["payload"]["rolls"][0].pop("faces"))
    assert f["index"] == where["d20"]  # a d20 passed off as a d6


def test_the_audit_reports_a_tampered_hidden_d10():
    rows, where = d10_game()
    true_value = rows[where["hidden"]]["secret"][0]["value"]

    def change(rows, where):
        entry = rows[where["hidden"]]["secret"][0]
        entry["commitment"], entry["salt"] = dice.hidden_commit(true_value % 10 + 1)
        entry["value"] = true_value % 10 + 1
        rows[where["hidden"]]["payload"]["rolls"][0]["commitment"] = entry["commitment"]

    f, where = tampered(change)
    assert f["index"] == where["hidden"]
    assert "hidden draw does not recompute ('ambush', d10" in f["problem"]
    assert f["expected"] == true_value

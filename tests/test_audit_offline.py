"""The offline audit (storage/audit.py, storage/chain.py) on synthetic logs, with no database.

The log is built here the way storage builds it: a setup row, epoch rows with commitments, players'
salts, orders whose rolls come from CommittedDice, a moderator-fixed roll, reveals, a hidden draw and
a hidden value with their off-chain secrets, the hidden seed's reveal, and a last epoch still open.
Every tampering must make the audit fail and name the row.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import math
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.fold import effective_orders
from storage.audit import (
    FORMAT,
    audit,
    chi2_sf,
    chi_square_p,
    face_stats,
    format_report,
    parse_export,
    read_export,
    write_export,
)
from storage.chain import CHAINED_FIELDS, GENESIS, canonical, link, row_hash, verify_chain
from storage.dice import (
    CommittedDice,
    commitment,
    hidden_commit,
    roll_entry,
    roll_value,
    salt_digest,
)

ROOT = Path(__file__).resolve().parent.parent
UID = "5f0c1d2e3a4b49c8a7d6e5f4a3b2c1d0"
SCENARIO = "[scenario]\nid = 'hells-gate'\nname = \"Hell's Gate\"\n"
SEEDS = {k: hashlib.sha256(f"epoch seed {k}".encode()).hexdigest() for k in (1, 2, 3)}
HIDDEN_SEED = hashlib.sha256(b"hidden seed").hexdigest()
T0 = datetime(2025, 3, 1, 18, 0, tzinfo=UTC)
SALTS_1 = ["soviet: 31337", "Glück für Deutschland"]


class Log:
    def __init__(self):
        self.rows: list[dict] = []

    def add(self, kind, payload, actor="system", user=None, text=None, key=None, secret=None):
        i = len(self.rows)
        row = {
            "index": i,
            "kind": kind,
            "actor": actor,
            "user": user,
            "text": text,
            "payload": payload,
            "key": key,
            "created_at": (T0 + timedelta(minutes=i)).isoformat(),
        }
        if secret:
            row["secret"] = secret
        self.rows.append(row)
        return i

    def order(self, actor, text, dice, purposes, fixed=(), hidden_values=(), user=None, hidden=()):
        """An order row; `purposes` are public d6 draws, `hidden` hidden d6 draws after them."""
        records, secret = [], []
        for purpose, value in fixed:
            records.append(
                {
                    "purpose": purpose,
                    "value": value,
                    "fixed": True,
                    "epoch": dice.epoch,
                    "n": None,
                    "hidden": False,
                }
            )
        draws = [(p, False) for p in purposes] + [(p, True) for p in hidden]
        for purpose, is_hidden in draws:
            dice.die(6, purpose, hidden=is_hidden)
            record, entry = roll_entry(dice.drawn[-1])
            records.append(record)
            if entry:
                secret.append(entry)
        payload = {
            "rolls": records,
            "events": [{"kind": "Demo", "text": text}],
            "state_sha256": hashlib.sha256(text.encode()).hexdigest(),
        }
        if hidden_values:
            payload["hidden"] = []
            for v in hidden_values:
                c, salt = hidden_commit(v)
                payload["hidden"].append(c)
                secret.append({"commitment": c, "value": v, "salt": salt})
        return self.add(
            "order",
            payload,
            actor=actor,
            user=user or actor,
            text=text,
            key=f"msg-{len(self.rows)}",
            secret=secret or None,
        )


def build(reveal_hidden=True):
    """A complete synthetic log: (header, rows, where) with `where` naming interesting rows."""
    log, where = Log(), {}
    log.add(
        "setup",
        {
            "scenario_sha256": hashlib.sha256(SCENARIO.encode()).hexdigest(),
            "sandbox": True,
            "events": [],
            "game_uid": UID,
            "name": "g1",
            "game": "hells-gate",
        },
        user="mod",
    )
    log.add(
        "epoch",
        {
            "epoch": 1,
            "turn": 1,
            "commitment": commitment(SEEDS[1]),
            "hidden_commitment": commitment(HIDDEN_SEED),
        },
    )
    where["salt"] = log.add("salt", {"epoch": 1, "salt": SALTS_1[0]}, actor="soviet", user="ivan")
    log.add("salt", {"epoch": 1, "salt": SALTS_1[1]}, actor="german", user="hans")
    d1 = CommittedDice(SEEDS[1], UID, 1, 1, salt_digest(SALTS_1), hidden_seed_hex=HIDDEN_SEED)
    where["order"] = log.order("soviet", "attack C6 with 13a 14b", d1, ["combat C6", "weather"])
    where["fixed"] = log.order(
        "german", "attack C2 with 3pz", d1, ["combat C2"], fixed=[("weather", 6)], user="hans"
    )
    where["hidden"] = log.order(
        "german",
        "draw",
        d1,
        [],
        hidden=["draw card"],
        hidden_values=[{"hand": ["ace", "king"]}],
        user="hans",
    )
    where["reveal"] = log.add("reveal", {"epoch": 1, "seed": SEEDS[1]})
    log.add(
        "epoch",
        {"epoch": 2, "turn": 2, "commitment": commitment(SEEDS[2]), "hidden_commitment": None},
    )
    d2 = CommittedDice(SEEDS[2], UID, 2, 1, salt_digest([]))
    where["order2"] = log.order(
        "german", "attack C9", d2, ["combat C9", "combat C9 retreat", "breakout 20tk"]
    )
    log.add(
        "moderation",
        {"action": "pause", "why": "lunch break"},
        actor=None,
        user="mod",
        text="pause lunch break",
    )
    moved = log.order("soviet", "move 13a to 0912", d2, [])
    where["undo"] = log.add(
        "undo", {"targets": [moved], "why": None}, actor="soviet", user="ivan", text="undo"
    )
    log.add("reveal", {"epoch": 2, "seed": SEEDS[2]})
    log.add(
        "epoch",
        {"epoch": 3, "turn": 3, "commitment": commitment(SEEDS[3]), "hidden_commitment": None},
    )
    d3 = CommittedDice(SEEDS[3], UID, 3, 1, salt_digest([]))
    where["pending"] = log.order("soviet", "attack C4", d3, ["combat C4", "weather"])
    if reveal_hidden:
        where["reveal_hidden"] = log.add("reveal-hidden", {"hidden_seed": HIDDEN_SEED})
    rows = link(log.rows)
    header = {
        "format": FORMAT,
        "game_uid": UID,
        "name": "g1",
        "game": "hells-gate",
        "scenario_text": SCENARIO,
        "sandbox": True,
        "created_at": T0.isoformat(),
        "head_hash": rows[-1]["hash"],
        "rows": len(rows),
    }
    return header, rows, where


def relink(header, rows, start=0):
    """A forger's re-chaining from `start` on, with the header brought up to date."""
    prev = GENESIS if start == 0 else rows[start - 1]["hash"]
    link(rows[start:], prev)
    header["head_hash"] = rows[-1]["hash"]
    header["rows"] = len(rows)


def export_bytes(tmp_path, header, rows) -> bytes:
    path = tmp_path / "game.jsonl"
    write_export(path, header, rows)
    return path.read_bytes()


def failing_index(header, rows):
    report = audit(header, rows)
    assert not report.ok
    return report.first_failure["index"]


@pytest.fixture
def game():
    return build()


# ---------------------------------------------------------------- a clean log


def test_the_clean_log_verifies_offline(tmp_path, game):
    header, rows, _where = game
    path = tmp_path / "game.jsonl"
    write_export(path, header, rows)
    h2, r2 = read_export(path)
    assert h2 == header and r2 == rows
    report = audit(h2, r2)
    assert report.ok, report.first_failure
    assert report.first_failure is None and report.failures == []
    assert report.rows == len(rows)
    assert report.epochs_revealed == [1, 2] and report.epochs_open == [3]
    assert report.rolls_checked == 6  # epoch 1: 3 public draws, epoch 2: 3
    assert report.rolls_fixed == 1
    assert report.rolls_pending == 2  # epoch 3 is not revealed: pending, not failing
    assert report.hidden_revealed and report.hidden_checked == 2
    assert report.warnings == []
    assert verify_chain(r2) is None


def test_the_export_holds_no_unrevealed_seed(tmp_path, game):
    header, rows, _ = game
    data = export_bytes(tmp_path, header, rows).decode()
    assert SEEDS[3] not in data  # epoch 3 still open
    assert SEEDS[1] in data and SEEDS[2] in data  # revealed
    with pytest.raises(ValueError, match="unrevealed"):
        write_export(tmp_path / "x.jsonl", header, rows, forbidden=[SEEDS[1]])
    assert not (tmp_path / "x.jsonl").exists()
    write_export(tmp_path / "y.jsonl", header, rows, forbidden=[SEEDS[3]])
    with pytest.raises(ValueError):
        write_export(tmp_path / "z.jsonl", {**header, "seed": SEEDS[3]}, rows)


def test_secrets_are_exported_only_after_the_game_ended(tmp_path):
    header, rows, where = build(reveal_hidden=False)
    rows[0]["database_id"] = 17  # any non-export field is dropped
    data = export_bytes(tmp_path, header, rows)
    _, back = parse_export(data)
    assert all("secret" not in r and "database_id" not in r for r in back)
    hand_salt = rows[where["hidden"]]["secret"][1]["salt"]
    assert hand_salt.encode() not in data and b"king" not in data
    report = audit(*parse_export(data))
    assert report.ok, report.first_failure
    assert not report.hidden_revealed and report.hidden_pending == 2
    assert "sealed until the game ends" in format_report(report)


def test_the_header_fills_in_its_count_and_head(tmp_path, game):
    header, rows, _ = game
    bare = {k: v for k, v in header.items() if k not in ("rows", "head_hash", "format")}
    h2, r2 = parse_export(export_bytes(tmp_path, bare, rows))
    assert h2["rows"] == len(rows) and h2["head_hash"] == rows[-1]["hash"]
    assert h2["format"] == FORMAT
    assert audit(h2, r2).ok


# ---------------------------------------------------------------- one changed byte anywhere


def line_spans(data: bytes):
    """(start, end) byte offsets of each line, its newline included."""
    spans, start = [], 0
    while start < len(data):
        end = data.index(b"\n", start) + 1
        spans.append((start, end))
        start = end
    return spans


def offsets_to_flip(line: bytes, start: int):
    """Every byte of a line, except that inside a long hex run (hashes, seeds, salts), where
    every byte behaves alike, only both ends and every 8th byte are taken."""
    for m in re.finditer(rb"[0-9a-f]{32,}|[^0-9a-f]+|[0-9a-f]{1,31}", line):
        run = range(m.start(), m.end())
        for i in run:
            if len(run) < 32 or i - m.start() < 3 or m.end() - i <= 3 or i % 8 == 0:
                yield start + i


def test_every_one_byte_change_of_any_row_fails_and_names_that_row(tmp_path, game):
    header, rows, _ = game
    data = export_bytes(tmp_path, header, rows)
    spans = line_spans(data)
    assert len(spans) == len(rows) + 1
    head_line = data[: spans[0][1]]
    checked = 0
    for k, (start, end) in enumerate(spans[1:]):
        for offset in offsets_to_flip(data[start:end], start):
            mutated = bytearray(data)
            mutated[offset] ^= 0x01
            if offset == end - 1:  # the newline: lines merge, parse the whole file
                h, parsed = parse_export(bytes(mutated))
            else:  # only this line changed: parse it alone
                h = header
                parsed = list(rows)
                parsed[k] = parse_export(head_line + bytes(mutated[start:end]))[1][0]
            report = audit(h, parsed)
            assert not report.ok, (k, offset, chr(data[offset]))
            assert report.first_failure["index"] == k, (
                k,
                data[max(start, offset - 20) : offset + 20],
                report.first_failure,
            )
            checked += 1
    assert checked > len(data) // 2


@pytest.mark.parametrize("field", CHAINED_FIELDS + ("prev_hash", "hash"))
@pytest.mark.parametrize("which", ["order", "fixed", "reveal", "salt"])
def test_a_changed_field_names_its_row(game, field, which):
    header, rows, where = game
    k = where[which]
    row = rows[k]
    text = canonical(row[field]).decode()
    # change one character of the field's JSON text, keeping it valid JSON where possible
    for i, ch in enumerate(text):
        if ch.isalnum():
            swapped = (
                text[:i]
                + ("1" if ch == "0" else "0" if ch.isdigit() else "x" if ch != "x" else "y")
                + text[i + 1 :]
            )
            break
    else:
        swapped = '"tampered"'
    try:
        row[field] = json.loads(swapped)
    except ValueError:
        row[field] = "tampered"
    report = audit(header, rows)
    assert not report.ok
    assert report.first_failure["index"] == k, report.first_failure


def test_a_changed_byte_reports_what_was_expected(game):
    header, rows, where = game
    k = where["order"]
    rows[k]["payload"]["rolls"][0]["value"] = rows[k]["payload"]["rolls"][0]["value"] % 6 + 1
    report = audit(header, rows)
    f = report.first_failure
    assert f["index"] == k and "hash mismatch" in f["problem"]
    assert f["expected"] == rows[k]["hash"]
    assert f["found"] == row_hash(rows[k]["prev_hash"], rows[k])
    assert verify_chain(rows)[0] == k
    text = format_report(report)
    assert f"FAILED at row {k}" in text and "expected" in text


# ---------------------------------------------------------------- deleted, inserted, swapped


def test_deleting_any_row_fails_and_names_it(game):
    header, rows, _ = game
    for k in range(len(rows)):
        cut = copy.deepcopy(rows)
        del cut[k]
        report = audit(header, cut)
        assert not report.ok
        assert report.first_failure["index"] == k, (k, report.first_failure)


def test_deleting_the_last_row_and_fixing_the_header_count_still_fails(game):
    header, rows, _ = game
    cut = rows[:-1]
    assert failing_index({**header, "rows": len(cut)}, cut) == len(cut) - 1  # head hash differs


def test_an_inserted_linked_row_fails_and_is_named(game):
    header, rows, where = game
    for k in (1, where["order"], where["reveal"], len(rows) - 1):
        forged = copy.deepcopy(rows)
        extra = {
            "index": k,
            "kind": "order",
            "actor": "soviet",
            "user": "ivan",
            "text": "attack C1",
            "created_at": rows[k]["created_at"],
            "key": None,
            "payload": {"rolls": [], "events": []},
        }
        extra["prev_hash"] = rows[k - 1]["hash"]
        extra["hash"] = row_hash(extra["prev_hash"], extra)
        forged.insert(k, extra)
        assert failing_index(header, forged) == k, k


def test_an_inserted_copy_or_blank_line_is_named(tmp_path, game):
    header, rows, where = game
    k = where["reveal"]
    dup = copy.deepcopy(rows)
    dup.insert(k, copy.deepcopy(rows[3]))
    assert failing_index(header, dup) == k
    twice = copy.deepcopy(rows)
    twice.insert(k + 1, copy.deepcopy(rows[k]))
    assert failing_index(header, twice) == k + 1
    spans = line_spans(export_bytes(tmp_path, header, rows))
    data = export_bytes(tmp_path, header, rows)
    start = spans[k + 1][0]
    assert failing_index(*parse_export(data[:start] + b"\n" + data[start:])) == k
    appended = copy.deepcopy(rows) + [copy.deepcopy(rows[-1])]
    appended[-1]["index"] = len(rows)
    relink(header, appended, len(rows))
    assert failing_index({**header, "rows": len(rows)}, appended) == len(rows)


def test_swapping_any_two_rows_fails_and_names_the_first(game):
    header, rows, _ = game
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            swapped = copy.deepcopy(rows)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            assert failing_index(header, swapped) == i, (i, j)


def test_an_added_unchained_field_is_named(tmp_path, game):
    header, rows, where = game
    k = where["order"]
    rows[k]["zz_note"] = "the operator was here"  # canonical line, but no part of a log row
    data = b"\n".join([canonical(header)] + [canonical(r) for r in rows]) + b"\n"
    f = audit(*parse_export(data)).first_failure
    assert f["index"] == k and "zz_note" in f["problem"]


def test_an_order_payload_that_is_no_object_is_named(game):
    header, rows, where = game
    k = where["order2"]
    rows[k]["payload"] = ["rolls"]
    relink(header, rows)
    assert failing_index(header, rows) == k


def test_swapped_rows_with_their_indexes_renumbered_still_fail(game):
    header, rows, where = game
    i = where["order"]
    swapped = copy.deepcopy(rows)
    swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
    swapped[i]["index"], swapped[i + 1]["index"] = i, i + 1
    assert failing_index(header, swapped) == i


# ---------------------------------------------------------------- forgers who re-chain


def test_a_forged_roll_value_rechained_fails_by_recomputation(game):
    header, rows, where = game
    k = where["order2"]
    roll = rows[k]["payload"]["rolls"][1]
    true_value = roll["value"]
    roll["value"] = true_value % 6 + 1
    relink(header, rows)
    assert verify_chain(rows) is None  # the chain alone no longer shows it
    report = audit(header, rows)
    f = report.first_failure
    assert f["index"] == k and "does not recompute" in f["problem"]
    assert f["expected"] == true_value and f["found"] == true_value % 6 + 1


def test_a_wrong_revealed_seed_is_named(game):
    header, rows, where = game
    k = where["reveal"]
    rows[k]["payload"]["seed"] = SEEDS[2]
    relink(header, rows)
    report = audit(header, rows)
    f = report.first_failure
    assert f["index"] == k and "commitment" in f["problem"]
    assert f["expected"] == commitment(SEEDS[1]) and f["found"] == commitment(SEEDS[2])
    # the epoch's rolls are not blamed for its bad seed
    assert all(x["index"] >= k for x in report.failures)


def test_a_salt_after_the_first_roll_is_named(game):
    header, rows, where = game
    k = where["order"]
    late = {
        "index": k,
        "kind": "salt",
        "actor": "german",
        "user": "hans",
        "text": None,
        "payload": {"epoch": 1, "salt": "late"},
        "key": None,
        "created_at": rows[k]["created_at"],
    }
    rows.insert(k + 1, late)
    for i, r in enumerate(rows):
        r["index"] = i
    for r in rows:
        if r["kind"] == "undo":
            r["payload"]["targets"] = [t + 1 for t in r["payload"]["targets"]]
    relink(header, rows)
    f = audit(header, rows).first_failure
    assert f["index"] == k + 1 and "salt after" in f["problem"]


def test_a_changed_salt_rechained_fails_the_rolls(game):
    header, rows, where = game
    rows[where["salt"]]["payload"]["salt"] = "soviet: 31338"
    relink(header, rows)
    f = audit(header, rows).first_failure
    assert f["index"] == where["order"] and "does not recompute" in f["problem"]


def test_a_skipped_draw_is_named(game):
    header, rows, where = game
    k = where["order2"]
    rows[k]["payload"]["rolls"][2]["n"] = 4
    relink(header, rows)
    f = audit(header, rows).first_failure
    assert f["index"] == k and "out of sequence" in f["problem"]


def test_a_roll_in_an_epoch_after_its_reveal_is_named(game):
    header, rows, where = game
    k = where["order2"]
    for r in rows[k]["payload"]["rolls"]:
        r["epoch"] = 1
        r["n"] += 4
    relink(header, rows)
    f = audit(header, rows).first_failure
    assert f["index"] == k and "after its seed was revealed" in f["problem"]


# ---------------------------------------------------------------- hidden information


def test_a_disclosed_value_naming_no_commitment_is_named_so_beside_public_rolls(game):
    """A row's public rolls carry no commitment: a secret entry without one is an entry that
    names no commitment of the row, not one that fails to match a commitment None."""
    header, rows, where = game
    k = where["order"]
    assert all("commitment" not in r for r in rows[k]["payload"]["rolls"])  # public draws only
    rows[k]["secret"] = [{"value": 3, "salt": "00" * 32}]  # off-chain: no re-chaining needed
    f = audit(header, rows).first_failure
    assert f["index"] == k and "names no commitment of this row" in f["problem"]
    assert f["found"] is None


def test_a_bad_hidden_value_is_named(game):
    header, rows, where = game
    k = where["hidden"]
    rows[k]["secret"][1]["value"] = {"hand": ["ace", "queen"]}  # off-chain: no re-chaining needed
    f = audit(header, rows).first_failure
    assert f["index"] == k and "does not match its commitment" in f["problem"]


def test_a_forged_hidden_draw_with_a_matching_commitment_fails_recomputation(game):
    header, rows, where = game
    k = where["hidden"]
    record, entry = rows[k]["payload"]["rolls"][0], rows[k]["secret"][0]
    true_value = entry["value"]
    entry["value"] = true_value % 6 + 1
    record["commitment"], entry["salt"] = hidden_commit(entry["value"])
    entry["commitment"] = record["commitment"]
    relink(header, rows)
    f = audit(header, rows).first_failure
    assert f["index"] == k and "hidden draw does not recompute" in f["problem"]
    assert f["expected"] == true_value


def test_hidden_values_must_be_disclosed_when_the_game_ends(game):
    header, rows, where = game
    k = where["hidden"]
    del rows[k]["secret"]
    f = audit(header, rows).first_failure
    assert f["index"] == k and "not disclosed" in f["problem"]


def test_a_wrong_hidden_seed_is_named(game):
    header, rows, where = game
    k = where["reveal_hidden"]
    rows[k]["payload"]["hidden_seed"] = SEEDS[3]
    relink(header, rows)
    f = audit(header, rows).first_failure
    assert f["index"] == k and f["expected"] == commitment(HIDDEN_SEED)


def test_neither_the_reveals_nor_the_head_give_a_hidden_value_away(game):
    _header, rows, where = game
    public = canonical([{f: r[f] for f in CHAINED_FIELDS} for r in rows[:-1]]).decode()
    assert "king" not in public and HIDDEN_SEED not in public
    entry = rows[where["hidden"]]["secret"][0]
    assert entry["salt"] not in public


# ---------------------------------------------------------------- the header


@pytest.mark.parametrize(
    "change",
    [
        {"head_hash": "f" * 64},
        {"rows": 3},
        {"game_uid": "0" * 32},
        {"scenario_text": SCENARIO + "# edited\n"},
        {"name": "other"},
        {"sandbox": False},
        {"format": "pbem-audit/0"},
    ],
)
def test_a_changed_header_fails(game, change):
    header, rows, _ = game
    assert not audit({**header, **change}, rows).ok


def test_an_unreadable_header_or_empty_file_fails():
    assert audit(*parse_export(b"")).first_failure["index"] is None
    _header, rows, _ = build()
    lines = [b"{not json"] + [canonical(r) for r in rows]
    report = audit(*parse_export(b"\n".join(lines) + b"\n"))
    assert not report.ok and report.first_failure["index"] is None
    assert "in the header" in format_report(report)


def test_a_game_uid_changed_in_both_header_and_setup_fails_at_the_first_roll(game):
    header, rows, where = game
    header["game_uid"] = rows[0]["payload"]["game_uid"] = "0" * 32
    relink(header, rows)
    assert failing_index(header, rows) == where["order"]


# ---------------------------------------------------------------- statistics and the text report


def test_chi_square_p_matches_tables():
    for chi2, p in [
        (11.0705, 0.05),
        (15.0863, 0.01),
        (9.2364, 0.10),
        (1.1455, 0.95),
        (20.515, 0.001),
    ]:
        assert chi2_sf(chi2, 5) == pytest.approx(p, rel=2e-4)
    for chi2, df, p in [
        (3.8415, 1, 0.05),
        (9.2103, 2, 0.01),
        (7.8147, 3, 0.05),
        (57.3421, 35, 0.01),
        (49.8018, 35, 0.05),
    ]:
        assert chi2_sf(chi2, df) == pytest.approx(p, rel=2e-4)
    assert chi_square_p([10] * 6) == (0.0, 1.0)
    assert chi_square_p([0] * 6) == (0.0, 1.0)
    chi2, p = chi_square_p([60, 0, 0, 0, 0, 0])
    assert chi2 == pytest.approx(300.0) and p < 1e-50
    x = 7.3
    design_q = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (
        1 + x / 3
    )
    assert chi2_sf(x, 5) == pytest.approx(design_q, rel=1e-12)


def test_statistics_per_side_and_purpose_kind(game):
    header, rows, _where = game
    report = audit(header, rows)
    expected: dict[str, list[int]] = {}
    kinds: dict[str, list[int]] = {}
    for r in rows:
        for roll in r["payload"].get("rolls") or []:
            if roll["fixed"] or roll["hidden"]:
                continue
            expected.setdefault(r["actor"], []).append(roll["value"])
            kinds.setdefault(roll["purpose"].split()[0], []).append(roll["value"])
    assert set(report.stats["by_side"]) == {"soviet", "german"}
    assert set(report.stats["by_kind"]) == {"combat", "weather", "breakout"}
    for side, values in expected.items():
        s = report.stats["by_side"][side]
        assert s["counts"] == [values.count(f) for f in range(1, 7)]
        assert s["n"] == len(values) and s["mean"] == pytest.approx(sum(values) / len(values))
        assert (s["chi2"], s["p"]) == chi_square_p(s["counts"])
    for kind, values in kinds.items():
        assert report.stats["by_kind"][kind]["n"] == len(values)
    assert report.stats["all"]["n"] == 8  # 3 + 3 revealed, 2 pending; the fixed 6 is not counted
    assert report.stats["by_kind"]["weather"]["n"] == 2


def test_face_stats_counts():
    s = face_stats([1, 1, 2, 6, 6, 6])
    assert s["counts"] == [2, 1, 0, 0, 0, 3] and s["n"] == 6 and s["mean"] == pytest.approx(11 / 3)
    assert face_stats([])["mean"] is None


def test_a_long_fair_game_has_a_plausible_p_value():
    log = Log()
    log.add(
        "setup",
        {
            "scenario_sha256": hashlib.sha256(SCENARIO.encode()).hexdigest(),
            "sandbox": False,
            "events": [],
        },
    )
    for k in range(1, 31):
        seed = hashlib.sha256(f"long {k}".encode()).hexdigest()
        log.add(
            "epoch",
            {"epoch": k, "turn": k, "commitment": commitment(seed), "hidden_commitment": None},
        )
        d = CommittedDice(seed, UID, k, 1, salt_digest([]))
        for side in ("soviet", "german"):
            log.order(side, f"attack {k}", d, [f"combat C{i}" for i in range(10)])
        log.add("reveal", {"epoch": k, "seed": seed})
    rows = link(log.rows)
    header = {
        "format": FORMAT,
        "game_uid": UID,
        "name": "long",
        "scenario_text": SCENARIO,
        "sandbox": False,
        "head_hash": rows[-1]["hash"],
        "rows": len(rows),
    }
    report = audit(header, rows)
    assert report.ok and report.rolls_checked == 600
    s = report.stats["all"]
    assert s["n"] == 600 and sum(s["counts"]) == 600
    values = [r["value"] for row in rows for r in (row["payload"].get("rolls") or [])]
    assert s["counts"] == [values.count(f) for f in range(1, 7)]
    assert s["p"] == chi_square_p(s["counts"])[1] and 0.0 < s["p"] <= 1.0
    assert "(with fewer than" not in format_report(report)


def test_the_text_report_lists_fixed_rolls_as_fixed(game):
    header, rows, where = game
    text = format_report(audit(header, rows))
    assert text.splitlines()[1].startswith("OK")
    assert "Fixed by a moderator" in text and "not in the statistics" in text
    fixed_line = next(line for line in text.splitlines() if f"row {where['fixed']:>4}" in line)
    assert "weather = 6" in fixed_line and "(fixed)" in fixed_line
    assert "Epochs not revealed yet: 3" in text and "2 rolls pending" in text
    assert "side soviet" in text and "purpose combat" in text
    for seed in SEEDS.values():
        assert seed not in text
    assert HIDDEN_SEED not in text and "king" not in text


def test_fixed_rolls_are_never_recomputed(game):
    header, rows, where = game
    k = where["fixed"]
    rows[k]["payload"]["rolls"][0]["value"] = 1  # a different fixed value, re-chained
    relink(header, rows)
    report = audit(header, rows)
    assert report.ok and report.fixed[0] == {
        "index": k,
        "actor": "german",
        "purpose": "weather",
        "value": 1,
    }


# ---------------------------------------------------------------- helpers and purity


def test_effective_orders_apply_undo_and_rewind(game):
    _header, rows, where = game
    effective = [r["index"] for r in effective_orders(rows)]
    undone = rows[where["undo"]]["payload"]["targets"][0]
    assert undone not in effective and where["order2"] in effective
    rows.append(
        {
            "index": len(rows),
            "kind": "rewind",
            "payload": {"to": where["reveal"], "why": "misclick"},
        }
    )
    assert [r["index"] for r in effective_orders(rows)] == [
        where["order"],
        where["fixed"],
        where["hidden"],
    ]


def test_verify_chain_names_the_row():
    rows = link(
        [
            {
                "index": i,
                "kind": "order",
                "actor": "soviet",
                "user": None,
                "text": str(i),
                "payload": {},
                "key": None,
                "created_at": "2025-01-01T00:00:00+00:00",
            }
            for i in range(5)
        ]
    )
    assert rows[0]["prev_hash"] == GENESIS
    assert verify_chain(rows) is None
    rows[2]["text"] = "x"
    index, message = verify_chain(rows)
    assert index == 2 and "expected" in message
    assert (
        row_hash(GENESIS, rows[0])
        == hashlib.sha256(
            GENESIS.encode() + canonical({f: rows[0][f] for f in CHAINED_FIELDS})
        ).hexdigest()
    )


def test_roll_values_in_the_log_are_plain_recomputations(game):
    _header, rows, where = game
    roll = rows[where["order2"]]["payload"]["rolls"][0]
    assert roll["value"] == roll_value(SEEDS[2], UID, 2, 1, roll["purpose"], salt_digest([]))


AUDIT_MODULES = [
    "chain.py",
    "dice.py",
    *(f"audit/{p.name}" for p in (ROOT / "storage" / "audit").glob("*.py")),
]


TEXTS = ("texts.i18n", "texts.text")  # texts said in any language


@pytest.mark.parametrize("module", AUDIT_MODULES)
def test_the_audit_modules_need_no_database(module):
    tree = ast.parse((ROOT / "storage" / module).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.module in TEXTS:  # the texts' leaf modules: pure, they import nothing else
                continue
            imported.add(node.module.split(".")[0])
            if node.module.split(".")[0] == "storage":
                # only the pure siblings, never storage.store / storage.models
                pure = node.module in ("storage.chain", "storage.dice")
                assert pure or node.module.startswith("storage.audit"), node.module
    allowed = {
        "__future__",
        "base64",
        "collections",  # collections.abc: the types of the parameters
        "hashlib",
        "html",
        "hmac",
        "json",
        "math",
        "re",
        "secrets",
        "dataclasses",
        "pathlib",
        "typing",
        "storage",
    }
    assert imported <= allowed, imported - allowed


def test_the_text_report_gives_the_head_whole_and_no_none_lines(game):
    header, rows, _ = game
    text = format_report(audit(header, rows))
    assert (
        rows[-1]["hash"] in text.splitlines()[0]
    )  # whole: a kept 20-character prefix is read here
    assert not any(line.rstrip(".").endswith((" none", ": none")) for line in text.splitlines())

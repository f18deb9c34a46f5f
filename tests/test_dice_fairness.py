"""Committed dice (storage/dice.py): fair, unbiased, deterministic, and secret until revealed."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from adjudicator.core.dice import RecordingDice
from storage import dice
from storage.audit import chi2_sf, chi_square_p
from storage.chain import canonical
from storage.dice import (
    CommittedDice,
    HiddenSeedMissing,
    check_hidden,
    commitment,
    face_from_digest,
    hidden_commit,
    new_seed,
    roll_entry,
    roll_message,
    roll_value,
    salt_digest,
)

UID = "0123456789abcdef0123456789abcdef"
NO_SALT = salt_digest([])


def fixed_seed(i: int) -> str:
    """Reproducible test seeds (real seeds come from new_seed)."""
    return hashlib.sha256(f"test seed {i}".encode()).hexdigest()


# ---------------------------------------------------------------- (a) fairness over 600,000 rolls

PURPOSES = ("combat C6", "weather", "breakout 20tk", "combat C11", "draw card")


def test_600000_rolls_pass_chi_square_at_one_percent():
    counts = [0] * 6
    pairs = [0] * 36  # consecutive draws of one stream: independence
    total = 0
    for s in range(40):
        seed = fixed_seed(s)
        salt_dig = salt_digest([f"salt {s}"]) if s % 2 else NO_SALT
        for epoch in range(1, 6):
            prev = None
            for n in range(1, 3001):
                face = roll_value(seed, UID, epoch, n, PURPOSES[n % 5], salt_dig)
                counts[face - 1] += 1
                if prev is not None:
                    pairs[(prev - 1) * 6 + face - 1] += 1
                prev = face
                total += 1
    assert total == 600_000
    chi2, p = chi_square_p(counts)
    assert p > 0.01, (counts, chi2, p)
    mean = sum((i + 1) * c for i, c in enumerate(counts)) / total
    assert abs(mean - 3.5) < 0.01  # 4.5 standard errors
    n_pairs = sum(pairs)
    expected = n_pairs / 36
    chi2_pairs = sum((c - expected) ** 2 for c in pairs) / expected
    assert chi2_sf(chi2_pairs, 35) > 0.01, (pairs, chi2_pairs)
    # (how fast rolls are is measured by bench/bench_fairness.py, not asserted here)


# ---------------------------------------------------------------- (b) rejection sampling


def test_face_mapping_rejects_bytes_252_and_above():
    assert face_from_digest(bytes([0])) == 1
    assert face_from_digest(bytes([5])) == 6
    assert face_from_digest(bytes([6])) == 1
    assert face_from_digest(bytes([251])) == 6  # 251 = 6 * 41 + 5: the last accepted byte
    assert face_from_digest(bytes([252, 0])) == 1
    assert face_from_digest(bytes([255, 254, 253, 252, 11])) == 6
    assert face_from_digest(bytes([252, 253, 254, 255] * 8)) is None
    # every face keeps exactly 42 of the 256 byte values: no modulo bias
    faces = [face_from_digest(bytes([b])) for b in range(256)]
    assert [faces.count(f) for f in range(1, 7)] == [42] * 6
    assert faces.count(None) == 4


def test_a_rejected_first_byte_is_skipped_in_a_real_roll():
    seed = fixed_seed(7)
    key = bytes.fromhex(seed)
    found = 0
    for n in range(1, 5000):
        msg = roll_message(UID, 1, n, "combat C6", NO_SALT)
        digest = hmac.new(key, msg, hashlib.sha256).digest()
        if digest[0] < 252:
            continue
        first_ok = next(b for b in digest if b < 252)
        assert roll_value(seed, UID, 1, n, "combat C6", NO_SALT) == first_ok % 6 + 1
        found += 1
    assert found >= 20  # about 1 in 64 draws starts with a rejected byte


def test_all_bytes_rejected_continues_with_a_numbered_message(monkeypatch):
    calls = []
    real = dice._digest

    def fake(key, msg):
        calls.append(msg)
        if len(calls) < 3:
            return bytes([255]) * 32
        return real(key, msg)

    monkeypatch.setattr(dice, "_digest", fake)
    seed = fixed_seed(1)
    face = roll_value(seed, UID, 2, 9, "weather", NO_SALT)
    base = roll_message(UID, 2, 9, "weather", NO_SALT)
    assert calls == [base, base + b"|1", base + b"|2"]
    assert face == face_from_digest(real(bytes.fromhex(seed), base + b"|2"))


def test_roll_message_format():
    dig = salt_digest(["a"])
    assert roll_message(UID, 3, 17, "combat C6", dig) == f"{UID}|3|17|combat C6|{dig}".encode()
    expected = hmac.new(
        bytes.fromhex(fixed_seed(0)), f"{UID}|3|17|combat C6|{dig}".encode(), hashlib.sha256
    ).digest()
    assert roll_value(fixed_seed(0), UID, 3, 17, "combat C6", dig) == face_from_digest(expected)


# ---------------------------------------------------------------- (c) determinism, independence


def stream(seed=None, uid=UID, epoch=1, purpose="combat C6", salt=NO_SALT, start=1, k=64):
    seed = seed or fixed_seed(3)
    return [roll_value(seed, uid, epoch, n, purpose, salt) for n in range(start, start + k)]


def test_same_inputs_same_face():
    assert stream() == stream()
    assert all(1 <= f <= 6 for f in stream())


@pytest.mark.parametrize(
    "change",
    [
        {"purpose": "combat C7"},
        {"purpose": "weather"},
        {"epoch": 2},
        {"salt": salt_digest(["soviet: 42"])},
        {"salt": salt_digest(["a", "b"])},
        {"seed": fixed_seed(4)},
        {"uid": "fedcba9876543210fedcba9876543210"},
        {"start": 65},
    ],
)
def test_any_input_changes_the_stream(change):
    assert stream(**change) != stream()  # equal by chance with probability 6**-64


def test_salt_order_and_grouping_matter():
    assert salt_digest(["a", "b"]) != salt_digest(["b", "a"])
    assert salt_digest(["ab"]) != salt_digest(["a", "b"])
    assert salt_digest(["a|b"]) != salt_digest(["a", "b"])
    assert salt_digest([]) == hashlib.sha256(b"[]").hexdigest()
    assert salt_digest(["x"]) == hashlib.sha256(canonical(["x"])).hexdigest()


@pytest.mark.parametrize(
    "args",
    [
        (0, 1, "combat", NO_SALT),
        (1, 0, "combat", NO_SALT),
        (True, 1, "combat", NO_SALT),
        (1, 1, "combat", "abc"),
    ],
)
def test_bad_roll_inputs_are_refused(args):
    with pytest.raises(ValueError):
        roll_value(fixed_seed(0), UID, *args)


def test_a_game_uid_with_the_separator_is_refused():
    with pytest.raises(ValueError):
        roll_value(fixed_seed(0), "a|b", 1, 1, "combat", NO_SALT)


# ---------------------------------------------------------------- (d) CommittedDice


def test_committed_dice_counts_n_across_rolls():
    seed, salt = fixed_seed(5), salt_digest(["hi"])
    d = CommittedDice(seed, UID, 4, 7, salt)
    values = [d.roll("combat C6"), d.roll("weather"), d.roll("combat C6")]
    assert d.next_n == 10
    assert [x["n"] for x in d.drawn] == [7, 8, 9]
    assert values == [
        roll_value(seed, UID, 4, 7, "combat C6", salt),
        roll_value(seed, UID, 4, 8, "weather", salt),
        roll_value(seed, UID, 4, 9, "combat C6", salt),
    ]
    assert d.drawn[1] == {
        "epoch": 4,
        "n": 8,
        "purpose": "weather",
        "value": values[1],
        "hidden": False,
        "faces": 6,
    }


def test_hidden_draws_use_the_hidden_seed_and_share_the_counter():
    seed, hidden = fixed_seed(5), fixed_seed(6)
    d = CommittedDice(seed, UID, 1, 1, NO_SALT, hidden_seed_hex=hidden)
    d.roll("combat C6")
    h = d.die(6, "draw card", hidden=True)
    d.roll("weather")
    assert [x["n"] for x in d.drawn] == [1, 2, 3]
    assert [x["hidden"] for x in d.drawn] == [False, True, False]
    assert h == roll_value(hidden, UID, 1, 2, "draw card", NO_SALT)
    # the hidden seed, not the public one, decides hidden draws
    publics = [roll_value(seed, UID, 1, n, "x", NO_SALT) for n in range(1, 65)]
    d2 = CommittedDice(seed, UID, 1, 1, NO_SALT, hidden_seed_hex=hidden)
    assert [d2.die(6, "x", hidden=True) for _ in range(64)] != publics
    assert [d2.roll("x") for _ in range(64)] == [
        roll_value(seed, UID, 1, n, "x", NO_SALT) for n in range(65, 129)
    ]


def test_a_hidden_roll_without_a_hidden_seed_is_refused():
    d = CommittedDice(fixed_seed(5), UID, 1, 1, NO_SALT)
    with pytest.raises(HiddenSeedMissing):
        d.die(6, "shuffle", hidden=True)
    with pytest.raises(HiddenSeedMissing):
        d.shuffle(["a", "b", "c"], "deck", hidden=True)
    assert d.next_n == 1 and d.drawn == []


def test_committed_dice_is_a_dice_source_behind_fixed_results():
    d = CommittedDice(fixed_seed(8), UID, 2, 1, NO_SALT)
    rec = RecordingDice(d, fixed=[6])
    first, second = rec.roll("weather"), rec.roll("combat C6")
    assert first == 6 and rec.rolls[0].fixed
    assert not rec.rolls[1].fixed
    assert second == roll_value(fixed_seed(8), UID, 2, 1, "combat C6", NO_SALT)
    assert d.next_n == 2  # a fixed roll takes no n


def test_committed_dice_never_shows_its_seeds():
    seed, hidden = fixed_seed(9), fixed_seed(10)
    d = CommittedDice(seed, UID, 1, 1, NO_SALT, hidden_seed_hex=hidden)
    d.roll("combat")
    assert seed not in repr(d) and hidden not in repr(d)
    assert seed not in str(d.drawn)


def test_roll_entry_hides_a_hidden_value_behind_a_commitment():
    d = CommittedDice(fixed_seed(5), UID, 1, 1, NO_SALT, hidden_seed_hex=fixed_seed(6))
    d.roll("weather")
    d.die(6, "draw", hidden=True)
    public, none = roll_entry(d.drawn[0])
    assert none is None
    assert public == {
        "purpose": "weather",
        "value": d.drawn[0]["value"],
        "fixed": False,
        "epoch": 1,
        "n": 1,
        "hidden": False,
    }
    record, secret = roll_entry(d.drawn[1])
    assert record["value"] is None and record["hidden"] and record["n"] == 2
    assert secret["value"] == d.drawn[1]["value"]
    assert check_hidden(record["commitment"], secret["value"], secret["salt"])
    assert secret["salt"] not in canonical(record).decode()


# ---------------------------------------------------------------- (e) hidden commitments


def test_hidden_commit_round_trip_and_mismatch():
    value = {"card": "Queen of spades", "block": 3}
    c, salt = hidden_commit(value)
    assert len(salt) == 64 and len(c) == 64
    assert check_hidden(c, value, salt)
    assert check_hidden(c, {"block": 3, "card": "Queen of spades"}, salt)  # canonical JSON
    assert not check_hidden(c, {"card": "Queen of hearts", "block": 3}, salt)
    assert not check_hidden(c, value, "00" * 32)
    assert not check_hidden("0" * 64, value, salt)
    assert not check_hidden(c, value, None)
    assert hidden_commit(value, salt) == (c, salt)
    assert c == hashlib.sha256(salt.encode() + canonical(value)).hexdigest()


def test_hidden_commit_salts_differ_so_equal_values_do_not_show():
    c1, s1 = hidden_commit(4)
    c2, s2 = hidden_commit(4)
    assert s1 != s2 and c1 != c2
    # a small value space cannot be searched without the salt
    assert all(hidden_commit(v, "")[0] != c1 for v in range(1, 7))


# ---------------------------------------------------------------- (f) seeds and commitments


def test_seeds_are_fresh_and_commitments_hide_them():
    seeds = {new_seed() for _ in range(50)}
    assert len(seeds) == 50
    for s in seeds:
        assert len(s) == 64 and int(s, 16) >= 0
    commits = {commitment(s) for s in seeds}
    assert len(commits) == 50
    for s in seeds:
        c = commitment(s)
        assert c == hashlib.sha256(bytes.fromhex(s)).hexdigest()
        assert s not in c and s[:16] not in c
        assert c not in s


def test_the_commitment_is_not_a_roll_key():
    """Rolls come from the secret seed, never from the published commitment."""
    seed = fixed_seed(11)
    published = commitment(seed)
    by_seed = stream(seed=seed)
    by_commitment = stream(seed=published)
    assert by_seed != by_commitment

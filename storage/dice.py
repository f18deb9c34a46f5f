"""Committed dice: rolls fixed by a secret seed whose SHA-256 commitment is published first.

Pure standard library (no database, no global random): the offline audit recomputes every roll with
these functions.

- A dice epoch (a run of orders within one game turn, numbered 1, 2, ... per game) has a seed,
  `new_seed()`: 32 bytes from `secrets`, as hex. `commitment(seed)` = SHA-256 of the seed BYTES,
  hex; it is logged before the epoch's first roll; the seed is logged when the epoch ends.
- Players' salts: `salt_digest(salts)` = SHA-256(canonical JSON list of the epoch's salt texts in
  log order), hex; with no salt it is SHA-256(b"[]"). The salts close at the epoch's first draw.
- Roll n of an epoch: HMAC-SHA256(key=seed bytes, msg=f"{game_uid}|{epoch}|{n}|{purpose}|{salt_dig}")
  mapped by rejection sampling: the digest bytes in order, the first b < 252 gives b % 6 + 1
  (252 = 6 * 42, so each face keeps exactly 42 of the 256 byte values: no modulo bias). If all 32
  bytes are >= 252 (probability 2**-192), continue with the same key and msg + "|1", "|2", ...
- n counts EVERY draw from the source within the epoch, public and hidden alike (one counter,
  starting at 1): `CommittedDice.next_n` is the only counter storage keeps. Moderator-fixed rolls
  are not draws and take no n.
- Hidden draws (purpose starting "hidden:") use the game's second seed (the hidden seed, committed
  in epoch 1's row, revealed at game end) with the very same message format (same epoch, their own
  n from the shared counter). Their value must not enter a chained payload: `roll_entry` gives the
  payload record (value None + a salted commitment) and the `secret` entry kept off-chain.
- Hidden values: `hidden_commit(value)` = (SHA-256(salt_hex.encode() + canonical(value)), salt_hex)
  with a fresh 32-byte salt, so neither the head hash nor a revealed seed gives a value away.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

from storage.chain import canonical

HIDDEN_PREFIX = "hidden:"
ACCEPT_BELOW = 252  # 6 * 42: the largest multiple of 6 not above 256
HEX64 = frozenset("0123456789abcdef")
_HEX64_RE = re.compile(r"[0-9a-f]{64}")


class HiddenSeedMissing(RuntimeError):
    """A "hidden:" roll was asked of a source that holds no hidden seed."""


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the OS CSPRNG, as 64 hex digits."""
    return secrets.token_bytes(32).hex()


def _check_hex64(name: str, value) -> None:
    if not (isinstance(value, str) and _HEX64_RE.fullmatch(value)):
        raise ValueError(f"{name} must be 64 lowercase hex digits, got {value!r}")


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed's bytes, hex: published before the seed's first roll."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def salt_digest(salts: list[str]) -> str:
    """The digest of an epoch's players' salts in log order (an empty list is allowed)."""
    return hashlib.sha256(canonical(list(salts))).hexdigest()


EMPTY_SALT_DIGEST = salt_digest([])


def roll_message(game_uid: str, epoch: int, n: int, purpose: str, salt_dig: str) -> bytes:
    """The HMAC message of one draw: f"{game_uid}|{epoch}|{n}|{purpose}|{salt_dig}" in UTF-8."""
    return f"{game_uid}|{epoch}|{n}|{purpose}|{salt_dig}".encode()


def face_from_digest(digest: bytes) -> int | None:
    """The die face of a digest by rejection sampling, or None when every byte is >= 252."""
    for b in digest:
        if b < ACCEPT_BELOW:
            return b % 6 + 1
    return None


def _digest(key: bytes, msg: bytes) -> bytes:
    return hmac.digest(key, msg, "sha256")


def _positive_int(name: str, value) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


def roll_value(
    seed_hex: str, game_uid: str, epoch: int, n: int, purpose: str, salt_dig: str
) -> int:
    """Draw n of an epoch: one d6 face, 1..6, from the seed, the game and the salts."""
    _positive_int("epoch", epoch)
    _positive_int("n", n)
    if not isinstance(game_uid, str) or not game_uid or "|" in game_uid:
        raise ValueError(f"game_uid must be a non-empty string without '|', got {game_uid!r}")
    if not isinstance(purpose, str):
        raise TypeError(f"purpose must be a string, got {purpose!r}")
    _check_hex64("salt digest", salt_dig)
    key = bytes.fromhex(seed_hex)
    msg = roll_message(game_uid, epoch, n, purpose, salt_dig)
    face = face_from_digest(_digest(key, msg))
    extension = 0
    while face is None:  # every byte rejected: probability 2**-192 per draw
        extension += 1
        face = face_from_digest(_digest(key, msg + b"|%d" % extension))
    return face


class CommittedDice:
    """A DiceSource (adjudicator.core.dice) drawing from an epoch's committed seed.

    One counter for the epoch: `next_n` is the n the next draw takes (public or hidden); after the
    order, storage keeps `next_n` for the epoch's next order. `drawn` lists every draw in order as
    {"epoch", "n", "purpose", "value", "hidden"}.
    """

    def __init__(
        self,
        seed_hex: str,
        game_uid: str,
        epoch: int,
        next_n: int,
        salt_dig: str,
        hidden_seed_hex: str | None = None,
    ):
        _check_hex64("seed", seed_hex)
        if hidden_seed_hex is not None:
            _check_hex64("hidden seed", hidden_seed_hex)
        _positive_int("epoch", epoch)
        _positive_int("next_n", next_n)
        _check_hex64("salt digest", salt_dig)
        self.seed_hex = seed_hex
        self.hidden_seed_hex = hidden_seed_hex
        self.game_uid = game_uid
        self.epoch = epoch
        self.next_n = next_n
        self.salt_dig = salt_dig
        self.drawn: list[dict] = []

    def roll(self, purpose: str) -> int:
        hidden = purpose.startswith(HIDDEN_PREFIX)
        if hidden:
            if self.hidden_seed_hex is None:
                raise HiddenSeedMissing(f"no hidden seed for {purpose!r}")
            seed = self.hidden_seed_hex
        else:
            seed = self.seed_hex
        n = self.next_n
        value = roll_value(seed, self.game_uid, self.epoch, n, purpose, self.salt_dig)
        self.next_n = n + 1
        self.drawn.append(
            {"epoch": self.epoch, "n": n, "purpose": purpose, "value": value, "hidden": hidden}
        )
        return value

    def __repr__(self) -> str:  # never shows a seed
        return f"CommittedDice(epoch={self.epoch}, next_n={self.next_n}, drawn={len(self.drawn)})"


def hidden_commit(value, salt_hex: str | None = None) -> tuple[str, str]:
    """(commitment, salt_hex) of a hidden value: SHA-256(salt_hex.encode() + canonical(value))."""
    if salt_hex is None:
        salt_hex = secrets.token_bytes(32).hex()
    return hashlib.sha256(salt_hex.encode() + canonical(value)).hexdigest(), salt_hex


def check_hidden(commitment, value, salt_hex) -> bool:
    """Whether a revealed (value, salt) matches its commitment."""
    if not isinstance(commitment, str) or not isinstance(salt_hex, str):
        return False
    try:
        expected, _ = hidden_commit(value, salt_hex)
    except (TypeError, ValueError):
        return False
    return hmac.compare_digest(expected, commitment)


def roll_entry(draw: dict, fixed: bool = False) -> tuple[dict, dict | None]:
    """The chained payload record of one draw, and the off-chain secret entry of a hidden one.

    Public draw: ({"purpose","value","fixed","epoch","n","hidden": False}, None).
    Hidden draw: ({... "value": None, "commitment": c, "hidden": True}, {"commitment": c,
    "value": v, "salt": s}); the entry goes into the row's non-chained `secret` list.
    """
    record = {
        "purpose": draw["purpose"],
        "value": draw["value"],
        "fixed": fixed,
        "epoch": draw.get("epoch"),
        "n": draw.get("n"),
        "hidden": bool(draw.get("hidden")),
    }
    if not record["hidden"]:
        return record, None
    c, salt = hidden_commit(draw["value"])
    record["value"] = None
    record["commitment"] = c
    return record, {"commitment": c, "value": draw["value"], "salt": salt}

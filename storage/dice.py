"""Committed dice: draws fixed by a secret seed whose SHA-256 commitment is published first.

Pure standard library (no database, no global random): the offline audit recomputes every draw with
these functions.

- A dice epoch (a run of orders within one game turn, numbered 1, 2, ... per game) has a seed,
  `new_seed()`: 32 bytes from `secrets`, as hex. `commitment(seed)` = SHA-256 of the seed BYTES,
  hex; it is logged before the epoch's first draw; the seed is logged when the epoch ends.
- Players' salts: `salt_digest(salts)` = SHA-256(canonical JSON list of the epoch's salt texts in
  log order), hex; with no salt it is SHA-256(b"[]"). The salts close at the epoch's first draw.
- Draw n of an epoch, a die of `faces` faces: HMAC-SHA256(key=seed bytes, msg), msg =
  f"{game_uid}|{epoch}|{n}|{purpose}|{salt_dig}" for a d6 (every stored game's format), that plus
  f"|d{faces}" for any other die; mapped by rejection sampling without modulo bias: for
  faces <= 256 the first digest byte b < 256 - 256 % faces gives b % faces + 1 (a d6: b < 252 =
  6 * 42, so each face keeps exactly 42 byte values); for more faces the same over 2-byte
  big-endian chunks and 65536. If the whole digest is rejected, continue with the same key and
  msg + "|1", "|2", ...
- n counts EVERY draw from the source within the epoch, public and hidden alike (one counter,
  starting at 1): `CommittedDice.next_n` is the only counter storage keeps. Moderator-fixed rolls
  are not draws and take no n.
- Hidden draws (`hidden=True`, a typed flag) use the game's second seed (the hidden seed, committed
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
from collections.abc import Sequence
from typing import Any, TypeVar

from storage.chain import canonical

ACCEPT_BELOW = 252  # 6 * 42: the largest multiple of 6 not above 256
MAX_FACES = 65536  # 2-byte chunks: the most faces a draw maps onto
HEX64 = frozenset("0123456789abcdef")
_HEX64_RE = re.compile(r"[0-9a-f]{64}")
T = TypeVar("T")


class HiddenSeedMissing(RuntimeError):
    """A hidden draw was asked of a source that holds no hidden seed."""


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the OS CSPRNG, as 64 hex digits."""
    return secrets.token_bytes(32).hex()


def _check_hex64(name: str, value: object) -> None:
    if not (isinstance(value, str) and _HEX64_RE.fullmatch(value)):
        raise ValueError(f"{name} must be 64 lowercase hex digits, got {value!r}")


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed's bytes, hex: published before the seed's first roll."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def salt_digest(salts: list[str]) -> str:
    """The digest of an epoch's players' salts in log order (an empty list is allowed)."""
    return hashlib.sha256(canonical(list(salts))).hexdigest()


EMPTY_SALT_DIGEST = salt_digest([])


def roll_message(
    game_uid: str, epoch: int, n: int, purpose: str, salt_dig: str, faces: int = 6
) -> bytes:
    """The HMAC message of one draw: f"{game_uid}|{epoch}|{n}|{purpose}|{salt_dig}" in UTF-8,
    followed by f"|d{faces}" for any die but a d6."""
    msg = f"{game_uid}|{epoch}|{n}|{purpose}|{salt_dig}".encode()
    return msg if faces == 6 else msg + b"|d%d" % faces


def face_from_digest(digest: bytes, faces: int = 6) -> int | None:
    """The die face of a digest by rejection sampling, or None when every byte (faces <= 256) or
    2-byte big-endian chunk (more faces) is at or above the largest multiple of faces."""
    size = 1 if faces <= 256 else 2
    span = 256**size
    limit = span - span % faces  # 252 for a d6
    for i in range(0, len(digest) - size + 1, size):
        chunk = int.from_bytes(digest[i : i + size], "big")
        if chunk < limit:
            return chunk % faces + 1
    return None


def _digest(key: bytes, msg: bytes) -> bytes:
    return hmac.digest(key, msg, "sha256")


def _positive_int(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


def _check_faces(faces: int) -> None:
    _positive_int("faces", faces)
    if faces > MAX_FACES:
        raise ValueError(f"a die has at most {MAX_FACES} faces, got {faces!r}")


def _check_draw(
    game_uid: object, epoch: int, n: int, purpose: object, salt_dig: object, faces: int
) -> None:
    _positive_int("epoch", epoch)
    _positive_int("n", n)
    _check_faces(faces)
    if not isinstance(game_uid, str) or not game_uid or "|" in game_uid:
        raise ValueError(f"game_uid must be a non-empty string without '|', got {game_uid!r}")
    if not isinstance(purpose, str):
        raise TypeError(f"purpose must be a string, got {purpose!r}")
    _check_hex64("salt digest", salt_dig)


def roll_value(
    seed_hex: str,
    game_uid: str,
    epoch: int,
    n: int,
    purpose: str,
    salt_dig: str,
    faces: int = 6,
) -> int:
    """Draw n of an epoch: one face 1..faces from the seed, the game and the salts."""
    _check_draw(game_uid, epoch, n, purpose, salt_dig, faces)
    key = bytes.fromhex(seed_hex)
    msg = roll_message(game_uid, epoch, n, purpose, salt_dig, faces)
    face = face_from_digest(_digest(key, msg), faces)
    extension = 0
    while face is None:  # the whole digest rejected: probability 2**-192 for a d6
        extension += 1
        face = face_from_digest(_digest(key, msg + b"|%d" % extension), faces)
    return face


class _Draws:
    """The DiceSource methods over `_draw(faces, purpose, hidden)`, as adjudicator.core.dice's
    DiceMethods builds them (storage imports nothing of the engine): roll = a d6, dice = `count`
    draws, shuffle = Fisher-Yates (i from len-1 down to 1, j = die(i+1) - 1), pick =
    items[die(len) - 1]. Every draw takes its own n."""

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        raise NotImplementedError

    def roll(self, purpose: str) -> int:
        return self.die(6, purpose)

    def die(self, faces: int, purpose: str, *, hidden: bool = False) -> int:
        _check_faces(faces)
        return self._draw(faces, purpose, bool(hidden))

    def dice(
        self, count: int, faces: int, purpose: str, *, hidden: bool = False
    ) -> tuple[int, ...]:
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError(f"the number of dice must be an integer >= 0, not {count!r}")
        return tuple(self.die(faces, purpose, hidden=hidden) for _ in range(count))

    def shuffle(self, items: Sequence[T], purpose: str, *, hidden: bool = False) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.die(i + 1, purpose, hidden=hidden) - 1
            out[i], out[j] = out[j], out[i]
        return out

    def pick(self, items: Sequence[T], purpose: str, *, hidden: bool = False) -> T:
        if not items:
            raise ValueError(f"nothing to pick from for {purpose!r}")
        return items[self.die(len(items), purpose, hidden=hidden) - 1]


class CommittedDice(_Draws):
    """A DiceSource (adjudicator.core.dice) drawing from an epoch's committed seed.

    One counter for the epoch: `next_n` is the n the next draw takes (public or hidden); after the
    order, storage keeps `next_n` for the epoch's next order. `drawn` lists every draw in order as
    {"epoch", "n", "purpose", "value", "hidden", "faces"}. Hidden draws come from the hidden seed.
    """

    def __init__(
        self,
        seed_hex: str,
        game_uid: str,
        epoch: int,
        next_n: int,
        salt_dig: str,
        hidden_seed_hex: str | None = None,
    ) -> None:
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
        self.drawn: list[dict[str, Any]] = []

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        seed = self.hidden_seed_hex if hidden else self.seed_hex
        if seed is None:
            raise HiddenSeedMissing(f"no hidden seed for the hidden draw {purpose!r}")
        n = self.next_n
        value = roll_value(seed, self.game_uid, self.epoch, n, purpose, self.salt_dig, faces)
        self.next_n = n + 1
        self.drawn.append(
            {
                "epoch": self.epoch,
                "n": n,
                "purpose": purpose,
                "value": value,
                "hidden": hidden,
                "faces": faces,
            }
        )
        return value

    def __repr__(self) -> str:  # never shows a seed
        return f"CommittedDice(epoch={self.epoch}, next_n={self.next_n}, drawn={len(self.drawn)})"


def hidden_commit(value: object, salt_hex: str | None = None) -> tuple[str, str]:
    """(commitment, salt_hex) of a hidden value: SHA-256(salt_hex.encode() + canonical(value))."""
    if salt_hex is None:
        salt_hex = secrets.token_bytes(32).hex()
    return hashlib.sha256(salt_hex.encode() + canonical(value)).hexdigest(), salt_hex


def check_hidden(commitment: object, value: object, salt_hex: object) -> bool:
    """Whether a revealed (value, salt) matches its commitment."""
    if not isinstance(commitment, str) or not isinstance(salt_hex, str):
        return False
    try:
        expected, _ = hidden_commit(value, salt_hex)
    except (TypeError, ValueError):
        return False
    return hmac.compare_digest(expected, commitment)


def roll_entry(
    draw: dict[str, Any], fixed: bool = False
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The chained payload record of one draw, and the off-chain secret entry of a hidden one.

    Public draw: ({"purpose","value","fixed","epoch","n","hidden": False}, None), with "faces"
    after "hidden" for any die but a d6 (a d6 record is byte for byte what it always was).
    Hidden draw: ({... "value": None, "commitment": c, "hidden": True}, {"commitment": c,
    "value": v, "salt": s}); the entry goes into the row's non-chained `secret` list.
    """
    record: dict[str, Any] = {
        "purpose": draw["purpose"],
        "value": draw["value"],
        "fixed": fixed,
        "epoch": draw.get("epoch"),
        "n": draw.get("n"),
        "hidden": bool(draw.get("hidden")),
    }
    faces = draw.get("faces", 6)
    if faces != 6:
        record["faces"] = faces
    if not record["hidden"]:
        return record, None
    c, salt = hidden_commit(draw["value"])
    record["value"] = None
    record["commitment"] = c
    return record, {"commitment": c, "value": draw["value"], "salt": salt}

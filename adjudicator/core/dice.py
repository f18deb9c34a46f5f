"""Dice as an injected source: dice of any number of faces, several dice, shuffles, picks and
hidden draws (rule 1.3 of Hell's Gate: one d6, results 1 to 6, is `roll`).

The engine never rolls by itself: it asks a DiceSource and names the purpose ("combat C6",
"weather", "deal north"). Every draw the engine makes is recorded as a Roll (a shuffle records one
Roll per swap), so storage can log it and a replay can feed the same results back through
FixedDice. A hidden draw (`hidden=True`: a card dealt face down, a block's strength) is a typed
flag, never a purpose prefix: storage draws it from the game's hidden seed and keeps its value off
the chain until the game ends.

Every source implements one primitive, `_draw(faces, purpose, hidden) -> 1..faces`; DiceMethods
builds the protocol's methods over it. Pure: no I/O, no global random.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard, TypeVar

T = TypeVar("T")
MAX_FACES = 65536  # storage maps a draw onto at most 2**16 faces


class DiceSource(Protocol):
    def roll(self, purpose: str) -> int:
        """One d6 result, 1..6."""

    def die(self, faces: int, purpose: str, *, hidden: bool = False) -> int:
        """One die of `faces` faces, 1..faces."""

    def dice(
        self, count: int, faces: int, purpose: str, *, hidden: bool = False
    ) -> tuple[int, ...]:
        """`count` dice of `faces` faces, one draw each, in order."""

    def shuffle(self, items: Sequence[T], purpose: str, *, hidden: bool = False) -> list[T]:
        """A shuffled copy of `items` (Fisher-Yates, one die per swap)."""

    def pick(self, items: Sequence[T], purpose: str, *, hidden: bool = False) -> T:
        """One of `items`, each equally likely (one die of len(items) faces)."""


@dataclass(frozen=True)
class Roll:
    purpose: str
    value: int
    fixed: bool = False  # set by a moderator's `dice` command in a sandbox game
    faces: int = 6
    hidden: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"purpose": self.purpose, "value": self.value, "fixed": self.fixed}
        if self.faces != 6:
            d["faces"] = self.faces
        if self.hidden:
            d["hidden"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Roll:
        return cls(
            d["purpose"],
            int(d["value"]),
            bool(d.get("fixed", False)),
            int(d.get("faces", 6)),
            bool(d.get("hidden", False)),
        )


class DiceExhausted(Exception):
    """A FixedDice source was asked for more rolls than it holds."""


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def check_faces(faces: object) -> None:
    """Refuse a number of faces that is not an integer 1..MAX_FACES."""
    if not _is_int(faces) or not 1 <= faces <= MAX_FACES:
        raise ValueError(f"a die has 1 to {MAX_FACES} faces, not {faces!r}")


def check_value(value: object, faces: int) -> int:
    """`value` if it is a result of a die of `faces` faces, else ValueError."""
    if not _is_int(value) or not 1 <= value <= faces:
        raise ValueError(f"die result {value!r} is not 1-{faces}")
    return value


class DiceMethods:
    """The DiceSource methods, built once over the primitive `_draw(faces, purpose, hidden)`."""

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        raise NotImplementedError

    def roll(self, purpose: str) -> int:
        return self.die(6, purpose)

    def die(self, faces: int, purpose: str, *, hidden: bool = False) -> int:
        check_faces(faces)
        if not isinstance(purpose, str):
            raise TypeError(f"purpose must be a string, got {purpose!r}")
        return check_value(self._draw(faces, purpose, bool(hidden)), faces)

    def dice(
        self, count: int, faces: int, purpose: str, *, hidden: bool = False
    ) -> tuple[int, ...]:
        if not _is_int(count) or count < 0:
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


class FixedDice(DiceMethods):
    """Plays back given results in order: tests and log replay."""

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self.used = 0

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        if self.used >= len(self._values):
            raise DiceExhausted(f"no die result left for {purpose!r}")
        value = self._values[self.used]
        self.used += 1
        return check_value(value, faces)


def face_of(digest: bytes, faces: int) -> int | None:
    """The face a digest gives by rejection sampling without modulo bias (None: all rejected).

    faces <= 256: the first byte b < 256 - 256 % faces gives b % faces + 1 (a d6 accepts b < 252);
    more faces: the same over 2-byte big-endian chunks and 65536."""
    size = 1 if faces <= 256 else 2
    span = 256**size
    limit = span - span % faces
    for i in range(0, len(digest) - size + 1, size):
        chunk = int.from_bytes(digest[i : i + size], "big")
        if chunk < limit:
            return chunk % faces + 1
    return None


class HashDice(DiceMethods):
    """Deterministic dice from a seed: SHA-256 over (seed, n, purpose[, faces]), rejection sampled.

    A d6 is SHA-256(seed|n|purpose) as it always was; another die adds b"|d" + faces. Pure (no
    global random); used by the demo and by tests that need many random rolls.
    """

    def __init__(self, seed: str | int) -> None:
        self._seed = str(seed).encode()
        self.n = 0

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        tail = b"" if faces == 6 else b"|d%d" % faces
        while True:
            self.n += 1
            msg = self._seed + b"|%d|" % self.n + purpose.encode() + tail
            face = face_of(hashlib.sha256(msg).digest(), faces)
            if face is not None:
                return face


class RecordingDice(DiceMethods):
    """Wraps a source, consuming moderator-fixed results first, and records every draw."""

    def __init__(self, source: DiceSource | None, fixed: list[int] | None = None) -> None:
        self._source = source
        self.fixed = list(fixed or [])
        self.rolls: list[Roll] = []

    def _draw(self, faces: int, purpose: str, hidden: bool) -> int:
        if self.fixed:
            value = check_value(self.fixed.pop(0), faces)
            self.rolls.append(Roll(purpose, value, True, faces, hidden))
            return value
        if self._source is None:
            raise DiceExhausted(f"no dice source for {purpose!r}")
        if faces == 6 and not hidden:
            value = self._source.roll(purpose)  # a source of plain d6 rolls serves as before
        else:
            value = self._source.die(faces, purpose, hidden=hidden)
        check_value(value, faces)
        self.rolls.append(Roll(purpose, value, False, faces, hidden))
        return value

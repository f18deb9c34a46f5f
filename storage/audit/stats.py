"""Dice statistics for the audit, per die size: counts per face, chi-square against a fair die
with faces - 1 degrees of freedom (closed forms, no SciPy), p and mean."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

MIN_ROLLS_FOR_P = 30  # a d6: below this (expected < 5 per face) the p-value means little


def _series(log_first: float, ratios: Iterable[float]) -> float:
    """t_0 + t_1 + ... with t_0 = e^log_first and t_k = t_(k-1) * ratios[k-1], each term taken
    in log space (no overflow for a die of many faces)."""
    log_t = log_first
    total = math.exp(log_t)
    for r in ratios:
        log_t += math.log(r)
        total += math.exp(log_t)
    return total


def _odd_df_sf(x: float, df: int) -> float:
    """chi2_sf for odd df."""
    m = (df - 1) // 2
    tail = 0.0
    if m:
        first = 0.5 * math.log(2 * x / math.pi) - x / 2
        tail = _series(first, (x / (2 * k - 1) for k in range(2, m + 1)))
    return math.erfc(math.sqrt(x / 2)) + tail


def _even_df_sf(x: float, df: int) -> float:
    """chi2_sf for even df."""
    return _series(-x / 2, ((x / 2) / k for k in range(1, df // 2)))


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with integer df >= 1 (closed forms, no SciPy).

    Odd df: erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) sum_{k=1}^{(df-1)/2} x^(k-1) / (1*3*...*(2k-1));
    even df: e^(-x/2) sum_{k=0}^{df/2-1} (x/2)^k / k!. For df = 5 this is the design's
    Q(x) = erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) (1 + x/3).
    """
    if df < 1 or int(df) != df:
        raise ValueError(f"df must be a positive integer, got {df!r}")
    if x <= 0:
        return 1.0
    p = _odd_df_sf(x, df) if df % 2 else _even_df_sf(x, df)
    return min(1.0, max(0.0, p))


def min_rolls_for_p(faces: int) -> int:
    """The rolls of a die of `faces` faces below which (expected < 5 per face) p means little."""
    return 5 * faces


def chi_square_p(counts: list[int]) -> tuple[float, float]:
    """(chi2, p) of face counts 1..faces against a fair die (df = faces - 1). No rolls, or a
    one-faced die: (0.0, 1.0)."""
    if not counts:
        raise ValueError("need the count of every face, got none")
    n = sum(counts)
    if n == 0 or len(counts) == 1:
        return 0.0, 1.0
    expected = n / len(counts)
    chi2 = sum((c - expected) ** 2 for c in counts) / expected
    return chi2, chi2_sf(chi2, len(counts) - 1)


def face_stats(values: Iterable[int], faces: int = 6) -> dict[str, Any]:
    """{"faces", "counts": [c1..c_faces], "n", "mean", "chi2", "p"} of die results 1..faces."""
    counts = [0] * faces
    for v in values:
        counts[v - 1] += 1
    n = sum(counts)
    chi2, p = chi_square_p(counts)
    mean = sum((i + 1) * c for i, c in enumerate(counts)) / n if n else None
    return {"faces": faces, "counts": counts, "n": n, "mean": mean, "chi2": chi2, "p": p}


def group_stats(rolls: Iterable[tuple[str, str, int]], faces: int) -> dict[str, Any]:
    """{"faces", "all", "by_side", "by_kind"} (each face_stats) of (side, kind, value) rolls of
    one die size."""
    by_side: dict[str, list[int]] = {}
    by_kind: dict[str, list[int]] = {}
    values = []
    for side, kind, value in rolls:
        values.append(value)
        by_side.setdefault(side, []).append(value)
        by_kind.setdefault(kind, []).append(value)
    return {
        "faces": faces,
        "all": face_stats(values, faces),
        "by_side": {s: face_stats(v, faces) for s, v in sorted(by_side.items())},
        "by_kind": {k: face_stats(v, faces) for k, v in sorted(by_kind.items())},
    }


def dice_stats(rolls: Sequence[tuple[str, str, int, int]]) -> dict[str, Any]:
    """The statistics of (side, kind, value, faces) rolls: {"by_die": {"d6": group, "d10": ...}}
    in order of size, each a group_stats; "all", "by_side" and "by_kind" are the d6 group's (an
    empty one when no d6 was rolled), as they were when every die was a d6."""
    sizes = sorted({faces for *_, faces in rolls})
    by_die = {f"d{f}": group_stats([(s, k, v) for s, k, v, g in rolls if g == f], f) for f in sizes}
    d6 = by_die.get("d6") or group_stats([], 6)
    return {"all": d6["all"], "by_side": d6["by_side"], "by_kind": d6["by_kind"], "by_die": by_die}


def purpose_kind(purpose: str) -> str:
    """The first word of a roll's purpose: "combat C6" -> "combat"."""
    words = purpose.split()
    return words[0] if words else "?"

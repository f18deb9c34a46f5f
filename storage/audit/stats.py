"""Dice statistics for the audit: chi-square against a fair d6 (closed forms, no SciPy)."""

from __future__ import annotations

import math

MIN_ROLLS_FOR_P = 30  # below this (expected < 5 per face) the chi-square p-value means little


def _odd_df_sf(x: float, df: int) -> float:
    """chi2_sf for odd df."""
    total, term = 0.0, 1.0
    for k in range(1, (df - 1) // 2 + 1):
        if k > 1:
            term *= x / (2 * k - 1)
        total += term
    return math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * total


def _even_df_sf(x: float, df: int) -> float:
    """chi2_sf for even df."""
    total, term = 0.0, 1.0
    for k in range(df // 2):
        if k:
            term *= (x / 2) / k
        total += term
    return math.exp(-x / 2) * total


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


def chi_square_p(counts: list[int]) -> tuple[float, float]:
    """(chi2, p) of face counts 1-6 against a fair d6 (df = 5). No rolls: (0.0, 1.0)."""
    if len(counts) != 6:
        raise ValueError(f"need 6 face counts, got {len(counts)}")
    n = sum(counts)
    if n == 0:
        return 0.0, 1.0
    expected = n / 6
    chi2 = sum((c - expected) ** 2 for c in counts) / expected
    return chi2, chi2_sf(chi2, 5)


def face_stats(values) -> dict:
    """{"counts": [c1..c6], "n", "mean", "chi2", "p"} of die faces 1-6."""
    counts = [0] * 6
    for v in values:
        counts[v - 1] += 1
    n = sum(counts)
    chi2, p = chi_square_p(counts)
    mean = sum((i + 1) * c for i, c in enumerate(counts)) / n if n else None
    return {"counts": counts, "n": n, "mean": mean, "chi2": chi2, "p": p}


def purpose_kind(purpose: str) -> str:
    """The first word of a roll's purpose: "combat C6" -> "combat"."""
    words = purpose.split()
    return words[0] if words else "?"

"""Comparing two chat runs that differ only in the hidden seed, audience by audience."""

from __future__ import annotations

import itertools
import re

from contract.table import Run

DIGEST = re.compile(r"[0-9a-f]{16,}")  # commitments, head hashes (whole or cut), the game uid


def hidden_leaks(run_a: Run, run_b: Run) -> list[str]:
    """What differs between two runs, message by message for each audience, once what may
    differ is normalised: digests and the uid, and the hidden values the audience may know at
    that step (the driver's masks); what is told once the game is over is not compared (nothing
    is hidden then)."""
    found = []
    for audience in sorted(set(run_a.received) | set(run_b.received)):
        a, b = seen_by(run_a, audience), seen_by(run_b, audience)
        for i, (x, y) in enumerate(itertools.zip_longest(a, b)):
            if x != y:
                found.append(f"{audience}: message {i + 1} differs: {x!r} / {y!r}")
    return found


def seen_by(run: Run, audience: str) -> list[str]:
    side = audience.removeprefix("side:") if audience.startswith("side:") else None
    end = run.over_at if run.over_at is not None else len(run.masks)
    return [
        masked(t, run.masks[s].get(side, {})) for s, t in run.received.get(audience, []) if s < end
    ]


def masked(text: str, masks: dict[str, str]) -> str:
    text = DIGEST.sub("<digest>", text)
    for old in sorted(masks, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", masks[old], text)
    return text

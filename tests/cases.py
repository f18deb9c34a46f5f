"""The case-file harness, shipped as contract.cases (an outside system runs its cases with it);
its names kept here for the project's tests."""

from __future__ import annotations

from contract.cases import CaseError, Run, is_part, load, merge, run_case

__all__ = ["CaseError", "Run", "is_part", "load", "merge", "run_case"]

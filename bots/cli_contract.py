"""`pbem contract`: the contract suite shipped with the package, run against an installed system.

    pbem contract                      # the installed systems, each with its driver or none
    pbem contract hexduel              # the whole contract for the system `hexduel`
    pbem contract hexduel -x -k gate   # any further arguments go to pytest

A system declares its driver in the entry-point group `pbem.contract` (adjudicator/core/
driver.py, docs/writing-a-game-system.md). The suite runs in pytest (the `test` extra) over the
installed package `contract`; the exit code is pytest's. Nothing here imports the suite: pytest
loads it (`-p contract.plugin --pyargs contract`), so only tests import it.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import entry_points
from typing import Any

OK, USAGE = 0, 2  # bots/cli_base.py's (not imported: `pbem --help` loads this module)
SUITE = ["-p", "contract.plugin", "-p", "no:cacheprovider", "-o", "addopts=", "--pyargs"]


def add_parser(sub: Any) -> None:
    """The `contract` command's arguments (bots/cli_parser.py)."""
    p = sub.add_parser(
        "contract",
        help="run the shipped contract suite against an installed game system",
        description="With no SYSTEM: the installed systems, each with its contract driver or "
        "none. With SYSTEM: the contract suite against it (needs the `test` extra); any "
        "further arguments go to pytest.",
    )
    p.add_argument("system", nargs="?", metavar="SYSTEM", help="the system's id (`pbem games`)")
    p.add_argument("pytest_args", nargs=argparse.REMAINDER, metavar="PYTEST_ARGS")
    p.set_defaults(verbose=0)


def declared() -> set[str]:
    """The systems whose distributions declare a driver (read from the metadata only)."""
    from adjudicator.core.driver import GROUP

    return {ep.name for ep in entry_points(group=GROUP)}


def cmd_contract(args: Any) -> int:
    from adjudicator.core import registry
    from adjudicator.core.driver import GROUP, SELECTED

    drivers = declared()
    if args.system is None:
        for system in registry.systems():
            has = "driver" if system.id in drivers else "no driver: not checked"
            print(f"{system.id:<16} {has}")
        return OK
    registry.get(args.system)  # an unknown system is a usage error (bots/cli_base.py)
    if args.system not in drivers:
        print(
            f"pbem contract: {args.system} declares no driver: add one to the entry-point group "
            f"`{GROUP}` (docs/writing-a-game-system.md)",
            file=sys.stderr,
        )
        return USAGE
    try:
        import pytest
    except ImportError:
        print(
            "pbem contract: the suite runs in pytest, which is not installed: install the "
            "`test` extra (pip install 'pbem-adjudicator[test]')",
            file=sys.stderr,
        )
        return USAGE
    os.environ[SELECTED] = args.system  # pytest's workers (-n N) inherit it
    return int(pytest.main([*SUITE, "contract", *args.pytest_args]))


__all__ = ["add_parser", "cmd_contract"]

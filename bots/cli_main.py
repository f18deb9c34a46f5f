"""The `pbem` entry point: the arguments are parsed before anything else is imported, so
`pbem --help` (and a usage error) loads neither the engines nor the database code; a command
then imports what it runs (bots/cli.py; `replay` only bots/cli_replay.py, which needs neither the
chat nor the render code). `entry` is the installed `pbem` script."""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any


def main(argv: Sequence[str] | None = None) -> int:
    from bots.cli_parser import build_parser

    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    try:
        if args.command == "replay":  # the store and the rules only (bots/cli_replay.py)
            from bots import cli_base, cli_replay

            return cli_base.run(args, cli_replay.cmd_replay)
        from bots import cli

        return cli.run(args)
    except Exception as exc:  # noqa: BLE001 - data no check expected (a host's edit): a sentence
        return _unreadable(args, exc)


def _unreadable(args: Any, exc: Exception) -> int:
    """A command that ended on data it could not read: one sentence on stderr, exit 1 (the
    traceback is logged with -vv)."""
    import logging
    import sys

    from bots.cli_replay import unreadable

    logging.getLogger("pbem").debug("unreadable data", exc_info=exc)
    name = getattr(args, "name", None)
    said = unreadable(exc).replace("NAME", name or "NAME")
    what = f"game {name}: " if name else ""
    print(f"pbem {args.command}: {what}{said}", file=sys.stderr)
    return 1


def entry() -> int:
    """The `pbem` console script: `main`, then the process ends. The collector's passes at
    interpreter exit would walk every object the database and rules libraries made (about a
    sixth of a second of `pbem replay --all`); frozen first, the objects are still released as
    the modules are torn down, and the command has closed its database and flushed its output
    before. Only here, not in `main`, which tests call in their own long-lived process."""
    code = main()
    gc.freeze()
    return code


__all__ = ["entry", "main"]

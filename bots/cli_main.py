"""The `pbem` entry point: the arguments are parsed before anything else is imported, so
`pbem --help` (and a usage error) loads neither the engines nor the database code; a command
then imports what it runs (bots/cli.py)."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from bots.cli_parser import build_parser

    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    from bots import cli

    return cli.run(args)


__all__ = ["main"]

"""What every `pbem` command runs inside: the exit codes, the logging, the errors a command ends
with (a closed pipe, a usage or setup error), and the database it opens and the run closes.

Light on purpose: `pbem replay` runs in it without bots/cli.py, so it imports no chat, render or
order-path code (bots/cli_main.py)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from typing import Any

from adjudicator.core.registry import UnknownSystem
from adjudicator.core.scenario import ScenarioError
from storage import StorageError, Store

log = logging.getLogger("pbem")

OK, REFUSED, USAGE = 0, 1, 2
CLOSED_PIPE = 141  # what a shell reports for a writer stopped by SIGPIPE (128 + 13)


def run(args: Any, command: Callable[[Any], int]) -> int:
    """Run a parsed command: its exit code, or the code of the error it ended with."""
    logging.basicConfig(
        level=[logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)],
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    args.opened = []
    try:
        code = command(args)
        sys.stdout.flush()  # here, where a closed pipe is caught, not at the interpreter's exit
        return code
    except BrokenPipeError:  # `pbem log NAME | head`: the reader has what it wanted
        _quiet_stdout()
        return CLOSED_PIPE
    except (StorageError, ScenarioError, UnknownSystem, OSError) as exc:
        log.debug("setup error", exc_info=True)
        print(f"pbem: {exc}", file=sys.stderr)
        return USAGE
    finally:
        for store in args.opened:
            store.close()


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush of it raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is no file (a test's capture): nothing to flush
        pass


def open_store(args: Any, default: str | None = None) -> Store:
    """Open the database of --db / PBEM_DB; `run` closes it when the command is done."""
    store = Store(args.db or default or os.environ.get("PBEM_DB"))
    args.opened.append(store)
    return store


__all__ = ["CLOSED_PIPE", "OK", "REFUSED", "USAGE", "open_store", "run"]

"""What every `pbem` command runs inside: the exit codes, the logging, the errors a command ends
with (a closed pipe, a usage or setup error), and the database it opens and the run closes.

The database is the service's: --db, else PBEM_DB, else the settings file's (--config FILE or
$PBEM_CONFIG, bots/config.py), else `pbem.db`. A command that only reads opens a database that
exists (a SQLite file, or a PostgreSQL database holding pbem's tables) and never makes one: a
wrong path is one line and exit 2, not a new empty database that answers "no games". One the
user may not open (the service's files are private to its user) is one line too.

Light on purpose: `pbem replay` runs in it without bots/cli.py, so it imports no chat, render or
order-path code (bots/cli_main.py)."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from adjudicator.core.registry import UnknownSystem
from adjudicator.core.scenario import ScenarioError
from bots.config import Config, ConfigError, config_file
from storage import StorageError, Store
from storage.engine import database_url

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
    except (StorageError, ScenarioError, UnknownSystem, OSError, ConfigError, Unopenable) as exc:
        log.debug("setup error", exc_info=True)
        print(f"pbem: {exc}", file=sys.stderr)
        return USAGE
    except DBAPIError as exc:  # a file or server the command may not open: one line
        log.debug("database error", exc_info=True)
        print(f"pbem: the database refused: {_first_line(exc.orig or exc)}", file=sys.stderr)
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


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class Unopenable(Exception):
    """The command's database cannot be opened as asked: the host's line, exit 2."""


class NoDatabase(Unopenable):
    """A command that only reads was pointed at a database that is not there."""


def settings(args: Any) -> Config:
    """The service's settings as this command sees them: the environment over the file of
    --config / $PBEM_CONFIG (read once per command)."""
    if getattr(args, "settings", None) is None:
        args.settings = Config.load(os.environ, config_file(getattr(args, "config", None)))
    config: Config = args.settings
    return config


def database(args: Any, default: str | None = None) -> tuple[str, str]:
    """(the database's URL, where it was named) for this command."""
    if getattr(args, "db", None):
        return database_url(args.db), "--db"
    if default is not None:
        return database_url(default), "the command's default"
    config = settings(args)
    if config.values.get("PBEM_DB"):
        named = config_file(getattr(args, "config", None))
        where = "PBEM_DB" if "PBEM_DB" in os.environ else f"PBEM_DB of {named}"
        return database_url(config.db), where
    return database_url(config.db), "the default"


def open_store(
    args: Any, default: str | None = None, *, existing: bool = False, create: bool = False
) -> Store:
    """Open the command's database (`database`); `run` closes it when the command is done.
    `existing`: refuse one that does not exist (a command that only reads); `create`: make
    the folder of a new SQLite file first."""
    url, where = database(args, default)
    path = sqlite_path(url)
    if path is not None:
        check_file(path, where, existing=existing, create=create)
    elif existing and make_url(url).get_backend_name() != "sqlite":
        _check_tables(url, where)
    store = Store(url)
    args.opened.append(store)
    return store


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None: in memory, a URI, or another database)."""
    parsed = make_url(url)
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or not name or name == ":memory:":
        return None
    return None if name.startswith("file:") else Path(name)


def check_file(path: Path, where: str, *, existing: bool, create: bool = False) -> None:
    """A SQLite file this user may open: refused when missing (`existing`) or another user's;
    `create`: its folder made when missing."""
    try:
        found = path.stat()
    except FileNotFoundError:
        found = None
    except PermissionError:
        raise _denied(path) from None
    if found is None:
        if existing:
            raise NoDatabase(
                f"no database at {path} ({where}): this command reads games and makes no "
                "database; name the service's with --config FILE (or PBEM_CONFIG), --db or PBEM_DB"
            )
        if create:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except PermissionError:
                raise _denied(path.parent) from None
        return
    if not os.access(path, os.R_OK | os.W_OK):
        raise _denied(path)


def _denied(path: Path) -> Unopenable:
    return Unopenable(
        f"permission denied: {path} belongs to another user; run the command as the service's "
        "user, e.g. `sudo -u pbem pbem ... --config /etc/pbem/pbem.toml`"
    )


def _check_tables(url: str, where: str) -> None:
    """A server database must hold pbem's tables before a command that only reads opens it."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            found = inspect(conn).has_table("alembic_version") and inspect(conn).has_table("game")
    finally:
        engine.dispose()
    if not found:
        shown = make_url(url).render_as_string(hide_password=True)
        raise NoDatabase(
            f"the database {shown} ({where}) holds no pbem tables: this command reads games "
            "and makes no database; name the service's with --config FILE (or PBEM_CONFIG), "
            "--db or PBEM_DB"
        )


__all__ = [
    "CLOSED_PIPE",
    "OK",
    "REFUSED",
    "USAGE",
    "NoDatabase",
    "Unopenable",
    "check_file",
    "database",
    "open_store",
    "run",
    "settings",
    "sqlite_path",
]

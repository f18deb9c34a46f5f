"""The host's commands: `pbem invite` (the URL that adds the Discord bot to a server, with exactly
the scopes and permissions it needs) and `pbem backup FILE` (a consistent copy of a SQLite
database while the service runs; PostgreSQL: pg_dump)."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from bots.cli_base import check_file, database

OK, FAILED, USAGE = 0, 1, 2
BACKUP_PAGES = 1024  # pages copied per step: other connections may write between the steps


def cmd_invite(args: argparse.Namespace) -> int:
    from bots.config import Config, ConfigError, config_file
    from bots.platforms import discord_checks as checks

    try:
        config = Config.load(os.environ, config_file(args.config))
    except ConfigError as exc:
        print(f"pbem invite: {exc}", file=sys.stderr)
        return USAGE
    client_id = args.client_id or config.get("DISCORD_CLIENT_ID")
    if not client_id and config.discord_token:
        client_id = checks.client_id_of(config.discord_token)
    if not client_id:
        print(
            "pbem invite: no client id: set DISCORD_TOKEN (the bot's token holds it), or give "
            "--client-id (Developer Portal > the application > General Information > "
            "Application ID)",
            file=sys.stderr,
        )
        return USAGE
    if not str(client_id).isdigit():
        print(f"pbem invite: {client_id!r} is no Discord client id (digits)", file=sys.stderr)
        return USAGE
    print(checks.invite_url(client_id))
    if args.verbose or sys.stdout.isatty():
        names = ", ".join(name for name, _ in checks.NEEDED.values())
        print(f"scopes: {' '.join(checks.SCOPES)}; permissions: {names}", file=sys.stderr)
    return OK


def cmd_backup(args: argparse.Namespace) -> int:
    """A consistent copy of the database: SQLite's online backup API (the service may keep
    running and writing), into a new file; PostgreSQL is dumped with pg_dump."""
    named, where = database(args)
    url = make_url(named)
    if url.get_backend_name() != "sqlite":
        print(
            "pbem backup: the database is not SQLite; back a PostgreSQL database up with "
            "pg_dump, e.g. `pg_dump --format=custom --file=pbem.dump DBNAME` (restore with "
            "pg_restore)",
            file=sys.stderr,
        )
        return USAGE
    source = url.database
    if not source or source == ":memory:":
        print("pbem backup: an in-memory database has nothing to back up", file=sys.stderr)
        return USAGE
    check_file(Path(source), where, existing=True)  # missing or not ours: one line, exit 2
    target = Path(args.file)
    if target.exists():
        print(f"pbem backup: {target} exists already; give a new file", file=sys.stderr)
        return USAGE
    partial = target.with_name(target.name + ".partial")
    try:
        src = sqlite3.connect(source)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst, pages=BACKUP_PAGES)
                (check,) = dst.execute("PRAGMA integrity_check").fetchone()
                dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                dst.close()
        finally:
            src.close()
        if check != "ok":
            print(f"pbem backup: the copy fails its integrity check: {check}", file=sys.stderr)
            partial.unlink(missing_ok=True)
            return FAILED
        partial.replace(target)
    except (sqlite3.Error, OSError) as exc:
        partial.unlink(missing_ok=True)
        print(f"pbem backup: {source} -> {target}: {exc}", file=sys.stderr)
        return FAILED
    print(f"Backed up {source} to {target} ({target.stat().st_size // 1024} KiB).")
    return OK


__all__ = ["cmd_backup", "cmd_invite"]

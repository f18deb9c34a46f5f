"""`pbem outbox`: what the outbox holds for a host, and the re-send of what failed or waits.

    pbem outbox                  # the rows waiting (pending) or failed, oldest first
    pbem outbox --failed         # the failed rows only
    pbem outbox --resend 12      # row 12 pending and due again (a running `pbem serve` sends it)
    pbem outbox --all            # every row listed (with --failed: every failed row) re-sent

A private row is listed without its content: its addressee and its length only. A re-sent row
keeps the parts already delivered; its attempts are counted from zero again. Rows sent are never
sent again. Exit 1 when --resend names no waiting or failed row.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from storage import Store


def add_parser(sub: Any, common: argparse.ArgumentParser) -> None:
    """The `outbox` command's arguments (bots/cli_parser.py)."""
    p = sub.add_parser(
        "outbox", parents=[common], help="list the posts that wait or failed; re-send them"
    )
    p.add_argument("--failed", action="store_true", help="only the failed rows")
    again = p.add_mutually_exclusive_group()
    again.add_argument("--resend", type=int, metavar="ID", help="re-send this row")
    again.add_argument("--all", action="store_true", help="re-send every row listed")


def _line(row: dict[str, Any]) -> str:
    if row["private"]:
        what = f"private to {row['platform']}:{row['user_id']}, {len(row['text'])} characters"
    else:
        text = row["text"] if len(row["text"]) <= 60 else row["text"][:57] + "..."
        what = f"{row['platform']}:{row['lane']} {text!r}" + (" +image" if row["image"] else "")
    due = row["next_attempt_at"]
    when = f"next try {due:%Y-%m-%d %H:%M}Z" if row["status"] == "pending" and due else ""
    error = f" | {row['last_error'][:120]}" if row["last_error"] else ""
    return f"{row['id']:>6} {row['status']} {when} tries {row['attempts']} {what}{error}"


def _listed(store: Store, failed: bool) -> list[dict[str, Any]]:
    from storage import outbox as sql

    wanted = ["failed"] if failed else ["pending", "failed"]
    rows = [r for status in wanted for r in sql.select_rows(store, status=status)]
    return sorted(rows, key=lambda r: r["id"])


def cmd_outbox(args: Any) -> int:
    from bots.cli_base import OK, REFUSED, open_store  # not at import: `pbem --help` stays light
    from storage import outbox_waits

    store = open_store(args)
    rows = _listed(store, args.failed)
    if args.resend is None and not args.all:
        for row in rows:
            print(_line(row))
        print(f"{len(rows)} rows {'failed' if args.failed else 'waiting or failed'}")
        return OK
    ids = [args.resend] if args.resend is not None else [r["id"] for r in rows]
    if args.resend is not None and args.resend not in {r["id"] for r in rows}:
        print(f"pbem: no waiting or failed outbox row {args.resend}", file=sys.stderr)
        return REFUSED
    done = outbox_waits.requeue(store, ids, datetime.now(UTC)) if ids else []
    plural = "row" if len(done) == 1 else "rows"
    print(f"re-queued {len(done)} {plural}: {', '.join(map(str, done)) or 'none'}")
    return OK


__all__ = ["add_parser", "cmd_outbox"]

"""`pbem`: the command line. Exit codes: 0 all accepted, 1 an order was refused (or an audit or a
replay found a difference), 2 usage/setup."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from adjudicator.core import registry
from adjudicator.core.i18n import say, t
from adjudicator.core.system import MODERATOR_ACTOR
from app import audit, frames, games, integrity, intext
from app.context import Core
from app.i18n import language
from app.repair_text import repair_report
from app.service import GameService
from bots import cli_base, cli_contract, cli_outbox, health, host
from bots.cli_base import OK, REFUSED, USAGE, open_store
from bots.cli_parser import build_parser
from bots.cli_replay import cmd_replay
from storage.engine import database_url

log = logging.getLogger("pbem")
CLOSED_PIPE = cli_base.CLOSED_PIPE  # the exit code of a closed pipe (bots/cli_base.py)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    return run(args)


def run(args: argparse.Namespace) -> int:
    """Run the parsed command (bots/cli_main.py parses first, then imports this module)."""
    return cli_base.run(args, COMMANDS[args.command])


_store = open_store


def cmd_new(args: argparse.Namespace) -> int:
    registry.get(args.game)  # an unknown system is a usage error, before the database is made
    service = GameService(_store(args, create=True))
    print(
        service.new_game(
            args.name, args.scenario, sandbox=args.sandbox, creator=args.creator, system=args.game
        )
    )
    return OK


def cmd_games(args: argparse.Namespace) -> int:
    for system in registry.systems():
        print(f"{system.id:<16} {system.title}")
    return OK


def _check_side(service: GameService, name: str, side: str | None, what: str) -> str | None:
    """None, or the usage error of a side the game does not have."""
    if side is None:
        return None
    sides = [s.id for s in service.system(name).sides]
    allowed = [*sides, MODERATOR_ACTOR] if what == "--as" else [*sides, "public"]
    if side in allowed:
        return None
    return f"pbem: {what} {side!r}: the game {name!r} has the sides {', '.join(allowed)}"


def cmd_say(args: argparse.Namespace) -> int:
    if args.actor is None and args.user is None:
        print("pbem say: give --as SIDE (the local operator) or --user USER", file=sys.stderr)
        return USAGE
    service = GameService(_store(args, existing=True))  # the game is in a database that exists
    bad = _check_side(service, args.name, args.actor, "--as")
    if bad:
        print(bad, file=sys.stderr)
        return USAGE
    text, refusal = intext.normalise(args.text)  # text is data, as in a chat
    if refusal is not None:
        print(f"pbem say: refused: {refusal}", file=sys.stderr)
        return USAGE
    user = None if args.user is None else intext.clean(args.user)
    key = None if args.key is None else intext.clean(args.key)
    replies = service.say(args.name, args.actor, text, user=user, key=key)
    if args.json:
        docs = [r.to_dict() for r in replies]
        print(json.dumps(docs[0] if len(docs) == 1 else docs, ensure_ascii=False, indent=2))
    else:
        lang, who = language(args.lang), args.actor or args.user
        for r in replies:  # the operator speaks for the side: its private lines are his
            print(
                "\n".join(
                    [
                        say(r.reply, lang),
                        *(
                            say(t("(only {who} sees) {line}", who=who, line=line), lang)
                            for line in r.private_lines
                        ),
                    ]
                )
            )
    return OK if all(r.ok for r in replies) else REFUSED


def cmd_show(args: argparse.Namespace) -> int:
    service = GameService(_store(args, existing=True))
    service.record(args.name)  # an unknown game is a usage error (exit 2)
    bad = _check_side(service, args.name, args.view, "--view")
    if bad:
        print(bad, file=sys.stderr)
        return USAGE
    if args.json:
        print(json.dumps(service.show(args.name, args.view), ensure_ascii=False, indent=2))
    else:
        print(say(service.status(args.name, args.view), language(args.lang)))
    return OK


def cmd_serve(args: argparse.Namespace) -> int:
    from bots.config import Config, ConfigError, config_file
    from bots.serve import run

    try:
        config = Config.load(os.environ, config_file(args.config))
        overrides = {}
        if args.db:
            overrides["PBEM_DB"] = args.db
        if args.verbose:
            overrides["PBEM_LOG_LEVEL"] = "DEBUG" if args.verbose > 1 else "INFO"
        if overrides:
            config = Config({**config.values, **overrides})
    except ConfigError as exc:
        print(f"pbem serve: {exc}", file=sys.stderr)
        return USAGE
    path = cli_base.sqlite_path(database_url(config.db))
    if path is not None:  # a new database's folder is made (PBEM_DB=$HOME/pbem/pbem.db)
        cli_base.check_file(path, "PBEM_DB", existing=False, create=True)
    return run(config)


def cmd_play(args: argparse.Namespace) -> int:
    from bots.terminal import play

    service = GameService(_store(args, create=True))
    ai = (args.ai.lower(), args.level) if args.ai else None
    return play(service, args.name, sandbox=args.sandbox, lang=language(args.lang), ai=ai)


def cmd_demo(args: argparse.Namespace) -> int:
    from bots.demo import DemoError, run_demo

    store = _store(args, ":memory:")  # a demo does not belong in the players' database
    try:
        ai = None if args.ai is None else (args.ai.lower(), args.level)
        result = run_demo(args.seed, store, system=args.game, ai=ai)
    except DemoError as exc:
        print(f"pbem: {exc}", file=sys.stderr)
        return REFUSED
    if args.images:
        _write_images(GameService(store), result.name, Path(args.images))
    return OK if result.result is not None else REFUSED


def _write_images(service: GameService, name: str, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    system = service.system(name)
    all_frames = service.frames(name)
    for n, frame in enumerate(all_frames):
        title = frames.title(name, frame)
        png = games.draw(system, frame.state, frame.events, None, title)
        (folder / frames.file_name(n, frame)).write_bytes(png)
    print(f"Wrote {len(all_frames)} map images to {folder}.")


def cmd_render(args: argparse.Namespace) -> int:
    service = GameService(_store(args, existing=True))
    service.record(args.name)  # an unknown game is a usage error (exit 2)
    bad = _check_side(service, args.name, args.view, "--view")
    if bad:
        print(bad, file=sys.stderr)
        return USAGE
    try:
        png = service.image(
            args.name, args.turn, args.phase, args.view, language=language(args.lang)
        )
    except LookupError as exc:
        print(f"pbem: {exc}", file=sys.stderr)
        return USAGE
    out = Path(args.output or f"{args.name}.png")
    out.write_bytes(png)
    print(f"Wrote {out} ({len(png) // 1024} KiB).")
    return OK


def cmd_log(args: argparse.Namespace) -> int:
    service = GameService(_store(args, existing=True))
    service.record(args.name)
    bad = _check_side(service, args.name, args.view, "--view")
    if bad:
        print(bad, file=sys.stderr)
        return USAGE
    if args.json:
        doc = service.log_doc(args.name, args.n, args.view)
        print(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        print(service.log_text(args.name, args.n, args.view))
    return OK


def cmd_audit(args: argparse.Namespace) -> int:
    """`pbem audit NAME [--export FILE] [--html PAGE]` or `pbem audit --verify FILE [--html
    PAGE]`. A missing, unreadable, malformed or truncated file: one sentence on stderr, exit 1."""
    if args.verify:
        if args.name or args.export:
            print("pbem audit: --verify FILE takes no game name and no --export", file=sys.stderr)
            return USAGE
        try:
            header, rows, data = audit.load_export(args.verify)
        except audit.ExportUnreadable as exc:
            print(f"pbem audit: {exc}", file=sys.stderr)
            return REFUSED
        ok, text, _ = audit.check(header, rows, str(args.verify))
        print(text)
        ok = _expect_head(args, rows) and ok
    elif not args.name:
        print("pbem audit: give a game NAME or --verify FILE.jsonl", file=sys.stderr)
        return USAGE
    else:
        service = GameService(_store(args, existing=True))
        if args.export:
            ok, text, report = service.export(args.name, args.export)
            print(text)
            print(
                f"Exported {report.rows} rows to {args.export}; check it anywhere with "
                f"`pbem audit --verify {args.export}`."
            )
        else:
            ok, text, _ = service.audit(args.name)
            print(text)
        ok = _expect_head(args, service.store.rows(args.name)) and ok
        data = audit.export_data(service.store, args.name)[2] if args.html else b""
    if args.html:
        audit.write_page(args.html, data)
        print(
            f"Wrote the audit page to {args.html}: open it in any browser, offline; it checks"
            " every row, seed and roll itself (docs/audit.md)."
        )
    return OK if ok else REFUSED


def _expect_head(args: argparse.Namespace, rows: list[dict[str, Any]]) -> bool:
    """`--expect-head`: whether the log still holds a head a player kept (True: not asked)."""
    if not getattr(args, "expect_head", None):
        return True
    try:
        ok, line = integrity.expect_head(rows, args.expect_head)
    except ValueError as exc:
        print(f"pbem audit: --expect-head: {exc}", file=sys.stderr)
        return False
    print(line)
    return ok


def cmd_repair(args: argparse.Namespace) -> int:
    """`pbem repair NAME`: rebuild a frozen game from the first bad row its audit names; logged.
    Every outcome is said in sentences (app/repair_text.py), never as a payload."""
    store = _store(args, existing=True)  # a game to repair is in a database that exists
    core = Core(store)
    lang = language(getattr(args, "lang", None))
    export = None
    try:
        if args.from_export:
            header, rows, _ = audit.load_export(args.from_export)
            ok, text, _ = audit.check(header, rows, str(args.from_export))
            if not ok:
                said = t("pbem repair: the export fails its audit:\n{text}", text=text)
                print(say(said, lang), file=sys.stderr)
                return REFUSED
            export = (header, rows)
        done = integrity.repair(core, args.name, args.by, export, again=args.reapply)
    except (ValueError, audit.ExportUnreadable) as exc:  # a sentence, never a payload
        why = exc.args[0] if exc.args else str(exc)
        print(say(t("pbem repair: {error}", error=why), lang), file=sys.stderr)
        return REFUSED
    print("\n".join(say(line, lang) for line in repair_report(args.name, done, args.reapply)))
    return OK


COMMANDS = {
    "new": cmd_new,
    "say": cmd_say,
    "show": cmd_show,
    "play": cmd_play,
    "demo": cmd_demo,
    "render": cmd_render,
    "log": cmd_log,
    "games": cmd_games,
    "replay": cmd_replay,
    "audit": cmd_audit,
    "repair": cmd_repair,
    "serve": cmd_serve,
    "invite": host.cmd_invite,
    "backup": host.cmd_backup,
    "health": health.cmd_health,
    "outbox": cli_outbox.cmd_outbox,
    "contract": cli_contract.cmd_contract,
}

if __name__ == "__main__":
    sys.exit(main())

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

from adjudicator.core import registry
from adjudicator.core.registry import UnknownSystem
from adjudicator.core.scenario import ScenarioError
from adjudicator.core.system import MODERATOR_ACTOR
from app import audit, frames, games
from app.fold import ReplayMismatch
from app.lifecycle import DEFAULT_SYSTEM
from app.service import GameService
from storage import StorageError, Store

log = logging.getLogger("pbem")

OK, REFUSED, USAGE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", help="SQLite file or database URL (default: $PBEM_DB or pbem.db)")
    common.add_argument("-v", "--verbose", action="count", default=0, help="more logging")

    p = argparse.ArgumentParser(prog="pbem", description="Play-by-message wargame adjudicator.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = sub.add_parser("new", parents=[common], help="create a game")
    new.add_argument("name")
    new.add_argument(
        "--game", metavar="SYSTEM", default=DEFAULT_SYSTEM, help="the game system (`pbem games`)"
    )
    new.add_argument("--scenario", metavar="FILE", help="scenario TOML (default: the built-in one)")
    new.add_argument("--sandbox", action="store_true", help="allow moderator commands")
    new.add_argument("--creator", metavar="USER", help="the game's first moderator")

    say = sub.add_parser("say", parents=[common], help="send orders or queries as one side")
    say.add_argument("name")
    say.add_argument(
        "--as",
        dest="actor",
        metavar="SIDE",
        help="the side spoken for, or `moderator` (required without --user; with it, one of "
        "the user's seats)",
    )
    say.add_argument(
        "--user", metavar="USER", help="speak as this user: his seats and roles are checked"
    )
    say.add_argument(
        "--key",
        metavar="KEY",
        help="idempotency key (a chat message id): a second delivery applies nothing",
    )
    say.add_argument("text", help="one order per line")
    say.add_argument("--json", action="store_true")

    show = sub.add_parser("show", parents=[common], help="show the state of a game")
    show.add_argument("name")
    show.add_argument("--json", action="store_true")

    play = sub.add_parser("play", parents=[common], help="two players at one keyboard")
    play.add_argument("name", nargs="?", default="local")
    play.add_argument("--sandbox", action="store_true", help="when creating the game")

    demo = sub.add_parser("demo", parents=[common], help="watch two random players play a game")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--images", metavar="DIR", help="write the map image of every phase to DIR")

    render = sub.add_parser(
        "render", parents=[common], help="write the map image of now or of the end of a past phase"
    )
    render.add_argument("name")
    render.add_argument("-o", "--output", metavar="FILE", help="PNG file (default NAME.png)")
    render.add_argument("--turn", type=int, help="with --phase: the image at the end of that phase")
    render.add_argument("--phase", help="a phase name of the game, as `status` names it")
    render.add_argument("--view", metavar="SIDE", help="what one side may see")

    sub.add_parser("games", parents=[common], help="list the game systems, a line each")

    log_ = sub.add_parser("log", parents=[common], help="print a game's log")
    log_.add_argument("name")
    log_.add_argument("-n", type=int, default=None, help="only the last N rows")

    replay = sub.add_parser(
        "replay",
        parents=[common],
        help="re-adjudicate stored games with the current rules; report each that differs",
    )
    which = replay.add_mutually_exclusive_group(required=True)
    which.add_argument("name", nargs="?")
    which.add_argument("--all", action="store_true", help="every game in the database")

    audit = sub.add_parser(
        "audit",
        parents=[common],
        help="check a game's hash chain, seeds and rolls; export it or verify an export",
    )
    audit.add_argument("name", nargs="?")
    audit.add_argument("--export", metavar="FILE.jsonl", help="also write the self-contained file")
    audit.add_argument(
        "--verify", metavar="FILE.jsonl", help="check an exported file (no database needed)"
    )
    from bots.config import help_text

    serve = sub.add_parser(
        "serve",
        parents=[common],
        help="run the Discord and/or Telegram bots with the deadline scheduler (no tokens: a "
        "local chat on the terminal)",
        description="Run the Discord bot (DISCORD_TOKEN) and/or the Telegram bot\n"
        "(TELEGRAM_TOKEN) with the deadline scheduler and the outbox sender, in one process.\n"
        "With neither token: the local terminal front end (chat lines on standard input,\n"
        "answers on standard output, exit at the end of input; `as NAME: <text>` says a\n"
        "line as another local player, `as NAME` switches to him).",
        epilog=help_text(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    serve.add_argument(
        "--config", metavar="FILE.toml", help="settings file (the environment wins over it)"
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    logging.basicConfig(
        level=[logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)],
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    args.opened = []
    try:
        return COMMANDS[args.command](args)
    except (StorageError, ScenarioError, UnknownSystem, OSError) as exc:
        log.debug("setup error", exc_info=True)
        print(f"pbem: {exc}", file=sys.stderr)
        return USAGE
    finally:
        for store in args.opened:
            store.close()


def _store(args, default: str | None = None) -> Store:
    """Open the database of --db / PBEM_DB; main closes it when the command is done."""
    store = Store(args.db or default or os.environ.get("PBEM_DB"))
    args.opened.append(store)
    return store


def cmd_new(args) -> int:
    registry.get(args.game)  # an unknown system is a usage error, before the database is made
    service = GameService(_store(args))
    print(
        service.new_game(
            args.name, args.scenario, sandbox=args.sandbox, creator=args.creator, system=args.game
        )
    )
    return OK


def cmd_games(args) -> int:
    for system in registry.systems():
        print(f"{system.id:<16} {system.title}")
    return OK


def _check_side(service: GameService, name: str, side: str | None, what: str) -> str | None:
    """None, or the usage error of a side the game does not have."""
    if side is None:
        return None
    sides = [s.id for s in service.system(name).sides]
    allowed = [*sides, MODERATOR_ACTOR] if what == "--as" else sides
    if side in allowed:
        return None
    return f"pbem: {what} {side!r}: the game {name!r} has the sides {', '.join(allowed)}"


def cmd_say(args) -> int:
    if args.actor is None and args.user is None:
        print("pbem say: give --as SIDE (the local operator) or --user USER", file=sys.stderr)
        return USAGE
    service = GameService(_store(args))
    bad = _check_side(service, args.name, args.actor, "--as")
    if bad:
        print(bad, file=sys.stderr)
        return USAGE
    replies = service.say(args.name, args.actor, args.text, user=args.user, key=args.key)
    if args.json:
        docs = [r.to_dict() for r in replies]
        print(json.dumps(docs[0] if len(docs) == 1 else docs, ensure_ascii=False, indent=2))
    else:
        print("\n".join(r.reply for r in replies))
    return OK if all(r.ok for r in replies) else REFUSED


def cmd_show(args) -> int:
    service = GameService(_store(args))
    if args.json:
        print(json.dumps(service.show(args.name), ensure_ascii=False, indent=2))
    else:
        print(service.status(args.name))
    return OK


def cmd_serve(args) -> int:
    from bots.config import Config, ConfigError
    from bots.serve import run

    try:
        config = Config.load(os.environ, args.config)
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
    return run(config)


def cmd_play(args) -> int:
    from bots.terminal import play

    return play(GameService(_store(args)), args.name, sandbox=args.sandbox)


def cmd_demo(args) -> int:
    from bots.demo import DemoError, run_demo

    store = _store(args, ":memory:")  # a demo does not belong in the players' database
    try:
        result = run_demo(args.seed, store)
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


def cmd_render(args) -> int:
    service = GameService(_store(args))
    service.record(args.name)  # an unknown game is a usage error (exit 2)
    bad = _check_side(service, args.name, args.view, "--view")
    if bad:
        print(bad, file=sys.stderr)
        return USAGE
    try:
        png = service.image(args.name, args.turn, args.phase, args.view)
    except LookupError as exc:
        print(f"pbem: {exc}", file=sys.stderr)
        return USAGE
    out = Path(args.output or f"{args.name}.png")
    out.write_bytes(png)
    print(f"Wrote {out} ({len(png) // 1024} KiB).")
    return OK


def cmd_log(args) -> int:
    print(GameService(_store(args)).log_text(args.name, args.n))
    return OK


def cmd_replay(args) -> int:
    """Re-adjudicate stored games with the current rules: each game whose events, states or
    result differ is reported with the first differing row (after the progress bar)."""
    service = GameService(_store(args))
    if args.all:
        names = [g.name for g in service.store.list_games()]
    else:
        service.record(args.name)  # an unknown game is a usage error (exit 2)
        names = [args.name]
    bar = ProgressBar(len(names), "games") if args.all else None
    differ: list[str] = []
    lines: list[str] = []
    for done, name in enumerate(names, 1):
        try:
            service.verify(name)
        except ReplayMismatch as exc:
            differ.append(name)
            lines.append(f"{name}: differs at row {exc.index}: {exc}")
        else:
            lines.append(f"{name}: the log replays to the stored state.")
        if bar:
            bar.update(done)
    if bar:
        bar.close()
        lines = [line for line in lines if ": differs at row " in line]
        lines.append(
            f"{len(names) - len(differ)} of {len(names)} games replay to their stored state"
            + (f"; differing: {', '.join(differ)}" if differ else ".")
        )
    print("\n".join(lines))
    return REFUSED if differ else OK


class ProgressBar:
    """`\r[########........] 12/40 games` on stderr, redrawn in place."""

    def __init__(self, total: int, what: str, width: int = 30, stream=None):
        self.total, self.what, self.width = total, what, width
        self.stream = stream or sys.stderr
        self.update(0)

    def update(self, done: int) -> None:
        filled = self.width * done // self.total if self.total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} {self.what}")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def cmd_audit(args) -> int:
    if args.verify:
        if args.name or args.export:
            print("pbem audit: --verify FILE takes no game name and no --export", file=sys.stderr)
            return USAGE
        ok, text = audit.verify_file(args.verify)
        print(text)
        return OK if ok else REFUSED
    if not args.name:
        print("pbem audit: give a game NAME or --verify FILE.jsonl", file=sys.stderr)
        return USAGE
    service = GameService(_store(args))
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
    return OK if ok else REFUSED


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
    "serve": cmd_serve,
}

if __name__ == "__main__":
    sys.exit(main())

"""`pbem`: the command line. Exit codes: 0 all accepted, 1 an order was refused, 2 usage/setup."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence

from adjudicator.core.scenario import ScenarioError
from bots.service import GameService
from storage import StorageError, Store

log = logging.getLogger("pbem")

OK, REFUSED, USAGE = 0, 1, 2
GAMES = ("hells-gate",)
SIDES = ("soviet", "german", "moderator")


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", help="SQLite file or database URL (default: $PBEM_DB or pbem.db)")
    common.add_argument("-v", "--verbose", action="count", default=0, help="more logging")

    p = argparse.ArgumentParser(prog="pbem", description="Play-by-message wargame adjudicator.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    new = sub.add_parser("new", parents=[common], help="create a game")
    new.add_argument("name")
    new.add_argument("--game", choices=GAMES, default="hells-gate")
    new.add_argument("--scenario", metavar="FILE", help="scenario TOML (default: the built-in one)")
    new.add_argument("--sandbox", action="store_true", help="allow moderator commands")

    say = sub.add_parser("say", parents=[common], help="send orders or queries as one side")
    say.add_argument("name")
    say.add_argument("--as", dest="actor", required=True, choices=SIDES)
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

    log_ = sub.add_parser("log", parents=[common], help="print a game's log")
    log_.add_argument("name")
    log_.add_argument("-n", type=int, default=None, help="only the last N rows")

    replay = sub.add_parser(
        "replay", parents=[common], help="check that re-applying the log gives the stored state"
    )
    replay.add_argument("name")
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
    try:
        return COMMANDS[args.command](args)
    except (StorageError, ScenarioError, OSError) as exc:
        log.debug("setup error", exc_info=True)
        print(f"pbem: {exc}", file=sys.stderr)
        return USAGE


def _store(args) -> Store:
    return Store(args.db or os.environ.get("PBEM_DB"))


def cmd_new(args) -> int:
    service = GameService(_store(args))
    print(service.new_game(args.name, args.scenario, sandbox=args.sandbox))
    return OK


def cmd_say(args) -> int:
    replies = GameService(_store(args)).say(args.name, args.actor, args.text)
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


def cmd_play(args) -> int:
    from bots.terminal import play

    return play(GameService(_store(args)), args.name, sandbox=args.sandbox)


def cmd_demo(args) -> int:
    from bots.demo import DemoError, run_demo

    try:  # in memory unless --db is given: a demo does not belong in the players' database
        result = run_demo(args.seed, Store(args.db or ":memory:"))
    except DemoError as exc:
        print(f"pbem: {exc}", file=sys.stderr)
        return REFUSED
    return OK if result.result is not None else REFUSED


def cmd_log(args) -> int:
    print(GameService(_store(args)).log_text(args.name, args.n))
    return OK


def cmd_replay(args) -> int:
    from bots.service import ReplayMismatch

    try:
        GameService(_store(args)).verify(args.name)
    except ReplayMismatch as exc:
        print(f"pbem: {exc}", file=sys.stderr)
        return REFUSED
    print(f"{args.name}: the log replays to the stored state.")
    return OK


COMMANDS = {
    "new": cmd_new,
    "say": cmd_say,
    "show": cmd_show,
    "play": cmd_play,
    "demo": cmd_demo,
    "log": cmd_log,
    "replay": cmd_replay,
}

if __name__ == "__main__":
    sys.exit(main())

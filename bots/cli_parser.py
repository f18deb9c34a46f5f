"""The `pbem` command line's arguments (bots/cli.py runs the commands)."""

from __future__ import annotations

import argparse

from bots import cli_contract, cli_outbox
from bots.config import help_text

DEFAULT_SYSTEM = "hells-gate"  # app.lifecycle's, not imported: `pbem --help` loads no engine
AI_LEVELS = ("easy", "normal")  # adjudicator.opponent's LEVELS, not imported (a test keeps them)
AI_DEFAULT = "normal"  # adjudicator.opponent.DEFAULT_LEVEL
LANGUAGES = ("en", "ru")  # app.i18n.LANGUAGES, not imported either (a test keeps them equal)


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--config",
        metavar="FILE.toml",
        help="the service's settings file (default: $PBEM_CONFIG); its PBEM_DB is the database "
        "(the environment wins over it)",
    )
    common.add_argument(
        "--db",
        help="SQLite file or database URL (default: $PBEM_DB, else the settings file's, else "
        "pbem.db)",
    )
    common.add_argument("-v", "--verbose", action="count", default=0, help="more logging")

    lang = argparse.ArgumentParser(add_help=False)
    lang.add_argument(
        "--lang",
        metavar="CODE",
        choices=LANGUAGES,
        default="en",
        help="the language of the texts and map labels: en (default) or ru",
    )

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

    say = sub.add_parser("say", parents=[common, lang], help="send orders or queries as one side")
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

    show = sub.add_parser("show", parents=[common, lang], help="show the state of a game")
    show.add_argument("name")
    show.add_argument("--json", action="store_true")
    show.add_argument(
        "--view", metavar="SIDE|public", help="what one side may see (default public)"
    )

    play = sub.add_parser("play", parents=[common, lang], help="two players at one keyboard")
    play.add_argument("name", nargs="?", default="local")
    play.add_argument("--sandbox", action="store_true", help="when creating the game")
    play.add_argument(
        "--ai", metavar="SIDE", help="the built-in opponent plays SIDE; you play the other"
    )
    play.add_argument(
        "--level",
        choices=AI_LEVELS,
        default=AI_DEFAULT,
        help="the opponent's level (default: %(default)s)",
    )

    demo = sub.add_parser("demo", parents=[common], help="watch two random players play a game")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument(
        "--game", metavar="SYSTEM", default=DEFAULT_SYSTEM, help="the game system (`pbem games`)"
    )
    demo.add_argument("--images", metavar="DIR", help="write the map image of every phase to DIR")
    demo.add_argument(
        "--ai",
        metavar="SIDE",
        nargs="?",
        const="",
        help="the built-in opponent plays SIDE (default: the second side) against the random one",
    )
    demo.add_argument(
        "--level",
        choices=AI_LEVELS,
        default="easy",
        help="the opponent's level (default: %(default)s)",
    )

    render = sub.add_parser(
        "render",
        parents=[common, lang],
        help="write the map image of now or of the end of a past phase",
    )
    render.add_argument("name")
    render.add_argument("-o", "--output", metavar="FILE", help="PNG file (default NAME.png)")
    render.add_argument("--turn", type=int, help="with --phase: the image at the end of that phase")
    render.add_argument(
        "--phase",
        help="a phase of the game, as `status` names it (a space may stand for a hyphen)",
    )
    render.add_argument(
        "--view", metavar="SIDE|public", help="what one side may see (default public)"
    )

    sub.add_parser("games", parents=[common], help="list the game systems, a line each")

    log_ = sub.add_parser("log", parents=[common], help="print a game's log")
    log_.add_argument("name")
    log_.add_argument("-n", type=int, default=None, help="only the last N rows")
    log_.add_argument(
        "--view", metavar="SIDE|public", help="what one side may see (default public)"
    )
    log_.add_argument("--json", action="store_true", help="the rows as a JSON array")

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
    audit.add_argument(
        "--expect-head",
        metavar="HASH",
        help="say whether the log still holds this head hash at its row: a bare hash, or the"
        ' text a post ends with ("Log row N, head hash H"); whole, or its first 20 (or more) hex'
        " characters, as posts show it; catches truncation and rewrites",
    )
    audit.add_argument(
        "--html",
        metavar="FILE.html",
        help="also write the offline audit page: one HTML file that verifies the export in any"
        " browser (docs/audit.md)",
    )

    repair = sub.add_parser(
        "repair",
        parents=[common, lang],
        help="a moderator's rebuild of a frozen game from its last good row (logged)",
    )
    repair.add_argument("name")
    repair.add_argument("--by", metavar="USER", help="the moderator it is logged for")
    repair.add_argument(
        "--from-export",
        metavar="FILE.jsonl",
        help="rebuild from this export (`pbem audit NAME --export`) instead of the last good row",
    )
    repair.add_argument(
        "--reapply",
        action="store_true",
        help="give the orders of the dropped rows again, with the dice their rows rolled"
        " (right after a repair: the orders that repair dropped)",
    )

    invite = sub.add_parser(
        "invite",
        parents=[common],
        help="print the URL that adds the Discord bot to a server, with the permissions it needs",
    )
    invite.add_argument(
        "--client-id",
        metavar="ID",
        help="the application id (default: $DISCORD_CLIENT_ID, else read from $DISCORD_TOKEN)",
    )

    backup = sub.add_parser(
        "backup",
        parents=[common],
        help="copy the SQLite database to FILE while the service runs (PostgreSQL: pg_dump)",
    )
    backup.add_argument("file", metavar="FILE", help="the new file to write")

    health = sub.add_parser(
        "health",
        parents=[common],
        help="ask a running `pbem serve` which bots are connected, the outbox backlog and the "
        "scheduler leader (exit 0: all connected, 1: not, 2: no answer)",
    )
    health.add_argument("--port", help="serve's PBEM_HEALTH_PORT (default: the setting)")
    health.add_argument("--url", help="the full URL of /healthz instead")
    health.add_argument("--json", action="store_true", help="print the JSON answer")

    cli_outbox.add_parser(sub, common)
    cli_contract.add_parser(sub)
    sub.add_parser(
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
    return p


__all__ = ["build_parser"]

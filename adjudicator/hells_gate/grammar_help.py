"""The help of Hell's Gate's commands: each command's usage line and help paragraph (ending with
an example), as texts with a Russian form in the package's catalogue (locale/ru/chat.po); and
Hell's Gate's words for the help of shared commands.

Invariants: the English texts are those `help` always said (but for what a bare `losses` does,
which rules version 2 made true); every paragraph ends with
"Example: <order>" and its Russian form with "Пример: <the order in Russian>", both of which
parse. Pure: no I/O.
"""

from __future__ import annotations

from adjudicator.core.i18n import t
from adjudicator.grammar import Entry

U = t("<UNIT>")  # a unit in a usage line (a Msg: said in the reader's language)

HELP_TEXTS = {  # Hell's Gate's words for shared commands
    "status": t("Show the turn, phase, weather and any decision waiting. Example: status"),
    "help": t("Show the commands, or the help of one. Example: help attack"),
}

ENTRIES: dict[str, Entry] = {
    "attack": (
        t("attack <HEX> with {u} [{u} ...] [decisive] [flip {u}]", u=U),
        t(
            "Attack an adjacent enemy hex with one or more of your units (section 8). "
            "'decisive' declares a decisive attack (8.17-8.19); 'flip <UNIT>' chooses the "
            "attacker flipped for it (8.18). Hexes by id or town name, units by id or "
            "designation. 'with' may be left out or written 'w'; 'decisive' may be written "
            "'dec' or 'd'. "
            "Example: attack C6 with 20tk 75rc decisive flip 20tk"
        ),
    ),
    "preview": (
        t("preview attack <HEX> with {u} [{u} ...] [decisive] [flip {u}]", u=U),
        t(
            "Show the odds and possible results of an attack without making it; the word 'attack' "
            "may be left out. Example: preview attack C6 with 20tk 75rc"
        ),
    ),
    "losses": (
        t("losses [{u} ...] [retreat <HEX> | retreat {u}=<HEX> ...]", u=U),
        t(
            "Answer the hits of an attack on your hex (8.23-8.34): the units that each take one "
            "hit, in order, then the retreat of the other units, to one hex or a hex per unit "
            "(8.31). 'losses' alone stands for the only legal answer, and is refused, with the "
            "legal answers, where more than one is legal (8.25, 8.29); in a game begun under "
            "rules version 1 it takes the hits as step losses where those are forced, even if a "
            "retreat is legal. 'retreat' may be written 'r' or 'ret'. "
            "Example: losses 389id retreat D6"
        ),
    ),
    "retreat": (
        t("retreat <HEX> | retreat {u}=<HEX> [{u}=<HEX> ...]", u=U),
        t("Short for 'losses retreat ...': answer the hits by a retreat only. Example: retreat B5"),
    ),
    "move": (
        t("move {u} [to] <HEX> [<HEX>]", u=U),
        t(
            "Move a unit into an adjacent hex, or along a path of two hexes (section 9); the hexes "
            "may also be joined by '-' or ','. Example: move 20tk to C6 C5"
        ),
    ),
    "enter": (
        t("enter {u} <HEX>", u=U),
        t("Bring a reinforcement onto the map (7). Example: enter 11pz A6"),
    ),
    "rebuild": (
        t("rebuild {u}", u=U),
        t("Flip a reduced corps to full strength in turns 5 and 7 (12.16). Example: rebuild 20tk"),
    ),
    "breakout": (
        t("breakout {u}", u=U),
        t("Attempt the turn-8 breakout of an out-of-supply unit (12.17). Example: breakout 57id"),
    ),
    "end": (
        t("end"),
        t("End your part of the current phase ('end phase' also works). Example: end"),
    ),
    "options": (
        t("options [{u}]", u=U),
        t(
            "List the orders you may give now, grouped by unit; with a unit, every order of "
            "that unit (each path, each attack). Example: options 20tk"
        ),
    ),
    "units": (
        t("units [<HEX> | soviet | german]"),
        t(
            "List the units by side and hex; those in one hex, or one side's, with their "
            "designations (sides also sov, ussr, ger, de). Example: units Smela"
        ),
    ),
    "supply": (
        t("supply"),
        t("Show the supply state of the units (section 6). Example: supply"),
    ),
}

__all__ = ["ENTRIES", "HELP_TEXTS", "U"]

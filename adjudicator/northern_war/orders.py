"""The orders, decisions and questions of the block game (the grammar reads them from text)."""

from __future__ import annotations

from dataclasses import dataclass

# rule 5.17: the kinds of action, in the order a player must perform them
KINDS = ("recon", "move", "siege", "policy", "replace")


@dataclass(frozen=True)
class Move:  # rule 5.25, section 7: blocks from one territory along a path of areas entered
    blocks: tuple[str, ...]
    path: tuple[str, ...]


@dataclass(frozen=True)
class Recon:  # rules 5.20-5.24
    area: str


@dataclass(frozen=True)
class Siege:  # rules 5.26-5.28, 7.10, N4
    area: str


@dataclass(frozen=True)
class Policy:  # rules 5.29-5.31, N10
    nation: str


@dataclass(frozen=True)
class Replace:  # rules 5.32-5.36, N8
    block: str


@dataclass(frozen=True)
class Winter:  # section 6: Charles XII and blocks with him, along a path
    blocks: tuple[str, ...]
    path: tuple[str, ...]


@dataclass(frozen=True)
class WinterNone:  # no winter campaign (the deadline default)
    pass


@dataclass(frozen=True)
class End:  # the end of one's actions (or of the winter campaign)
    pass


@dataclass(frozen=True)
class BattleAt:  # N3 a: the first player chooses the next battle
    area: str


@dataclass(frozen=True)
class Hit:  # N3 e: the owner chooses among equally strong blocks
    block: str


@dataclass(frozen=True)
class Retreat:  # N3 g
    block: str
    area: str


@dataclass(frozen=True)
class ReturnCharles:  # rule 4.9
    area: str


@dataclass(frozen=True)
class Blocks:  # the question: one's own block list (answered privately)
    pass


PlayerOrder = (
    Move
    | Recon
    | Siege
    | Policy
    | Replace
    | Winter
    | WinterNone
    | End
    | BattleAt
    | Hit
    | Retreat
    | ReturnCharles
)

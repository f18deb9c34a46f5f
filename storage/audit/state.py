"""The audit's records and the auditor's shared state: the report, an epoch, failure recording."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from storage.audit.export import GAME_END_KIND, ROW_FIELDS, SECRET_FIELD
from storage.dice import HEX64
from texts.i18n import t

ALLOWED_ROW_KEYS = frozenset(ROW_FIELDS + (SECRET_FIELD,))
PAYLOAD_KINDS = frozenset(("order", "epoch", "salt", "reveal", GAME_END_KIND, "undo", "rewind"))


@dataclass
class AuditReport:
    ok: bool
    rows: int
    first_failure: (
        dict[str, Any] | None
    )  # {"index" (None = the header), "problem", "expected", "found"}
    epochs_revealed: list[int]
    epochs_open: list[int]
    rolls_checked: int  # non-fixed public rolls recomputed from their revealed seed
    rolls_fixed: int
    stats: dict[
        str, Any
    ]  # stats.dice_stats: {"by_die": {"d6": group, ...}, "all", "by_side", "by_kind"}
    # None: the stats count every row; k: the log failed at row k, only rows 0..k-1 are counted
    # (0: none, the header or row 0 failed): nothing after a failure is shown as if trusted
    stats_rows: int | None = None
    rolls_pending: int = 0  # rolls of epochs whose seed is not revealed yet
    fixed: list[dict[str, Any]] = field(default_factory=list)  # {"index","actor","purpose","value"}
    hidden_revealed: bool = False
    hidden_checked: int = 0  # hidden draws recomputed and hidden values matched, at game end
    hidden_pending: int = 0  # hidden draws and values sealed until the game ends
    failures: list[dict[str, Any]] = field(
        default_factory=list
    )  # every problem found, first one first
    warnings: list[str] = field(default_factory=list)
    game: dict[str, Any] = field(
        default_factory=dict
    )  # name, game, game_uid, head_hash from the header


@dataclass
class _Epoch:
    number: int
    row: int
    commitment: str
    salts: list[str] = field(default_factory=list)
    first_draw_row: int | None = None
    last_n: int = 0
    # the public rolls, each (row, purpose, n, value, faces)
    rolls: list[tuple[int, str, int, int, int]] = field(default_factory=list)
    reveal_row: int | None = None
    seed: str | None = None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def die_label(faces: int) -> str:
    """The die in a problem's text (", d10"); nothing for a d6 (its texts stay as they were)."""
    return "" if faces == 6 else f", d{faces}"


def _is_hex64(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and len(value) == 64 and HEX64.issuperset(value)


class AuditState:
    """What the auditor's checks share while walking a log, and how they record a problem."""

    def __init__(self, header: object, rows: list[Any]) -> None:
        self.header: dict[str, Any] = (
            header if isinstance(header, dict) else {"_error": t("header is not an object")}
        )
        self.rows = rows
        # ((the row it shows at, rank, order found), the failure): sorted by the report
        self.failures: list[tuple[tuple[int, int, int], dict[str, Any]]] = []
        self.warnings: list[str] = []
        self.epochs: dict[int, _Epoch] = {}
        self.hidden_commitment: str | None = None
        self.hidden_commitment_row: int | None = None
        self.hidden_seed: str | None = None
        self.hidden_rolls: list[
            tuple[int, dict[str, Any], int, int]
        ] = []  # (row, record, epoch, n)
        self.hidden_values: list[tuple[int, str]] = []  # (row, commitment)
        self.secrets: dict[int, dict[str, object]] = {}  # row -> {commitment: value}
        self.fixed: list[dict[str, Any]] = []
        self.public: list[tuple[str, str, int, int]] = []  # (side, kind, value, faces), not fixed
        self.public_rows: list[int] = []  # the row of each of them
        self.rolls_checked = 0
        self.hidden_checked = 0
        self.hidden_pending = 0
        self.uid: str | None = None

    def fail(
        self,
        index: int | None,
        problem: str,
        expected: object = None,
        found: object = None,
        *,
        at: int | None = None,
        rank: int = 1,
    ) -> None:
        """Record a problem at row `index` (None: the header). Failures are ordered by `at` (the
        row position the problem shows at: the index, or for a header/setup disagreement row 0,
        -1 for the header alone), then `rank` (0: the chain itself, which is reported first)."""
        if at is None:
            at = -1 if index is None else index
        self.failures.append(
            (
                (at, rank, len(self.failures)),
                {"index": index, "problem": problem, "expected": expected, "found": found},
            )
        )

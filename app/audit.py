"""The audit of a game: its export, the checks of storage.audit, then a replay through the rules.

`verify_file` needs no database: it reads an exported JSONL file, audits it (chain, seeds, every
roll) and, when that holds, re-adjudicates the effective orders with the current rules code of
the export's game system, checking every row's events and state hash and the final state
against the header's `state_sha256`. `pbem audit NAME` and the chat `audit` run the same checks
on a stored game.

`player_export` is what a player gets in chat (`audit export`, `audit page`): every row, the open
dice epoch's too (its rows' chain and its commitment are checked now; its rolls are recomputed
once its seed is revealed, when the epoch closes: the page marks them "checkable after turn N"),
never an unrevealed seed, hidden information only once the game has ended. Decision: a game with hidden
information gives no player file before its end (Withheld): its chained order rows carry the
texts a side gave in private (`move lewenhaupt courland`, `discard 12`), which only that side
may read while the game runs, and a row cannot be cut out of the chain it is hashed into. `load_export` reads a file for
`pbem audit --verify`: a missing, unreadable, malformed or truncated file raises ExportUnreadable
with one clear sentence instead of a report of nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.core.errors import TextError
from adjudicator.core.i18n import lines, t, tn
from adjudicator.core.registry import UnknownSystem
from adjudicator.core.scenario import ScenarioError
from app import fold, freezes, games, rewinds, sealing, state_commitments
from app.export_file import ExportUnreadable, load_export
from storage import GameRecord, Store, audit_read
from storage.audit import (
    FORMAT,
    AuditReport,
    audit,
    export_lines,
    format_report,
    write_export,
)
from storage.audit.auditor import UNCHECKED
from storage.audit.page import page_html

THE_EXPORT = t("the export")


def export_doc(store: Store, name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The export header and rows (storage.audit format), read in one snapshot."""
    header, rows, _ = _export_doc(store, name)
    return header, rows


def _export_doc(store: Store, name: str) -> tuple[dict[str, Any], list[dict[str, Any]], GameRecord]:
    """export_doc, and the game as read with it (its snapshot: the hidden part's check)."""
    rec = store.load(name)
    ended = any(r.kind == "reveal-hidden" for r in rec.log)
    rows = [r.to_dict() | ({"secret": r.secret} if ended and r.secret else {}) for r in rec.log]
    header = {
        "format": FORMAT,
        "game_uid": rec.uid,
        "name": rec.name,
        "game": rec.game,
        "scenario_text": rec.scenario_text,
        "sandbox": rec.sandbox,
        "created_at": rec.created_at.isoformat(),
        "head_hash": rec.head_hash,
        "rows": rec.head_index + 1,  # the game row's count: a deleted last row shows
        "state_sha256": _final_digest(rec),
    }
    return header, rows, rec


def _final_digest(rec: GameRecord) -> str:
    """The hash of the final state an export records: of its public view where the game
    hides information (see app.sealing)."""
    return _digest_of(rec.game, rec.scenario_text, rec.snapshot)


def _digest_of(game: str, scenario_text: str, snapshot: Any) -> str:
    system = games.bind(game, scenario_text)
    return sealing.state_digest(system, system.state_from_json(snapshot))


def _stored_doc(
    store: Store, name: str
) -> tuple[dict[str, Any], list[dict[str, Any]], audit_read.WholeGame]:
    """export_doc's header and rows, from the game read whole once (storage/audit_read.py)."""
    whole = audit_read.read(store, name)
    g, rows = whole.game, whole.rows
    if any(r["kind"] == "reveal-hidden" for r in rows):  # ended: the secrets go with the rows
        for row, secret in zip(rows, whole.secrets, strict=True):
            if secret:
                row["secret"] = secret
    header = {
        "format": FORMAT,
        "game_uid": g.uid,
        "name": g.name,
        "game": g.game,
        "scenario_text": g.scenario_text,
        "sandbox": g.sandbox,
        "created_at": g.created_at.isoformat(),
        "head_hash": g.head_hash,
        "rows": g.head_index + 1,  # the game row's count: a deleted last row shows
        "state_sha256": _digest_of(g.game, g.scenario_text, whole.snapshot),
    }
    return header, rows, whole


def audit_game(store: Store, name: str) -> tuple[bool, str, AuditReport]:
    """(ok, text, report): the audit of the stored log, its replay through the rules, then the
    tables and the snapshot against the chain (a failure there freezes the game). The game is
    read once, in one snapshot; its chain is hashed once for the audit and the tables' check."""
    header, rows, whole = _stored_doc(store, name)
    failure = whole.failure
    if failure is None:
        store.frozen.pop(name, None)  # as Store.verify: the whole log holds
    else:
        store.freeze(name, failure)  # as Store.verify: every listener hears of it
    ok, text, report = check(
        header, rows, source=t("game {name}", name=repr(name)), chained=whole.chain
    )
    system = games.bind(str(header["game"]), header["scenario_text"])
    failure = (
        failure
        or _snapshot_failure(rows, header.get("state_sha256"))
        or _hidden_failure(whole.seeds, system, rows, whole.snapshot)
    )
    if failure is not None:
        store.frozen.setdefault(name, failure)
        return False, lines([text, freezes.frozen_text(failure, name)]), report
    if not system.hidden_information:
        tables = t(
            "Tables: every seat, moderator, seed, salt digest, roll counter and epoch column"
            " agrees with the chain; the snapshot is the state the log recorded."
        )
    elif sealing.STATE_HMAC in (_last_state_payload(rows) or {}):
        tables = t(
            "Tables: every seat, moderator, seed, salt digest, roll counter and epoch column"
            " agrees with the chain; the snapshot's public part is the state the log recorded,"
            " and its hidden part the state the last state row committed."
        )
    else:
        tables = t(
            "Tables: every seat, moderator, seed, salt digest, roll counter and epoch column"
            " agrees with the chain; the snapshot's public part is the state the log recorded"
            " (its hidden part is committed by no row yet)."
        )
    return ok, lines([text, tables]), report


def _last_state_payload(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    recorded = [r["payload"] for r in rows if "state_sha256" in (r.get("payload") or {})]
    return recorded[-1] if recorded else None


def _hidden_failure(
    seeds: list[dict[str, Any]], system: Any, rows: list[dict[str, Any]], snapshot: Any
) -> dict[str, Any] | None:
    """The snapshot (read with the rows) against the last state row's commitment, its hidden
    part (the host's audit holds the key: the latest hidden seed, of `seeds` read with them)."""
    if not system.hidden_information:
        return None
    hidden = [s for s in seeds if s["kind"] == "hidden"]
    seed = max(hidden, key=lambda s: s["epoch"])["seed"] if hidden else None
    return state_commitments.snapshot_failure(system, snapshot, rows, seed)


def _snapshot_failure(rows: list[dict[str, Any]], digest: Any) -> dict[str, Any] | None:
    recorded = [r for r in rows if "state_sha256" in (r.get("payload") or {})]
    if not recorded or recorded[-1]["payload"]["state_sha256"] == digest:
        return None
    at = recorded[-1]["index"]
    problem = t("the stored snapshot is not the state row {row} recorded", row=at)
    return {"index": at, "problem": problem}


def export(store: Store, name: str, path: str | Path) -> tuple[bool, str, AuditReport]:
    """Write the self-contained export file (never an unrevealed seed), then audit it."""
    header, rows = export_doc(store, name)
    unrevealed = [s["seed"] for s in store.dice_secrets(name) if not s["revealed"]]
    write_export(path, header, rows, forbidden=unrevealed)
    return check(header, rows, source=t("game {name}", name=repr(name)))


def export_data(store: Store, name: str) -> tuple[dict[str, Any], list[dict[str, Any]], bytes]:
    """(header, rows, the export's bytes) of the whole stored log, for the operator's page."""
    header, rows = export_doc(store, name)
    data = ("\n".join(export_lines(header, rows)) + "\n").encode()
    _refuse_unrevealed(store, name, data)
    return header, rows, data


def _refuse_unrevealed(store: Store, name: str, data: bytes) -> None:
    for secret in store.dice_secrets(name):
        if not secret["revealed"] and secret["seed"].encode() in data:
            raise ValueError(t("refusing to export: an unrevealed seed would appear in the file"))


def replay_check(
    header: dict[str, Any], rows: list[dict[str, Any]], source: str = THE_EXPORT
) -> tuple[bool, str]:
    """Re-adjudicate the effective orders of an audited log: (ok, a line saying so, and for a
    game with hidden information what was checked of its hidden state)."""
    ok, line, system, replayed = _replay(header, rows, source)
    if system is None or not ok:
        return ok, line
    hidden_ok, said = state_commitments.audit_lines(system, rows, replayed)
    return hidden_ok, lines([line, *said])


def _replay(
    header: dict[str, Any], rows: list[dict[str, Any]], source: str
) -> tuple[bool, str, Any, bool]:
    """(ok, the replay's line, the bound system or None, whether every order was replayed)."""
    try:
        system = games.bind(
            str(header.get("game")),
            header["scenario_text"],
            t("{source} (scenario)", source=source),
        )
    except UnknownSystem:
        game = repr(header.get("game"))
        return False, t("Replay: FAILED: unknown game {game}", game=game), None, False
    except (ScenarioError, KeyError, TypeError) as exc:
        why = t("Replay: FAILED: the scenario does not load: {error}", error=str(exc))
        return False, why, None, False
    try:
        state = fold.replay(system, rows, check=True)
    except fold.Sealed as exc:
        said = t(
            "Replay: waits for the end of the game: the log holds hidden draws, revealed "
            "then (the first at row {row}); every public check above holds.",
            row=exc.index,
        )
        return True, said, system, False
    except fold.ReplayMismatch as exc:
        said = t("Replay: FAILED at row {row}: {error}", row=exc.index, error=str(exc))
        return False, said, system, False
    n = len(fold.effective_orders(rows))
    expected = header.get("state_sha256")
    if expected is not None and not sealing.state_is(system, state, expected):
        failed = tn(
            "Replay: FAILED: the {n} effective orders give another final state than the one "
            "recorded (state_sha256 {digest})",
            "Replay: FAILED: the {n} effective orders give another final state than the one "
            "recorded (state_sha256 {digest})",
            n,
            digest=expected,
        )
        return False, failed, system, True
    if expected is not None:
        said = tn(
            "Replay: {n} effective orders re-adjudicated with the current rules: every event, "
            "state hash and the final state matches.",
            "Replay: {n} effective orders re-adjudicated with the current rules: every event, "
            "state hash and the final state matches.",
            n,
        )
        return True, said, system, True
    said = tn(
        "Replay: {n} effective orders re-adjudicated with the current rules: every event, "
        "state hash matches.",
        "Replay: {n} effective orders re-adjudicated with the current rules: every event, "
        "state hash matches.",
        n,
    )
    return True, said, system, True


def check(
    header: dict[str, Any],
    rows: list[dict[str, Any]],
    source: str = THE_EXPORT,
    chained: Any = UNCHECKED,
) -> tuple[bool, str, AuditReport]:
    """The audit report, then the replay (skipped when the audit already failed). chained:
    the rows' chain_failure where the caller has it (storage.audit.audit)."""
    report = audit(header, rows, chained)
    said = [format_report(report), rewinds.discards_line(rows)]  # re-rolls, counted
    if not report.ok:
        said.append(t("Replay: skipped (the log failed the audit above)."))
        return False, lines(said), report
    ok, line = replay_check(header, rows, source)
    return ok, lines([*said, line]), report


def verify_file(path: str | Path) -> tuple[bool, str]:
    """`pbem audit --verify FILE`: (ok, the report); ExportUnreadable for a file that is none."""
    header, rows, _ = load_export(path)
    ok, text, _ = check(header, rows, str(path))
    return ok, text


def open_epoch_row(rows: list[dict[str, Any]]) -> int | None:
    """The row that opened the dice epoch whose seed is not revealed yet, or None."""
    revealed = {r["payload"].get("epoch") for r in rows if r["kind"] == "reveal"}
    opened = [r for r in rows if r["kind"] == "epoch" and r["payload"].get("epoch") not in revealed]
    return opened[0]["index"] if opened else None


@dataclass(frozen=True)
class OpenEpoch:
    """The dice epoch still open in an export: its number, its turn (None: a game without
    turns) and the row that opened it; its rolls are checkable once it closes."""

    epoch: int
    turn: int | None
    row: int


class Withheld(TextError):
    """A running game with hidden information: no player file before its end (module doc)."""


def player_export(store: Store, name: str) -> tuple[bytes, OpenEpoch | None, int]:
    """(the export's bytes, the open dice epoch (None: none), the row count): every row, the open
    epoch's included (its seed stays secret: its rolls are checkable once it closes). Never an
    unrevealed seed; hidden values only after the end."""
    system = games.system_of(store, name)
    if system.hidden_information:
        rec = store.load(name, with_log=False)
        if not system.situation(system.state_from_json(rec.snapshot)).over:
            raise Withheld(
                t(
                    "{name} keeps hidden information, and its log holds the orders each side gave"
                    " in private: the audit files are given once the game has ended (then with every"
                    " hidden draw checked too). Until then the host checks it with `pbem audit {name}`.",
                    name=name,
                )
            )
    header, rows = export_doc(store, name)
    at = open_epoch_row(rows)
    still_open = None
    if at is not None:
        payload = rows[at]["payload"]
        turn = payload.get("turn")
        still_open = OpenEpoch(int(payload["epoch"]), turn if isinstance(turn, int) else None, at)
    data = ("\n".join(export_lines(header, rows)) + "\n").encode()
    _refuse_unrevealed(store, name, data)
    return data, still_open, len(rows)


def write_page(path: str | Path, data: bytes) -> None:
    """The offline audit page of an export's bytes (storage.audit.page)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(page_html(data), encoding="utf-8")
    tmp.replace(target)


__all__ = [
    "ExportUnreadable",
    "OpenEpoch",
    "Withheld",
    "audit_game",
    "check",
    "export",
    "export_data",
    "export_doc",
    "load_export",
    "open_epoch_row",
    "player_export",
    "replay_check",
    "verify_file",
    "write_page",
]

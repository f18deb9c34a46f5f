"""`pbem repair NAME`: rebuild a frozen game from the first bad row the full audit names.

- `repair(core, name, user, export=None, again=False)`: the first bad row is found as `pbem audit`
  finds it (app/repair_audit.py: the chain, the header, epochs and salts, every roll against its
  revealed seed, the replay of every order through the rules; then the caches). A bad chained
  row is cut: it and every row after it are dropped (no longer the chain anyone saw: the repair
  row lists their hashes and holds them whole), the state is replayed from the kept rows, every
  cache is rewritten from the chain (each row's epoch column too), and a chained `moderation` row
  with action "repair" records what was done; the open dice epoch is revealed and a fresh one
  opened (a seed that the dropped rows may have used is never used again). A bad cache alone
  drops nothing. Before it commits, the repair runs the full audit again on the rebuilt game,
  in its own transaction: when revealing the open epoch's seed shows an earlier kept row bad (a
  salt or die changed in a row whose epoch was still open), the repair starts over cutting
  there; when the audit would fail anyway, nothing is committed (CannotRepair, in one sentence).
- again (`--reapply`): the orders of the dropped rows are given again on the rebuilt state, with
  the dice their rows rolled (app/reapply.py); right after a repair that dropped orders, the
  orders of that repair's dropped rows.
- The database's append-only guards (storage/append_only.py) refuse the deletes: the repair lifts
  the log's and the seeds' inside its own transaction and restores every guard that is down
  before it commits, so no other connection sees the database unguarded; its row records it
  ("guards": the guards it found down, and those it lifted). A repair is also how a host puts
  back a guard that was dropped: the game's check then holds again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import col, delete, select

from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem
from app import fold, freezes, games, reapply, repair_audit, sealing
from app.context import Core
from app.reapply import Reapplied
from app.repair_audit import Bad
from storage import GameTx, Tampered, append_only, chain, trust
from storage.caches import fill_caches
from storage.engine import dump
from storage.models import DiceSecret, LogEntry
from storage.records import record

LIFTED = ("logentry", "dicesecret")  # the tables whose rows a repair drops or changes


@dataclass
class Repaired:
    """What a repair did: the first bad row the audit named (None: the log held), the last kept
    row, the dropped rows and their orders, the re-applied orders, the repair row, its payload."""

    bad: Bad | None
    from_row: int
    dropped: list[int]
    dropped_orders: list[int]
    reapplied: Reapplied | None
    logged_at: int
    payload: dict[str, Any]
    cut_more: Bad | None = None  # a bad row the repair's own reveal of a seed showed


class CannotRepair(ValueError):
    """The repair would not end with a game whose full audit passes: nothing was committed."""


class _CutEarlier(Exception):
    """The rebuilt game fails its audit at a kept row: try again, cutting there."""

    def __init__(self, bad: Bad) -> None:
        super().__init__(bad.problem)
        self.bad = bad


def repair(
    core: Core,
    name: str,
    user: str | None = None,
    export: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
    *,
    again: bool = False,
) -> Repaired:
    """Rebuild a game from its last good row as the full audit names it, or from an export's
    rows (its header and rows, already checked by the audit); again: re-apply the dropped
    orders (app/reapply.py). Commits only a game whose full audit passes (else CannotRepair)."""
    store = core.store
    system = games.system_of(store, name)
    forced: Bad | None = None
    while True:
        try:
            done = _attempt(core, system, name, user, export, again, forced)
            break
        except _CutEarlier as more:  # rolled back: cut at the earlier row this time
            forced = more.bad
        except Tampered as exc:  # a check the rebuild ran: said, never as the failure's dict
            why = exc.failure.get("problem")
            raise CannotRepair(t("cannot repair {name}: {why}", name=repr(name), why=why)) from exc
    done.cut_more = forced
    store._verified.discard(name)
    still = store.verify(name)
    if still is not None:  # said as the audit says it, never as the failure's dict
        raise CannotRepair(
            t(
                "game {name} still fails after the repair: row {row}: {problem}",
                name=repr(name),
                row=still.get("index"),
                problem=still.get("problem"),
            )
        )
    freezes.thawed(store, core.now, name)  # every process: the next freeze is told again
    return done


def _attempt(
    core: Core,
    system: GameSystem,
    name: str,
    user: str | None,
    export: tuple[dict[str, Any], list[dict[str, Any]]] | None,
    again: bool,
    forced: Bad | None,
) -> Repaired:
    """One repair in one transaction; raises (rolling it back) unless its audit passes."""
    store = core.store
    with store._session() as s, s.begin():
        g = store._game(s, name, lock=True)  # first: a lift waits for readers, never for him
        bad = repair_audit.first_bad(s, g, system)  # before the lift: the guards as found
        down = [f"{p.guard.name} {p.how}" for p in append_only.problems(s.connection())]
        lifted = append_only.lift(s.connection(), LIFTED)  # restored below, in this transaction
        entries = list(
            s.exec(select(LogEntry).where(LogEntry.game_id == g.id).order_by(col(LogEntry.index)))
        )
        dropped_rows: list[dict[str, Any]] = []
        if export is None:
            cuts = [b.index for b in (bad, forced) if b is not None and b.cut]
            cut = min(cuts, default=len(entries))
            if cut == 0:
                raise CannotRepair(
                    t("game {name}: row 0 itself is bad; repair it from an export", name=repr(name))
                )
            dropped_rows = [_as_exported(e) for e in entries[cut:]]
            if dropped_rows:
                s.exec(
                    delete(LogEntry).where(
                        col(LogEntry.game_id) == g.id, col(LogEntry.index) >= cut
                    )
                )
            kept = entries[:cut]
            dropped = [str(r["hash"]) for r in dropped_rows]
            source = f"repair from row {cut - 1}"
        else:
            kept, dropped = _from_export(s, g, entries, export)
            cut = len(kept)
            source = f"repair from an export of {len(kept)} rows"
        s.info.pop(("pbem_trust", g.id), None)  # the rows this transaction's checks had read
        payload, turn, state = _rebuild(s, g, system, kept, bad)
        payload["dropped"] = dropped
        dice = _dice(g, kept)
        given = dropped_rows
        if again and not dropped_rows and export is None:  # the orders the last repair dropped
            given, dice = _prior(kept, g.uid, dice)
        if given:  # whole: the audit checks a re-applied row's rolls against them
            payload["dropped_rows"] = given
        payload["guards"] = {"down": down, "lifted": lifted}
        g.frame_row = g.frame_before = None  # rows the marks name may be gone (app/map_now.py)
        tx = GameTx(s, g)
        try:  # the rebuilt full state, committed (app/sealing.py)
            payload |= sealing.tx_fields(system, tx, system.state_to_json(state))
        except (Tampered, LookupError):  # no key: the snapshot is checked by replay instead
            pass
        row = tx.append("moderation", "moderator", source, payload, user=user)
        k = g.epoch
        if k:  # a seed the dropped rows may have used never rolls again
            try:
                seed = tx.seed()  # checked against its commitment: a changed one is lost
                if dice.epoch == k:
                    dice.seed = seed
            except Tampered as exc:
                why = exc.failure["problem"]
                raise CannotRepair(
                    t("cannot repair {name}: {why}", name=repr(name), why=why)
                ) from exc
            except LookupError as exc:  # the host deleted it: its commitment is all that is left
                raise CannotRepair(
                    t(
                        "cannot repair {game}: the seed of the open dice epoch {epoch} is missing"
                        " from the database",
                        game=repr(name),
                        epoch=k,
                    )
                ) from exc
            tx.reveal_epoch()
            tx.open_epoch(turn, core.seeds())
        done = None
        if again and given:
            kept_rows = [trust.entry_row(e) for e in kept if e.index < given[0]["index"]]
            done, state = reapply.reapply(tx, system, state, kept_rows, given, dice, core.seeds)
        tx.finish()
        append_only.restore(s.connection())  # the lifted ones, and any a host dropped
        s.flush()
        after = repair_audit.first_bad(s, g, system)
        if after is not None:
            if after.cut and export is None and after.index < cut:
                raise _CutEarlier(after)
            raise CannotRepair(
                t(
                    "cannot repair {game}: the rebuilt game would still fail its audit at row"
                    " {row}: {problem}; nothing was changed",
                    game=repr(name),
                    row=after.index,
                    problem=after.problem,
                )
            )
        return Repaired(
            bad=bad,
            from_row=payload["from_row"],
            dropped=[r["index"] for r in dropped_rows],
            dropped_orders=reapply.dropped_orders(given),
            reapplied=done,
            logged_at=row.index,
            payload=payload,
        )


def _as_exported(e: LogEntry) -> dict[str, Any]:
    """A stored row as its export holds it (the chained fields and the links; no secret)."""
    row = trust.entry_row(e)
    return {f: row.get(f) for f in (*chain.CHAINED_FIELDS, *chain.LINK_FIELDS)}


def _prior(
    kept: list[LogEntry], uid: str, none: reapply.Dice
) -> tuple[list[dict[str, Any]], reapply.Dice]:
    """The rows the last repair dropped, when nothing but its dice epoch's rows followed it
    (`pbem repair NAME --reapply` right after a `pbem repair NAME`), and the dice they may use:
    the epoch it revealed, with the seed its reveal row published."""
    rows = [trust.entry_row(e) for e in kept]
    at = next((r for r in reversed(rows) if r["kind"] == "moderation"), None)
    p = at.get("payload") if at is not None else None
    if at is None or not isinstance(p, dict) or p.get("action") != "repair":
        return [], none
    after = rows[at["index"] + 1 :]
    if any(r["kind"] not in ("reveal", "epoch") for r in after):
        return [], none  # an order or another change since: re-applying now would reorder
    revealed = next((r for r in after if r["kind"] == "reveal"), None)
    given = [r for r in p.get("dropped_rows") or [] if isinstance(r, dict)]
    if revealed is None:
        return given, none
    k, seed = revealed["payload"].get("epoch"), revealed["payload"].get("seed")
    before = [e for e in kept if e.index < at["index"]]
    dice = _dice_of(k, before, uid)
    dice.seed = seed
    return given, dice


def _dice(g: Any, kept: list[LogEntry]) -> reapply.Dice:
    """The dice of the open epoch at the cut (module doc of app/reapply.py)."""
    return _dice_of(g.epoch, kept, g.uid)


def _dice_of(k: int, kept: list[LogEntry], uid: str) -> reapply.Dice:
    """The dice a re-applied order may use: the open epoch at the cut (its seed is filled in
    when the repair reveals it), its kept salts, and the last number its kept rows drew."""
    salts: list[str] = []
    last = 0
    for e in kept:
        row = trust.entry_row(e)
        p = row.get("payload")
        if not isinstance(p, dict):
            continue
        if row["kind"] == "salt" and p.get("epoch") == k and isinstance(p.get("salt"), str):
            salts.append(p["salt"])
        for r in p.get("rolls") or [] if isinstance(p.get("rolls"), list) else []:
            if isinstance(r, dict) and r.get("epoch") == k and isinstance(r.get("n"), int):
                last = max(last, r["n"])
    return reapply.Dice(k, None, salts, last, uid)


def _from_export(
    s: Any, g: Any, entries: list[LogEntry], export: tuple[dict[str, Any], list[dict[str, Any]]]
) -> tuple[list[LogEntry], list[str]]:
    """Replace the stored rows by the export's (a stored row's off-chain secret is kept)."""
    header, rows = export
    if header.get("game_uid") != g.uid:
        raise ValueError(
            t(
                "the export is of game uid {uid}, not {game_uid}",
                uid=header.get("game_uid"),
                game_uid=g.uid,
            )
        )
    secrets = {e.hash: e.secret for e in entries}
    s.exec(delete(LogEntry).where(col(LogEntry.game_id) == g.id))
    s.flush()
    open_epoch = 0
    kept = []
    for row in rows:
        p = row["payload"]
        if row["kind"] == "epoch":
            open_epoch = p.get("epoch", 0)
        epoch = trust.row_epoch(row)
        if epoch is trust.ANY:
            epoch = open_epoch or None
        secret = row.get("secret")
        e = LogEntry(
            game_id=g.id,
            **{f: row[f] for f in chain.CHAINED_FIELDS if f != "payload"},
            payload=dump(p),
            prev_hash=row["prev_hash"],
            hash=row["hash"],
            epoch=epoch,
            secret=dump(secret) if secret is not None else secrets.get(row["hash"]),
        )
        s.add(e)
        kept.append(e)
        if row["kind"] == "reveal":
            open_epoch = 0
    s.flush()
    exported = {r["hash"] for r in rows}
    return kept, [e.hash for e in entries if e.hash not in exported]


def _rebuild(
    s: Any, g: Any, system: GameSystem, kept: list[LogEntry], bad: Bad | None
) -> tuple[dict[str, Any], int, Any]:
    """The state, the head and every cache from the kept rows, each row's epoch column
    included: (the repair row's payload, the turn of the rebuilt state, the state)."""
    rows = [trust.entry_row(e) for e in kept]
    _epoch_columns(s, kept, rows)
    state = fold.replay(system, fold.with_secrets([record(e) for e in kept]))
    _restore_epochs(s, g, rows)
    g.head_index, g.head_hash = rows[-1]["index"], rows[-1]["hash"]
    g.snapshot = dump(system.state_to_json(state))
    fill_caches(s, g, rows)
    s.add(g)
    s.flush()
    payload = {
        "action": "repair",
        "why": None if bad is None else str(bad.problem),
        "first_bad_row": None if bad is None else bad.index,
        "from_row": rows[-1]["index"],
        "state_sha256": sealing.state_digest(system, state),
    }
    return payload, system.situation(state).turn or 1, state


def _epoch_columns(s: Any, kept: list[LogEntry], rows: list[dict[str, Any]]) -> None:
    """Each kept row's epoch column as its chained payload gives it (a cache of the payload;
    an order without draws keeps the epoch open at it)."""
    open_epoch = 0
    for e, row in zip(kept, rows, strict=True):
        if row["kind"] == "epoch" and isinstance(row.get("payload"), dict):
            open_epoch = row["payload"].get("epoch", 0)
        epoch = trust.row_epoch(row)
        if epoch is trust.ANY:
            epoch = open_epoch or None
        if e.epoch != epoch:
            e.epoch = epoch
            s.add(e)
        if row["kind"] == "reveal":
            open_epoch = 0


def _restore_epochs(s: Any, g: Any, kept: list[dict[str, Any]]) -> None:
    """The dice bookkeeping of the kept rows: the open epoch as its row committed it."""
    opened = {r["payload"]["epoch"]: r for r in kept if r["kind"] == "epoch"}
    revealed = {r["payload"]["epoch"] for r in kept if r["kind"] == "reveal"}
    last = max(opened, default=0)
    for secret in s.exec(select(DiceSecret).where(DiceSecret.game_id == g.id)):
        if secret.epoch > last:
            s.delete(secret)  # committed by a dropped row only
        elif secret.kind == "epoch":
            secret.revealed = secret.epoch in revealed
            s.add(secret)
    s.flush()
    k = last if last and last not in revealed else 0
    g.epoch = k
    g.epoch_turn = opened[k]["payload"].get("turn") if k else None
    g.epoch_commitment = opened[k]["payload"].get("commitment") if k else None
    g.epoch_next_n, g.salt_digest = 1, None


__all__ = ["LIFTED", "CannotRepair", "Repaired", "repair"]

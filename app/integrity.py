"""A game that fails its checks is frozen; moderators are told; `pbem repair` brings it back.

- `check_snapshot(tx, system, state)`, before every order (constant time): the snapshot hashes to
  the state hash the last state-recording row chained (of the public view for a system with
  hidden information, app/sealing.py state_digest), and that row is a chained row.
- the store tells the moderators once per freeze (app/freezes.py): a post to every chat bound to
  the game, naming the first bad row and pinging the moderators the chain names; the freeze is
  recorded in the database, so no other process posts it again, and a repair closes it.
- `repair(core, name, user)`: rebuild from the last good row. The rows from the first bad one on
  are dropped (they are no longer the chain anyone saw: their hashes are listed in the repair
  row), the state is replayed from the kept rows, every cache is rewritten from the chain, and a
  chained `moderation` row with action "repair" records what was done; the open dice epoch is
  revealed and a fresh one opened (a seed that the dropped rows may have used is never used again).
  The database's append-only guards (storage/append_only.py) refuse the deletes: the repair lifts
  the log's and the seeds' inside its own transaction and restores every guard that is down
  before it commits, so no other connection sees the database unguarded; its row records it
  ("guards": the guards it found down, and those it lifted). A repair is also how a host puts
  back a guard that was dropped: the game's check then holds again.
- `expect_head(rows, text)`: whether the log still holds a head hash a player kept from a post
  (app/hashes.py; a prefix of at least 20 hex characters, as posts show it, is enough).
"""

from __future__ import annotations

from typing import Any

from sqlmodel import col, delete, select

from adjudicator.core.i18n import t
from adjudicator.core.system import GameSystem
from app import fold, freezes, games, sealing
from app.context import Core
from app.hashes import expect_head, parse_head
from storage import GameTx, Tampered, append_only, chain, trust
from storage.caches import fill_caches
from storage.engine import dump
from storage.models import DiceSecret, LogEntry
from storage.records import record

FROZEN = "frozen"
LIFTED = ("logentry", "dicesecret")  # the tables whose rows a repair drops or changes


def check_snapshot(tx: GameTx, system: GameSystem, state: Any) -> None:
    """The snapshot is the state the log recorded last (Tampered names the row, if not)."""
    row = tx.state_row()
    if row is None:
        return
    if trust.chained_row(tx.s, tx.g, row.hash) is None:
        raise Tampered(
            tx.name, {"index": row.index, "problem": t("row {row} is not chained", row=row.index)}
        )
    recorded = row.payload.get("state_sha256")
    if sealing.snapshot_digest(system, tx.g.snapshot, state) != recorded:
        raise Tampered(
            tx.name,
            {
                "index": row.index,
                "problem": t(
                    "the stored snapshot is not the state row {row} recorded "
                    "(state_sha256 {digest}...): the snapshot was changed",
                    row=row.index,
                    digest=str(recorded)[:12],
                ),
            },
        )


def checked_state(tx: GameTx, system: GameSystem) -> Any:
    """The snapshot's state, once it is known to be the state the log recorded."""
    try:
        state = system.state_from_json(tx.snapshot)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        row = tx.state_row()
        at = row.index if row is not None else tx.head_index
        problem = t(
            "the stored snapshot is no state of the game ({error}: {why})",
            error=type(exc).__name__,
            why=str(exc),
        )
        raise Tampered(tx.name, {"index": at, "problem": problem}) from exc
    check_snapshot(tx, system, state)
    return state


def repair(
    core: Core,
    name: str,
    user: str | None = None,
    export: tuple[dict[str, Any], list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """Rebuild a game from its last good row, or from an export's rows (its header and rows,
    already checked by the audit); the payload of the chained repair row."""
    store = core.store
    system = games.system_of(store, name)
    failure = store.verify(name)
    with store._session() as s, s.begin():
        g = store._game(s, name, lock=True)  # first: a lift waits for readers, never for him
        down = [f"{p.guard.name} {p.how}" for p in append_only.problems(s.connection())]
        lifted = append_only.lift(s.connection(), LIFTED)  # restored below, in this transaction
        entries = list(
            s.exec(select(LogEntry).where(LogEntry.game_id == g.id).order_by(col(LogEntry.index)))
        )
        rows = [trust.entry_row(e) for e in entries]
        if export is None:
            bad = chain.chain_failure(rows)
            cut = len(rows) if bad is None else bad["index"]
            if cut == 0:
                raise ValueError(
                    t("game {name}: row 0 itself is bad; repair it from an export", name=repr(name))
                )
            dropped: list[str] = [str(r.get("hash")) for r in rows[cut:]]
            if dropped:
                s.exec(
                    delete(LogEntry).where(
                        col(LogEntry.game_id) == g.id, col(LogEntry.index) >= cut
                    )
                )
            kept = entries[:cut]
            source = f"repair from row {cut - 1}"
        else:
            kept, dropped = _from_export(s, g, entries, export)
            source = f"repair from an export of {len(kept)} rows"
        payload, turn = _rebuild(s, g, system, kept, failure)
        payload["dropped"] = dropped
        payload["guards"] = {"down": down, "lifted": lifted}
        tx = GameTx(s, g)
        tx.append("moderation", "moderator", source, payload, user=user)
        if g.epoch:  # a seed the dropped rows may have used never rolls again
            try:
                tx.seed()  # checked against its commitment: a changed seed is lost for good
            except Tampered as exc:
                why = exc.failure["problem"]
                raise ValueError(
                    t("cannot repair {name}: {why}", name=repr(name), why=why)
                ) from exc
            tx.reveal_epoch()
            tx.open_epoch(turn, core.seeds())
        tx.finish()
        append_only.restore(s.connection())  # the lifted ones, and any a host dropped
    store._verified.discard(name)
    still = store.verify(name)
    if still is not None:  # said as the audit says it, never as the failure's dict
        raise ValueError(
            t(
                "game {name} still fails after the repair: row {row}: {problem}",
                name=repr(name),
                row=still.get("index"),
                problem=still.get("problem"),
            )
        )
    freezes.thawed(store, core.now, name)  # every process: the next freeze is told again
    return payload


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
    s: Any, g: Any, system: GameSystem, kept: list[LogEntry], failure: dict[str, Any] | None
) -> tuple[dict[str, Any], int]:
    """The state, the head and every cache from the kept rows: (the repair row's payload, the
    turn of the rebuilt state)."""
    rows = [trust.entry_row(e) for e in kept]
    state = fold.replay(system, fold.with_secrets([record(e) for e in kept]))
    _restore_epochs(s, g, rows)
    g.head_index, g.head_hash = rows[-1]["index"], rows[-1]["hash"]
    g.snapshot = dump(system.state_to_json(state))
    fill_caches(s, g, rows)
    s.add(g)
    s.flush()
    payload = {
        "action": "repair",
        "why": None if failure is None else failure["problem"],
        "from_row": rows[-1]["index"],
        "state_sha256": sealing.state_digest(system, state),
    }
    return payload, system.situation(state).turn or 1


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


__all__ = [
    "FROZEN",
    "check_snapshot",
    "checked_state",
    "expect_head",
    "parse_head",
    "repair",
]

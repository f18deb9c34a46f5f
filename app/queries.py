"""Questions about a game, answered from one read: status, log, rolls, the audit, and the
system's own questions (units, options, preview, help). Nothing here writes."""

from __future__ import annotations

import re
from typing import Any

from adjudicator.core import commands as C
from adjudicator.core.errors import Rejection
from adjudicator.core.events import Viewer
from adjudicator.core.i18n import cat, lines, t, tn
from adjudicator.core.system import GameSystem
from app import audit, edits, fold, freezes, games, identities, names, roles
from app.context import Actor, Core
from app.replies import Reply, fair_lines, row_details
from app.summary import free_seats_line
from storage import GameRecord, Store, clocks

DEFAULT_ROLLS = 10


def answer(core: Core, game: str, system: GameSystem, actor: Actor, query: Any, line: str) -> Reply:
    store = core.store
    if isinstance(query, C.Log):  # the public log
        text = log_text(store, game, query.count)
        return Reply(True, lines([text, *freeze_lines(store, game)]), line=line)
    if isinstance(query, C.Rolls):
        text = rolls_text(store, game, query.count or DEFAULT_ROLLS)
        return Reply(True, lines([text, *freeze_lines(store, game)]), line=line)
    rec = store.load(game, with_log=False)
    if isinstance(query, C.Audit):
        return _audit(core, game, rec, actor, line)
    failure = store.roles_failure(game)  # the roles a question is answered by, as chained
    if failure is not None:
        return _frozen_answer(game, system, rec, query, line, failure)
    state = system.state_from_json(rec.snapshot)
    also = identities.partners(store, actor.user)  # a linked account asks as its player
    who = roles.query_actor(system, rec, state, actor.side, actor.user, also)
    if system.hidden_information and _is_own(system, query) and who not in _sides(system):
        raise Rejection(
            "not-your-side",
            t(
                "in a game with hidden information only a side's own player asks this (it shows "
                "what his side may do); ask it as your side, in a private chat"
            ),
            None,
        )
    viewer = viewer_of(system, rec, state, actor, who, also)
    found = system.answer(system.view(state, viewer), who, query)
    text = found.text
    if isinstance(query, C.Status):
        text = lines([text, *fair_lines(rec, query.full), *trust_lines(store, system, rec)])
    if isinstance(query, C.Status | C.Help):
        text = lines([text, *freeze_lines(store, game)])
    private = _is_own(system, query) or (
        system.hidden_information and bool(viewer.sides) and not viewer.over
    )  # an answer from a side's own view is for its player only
    return Reply(True, text, combat=found.detail, line=line, private=private)


def freeze_lines(store: Store, game: str) -> list[str]:
    """The FROZEN notice, if the game is frozen (as this process or the database knows it):
    a question in a frozen game is answered, and says so."""
    failure = freezes.failure_of(store, game)
    return [] if failure is None else [freezes.frozen_text(failure, game)]


def _frozen_answer(
    game: str, system: GameSystem, rec: GameRecord, query: Any, line: str, failure: dict[str, Any]
) -> Reply:
    """A question while the seat or moderator table disagrees with the chain: no seat and no
    role of the tables is trusted, so it is answered as the public sees the game (status, help
    and the system's public questions), with the freeze named; a question about a side's own
    possibilities is refused with the freeze's reason."""
    notice = freezes.frozen_text(failure, game)
    if _is_own(system, query):
        raise Rejection("frozen", notice, None)
    try:
        state = system.state_from_json(rec.snapshot)
    except (KeyError, TypeError, ValueError, AttributeError):  # the snapshot too: say the freeze
        return Reply(True, notice, line=line)
    public = Viewer.of([], over=system.situation(state).over)
    found = system.answer(system.view(state, public), "spectator", query)
    shown = (
        [found.text, *fair_lines(rec, query.full)] if isinstance(query, C.Status) else [found.text]
    )
    return Reply(True, lines([*shown, notice]), combat=found.detail, line=line)


def _sides(system: GameSystem) -> set[str]:
    return {s.id for s in system.sides}


def _is_own(system: GameSystem, query: Any) -> bool:
    """A question about a side's own possibilities (options, preview)."""
    shared = C.Command | C.Status | C.Log | C.Help
    return not isinstance(query, shared) and system.is_private(query)


def viewer_of(
    system: GameSystem,
    rec: GameRecord,
    state: Any,
    actor: Actor,
    who: str,
    also: list[str] | None = None,
) -> Viewer:
    """Who asks, as a viewer: the sides of his seats (the operator: the side he speaks for);
    a moderator sees only what is public, plus his own seat's, while the game runs."""
    if actor.user is None:
        sides = [who] if who in _sides(system) else []
    else:
        me = {actor.user, *(also or ())}
        sides = [s for s, u in rec.seats.items() if u in me]
    over = system.situation(state).over
    me = {actor.user, *(also or ())}
    return Viewer.of(sides, moderator=bool(me & set(rec.moderators)), over=over)


def _audit(core: Core, game: str, rec: GameRecord, actor: Actor, line: str) -> Reply:
    me = {actor.user, *identities.partners(core.store, actor.user)}
    if actor.user is not None and not me & set(rec.moderators):
        raise Rejection(
            "moderator-only",
            t(
                "{user} is not a moderator of this game: the chat audit "
                "is for moderators; players get the files to check themselves with `audit export`"
                " (then `pbem audit --verify`) or `audit page` (a page any browser checks it in)",
                user=actor.user,
            ),
            None,
        )
    ok, text, _ = audit.audit_game(core.store, game)
    error = None if ok else {"code": "audit-failed", "message": text, "rule": None}
    return Reply(ok, text, error, line=line)


def status(
    store: Store, game: str, system: GameSystem, view: str | None = None, full: bool = False
) -> str:
    """The situation and the fair-dice lines: what `status` answers the operator, as the side
    `view` (None: the public) may see it; full: the hashes whole."""
    rec = store.load(game, with_log=False)
    state = system.state_from_json(rec.snapshot)
    to_move = system.situation(state).to_move
    shown = system.view(state, games.viewer_of(system, state, view))
    text = system.answer(shown, to_move[0] if to_move else "moderator", C.Status()).text
    return lines(
        [
            text,
            *fair_lines(rec, full),
            *trust_lines(store, system, rec),
            *freeze_lines(store, game),
        ]
    )


def trust_lines(store: Store, system: GameSystem, rec: GameRecord) -> list[str]:
    """What `status` adds to the fair-dice lines: the salts the open epoch has received, and
    the free seats of a started game (filled only by a moderator's `seat`)."""
    said: list[str] = []
    if rec.epoch:  # no line while the epoch has received none
        salts = [
            t("{salt} ({side})", salt=repr(r.payload.get("salt")), side=r.actor)
            for r in store.log(rec.name)
            if r.kind == "salt" and r.payload.get("epoch") == rec.epoch
        ]
        if salts:
            said.append(
                t(
                    "Salts received for epoch {epoch}: {salts}.",
                    epoch=rec.epoch,
                    salts=cat(*salts, sep=", "),
                )
            )
    free = free_seats(store, system, rec.name, rec.seats)
    if free:
        said.append(free_seats_line(system, free))
    return said


def free_seats(
    store: Store, system: GameSystem, game: str, seats: dict[str, str | None]
) -> list[str]:
    """The sides nobody plays in a game that has started (a chat game: before its start a
    free side is taken with `join`; the operator's games have no seats at all)."""
    if clocks.load(store, game).started_at is None:
        return []
    return [s.id for s in system.sides if not seats.get(s.id)]


SEALED_ORDER = t("(its order, as its side gave it: not shown until the game ends)")


def log_text(
    store: Store, game: str, count: int | None = None, viewer: Viewer | None = None
) -> str:
    """The log, a row a line (with its details indented), users by the names the chats know."""
    out = []
    for row in log_doc(store, game, count, viewer):
        who = (
            t("{side} ({user})", side=row["actor"], user=row["user_name"])
            if row["user"]
            else row["actor"]
        )
        said = t("{row}. {who}: {text}", row=row["index"], who=_actor(who), text=_row_text(row))
        if row["kind"] == "order" and not row["effective"]:
            said = t("{line}  [undone or rewound]", line=said)
        out.append(said)
        out += [t("    {line}", line=line) for line in row["details"]]
    return lines(out)


_SYSTEM_ROWS = {  # the texts the store writes for its own rows (storage.game_tx), as they read
    "epoch": re.compile(r"dice epoch (\d+) for turn (-?\d+)"),
    "reveal": re.compile(r"dice epoch (\d+) ends"),
}


def _row_text(row: dict[str, Any]) -> str:
    """A row's text as a chat reads it: the store's own rows said in the chat's language (the
    stored text stays as it is); an order's is its canonical text."""
    text: str = row["text"]
    if text in _PLAIN_ROWS:
        return _PLAIN_ROWS[text]
    found = _SYSTEM_ROWS.get(row["kind"])
    match = found.fullmatch(text) if found else None
    if found is None or match is None:
        return text
    if row["kind"] == "epoch":
        return t("dice epoch {epoch} for turn {turn}", epoch=match[1], turn=match[2])
    return t("dice epoch {epoch} ends", epoch=match[1])


_PLAIN_ROWS = {
    "new game": t("new game"),
    "hidden seed revealed": t("hidden seed revealed"),
    edits.SEALED_TEXT: t("edit (sealed: it sets a hidden value, shown when the game ends)"),
}


def _actor(who: str) -> str:
    return t("system") if who == "system" else who


def log_doc(
    store: Store, game: str, count: int | None = None, viewer: Viewer | None = None
) -> list[dict[str, Any]]:
    """The log rows as documents (`pbem log --json`): index, kind, actor, user (the id) and
    user_name (the display name the chats know, else the id), text, details (the lines a row
    tells, private ones sealed but for `viewer`), effective, created_at, hash. User ids inside
    the texts are shown by their names too."""
    rows = store.log(game)
    effective = {r["index"] for r in fold.effective_orders([r.to_dict() for r in rows])}
    shown = rows if count is None else rows[-count:] if count > 0 else []
    seer = viewer or Viewer.public()
    hidden = games.system_of(store, game).hidden_information and not seer.over

    def sealed(row: Any) -> bool:  # an order's text may name what only its side knows
        return hidden and row.kind == "order" and row.actor not in seer.sides

    details = {row.index: row_details(row, viewer) for row in shown}
    ids = {row.user for row in shown if row.user}
    for row in shown:
        ids.update(names.USER_ID.findall(" ".join([row.text, *details[row.index]])))
    known = names.of_users(store, sorted(ids))

    def opened(row: Any) -> str:  # a secret edit's text, once the game is over (app/edits.py)
        if row.payload.get("sealed_order") and seer.over:
            return edits.opened_text(row) or row.text
        return str(row.text)

    def named(text: str) -> str:  # (a text with no user id keeps its translations)
        if not names.USER_ID.search(text):
            return text
        return names.USER_ID.sub(lambda m: known.get(m.group(1), m.group(1)), text)

    return [
        {
            "index": row.index,
            "kind": row.kind,
            "actor": row.actor,
            "user": row.user,
            "user_name": known.get(row.user, row.user) if row.user else None,
            "text": SEALED_ORDER if sealed(row) else named(opened(row)),
            "details": [named(line) for line in details[row.index]],
            "effective": row.kind != "order" or row.index in effective,
            "created_at": row.created_at,
            "hash": row.hash,
        }
        for row in shown
    ]


def rolls_text(store: Store, game: str, count: int = DEFAULT_ROLLS) -> str:
    found = [(row, r) for row in store.log(game) for r in row.rolls]
    if not found:
        return t("No dice rolled yet.")
    said = [
        tn(
            "The last {shown} of {n} rolls:",
            "The last {shown} of {n} rolls:",
            len(found),
            shown=min(count, len(found)),
        )
    ]
    for row, r in found[-count:]:
        if r.get("fixed"):
            how = t("fixed by a moderator (not random)")
        elif r.get("hidden"):
            how = t(
                "epoch {epoch}, n {n}, hidden until the game ends",
                epoch=r.get("epoch"),
                n=r.get("n"),
            )
        else:
            how = t("epoch {epoch}, n {n}", epoch=r.get("epoch"), n=r.get("n"))
        value = "?" if r.get("value") is None else r["value"]
        said.append(
            t(
                "row {row} {side}: {purpose} = {value} ({how})",
                row=row.index,
                side=row.actor,
                purpose=r["purpose"],
                value=value,
                how=how,
            )
        )
    return lines(said)


__all__ = [
    "DEFAULT_ROLLS",
    "answer",
    "freeze_lines",
    "log_doc",
    "log_text",
    "rolls_text",
    "status",
]

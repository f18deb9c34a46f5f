"""GameService: the one path every front end (terminal, Discord, Telegram, demo) goes through.

message text -> grammar lines -> for each line: a question is answered from a read of the game;
anything that changes the game runs in ONE store transaction (Store.transact): the idempotency
key is looked up, the user's role and seat are checked, the engine applies the order with the
open epoch's committed dice, and the log rows (order, then any epoch reveal/commitment), the new
snapshot and the dice counter commit together. On a conflict the store runs it again on a fresh
read, so a second writer never applies an order against a stale state.

Who may do what (per game): a player (seated on a side) gives orders for his side only; a
moderator (the creator is the first) gives moderator commands; anyone else is a spectator and
only asks questions. `user=None` is the trusted local operator of the command line, who speaks as
the side given (`--as`). Every moderator action is a chained log row naming who and why.
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator import grammar
from adjudicator.core import commands as C
from adjudicator.core.dice import DiceExhausted
from adjudicator.core.errors import Rejection
from adjudicator.hells_gate import orders as O
from adjudicator.hells_gate.rules import HellsGate
from adjudicator.hells_gate.scenario import Scenario, parse_scenario
from adjudicator.hells_gate.state import GameState
from adjudicator.loader import default_scenario_text
from bots import fold, images
from bots.fold import ReplayMismatch
from storage import Conflict, GameRecord, GameTx, LogRecord, Store, state_hash
from storage import audit as auditing
from storage import dice as committed

log = logging.getLogger(__name__)

GAME_TYPE = "hells-gate"
DEFAULT_SCENARIO_SOURCE = "hells_gate/scenario.toml"
SIDES = ("soviet", "german")
EXPORT_FORMAT = auditing.FORMAT
PLAYER_COMMANDS = (*O.PLAYER_ORDERS, C.Salt, C.Undo)
QUERIES = (*O.QUERIES, *C.SERVICE_QUERIES)
DEFAULT_ROLLS = 10

__all__ = ["GameService", "ReplayMismatch", "Reply"]


@dataclass
class Reply:
    """The answer to one line of a message."""

    ok: bool
    reply: str
    error: dict | None = None  # {"code", "message", "rule"}
    events: list[dict] = field(default_factory=list)
    combat: dict | None = None
    line: str = ""  # the line this answers (not part of the JSON document)
    log_index: int | None = None  # the last log row this line wrote
    head_hash: str | None = None  # the log's head hash after it
    duplicate: bool = False  # a retried delivery: the original reply, nothing applied again

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "reply": self.reply,
            "error": self.error,
            "events": self.events,
            "combat": self.combat,
            "log_index": self.log_index,
            "head_hash": self.head_hash,
        }


@dataclass(frozen=True)
class _Game:
    scenario: Scenario
    rules: HellsGate
    lexicon: grammar.Lexicon


@functools.lru_cache(maxsize=16)
def _load_game(text: str, source: str) -> _Game:
    """The rules of a scenario text, parsed once per process (parsing is not free; a scenario
    text never changes meaning, and the parsed objects are never mutated)."""
    scenario = parse_scenario(text, source)
    return _Game(scenario, HellsGate(scenario), grammar.Lexicon.from_scenario(scenario))


class _NoDice:
    """The dice source where no die may be rolled (the setup; a game with no open epoch)."""

    def __init__(self, why: str):
        self.why = why
        self.drawn: list[dict] = []

    def roll(self, purpose: str) -> int:
        raise DiceExhausted(f"no die may be rolled for {purpose!r}: {self.why}")


class GameService:
    def __init__(
        self,
        store: Store,
        *,
        seeds: Callable[[], str] = committed.new_seed,
        uids: Callable[[], str] = lambda: uuid.uuid4().hex,
    ):
        """seeds, uids: where epoch seeds and game uids come from. Keep the defaults (secrets,
        uuid4) for real games; the demo and benchmarks pass reproducible ones."""
        self.store = store
        self.seeds = seeds
        self.uids = uids
        self._scenarios: dict[str, str] = {}  # game name -> its scenario text (never changes)

    # -- setup
    def new_game(
        self,
        name: str,
        scenario_path: str | Path | None = None,
        sandbox: bool = False,
        creator: str | None = None,
    ) -> str:
        """Create a game; raises ScenarioError (bad file), OSError, storage.GameExists."""
        if scenario_path is None:
            text, source = default_scenario_text(), DEFAULT_SCENARIO_SOURCE
        else:
            text, source = Path(scenario_path).read_text("utf-8"), str(scenario_path)
        g = self._game(text, source)
        out = g.rules.new_game(sandbox=sandbox, dice=_NoDice("the setup rolls no dice"))
        rec = self.store.create_game(
            name,
            GAME_TYPE,
            text,
            sandbox,
            out.state.to_dict(),
            events=[e.to_dict() for e in out.events],
            creator=creator,
            uid=self.uids(),
            seed=self.seeds(),
            hidden_seed=self.seeds(),
        )
        title = f"Game {name!r} created: {g.scenario.title}" + (" (sandbox)" if sandbox else "")
        lines = [title + (f"; moderator {creator}." if creator else ".")]
        lines += [e.text for e in out.events]
        lines.append(self._whose_move(out.state))
        lines += _fair_lines(rec)
        return "\n".join(lines)

    def _game(self, text: str, source: str = "scenario") -> _Game:
        return _load_game(text, source)

    def _scenario_of(self, name: str) -> str:
        text = self._scenarios.get(name)
        if text is None:
            text = self._scenarios[name] = self.store.scenario_text(name)
        return text

    # -- reading
    def record(self, name: str) -> GameRecord:
        return self.store.load(name, with_log=False)

    def rules(self, name: str) -> HellsGate:
        return self._game(self.record(name).scenario_text).rules

    def state(self, name: str) -> GameState:
        return GameState.from_dict(self.record(name).snapshot)

    def show(self, name: str) -> dict:
        rec = self.record(name)
        doc = self._game(rec.scenario_text).rules.show(GameState.from_dict(rec.snapshot))
        doc["dice"] = {
            "epoch": rec.epoch or None,
            "turn": rec.epoch_turn,
            "commitment": rec.epoch_commitment,
            "salts_open": rec.salts_open,
        }
        doc["log"] = {"rows": rec.head_index + 1, "head_hash": rec.head_hash}
        doc["paused"] = rec.paused_why if rec.paused else None
        doc["seats"] = rec.seats
        doc["moderators"] = list(rec.moderators)
        return doc

    def status(self, name: str) -> str:
        rec = self.record(name)
        state = GameState.from_dict(rec.snapshot)
        rules = self._game(rec.scenario_text).rules
        text = rules.answer(state, state.active_side or "moderator", O.Status())
        return "\n".join([text, *_fair_lines(rec)])

    # -- the order path
    def say(
        self,
        name: str,
        actor: str | None = None,
        text: str = "",
        *,
        user: str | None = None,
        key: str | None = None,
    ) -> list[Reply]:
        """Apply a message line by line; stop at the first refusal.

        actor: the side spoken for (the local operator's `--as`; with a user, an optional choice
        among his seats). key: the message's idempotency key; line n > 1 uses f"{key}#{n}".
        """
        g = self._game(self._scenario_of(name))
        parsed = grammar.parse_message(text, g.lexicon)
        replies: list[Reply] = []
        for n, (line, item) in enumerate(parsed):
            line_key = None if key is None else key if n == 0 else f"{key}#{n + 1}"
            reply = self._one(name, g, actor, user, line, item, line_key)
            replies.append(reply)
            if not reply.ok:
                replies += _not_applied(reply, [ln for ln, _ in parsed[n + 1 :]])
                break
        if not parsed:
            replies.append(
                _refused(
                    text, "empty", "the message has no orders; type 'help' for the commands.", None
                )
            )
        return replies

    def _one(self, name, g: _Game, actor, user, line: str, item, key) -> Reply:
        if isinstance(item, grammar.ParseError):
            return _refused(line, item.code, item.message, None)
        try:
            if isinstance(item, QUERIES):
                return self._query(name, g, actor, user, item, line)
            return self.store.transact(
                name, lambda tx: self._change(tx, g, actor, user, line, item, key)
            )
        except Rejection as rej:
            return _refused(line, rej.code, rej.message, rej.rule)
        except Conflict as exc:
            return _refused(line, "conflict", str(exc), None)

    # -- changes (inside one transaction)
    def _change(self, tx: GameTx, g: _Game, asked, user, line: str, item, key) -> Reply:
        if key is not None:
            rows = tx.find_key(key)
            if rows:
                log.info("game %r: key %r already applied at row %d", tx.name, key, rows[0].index)
                return self._reply(tx, rows, line, duplicate=True)
        state = GameState.from_dict(tx.snapshot)
        actor = _actor_for(tx, state, asked, user, item)
        if tx.paused and actor in (*SIDES, "system"):
            raise Rejection(
                "paused",
                f"the game is paused by a moderator ({tx.g.paused_why}); orders wait until a "
                "moderator says `resume`. Questions still work.",
                None,
            )
        handler = _HANDLERS.get(type(item), GameService._order)
        handler(self, tx, g, state, actor, user, item, key)
        return self._reply(tx, tx.written, line)

    def _order(self, tx: GameTx, g: _Game, state, actor, user, item, key) -> None:
        seed = tx.seed()
        if seed is not None:
            dice = committed.CommittedDice(
                seed, tx.uid, tx.epoch, tx.next_n, tx.salt_digest, tx.hidden_seed()
            )
        else:
            dice = _NoDice("the game is over: no dice epoch is open")
        try:
            out = g.rules.apply(state, actor, item, dice)
        except (DiceExhausted, committed.HiddenSeedMissing) as exc:
            raise Rejection("no-dice", str(exc), None) from exc
        rolls, secret = _roll_records(out.rolls, dice.drawn, tx.epoch)
        new = out.state.to_dict()
        payload = {
            "rolls": rolls,
            "events": [e.to_dict() for e in out.events],
            "state_sha256": state_hash(new),
            "combat": out.combat,
        }
        canonical = grammar.format_order(out.order or item)  # as applied: paths, flips filled in
        tx.append(
            "order",
            actor,
            canonical,
            payload,
            user=user,
            key=key,
            epoch=tx.epoch or None,
            secret=secret,
        )
        if seed is not None:
            tx.set_next_n(dice.next_n)
        tx.set_snapshot(new)
        self._next_epoch(tx, out.state, state)

    def _next_epoch(self, tx: GameTx, new: GameState, old: GameState) -> None:
        """A turn change ends the epoch (its seed is revealed) and opens the next; the end of
        the game reveals the last seed and the hidden seed."""
        if new.result is not None and old.result is None:
            tx.reveal_epoch()
            tx.reveal_hidden()
        elif tx.epoch and new.turn != tx.epoch_turn:
            tx.reveal_epoch()
            tx.open_epoch(new.turn, self.seeds())

    def _salt(self, tx: GameTx, g, state, actor, user, item: C.Salt, key) -> None:
        if actor not in SIDES:
            raise Rejection("not-a-player", "only the players add salts to the dice", None)
        k, turn = tx.epoch, tx.epoch_turn
        if not k:
            raise Rejection("no-epoch", "the game is over: no dice epoch is open", None)
        if tx.next_n > 1:
            raise Rejection(
                "salts-closed",
                f"dice epoch {k} (turn {turn}) has already rolled, so its salts are closed; "
                f"salts open again with epoch {k + 1}, when turn {turn + 1} begins (or after a "
                "moderator's rewind)",
                None,
            )
        salts = [*tx.salts(k), item.text]
        tx.append(
            "salt",
            actor,
            grammar.format_order(item),
            {"epoch": k, "salt": item.text},
            user=user,
            key=key,
            epoch=k,
        )
        tx.set_salt_digest(committed.salt_digest(salts))

    def _undo(self, tx: GameTx, g: _Game, state, actor, user, item, key) -> None:
        if actor not in SIDES:
            raise Rejection("not-a-player", "only a player undoes, and only his own orders", None)
        rows = [r.to_dict() for r in tx.rows()]
        effective = auditing.effective_orders(rows)
        mine = [r for r in effective if r["actor"] == actor]
        if not mine:
            raise Rejection("nothing-to-undo", f"{actor.title()} has no order to undo", None)
        target = mine[-1]
        _check_undo(target, rows, effective)
        kept = [r for r in rows if r["index"] != target["index"]]
        new = fold.replay(g.rules, g.lexicon, kept)
        payload = {
            "targets": [target["index"]],
            "why": None,
            "state_sha256": state_hash(new.to_dict()),
        }
        tx.append("undo", actor, "undo", payload, user=user, key=key)
        tx.set_snapshot(new.to_dict())

    def _rewind(self, tx: GameTx, g: _Game, state, actor, user, item: C.Rewind, key) -> None:
        rows = [r.to_dict() for r in tx.rows()]
        if item.index >= tx.head_index:
            raise Rejection(
                "bad-row", f"row {item.index} is not before the last row ({tx.head_index})", None
            )
        if not any(r["index"] > item.index for r in auditing.effective_orders(rows)):
            raise Rejection(
                "nothing-to-rewind",
                f"no order after row {item.index} counts: nothing to rewind",
                None,
            )
        kept = [*rows, {"index": None, "kind": "rewind", "payload": {"to": item.index}}]
        new = fold.replay(g.rules, g.lexicon, kept)
        payload = {"to": item.index, "why": item.reason, "state_sha256": state_hash(new.to_dict())}
        tx.append("rewind", "moderator", grammar.format_order(item), payload, user=user, key=key)
        tx.set_snapshot(new.to_dict())
        tx.reveal_epoch()  # nothing may be rolled again from a seed that decided rewound rolls
        tx.open_epoch(new.turn, self.seeds())

    def _moderation(self, tx: GameTx, g, state, actor, user, item, key) -> None:
        action, extra = _moderate(tx, user, item)
        payload = {"action": action, "why": item.reason, **extra}
        tx.append(
            "moderation", "moderator", grammar.format_order(item), payload, user=user, key=key
        )

    # -- replies
    def _reply(self, tx: GameTx, rows: list[LogRecord], line: str, duplicate=False) -> Reply:
        """The reply to a change, built from the rows it wrote (so a retried delivery gets the
        very same reply from the stored rows)."""
        main = rows[0]
        lines: list[str] = []
        events: list[dict] = []
        combat = None
        if main.kind == "order":
            events = main.events
            combat = main.payload.get("combat")
            lines += [e.get("text", e.get("kind", "")) for e in events] or [f"OK: {main.text}"]
        else:
            lines.append(_row_text(tx, main))
        lines += [_row_text(tx, r) for r in rows[1:]]
        if _is_summary(rows):
            last = rows[-1]
            lines.append(f"Log row {last.index}, head hash {last.hash}.")
        return Reply(
            True,
            "\n".join(lines),
            None,
            events,
            combat,
            line,
            log_index=rows[-1].index,
            head_hash=rows[-1].hash,
            duplicate=duplicate,
        )

    # -- questions
    def _query(self, name, g: _Game, asked, user, query, line) -> Reply:
        rec = self.record(name)
        if isinstance(query, O.Log):
            return Reply(True, self.log_text(name, query.count), line=line)
        if isinstance(query, C.Rolls):
            return Reply(True, self.rolls_text(name, query.count or DEFAULT_ROLLS), line=line)
        if isinstance(query, C.Audit):
            if user is not None and user not in rec.moderators:
                raise Rejection(
                    "moderator-only",
                    f"{user} is not a moderator of this game: the chat audit "
                    "is for moderators (anyone can run `pbem audit --verify` on an export)",
                    None,
                )
            ok, text, _ = self.audit(name)
            error = None if ok else {"code": "audit-failed", "message": text, "rule": None}
            return Reply(ok, text, error, line=line)
        state = GameState.from_dict(rec.snapshot)
        actor = _query_actor(rec, state, asked, user)
        text = g.rules.answer(state, actor, query)
        if isinstance(query, O.Status):
            text = "\n".join([text, *_fair_lines(rec)])
        combat = (
            g.rules.preview(state, actor, query.attack) if isinstance(query, O.Preview) else None
        )
        return Reply(True, text, combat=combat, line=line)

    def log_text(self, name: str, count: int | None = None) -> str:
        rows = self.store.log(name)
        effective = {r["index"] for r in auditing.effective_orders([r.to_dict() for r in rows])}
        shown = rows if count is None else rows[-count:] if count > 0 else []
        out = []
        for row in shown:
            who = f"{row.actor} ({row.user})" if row.user else row.actor
            mark = (
                "  [undone or rewound]"
                if row.kind == "order" and row.index not in effective
                else ""
            )
            out.append(f"{row.index}. {who}: {row.text}{mark}")
            out += [f"    {line}" for line in _row_details(row)]
        return "\n".join(out)

    def rolls_text(self, name: str, count: int = DEFAULT_ROLLS) -> str:
        found = []
        for row in self.store.log(name):
            for r in row.rolls:
                found.append((row, r))
        if not found:
            return "No dice rolled yet."
        lines = [f"The last {min(count, len(found))} of {len(found)} rolls:"]
        for row, r in found[-count:]:
            if r.get("fixed"):
                how = "fixed by a moderator (not random)"
            elif r.get("hidden"):
                how = f"epoch {r.get('epoch')}, n {r.get('n')}, hidden until the game ends"
            else:
                how = f"epoch {r.get('epoch')}, n {r.get('n')}"
            value = "?" if r.get("value") is None else r["value"]
            lines.append(f"row {row.index} {row.actor}: {r['purpose']} = {value} ({how})")
        return "\n".join(lines)

    # -- audit and export
    def export_doc(self, name: str) -> tuple[dict, list[dict]]:
        """The export header and rows (storage.audit format), read in one snapshot."""
        rec = self.store.load(name)
        ended = any(r.kind == "reveal-hidden" for r in rec.log)
        rows = [r.to_dict() | ({"secret": r.secret} if ended and r.secret else {}) for r in rec.log]
        header = {
            "format": EXPORT_FORMAT,
            "game_uid": rec.uid,
            "name": rec.name,
            "game": rec.game,
            "scenario_text": rec.scenario_text,
            "sandbox": rec.sandbox,
            "created_at": rec.created_at.isoformat(),
            "head_hash": rec.head_hash,
            "rows": rec.head_index + 1,  # the game row's count: a deleted last row shows
            "state_sha256": state_hash(rec.snapshot),
        }
        return header, rows

    def audit(self, name: str) -> tuple[bool, str, auditing.AuditReport]:
        """(ok, text, report): the audit of the stored log, then its replay through the rules."""
        from bots.verify import check

        return check(*self.export_doc(name), source=f"game {name!r}")

    def export(self, name: str, path: str | Path) -> tuple[bool, str, auditing.AuditReport]:
        """Write the self-contained export file (never an unrevealed seed), then audit it."""
        from bots.verify import check

        header, rows = self.export_doc(name)
        unrevealed = [s["seed"] for s in self.store.dice_secrets(name) if not s["revealed"]]
        auditing.write_export(path, header, rows, forbidden=unrevealed)
        return check(header, rows, source=f"game {name!r}")

    # -- map images (render is imported here only: the rules never import it)
    def frames(self, name: str) -> list[images.Frame]:
        rec = self.store.load(name)
        g = self._game(rec.scenario_text)
        return images.frames(g.rules, g.lexicon, [r.to_dict() for r in rec.log])

    def image(
        self, name: str, turn: int | None = None, phase: str | None = None, view: str | None = None
    ) -> bytes:
        """The PNG of the end of (turn, phase), or of now: what players see after a phase."""
        from render import render_map

        frame = images.pick(self.frames(name), turn, phase)
        scenario = self._game(self._scenario_of(name)).scenario
        title = images.title(name, frame)
        return render_map(scenario, frame.state, frame.events, view=view, title=title)

    # -- for the chat front ends (bots/chat.py)
    def parse(self, name: str, text: str) -> list[tuple[str, object]]:
        """A message as `say` reads it: (line, order / query / ParseError) per non-blank line."""
        return grammar.parse_message(text, self._game(self._scenario_of(name)).lexicon)

    def events_since(self, name: str, after: int | None) -> tuple[GameRecord, list[dict]]:
        """The game (read with its log, in one snapshot) and the events of the effective orders
        after log row `after` (None: from the setup on): what an after-phase post tells and
        draws. Cheap: the stored events, no replay."""
        rec = self.store.load(name)
        rows = [r.to_dict() for r in rec.log]
        events = list(rows[0]["payload"].get("events", [])) if after is None and rows else []
        for row in auditing.effective_orders(rows):
            if after is None or row["index"] > after:
                events += row["payload"].get("events", [])
        return rec, events

    def render_record(
        self, rec: GameRecord, events: list[dict], title: str | None = None, view: str | None = None
    ) -> bytes:
        """The PNG of a game record's state with `events` drawn (see render.render_map)."""
        from render import render_map

        scenario = self._game(rec.scenario_text).scenario
        state = GameState.from_dict(rec.snapshot)
        return render_map(scenario, state, events, view=view, title=title)

    # -- the state as the fold of the log
    def replay(self, name: str, check_events: bool = False) -> GameState:
        """Rebuild the state by re-applying every effective order with its recorded dice."""
        rec = self.store.load(name)
        g = self._game(rec.scenario_text)
        return fold.replay(g.rules, g.lexicon, [r.to_dict() for r in rec.log], check=check_events)

    def verify(self, name: str) -> None:
        """Raise ReplayMismatch unless replaying the log gives its events and the snapshot."""
        rec = self.store.load(name)
        g = self._game(rec.scenario_text)
        state = fold.replay(g.rules, g.lexicon, [r.to_dict() for r in rec.log], check=True)
        if state_hash(state.to_dict()) != state_hash(rec.snapshot):
            raise ReplayMismatch(
                rec.head_index, f"game {name!r}: replaying the log does not give the snapshot"
            )

    @staticmethod
    def _whose_move(state: GameState) -> str:
        if state.result is not None:
            return f"Game over: {state.result}"
        return f"Turn {state.turn}, {state.phase}: {state.active_side} to move."


_HANDLERS: dict[type, Callable] = {
    C.Salt: GameService._salt,
    C.Undo: GameService._undo,
    C.Rewind: GameService._rewind,
    C.Pause: GameService._moderation,
    C.Resume: GameService._moderation,
    C.Seat: GameService._moderation,
    C.Unseat: GameService._moderation,
    C.Moderator: GameService._moderation,
}


# -- roles and seats
def _actor_for(tx: GameTx, state: GameState, asked: str | None, user: str | None, item) -> str:
    """The actor a change runs as, after the role and seat checks (Rejection if refused)."""
    moderating = isinstance(item, C.MODERATION + O.MODERATOR_ORDERS)
    what = grammar.format_order(item).split()[0]
    if user is None:  # the local operator: trusted, speaks as --as
        if isinstance(item, C.MODERATION) and asked != "moderator":
            raise Rejection(
                "moderator-only", f"`{what}` is a moderator command: say it as the moderator", None
            )
        return asked or state.active_side or "moderator"
    mods = tx.moderators()
    if moderating:
        if user not in mods:
            raise Rejection(
                "moderator-only",
                f"{user} is not a moderator of this game: only its moderators "
                f"({', '.join(mods) or 'none'}) may `{what}`",
                None,
            )
        return "moderator"
    mine = [side for side, who in tx.seats().items() if who == user]
    if not mine:
        if user in mods:
            raise Rejection(
                "not-seated",
                f"{user} moderates this game but holds no seat: a moderator gives no player "
                f"orders (`seat <SIDE> {user}` would seat him)",
                None,
            )
        raise Rejection(
            "spectator",
            f"{user} holds no seat in this game: a spectator may ask questions (status, units, "
            "rolls, log ...) but give no orders",
            None,
        )
    if asked is not None and asked not in mine:
        raise Rejection(
            "not-your-seat",
            f"{user} plays {' and '.join(mine)}, not {asked}: a player gives orders only for "
            "his own side",
            None,
        )
    if asked is not None:
        return asked
    return state.active_side if state.active_side in mine else mine[0]


def _query_actor(rec: GameRecord, state: GameState, asked: str | None, user: str | None) -> str:
    if user is None:
        return asked or state.active_side or "moderator"
    mine = [side for side, who in rec.seats.items() if who == user]
    if asked in mine:
        return asked
    if mine:
        return state.active_side if state.active_side in mine else mine[0]
    return "moderator" if user in rec.moderators else "spectator"


def _moderate(tx: GameTx, user: str | None, item) -> tuple[str, dict]:
    """Apply a moderation command to the roles and pause flag: (action, payload extras)."""
    if isinstance(item, C.Pause | C.Resume):
        pausing = isinstance(item, C.Pause)
        if tx.paused == pausing:
            raise Rejection(
                "already-" + ("paused" if pausing else "running"),
                "the game is already " + ("paused" if pausing else "running"),
                None,
            )
        tx.set_paused(pausing, item.reason)
        return ("pause" if pausing else "resume"), {}
    if isinstance(item, C.Seat):
        before = tx.seats().get(item.side)
        if before == item.user:
            raise Rejection("already-seated", f"{item.user} already plays {item.side}", None)
        tx.set_seat(item.side, item.user)
        return "seat", {"side": item.side, "user": item.user, "previous": before}
    if isinstance(item, C.Unseat):
        before = tx.seats().get(item.side)
        if before is None:
            raise Rejection("seat-empty", f"nobody plays {item.side}: the seat is empty", None)
        tx.set_seat(item.side, None)
        return "unseat", {"side": item.side, "user": before}
    mods = tx.moderators()
    if item.action == "add":
        if item.user in mods:
            raise Rejection("already-moderator", f"{item.user} is already a moderator", None)
        tx.add_moderator(item.user)
        return "moderator-add", {"user": item.user}
    if item.user not in mods:
        raise Rejection("not-a-moderator", f"{item.user} is not a moderator of this game", None)
    if len(mods) == 1:
        raise Rejection(
            "last-moderator", f"{item.user} is the last moderator: add another one first", None
        )
    tx.remove_moderator(item.user)
    return "moderator-remove", {"user": item.user}


def _check_undo(target: dict, rows: list[dict], effective: list[dict]) -> None:
    """Undo never crosses a die roll, a dice epoch's end or reveal, or the opponent's move."""
    index, text = target["index"], target["text"]
    if target["payload"].get("rolls"):
        raise Rejection(
            "undo-dice",
            f"row {index} ({text}) rolled a die: an order that rolled is never undone",
            None,
        )
    for row in rows[index + 1 :]:
        if row["kind"] in ("epoch", "reveal", "reveal-hidden", "rewind"):
            raise Rejection(
                "undo-reveal",
                f"a dice epoch ended or opened after row {index} ({text}) (row {row['index']}): "
                "undo never crosses a reveal",
                None,
            )
    later = [r for r in effective if r["index"] > index]
    if later:
        raise Rejection(
            "undo-after-opponent",
            f"{later[0]['actor'].title()} has acted since row {index} ({text}) (row "
            f"{later[0]['index']}): an order is undone only before anyone else acts",
            None,
        )


# -- dice records
def _roll_records(rolls, drawn: list[dict], epoch: int) -> tuple[list[dict], list | None]:
    """The engine's rolls joined with the committed draws: the chained records, and the
    off-chain secrets of hidden draws (None when there are none)."""
    draws = iter(drawn)
    records, secrets = [], []
    for r in rolls:
        if r.fixed:
            records.append(
                {
                    "purpose": r.purpose,
                    "value": r.value,
                    "fixed": True,
                    "epoch": epoch or None,
                    "n": None,
                    "hidden": False,
                }
            )
            continue
        draw = next(draws)
        if (draw["purpose"], draw["value"]) != (r.purpose, r.value):
            raise AssertionError(f"roll {r} is not the committed draw {draw}")
        record, secret = committed.roll_entry(draw)
        records.append(record)
        if secret is not None:
            secrets.append(secret)
    return records, secrets or None


# -- texts
def _fair_lines(rec: GameRecord) -> list[str]:
    """The dice commitment and the log head: shown by status, show and new."""
    if rec.epoch:
        salts = "open (`salt <TEXT>`)" if rec.salts_open else "closed (the epoch has rolled)"
        dice = (
            f"Dice: epoch {rec.epoch} (turn {rec.epoch_turn}), commitment "
            f"{rec.epoch_commitment}; salts {salts}."
        )
    else:
        dice = "Dice: no open epoch (the game is over; every seed is revealed)."
    lines = [dice, f"Log: {rec.head_index + 1} rows, head hash {rec.head_hash}."]
    if rec.paused:
        lines.append(f"PAUSED by a moderator: {rec.paused_why}. Orders wait; questions work.")
    return lines


def _row_text(tx: GameTx, row: LogRecord) -> str:
    p = row.payload
    if row.kind == "epoch":
        return (
            f"Dice epoch {p['epoch']} for turn {p['turn']}: commitment {p['commitment']}. "
            "Players may add `salt <TEXT>` until its first roll."
        )
    if row.kind == "reveal":
        return (
            f"Dice epoch {p['epoch']} is over: its seed was {p['seed']} (its SHA-256 is the "
            "commitment posted before its first roll)."
        )
    if row.kind == "reveal-hidden":
        return f"The hidden seed is revealed: {p['hidden_seed']}."
    if row.kind == "salt":
        return f"Salt added to dice epoch {p['epoch']}: {p['salt']!r}."
    if row.kind == "undo":
        (target,) = tx.rows(p["targets"][0])[:1]
        return f"Undone: row {target.index} ({target.actor}: {target.text}); it stays in the log."
    by = row.user or "the operator"
    if row.kind == "rewind":
        return (
            f"Rewound to row {p['to']} by {by}: {p['why']}. Orders after row {p['to']} no longer "
            "count; they stay in the log."
        )
    if row.kind == "moderation":
        return _moderation_text(p, by)
    return row.text


def _moderation_text(p: dict, by: str) -> str:
    why = f" ({p['why']})" if p.get("why") else ""
    action = p["action"]
    if action in ("pause", "resume"):
        state = "paused: orders wait" if action == "pause" else "resumed: orders are taken again"
        return f"Game {state}; by {by}{why}."
    if action == "seat":
        was = f", replacing {p['previous']}" if p.get("previous") else ""
        return f"{p['user']} now plays {p['side']}{was}; by {by}{why}."
    if action == "unseat":
        return f"{p['user']} no longer plays {p['side']}; by {by}{why}."
    verb = "is now a moderator" if action == "moderator-add" else "is no longer a moderator"
    return f"{p['user']} {verb}; by {by}{why}."


def _row_details(row: LogRecord) -> list[str]:
    p = row.payload
    if row.kind in ("order", "setup"):
        return [e.get("text", e.get("kind", "")) for e in row.events]
    if row.kind == "epoch":
        return [f"commitment {p['commitment']}"]
    if row.kind == "reveal":
        return [f"seed {p['seed']}"]
    if row.kind == "reveal-hidden":
        return [f"hidden seed {p['hidden_seed']}"]
    if row.kind == "undo":
        return [f"undoes row {', '.join(map(str, p['targets']))}"]
    if row.kind in ("rewind", "moderation") and p.get("why"):
        return [f"why: {p['why']}"]
    return []


def _is_summary(rows: list[LogRecord]) -> bool:
    """Whether a change closes a phase (or is a moderator's act): its reply posts the head."""
    if any(r.kind in ("epoch", "reveal", "undo", "rewind", "moderation") for r in rows):
        return True
    return any(e.get("kind") in ("PhaseBegan", "GameEnded") for e in rows[0].events)


def _refused(line: str, code: str, message: str, rule: str | None) -> Reply:
    where = f" (rule {rule})" if rule else ""
    return Reply(
        False,
        f"Refused{where}: {message}",
        {"code": code, "message": message, "rule": rule},
        line=line,
    )


def _not_applied(refused: Reply, rest: list[str]) -> list[Reply]:
    if not rest:
        return []
    refused.reply += "\nNot applied: " + "; ".join(repr(r) for r in rest)
    msg = f"not applied: the earlier line {refused.line!r} was refused"
    return [
        Reply(
            False,
            f"Not applied: the earlier line {refused.line!r} was refused.",
            {"code": "not-applied", "message": msg, "rule": None},
            line=r,
        )
        for r in rest
    ]

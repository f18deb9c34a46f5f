"""Deadlines: the game clock, reminders, defaults on a passed deadline, outages, extend, pause.

The game row is the source of truth (its clock columns, migration 0002, seen through
`storage.chat_models.game_clock`): `deadline_at` (aware UTC; None when no clock runs),
`deadline_kind` ("phase" | "decision"), `phase_hours` (48), `decision_hours` (12),
`reminder_hours` ([24, 1] hours before), `reminders_sent` (the hours already posted for the
running deadline), `clock_paused` and `paused_remaining_s` (the time left while a moderator's
pause stops the clock). This module's memo per game lives in `service_state` under
"clock:<game>", written in the same transaction as the columns: the situation the deadline was
armed for ("turn|phase|side to move|pending decision": a default is applied only while the game
is still there), the outage that last moved it (never moved twice), and a post still to make
after a default (made again after a crash).

Entry points:
- `rearm(store, name, state, clock)` after every accepted change of a game (the chat service
  calls it): arms the deadline of a new situation (a decision deadline while a decision is
  pending, a phase deadline otherwise), keeps it while the situation is unchanged, stops the
  clock when the game is paused (keeping the time left) and restarts it on resume, clears it when
  the game is over.
- `adjudicate_due(service, store, clock)`: everything due at `clock.now()`, idempotent (the
  scheduler calls it every 30 s, at the exact next due time, and once at startup): an outage
  (the heartbeat older than 2 min) moves the running deadlines by its length, announced, not
  executed; reminders (24 h and 1 h before, configurable, each once); a passed deadline applies
  the default through the service (actor "system", order `default`, key
  "deadline:<game>:<deadline ISO>") and every chat is told what was done on the player's behalf.
  It ends by writing the heartbeat.
- the moderators' chat commands: `deadline_command` (`deadline`, `deadline 48h`, `deadline
  decisions 12h`, `deadline reminders 24h 1h`), `extend`, `pause_clock` / `resume_clock`.
- `parse_duration("48h" | "90m" | "2d" | "1d12h")`, `format_duration`, `next_due`.

Exactly once: a reminder or an outage note goes to the outbox with a dedupe key BEFORE the change
that makes it stale is written (reminder marked sent, deadline moved), so a crash in between
re-enqueues the same key (ignored) and then writes the change; the post after a default is
recorded in the memo with the re-arm and made after it (again, keyed, after a crash).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from bots.clock import Clock
from bots.messages import Outgoing
from storage import Store

log = logging.getLogger(__name__)

DEFAULT_PHASE_HOURS = 48.0
DEFAULT_DECISION_HOURS = 12.0
DEFAULT_REMINDERS = (24.0, 1.0)
OUTAGE_AFTER = timedelta(minutes=2)  # a heartbeat older than this at a tick: the service was down
GRACE = timedelta(seconds=30)  # deadlines this far before the last heartbeat count as in the outage
HEARTBEAT_KEY = "heartbeat"
OUTAGE_KEY = "outage"
MAX_DURATION = timedelta(days=365)
KINDS = ("phase", "decision")

Post = Callable[[str, list[Outgoing], str], None]  # (game name, outgoings, dedupe key)
Announce = Callable[..., list[int]]  # ChatService.announce(game, key=..., note=...)


class DeadlineError(ValueError):
    """A refused deadline command: the message is for the user."""


# -- durations and times
_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*(d|h|m|s)")
_UNITS = {"d": "days", "h": "hours", "m": "minutes", "s": "seconds"}


def parse_duration(text: str) -> timedelta:
    """ "48h", "90m", "2d", "1d12h", "1d 12h", "1.5h" -> timedelta (positive, at most a year)."""
    s = text.strip().lower()
    pos, total = 0, timedelta()
    for m in _DURATION.finditer(s):
        if s[pos : m.start()].strip():
            break
        total += timedelta(**{_UNITS[m.group(2)]: float(m.group(1))})
        pos = m.end()
    if not s or pos == 0 or s[pos:].strip():
        raise DeadlineError(f"{text.strip()!r} is not a duration: write e.g. 48h, 90m, 2d or 1d12h")
    if total <= timedelta():
        raise DeadlineError("a duration must be longer than zero")
    if total > MAX_DURATION:
        raise DeadlineError("a duration of more than a year is not a deadline")
    return total


def format_duration(delta: timedelta) -> str:
    """47 h, 3 h 12 min, 45 min, 20 s (rounded to the minute above an hour)."""
    seconds = round(delta.total_seconds())
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    if seconds < 60:
        return f"{sign}{seconds} s"
    minutes = (seconds + 30) // 60
    hours, minutes = divmod(minutes, 60)
    if not hours:
        return f"{sign}{minutes} min"
    return f"{sign}{hours} h" + (f" {minutes} min" if minutes else "")


def format_deadline(at: datetime, now: datetime) -> str:
    """ "2030-01-03 00:00 UTC (in 47 h)": the absolute time and what is left."""
    left = at - now
    rel = f"in {format_duration(left)}" if left > timedelta() else f"{format_duration(-left)} ago"
    return f"{at:%Y-%m-%d %H:%M} UTC ({rel})"


def _hours(delta: timedelta) -> float:
    return delta.total_seconds() / 3600


def _td(hours: float) -> timedelta:
    return timedelta(hours=float(hours))


# -- the situation a deadline is armed for
def situation(state) -> str | None:
    """turn | phase | whose move | pending decision; None when the game is over."""
    if state.result is not None:
        return None
    pending = state.pending[0].kind if state.pending else ""
    return f"{state.turn}|{state.phase}|{state.active_side}|{pending}"


def _kind(state) -> str:
    return "decision" if state.pending else "phase"


def _state_of(state):
    if isinstance(state, dict):
        from adjudicator.hells_gate.state import GameState

        return GameState.from_dict(state)
    return state


# -- storage: the clock columns of the game row (storage.chat_models.game_clock, migration
# 0002), the moderators' pause flag (game.paused) and this module's memo per game in
# service_state ("clock:<game>": {"for": <situation>, "outage": <iso>}), written in the same
# transaction as the clock columns.
MEMO_PREFIX = "clock:"


def _game_table() -> sa.Table:
    from storage.models import Game

    return Game.__table__


def _memo_key(name: str) -> str:
    return MEMO_PREFIX + name


@dataclass
class GameClock:
    """A game's clock, as read from its row (and its memo)."""

    name: str
    paused: bool  # the moderators' pause of the game (the fairness layer)
    deadline_at: datetime | None
    kind: str | None
    phase_hours: float
    decision_hours: float
    reminder_hours: list[float]
    sent: list[float]
    clock_paused: bool
    remaining_s: int | None
    memo: dict = field(default_factory=dict)

    @property
    def armed_for(self) -> str | None:
        return self.memo.get("for")

    def length(self, kind: str) -> timedelta:
        return _td(self.decision_hours if kind == "decision" else self.phase_hours)

    def running(self) -> bool:
        return self.deadline_at is not None and not self.clock_paused


def _clock_of(c, paused: bool, memo_text: str | None) -> GameClock:
    memo = _json_in(memo_text, {})
    return GameClock(
        name=c.name,
        paused=bool(paused),
        deadline_at=c.deadline_at,
        kind=c.deadline_kind,
        phase_hours=float(c.phase_hours or DEFAULT_PHASE_HOURS),
        decision_hours=float(c.decision_hours or DEFAULT_DECISION_HOURS),
        reminder_hours=[float(h) for h in c.reminder_hours],
        sent=[float(h) for h in c.reminders_sent],
        clock_paused=bool(c.clock_paused),
        remaining_s=c.paused_remaining_s,
        memo=memo if isinstance(memo, dict) else {},
    )


def _json_in(value, default):
    if value is None or value == "":
        return default
    try:
        return json.loads(value)
    except ValueError:
        log.warning("a deadline memo holds text that is not JSON: %.60r", value)
        return default


def _read(store: Store, names: list[str] | None) -> list[GameClock]:
    """The clocks of the named games (None: every game with a clock running or stopped)."""
    from storage import chat_store

    games = _game_table()
    st = chat_store.STATE
    if names is None:
        found = chat_store.clocks(store, armed=True)
    else:
        found = []
        for name in names:
            found.append(chat_store.clock(store, name))
    if not found:
        return []
    wanted = [c.name for c in found]
    with store.reader.connect() as conn:
        paused = dict(
            conn.execute(
                sa.select(games.c.name, games.c.paused).where(games.c.name.in_(wanted))
            ).all()
        )
        memos = dict(
            conn.execute(
                sa.select(st.c.key, st.c.value).where(st.c.key.in_([_memo_key(n) for n in wanted]))
            ).all()
        )
    return [_clock_of(c, paused.get(c.name, False), memos.get(_memo_key(c.name))) for c in found]


def load(store: Store, name: str) -> GameClock:
    """One game's clock (GameNotFound if there is no such game)."""
    return _read(store, [name])[0]


def clocks(store: Store) -> list[GameClock]:
    """Every game whose clock runs, or is stopped with time left."""
    return _read(store, None)


_FIELDS = {
    "deadline_at": "deadline_at",
    "kind": "deadline_kind",
    "phase_hours": "phase_hours",
    "decision_hours": "decision_hours",
    "reminder_hours": "reminder_hours",
    "sent": "reminders_sent",
    "clock_paused": "clock_paused",
    "remaining_s": "paused_remaining_s",
}


def _write(
    store: Store,
    gc: GameClock,
    *,
    expect: datetime | None | bool = False,
    memo: dict | None = None,
    **changes,
) -> bool:
    """Write clock columns of one game (and its memo) in one transaction. `expect`: only if
    deadline_at is still that value (a compare-and-set against a concurrent re-arm); returns
    whether it was written (and updates `gc`)."""
    from storage import chat_store

    columns = {_FIELDS[k]: v for k, v in changes.items()}
    with store.engine.begin() as conn:
        done = not columns or chat_store.set_clock(
            store,
            gc.name,
            expect=None if expect is False else {"deadline_at": expect},
            conn=conn,
            **columns,
        )
        if done and memo is not None:
            _put_state(conn, _memo_key(gc.name), json.dumps(memo))
    if done:
        for key, value in changes.items():
            setattr(gc, key, value)
        if memo is not None:
            gc.memo = memo
    return done


def _put_state(conn, key: str, value: str, now: datetime | None = None) -> None:
    """Upsert a service_state row inside the caller's transaction."""
    from storage import chat_store

    now = now or datetime.now(UTC)
    st = chat_store.STATE
    done = conn.execute(
        sa.update(st).where(st.c.key == key).values(value=value, updated_at=now)
    ).rowcount
    if not done:
        conn.execute(sa.insert(st).values(key=key, value=value, updated_at=now))


def _memo(armed_for: str | None, outage: str | None = None) -> dict:
    memo: dict = {"for": armed_for}
    if outage:
        memo["outage"] = outage
    return memo


def _sorted(hours: Iterable[float]) -> list[float]:
    return sorted({float(h) for h in hours}, reverse=True)


def _sent_for(gc: GameClock, deadline: datetime, now: datetime, sent: Iterable[float]) -> list:
    """The reminders that count as sent for a deadline moved or started at `now`: those already
    sent whose time is still past, and those not shorter than the whole time left (no "24 h
    left" on a 12 h deadline)."""
    left = _hours(deadline - now)
    keep = {h for h in sent if deadline - _td(h) <= now}
    keep |= {h for h in gc.reminder_hours if h >= left}
    return _sorted(keep)


# -- arming
def rearm(store: Store, name: str, state, clock: Clock, *, _post: dict | None = None) -> GameClock:
    """Bring the clock in line with the game after an accepted change (see the module doc).

    Cheap and idempotent: call it after every accepted change. A change that keeps the
    situation (the same turn, phase, side to move and pending decision) keeps the deadline; a
    new situation gets a fresh one (decision or phase length); a moderator's pause stops the
    clock and resume restarts it with the time that was left; the end of the game clears it.
    (_post: a post to make after a default, recorded in the same write; see _flush_post.)"""
    state = _state_of(state)
    gc = load(store, name)
    now = clock.now()
    here = situation(state)

    def memo(armed_for: str | None) -> dict:
        m = _memo(armed_for)
        if _post is not None:
            m["post"] = _post
        return m

    if here is None:
        if gc.deadline_at is not None or gc.clock_paused or gc.armed_for or _post:
            _write(
                store,
                gc,
                memo=memo(None),
                deadline_at=None,
                kind=None,
                sent=[],
                clock_paused=False,
                remaining_s=None,
            )
            log.info("game=%s deadline=cleared reason=game-over", name)
        return gc
    if gc.paused and not gc.clock_paused:
        pause_clock(store, name, clock, gc=gc)
    elif not gc.paused and gc.clock_paused:
        resume_clock(store, name, clock, gc=gc)
    if gc.armed_for == here and (gc.deadline_at is not None or gc.clock_paused):
        if _post is not None:
            _write(store, gc, memo={**gc.memo, "post": _post})
        return gc  # the same situation: the deadline stands
    kind = _kind(state)
    length = gc.length(kind)
    sent = _sorted(h for h in gc.reminder_hours if h >= _hours(length))
    if gc.clock_paused:
        _write(
            store,
            gc,
            memo=memo(here),
            kind=kind,
            sent=sent,
            deadline_at=None,
            remaining_s=int(length.total_seconds()),
        )
        log.info("game=%s deadline=armed-stopped kind=%s left_s=%d", name, kind, gc.remaining_s)
        return gc
    at = now + length
    _write(store, gc, memo=memo(here), deadline_at=at, kind=kind, sent=sent)
    log.info("game=%s deadline=%s kind=%s", name, at.isoformat(), kind)
    return gc


def clear(store: Store, name: str) -> None:
    """No deadline for this game (the clock is neither running nor stopped)."""
    gc = load(store, name)
    _write(
        store,
        gc,
        memo=_memo(None),
        deadline_at=None,
        kind=None,
        sent=[],
        clock_paused=False,
        remaining_s=None,
    )


def pause_clock(store: Store, name: str, clock: Clock, *, gc: GameClock | None = None) -> str:
    """Stop the clock, keeping the time left (a moderator's `pause`)."""
    gc = gc or load(store, name)
    if gc.clock_paused:
        return "The clock is already stopped."
    if gc.deadline_at is None:
        _write(store, gc, clock_paused=True, remaining_s=None)
        return "The clock is stopped (no deadline was running)."
    left = max(timedelta(), gc.deadline_at - clock.now())
    _write(
        store,
        gc,
        expect=gc.deadline_at,
        clock_paused=True,
        deadline_at=None,
        remaining_s=int(left.total_seconds()),
    )
    log.info("game=%s clock=stopped left_s=%d", name, gc.remaining_s or 0)
    return f"The clock is stopped with {format_duration(left)} left."


def resume_clock(store: Store, name: str, clock: Clock, *, gc: GameClock | None = None) -> str:
    """Restart the clock with the time that was left when it stopped (a moderator's `resume`)."""
    gc = gc or load(store, name)
    if not gc.clock_paused:
        return "The clock is running."
    now = clock.now()
    if gc.remaining_s is None or gc.kind is None:
        _write(store, gc, clock_paused=False, remaining_s=None)
        return "The clock runs again (no deadline was running)."
    at = now + timedelta(seconds=gc.remaining_s)
    _write(
        store,
        gc,
        expect=None,
        clock_paused=False,
        remaining_s=None,
        deadline_at=at,
        sent=_sent_for(gc, at, now, gc.sent),
    )
    log.info("game=%s clock=running deadline=%s", name, at.isoformat())
    return f"The clock runs again: the deadline is {format_deadline(at, now)}."


def extend(store: Store, name: str, duration: timedelta | str, clock: Clock) -> str:
    """Move the current deadline later (a moderator's `extend <DURATION>`)."""
    if isinstance(duration, str):
        duration = parse_duration(duration)
    gc = load(store, name)
    now = clock.now()
    if gc.clock_paused and gc.remaining_s is not None:
        left = timedelta(seconds=gc.remaining_s) + duration
        _write(store, gc, remaining_s=int(left.total_seconds()))
        return (
            f"Deadline extended by {format_duration(duration)}: {format_duration(left)} left "
            "when the clock runs again."
        )
    if gc.deadline_at is None:
        raise DeadlineError("no deadline is running in this game: nothing to extend")
    at = gc.deadline_at + duration
    if not _write(
        store, gc, expect=gc.deadline_at, deadline_at=at, sent=_sent_for(gc, at, now, gc.sent)
    ):
        raise DeadlineError("the deadline changed meanwhile: look at it again and repeat")
    log.info("game=%s deadline=%s extended_s=%d", name, at.isoformat(), duration.total_seconds())
    return f"Deadline extended by {format_duration(duration)}: now {format_deadline(at, now)}."


def _whole_hours_only() -> bool:
    from storage.chat_models import game_clock

    return isinstance(game_clock.c.phase_hours.type, sa.Integer)


def set_length(
    store: Store, name: str, duration: timedelta | str, clock: Clock, kind: str = "phase"
) -> str:
    """The length of the deadlines of one kind (`deadline 48h`, `deadline decisions 12h`). It
    applies from the next deadline of that kind; the running one is moved with `extend`."""
    if kind not in KINDS:
        raise ValueError(kind)
    if isinstance(duration, str):
        duration = parse_duration(duration)
    hours = _hours(duration)
    if _whole_hours_only():
        if hours != int(hours):
            raise DeadlineError(
                f"deadline lengths are whole hours: {format_duration(duration)} is not "
                f"(try {max(1, round(hours))}h)"
            )
        hours = int(hours)
    gc = load(store, name)
    column = "decision_hours" if kind == "decision" else "phase_hours"
    _write(store, gc, **{column: hours})
    what = "combat decisions" if kind == "decision" else "each phase"
    text = f"Deadline for {what}: {format_duration(duration)}."
    if gc.deadline_at is not None and gc.kind == kind:
        text += (
            " It applies from the next one; the current deadline stays "
            f"{format_deadline(gc.deadline_at, clock.now())} (`extend <DURATION>` moves it)."
        )
    return text


def set_reminders(store: Store, name: str, hours: list[float]) -> str:
    """The reminders before each deadline, in hours (`deadline reminders 24h 1h`)."""
    if any(h <= 0 for h in hours) or len(hours) > 5:
        raise DeadlineError("reminders are up to 5 durations before the deadline, e.g. 24h 1h")
    gc = load(store, name)
    hours = _sorted(hours)
    _write(store, gc, reminder_hours=hours)
    shown = ", ".join(format_duration(_td(h)) for h in hours) or "none"
    return f"Reminders before each deadline: {shown}."


def describe(store: Store, name: str, clock: Clock) -> str:
    """The game's deadline settings and the current deadline, in one line."""
    gc = load(store, name)
    now = clock.now()
    if gc.clock_paused:
        left = format_duration(timedelta(seconds=gc.remaining_s or 0))
        current = f"the clock is stopped ({left} left)"
    elif gc.deadline_at is not None:
        current = f"the {gc.kind} deadline is {format_deadline(gc.deadline_at, now)}"
    else:
        current = "no deadline is running"
    reminders = ", ".join(format_duration(_td(h)) for h in gc.reminder_hours) or "none"
    return (
        f"Deadlines: {format_duration(_td(gc.phase_hours))} per phase, "
        f"{format_duration(_td(gc.decision_hours))} per combat decision; reminders {reminders} "
        f"before. Now {current}."
    )


def deadline_command(store: Store, name: str, args: str, clock: Clock) -> str:
    """The chat command `deadline [decisions] [<DURATION>]` and `deadline reminders <D> ...`
    (the caller checks that the user is a moderator before it changes anything; with no
    argument it only describes). Raises DeadlineError with the message for the user."""
    words = args.split()
    if not words:
        return describe(store, name, clock)
    if words[0] in ("decision", "decisions"):
        if len(words) < 2:
            raise DeadlineError(
                "write `deadline decisions <DURATION>`, e.g. deadline decisions 12h"
            )
        return set_length(store, name, " ".join(words[1:]), clock, kind="decision")
    if words[0] in ("reminder", "reminders"):
        hours = [_hours(parse_duration(w if w[-1].isalpha() else w + "h")) for w in words[1:]]
        return set_reminders(store, name, hours)
    return set_length(store, name, args, clock, kind="phase")


# -- the heartbeat
def last_heartbeat(store: Store) -> datetime | None:
    from storage import chat_store

    found = chat_store.get_state(store, HEARTBEAT_KEY)
    return None if found is None else found[1]


def heartbeat(store: Store, clock: Clock) -> None:
    from storage import chat_store

    now = clock.now()
    chat_store.set_state(store, HEARTBEAT_KEY, now.isoformat(), now=now)


# -- who to tell
def _posts(store: Store, game: str, text: str, users: Iterable[str | None] = ()) -> list[Outgoing]:
    """One post per chat bound to the game; the users ("platform:id") are pinged in the chats
    of their platform and named in the others."""
    from storage import chat_store

    users = [u for u in dict.fromkeys(users) if u]
    names = chat_store.user_names(store, users)
    out = []
    for platform, chat_id in chat_store.bindings(store, game):
        mine = [u for u in users if u.partition(":")[0] == platform]
        others = [names.get(u, u) for u in users if u not in mine]
        body = text + (f"\n({', '.join(others)})" if others else "")
        out.append(Outgoing(platform, chat_id, body, mentions=[u.partition(":")[2] for u in mine]))
    return out


def _side_name(side: str | None) -> str:
    return (side or "nobody").title()


def _record(store: Store, name: str):
    """The game's record (seats, moderators) and its current state, in one read."""
    from adjudicator.hells_gate.state import GameState

    rec = store.load(name, with_log=False)
    return rec, GameState.from_dict(rec.snapshot)


class _At:
    """A clock stopped at one instant (one adjudication pass sees one `now`)."""

    def __init__(self, now: datetime):
        self._now = now

    def now(self) -> datetime:
        return self._now


# -- everything due now
def adjudicate_due(
    service,
    store: Store | None = None,
    clock: Clock | None = None,
    *,
    post: Post | None = None,
    announce: Announce | None = None,
    outage_after: timedelta = OUTAGE_AFTER,
    grace: timedelta = GRACE,
) -> list[Outgoing]:
    """Do everything due at clock.now() and return what was posted; a second run at the same
    time does nothing. Ends by writing the heartbeat.

    post(game, outgoings, key): queues reminders and notes (default: the outbox, `key` its
    dedupe key). announce(game, key=..., note=...): the after-phase post (summary, map, mention)
    made after a default, `note` saying what was done on the player's behalf (the chat service's
    `ChatService.announce`); without it, a text post with the default's events is made."""
    from bots.clock import SystemClock
    from storage import chat_store

    store = store or service.store
    now = (clock or SystemClock()).now()
    post = post or outbox_post(store, now)
    posted: list[Outgoing] = []

    def emit(game: str, outs: list[Outgoing], key: str) -> None:
        if outs:
            post(game, outs, key)
            posted.extend(outs)

    def tell(game: str, pending: dict) -> None:
        if announce is not None:
            ids = set(announce(game, key=pending["key"], note=pending["note"]) or [])
            if ids:
                from bots import outbox

                posted.extend(r.outgoing for r in outbox.rows(store, game=game) if r.id in ids)
        else:
            outs = _posts(store, game, pending["text"], pending.get("users", []))
            emit(game, outs, pending["key"])

    for game, pending in _pending_posts(store):  # a post a crash left unmade
        _flush_post(store, game, pending, tell)
    outage = _outage(store, now, outage_after)
    for gc in clocks(store):
        try:
            _adjudicate_game(service, store, gc, now, outage, grace, emit, tell)
        except Exception:
            log.exception("game=%s deadline processing failed; retried at the next tick", gc.name)
    chat_store.set_state(store, HEARTBEAT_KEY, now.isoformat(), now=now)
    return posted


def _pending_posts(store: Store) -> list[tuple[str, dict]]:
    from storage import chat_store

    st = chat_store.STATE
    q = sa.select(st.c.key, st.c.value).where(st.c.key.like(MEMO_PREFIX + "%"))
    with store.reader.connect() as conn:
        rows = conn.execute(q).all()
    found = []
    for key, value in rows:
        memo = _json_in(value, {})
        if isinstance(memo, dict) and isinstance(memo.get("post"), dict):
            found.append((key[len(MEMO_PREFIX) :], memo["post"]))
    return found


def _flush_post(store: Store, game: str, pending: dict, tell) -> None:
    """Make the post recorded with a default's re-arm, then take it off the memo (a
    compare-and-set: a concurrent re-arm's memo is never overwritten). Idempotent: the post's
    dedupe key makes a second attempt add nothing."""
    from storage import chat_store

    tell(game, pending)
    st = chat_store.STATE
    key = _memo_key(game)
    with store.engine.begin() as conn:
        value = conn.execute(sa.select(st.c.value).where(st.c.key == key)).scalar()
        memo = _json_in(value, {})
        if isinstance(memo, dict) and memo.get("post") == pending:
            memo.pop("post")
            conn.execute(
                sa.update(st)
                .where(st.c.key == key, st.c.value == value)
                .values(value=json.dumps(memo), updated_at=datetime.now(UTC))
            )


def _outage(store: Store, now: datetime, after: timedelta) -> tuple[datetime, datetime] | None:
    """(from, to) of the outage being handled: the heartbeat's gap, fixed the first time it is
    seen, so a crash while it is handled never changes its length."""
    from storage import chat_store

    seen = last_heartbeat(store)
    if seen is None or now - seen <= after:
        return None
    found = chat_store.get_state(store, OUTAGE_KEY)
    recorded = _json_in(found[0], {}) if found else {}
    if isinstance(recorded, dict) and recorded.get("from") == seen.isoformat():
        return seen, datetime.fromisoformat(recorded["to"])
    value = json.dumps({"from": seen.isoformat(), "to": now.isoformat()})
    chat_store.set_state(store, OUTAGE_KEY, value, now=now)
    log.warning(
        "outage=detected last_heartbeat=%s down_s=%d",
        seen.isoformat(),
        (now - seen).total_seconds(),
    )
    return seen, now


def _paused_at(store: Store, name: str, now: datetime) -> datetime:
    """When a moderator paused the game: the time of the last `pause` row of its log."""
    for row in reversed(store.log(name, 50)):
        if row.kind == "moderation" and row.payload.get("action") == "pause":
            return min(now, datetime.fromisoformat(row.created_at))
    return now


def _adjudicate_game(service, store, gc: GameClock, now, outage, grace, emit, tell) -> None:
    if gc.paused and not gc.clock_paused:  # paused by a moderator, not yet seen by the clock
        pause_clock(store, gc.name, _At(_paused_at(store, gc.name, now)), gc=gc)
    if not gc.running():
        return
    if outage is not None:
        start, end = outage
        if gc.deadline_at > start - grace and gc.memo.get("outage") != start.isoformat():
            _move_for_outage(store, gc, now, start, end, emit)
    if gc.deadline_at <= now:
        _apply_default(service, store, gc, now, emit, tell)
    else:
        _remind(store, gc, now, emit)


def _move_for_outage(store, gc: GameClock, now, start: datetime, end: datetime, emit) -> None:
    """Every deadline still running when the service went down moves by the outage's length
    (those that passed meanwhile and those that did not: their order stays the same), and the
    chats are told; nothing is done on anyone's behalf."""
    length = end - start
    old = gc.deadline_at
    at = old + length
    rec, state = _record(store, gc.name)
    side = state.active_side
    passed = "passed while it was down" if old <= now else "was running"
    text = (
        f"The service was down for {format_duration(length)} (from {start:%Y-%m-%d %H:%M} UTC). "
        f"The deadline for {_side_name(side)} {passed}; nothing was done on anyone's behalf: "
        f"the deadline moves by {format_duration(length)}, to {format_deadline(at, now)}."
    )
    emit(
        gc.name,
        _posts(store, gc.name, text, [rec.seats.get(side or "")]),
        f"outage:{gc.name}:{start.isoformat()}",
    )
    memo = _memo(gc.armed_for, start.isoformat())
    if _write(
        store, gc, expect=old, memo=memo, deadline_at=at, sent=_sent_for(gc, at, now, gc.sent)
    ):
        log.info(
            "game=%s deadline=%s moved_for_outage_s=%d",
            gc.name,
            at.isoformat(),
            length.total_seconds(),
        )


def _remind(store: Store, gc: GameClock, now: datetime, emit) -> None:
    deadline = gc.deadline_at
    due = [h for h in gc.reminder_hours if h not in gc.sent and deadline - _td(h) <= now]
    if not due:
        return
    h = min(due)  # the most urgent one: never a burst of stale reminders
    rec, state = _record(store, gc.name)
    side = state.active_side
    if state.pending:
        what = f"to decide: {state.pending[0].prompt}"
    else:
        what = f"to finish the {state.phase} phase of turn {state.turn}"
    text = (
        f"Reminder: {_side_name(side)} has {format_duration(deadline - now)} left {what}. "
        f"Deadline {format_deadline(deadline, now)}; then the default is applied on "
        f"{_side_name(side)}'s behalf."
    )
    emit(
        gc.name,
        _posts(store, gc.name, text, [rec.seats.get(side or "")]),
        f"reminder:{gc.name}:{deadline.isoformat()}:{h:g}",
    )
    sent = _sorted([*gc.sent, *(x for x in gc.reminder_hours if x >= h)])
    _write(store, gc, expect=deadline, sent=sent)
    log.info("game=%s reminder_h=%g deadline=%s", gc.name, h, deadline.isoformat())


def _apply_default(service, store: Store, gc: GameClock, now: datetime, emit, tell) -> None:
    from bots.service import GameService

    deadline = gc.deadline_at
    key = f"deadline:{gc.name}:{deadline.isoformat()}"
    rec, before = _record(store, gc.name)
    side = before.active_side
    guarded = GameService(
        _GuardedStore(store, key, gc.armed_for), seeds=service.seeds, uids=service.uids
    )
    reply = guarded.say(gc.name, "system", "default", key=key)[0]
    if not reply.ok:
        code = (reply.error or {}).get("code")
        if code == "deadline-stale":  # a player acted first: the game moved on
            log.info(
                "game=%s deadline=%s stale: default not applied", gc.name, deadline.isoformat()
            )
            rearm(store, gc.name, _record(store, gc.name)[1], _At(now))
            return
        if code == "paused":
            pause_clock(store, gc.name, _At(now), gc=gc)
            return
        text = (
            f"The deadline for {_side_name(side)} passed, but its default could not be applied: "
            f"{reply.reply}\nThe clock is stopped; a moderator should look at the game."
        )
        emit(gc.name, _posts(store, gc.name, text, rec.moderators), f"{key}:refused")
        _write(
            store,
            gc,
            expect=deadline,
            memo=_memo(None),
            deadline_at=None,
            kind=None,
            sent=[],
            clock_paused=False,
            remaining_s=None,
        )
        log.error(
            "game=%s deadline=%s default refused: %s", gc.name, deadline.isoformat(), reply.reply
        )
        return
    _, after = _record(store, gc.name)
    names = _names(store, rec.seats)
    did = [e.get("text", "") for e in reply.events if e.get("kind") == "DefaultApplied"]
    head = (
        f"The deadline for {_who(side, names)} passed ({deadline:%Y-%m-%d %H:%M} UTC). Done on "
        f"{_side_name(side)}'s behalf:"
    )
    lines = [head, *(ln for ln in reply.reply.split("\n") if ln.strip())]
    if after.result is not None:
        lines.append(f"Game over: {after.result}.")
    else:
        nxt = now + gc.length(_kind(after))
        lines.append(
            f"{_who(after.active_side, names)} to move; deadline {format_deadline(nxt, now)}."
        )
    pending = {
        "key": key,
        "note": "\n".join([head, *(f"- {t}" for t in did)]),
        "text": "\n".join(lines),
        "users": [rec.seats.get(side or ""), rec.seats.get(after.active_side or "")],
    }
    rearm(store, gc.name, after, _At(now), _post=pending)  # the post is recorded with it ...
    log.info(
        "game=%s deadline=%s default=applied side=%s log_index=%s",
        gc.name,
        deadline.isoformat(),
        side,
        reply.log_index,
    )
    _flush_post(store, gc.name, pending, tell)  # ... and made (again after a crash: keyed)


def _names(store: Store, seats: dict) -> dict[str, str]:
    from storage import chat_store

    users = [u for u in seats.values() if u]
    found = chat_store.user_names(store, users)
    return {side: found.get(u, u) for side, u in seats.items() if u}


def _who(side: str | None, names: dict[str, str]) -> str:
    name = names.get(side or "")
    return f"{_side_name(side)} ({name})" if name else _side_name(side)


class _GuardedStore:
    """The store, except that the default's change runs only while the game is still in the
    situation its deadline was armed for (checked in the change's own transaction, on the
    locked game row), or when it is the retried delivery of the same default (its key is in the
    log already: the service then answers with the original reply). So a player's order that
    lands just before the default (its re-arm not yet written) is never followed by a default
    on the next player's turn."""

    def __init__(self, store: Store, key: str, armed_for: str | None):
        self._store, self._key, self._for = store, key, armed_for

    def __getattr__(self, name):
        return getattr(self._store, name)

    def transact(self, name, fn, **kw):
        from adjudicator.core.errors import Rejection
        from adjudicator.hells_gate.state import GameState

        def guarded(tx):
            stale = (
                self._for is not None
                and not tx.find_key(self._key)
                and situation(GameState.from_dict(tx.snapshot)) != self._for
            )
            if stale:
                raise Rejection(
                    "deadline-stale",
                    "the game moved on before the deadline's default was applied",
                    None,
                )
            return fn(tx)

        return self._store.transact(name, guarded, **kw)


def next_due(store: Store) -> datetime | None:
    """The next time something is due: a deadline or a reminder not yet sent."""
    times = []
    for gc in clocks(store):
        if gc.running():
            times.append(gc.deadline_at)
            times += [gc.deadline_at - _td(h) for h in gc.reminder_hours if h not in gc.sent]
    return min(times) if times else None


# -- the way out
def outbox_post(store: Store, now: datetime | None = None) -> Post:
    """post(game, outgoings, key) into the persisted outbox (bots.outbox), idempotent by key."""

    def post(game: str, outs: list[Outgoing], key: str) -> None:
        from bots import outbox

        outbox.enqueue(store, game, outs, key=key, now=now)

    return post

"""Health of a running `pbem serve`: which bots are connected, the outbox backlog, the
scheduler leader, the built-in opponent's worker processes and moves. `serve` answers `GET /healthz` on 127.0.0.1:PBEM_HEALTH_PORT (JSON; 200 when
every bot is connected, 503 otherwise); `pbem health` asks it and prints the answer.

A bot's state: "connected"; "reconnecting" (a Discord gateway connection dropped, discord.py
reconnects); "conflict" (Telegram answers 409: another process polls the token); "connecting";
"restarting" / "stopped" (bots/supervise.py); `last_error` says why when it is not connected.

    {"ok": true,
     "bots": {"telegram": {"connected": true, "state": "connected", "restarts": 0, ...}},
     "outbox": {"pending": 0, "failed": 0, "oldest_pending_seconds": null},
     "scheduler": {"leader": true, "id": "scheduler-1"},
     "opponent": {"workers": 1, "thinking": 0, "played": 12, "failed": 0}}
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select

from storage.outbox import FAILED, OUTBOX, PENDING

log = logging.getLogger("pbem.serve")

HOST = "127.0.0.1"  # local only: the answer is for the host, not for the world


def backlog(store: Any, now: datetime | None = None) -> dict[str, Any]:
    """The outbox's pending and failed rows, and the age of the oldest pending one."""
    now = now or datetime.now(UTC)
    with store.engine.connect() as conn:
        counts = dict(
            conn.execute(
                select(OUTBOX.c.status, func.count())
                .where(OUTBOX.c.status.in_((PENDING, FAILED)))
                .group_by(OUTBOX.c.status)
            ).all()
        )
        oldest = conn.execute(
            select(func.min(OUTBOX.c.created_at)).where(OUTBOX.c.status == PENDING)
        ).scalar()
    age = None
    if oldest is not None:
        oldest = oldest if oldest.tzinfo else oldest.replace(tzinfo=UTC)
        age = max(0.0, round((now - oldest).total_seconds(), 1))
    return {
        "pending": int(counts.get(PENDING, 0)),
        "failed": int(counts.get(FAILED, 0)),
        "oldest_pending_seconds": age,
    }


def snapshot(
    fronts: Mapping[str, Any], store: Any, scheduler: Any, opponent: Any = None
) -> dict[str, Any]:
    """The report; `opponent`: the opponent's runner (None: PBEM_OPPONENT_WORKERS is 0)."""
    bots = {name: front.status() for name, front in fronts.items()}
    return {
        "ok": bool(bots) and all(b["connected"] for b in bots.values()),
        "bots": bots,
        "outbox": backlog(store),
        "scheduler": {"leader": bool(scheduler.is_leader), "id": scheduler.id},
        "opponent": opponent.status() if opponent is not None else None,
    }


async def serve_health(port: int, report: Callable[[], dict[str, Any]]) -> tuple[Any, int]:
    """Answer GET /healthz on 127.0.0.1:`port` (0: any free port); (the runner, the port)."""
    from aiohttp import web

    async def healthz(_: web.Request) -> web.Response:
        body = await asyncio.to_thread(report)
        return web.json_response(body, status=200 if body["ok"] else 503)

    app = web.Application()
    app.router.add_get("/healthz", healthz)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, HOST, port)
    await site.start()
    bound = runner.addresses[0][1]
    return runner, int(bound)


def render(body: dict[str, Any]) -> str:
    lines = []
    for name, bot in sorted(body.get("bots", {}).items()):
        extra = f", {bot['restarts']} restarts" if bot.get("restarts") else ""
        error = f": {bot['last_error']}" if bot.get("last_error") and not bot["connected"] else ""
        lines.append(f"{name}: {bot['state']}{extra}{error}")
    ob = body.get("outbox", {})
    age = ob.get("oldest_pending_seconds")
    oldest = f", oldest {age:g} s" if age is not None else ""
    lines.append(f"outbox: {ob.get('pending', 0)} pending{oldest}, {ob.get('failed', 0)} failed")
    sch = body.get("scheduler", {})
    who = "this process" if sch.get("leader") else "another process (this one follows)"
    lines.append(f"scheduler leader: {who}")
    ai = body.get("opponent")
    if ai:
        lines.append(
            f"opponent: {ai['workers']} worker process(es), {ai['thinking']} game(s) thinking, "
            f"{ai['played']} move(s) made, {ai['failed']} decision(s) failed (retried on the "
            "next pass)"
        )
    else:
        lines.append("opponent: off (PBEM_OPPONENT_WORKERS=0)")
    return "\n".join(lines)


def cmd_health(args: Any) -> int:
    """`pbem health`: 0 when every bot is connected, 1 when not, 2 when serve does not answer."""
    from bots.config import Config, ConfigError, config_file

    try:
        config = Config.load(None, config_file(getattr(args, "config", None)))
    except ConfigError as exc:
        print(f"pbem health: {exc}", file=sys.stderr)
        return 2
    port = args.port or config.get("PBEM_HEALTH_PORT")
    url = args.url or f"http://{HOST}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            body = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        body = json.loads(exc.read() or b"{}")
    except (OSError, ValueError) as exc:
        print(
            f"pbem health: no answer from {url} ({exc}); check that `pbem serve` runs with "
            "PBEM_HEALTH_PORT set to this port",
            file=sys.stderr,
        )
        return 2
    print(json.dumps(body, indent=2) if args.json else render(body))
    return 0 if body.get("ok") else 1


__all__ = ["backlog", "cmd_health", "render", "serve_health", "snapshot"]

"""`pbem serve`: the terminal front end as a newcomer runs it (a subprocess reading a script on
standard input), `--help`, the configuration, and logs that never show a token (the real bots on
the local fakes of Discord and Telegram, in one loop with the scheduler and the outbox)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots import serve as S
from bots.cli import main
from bots.config import VARIABLES, Config, ConfigError, read_toml
from storage import Store
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 300  # a ceiling only a missing answer reaches, never a slow machine
SCRIPT = """\
help
new hells-gate sandbox
join soviet
as bob: join german
start
dice 5
attack A1 with 47rc
as bob: end
as bob: options
as bob: losses 34id
status
end
deadline
extend 2h
as bob
salt from bob
as you
rolls
"""


def serve_process(tmp_path: Path, script: str, *args: str, env: dict | None = None):
    environ = {
        k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "DISCORD_", "TELEGRAM_"))
    }
    environ |= {"PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "bots.cli", "serve", *args],
        check=False,
        input=script,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environ,
        timeout=TIMEOUT,
    )


def test_serve_without_tokens_plays_a_script_on_the_terminal_and_exits_at_eof(tmp_path):
    done = serve_process(tmp_path, SCRIPT)
    out = done.stdout
    assert done.returncode == 0, done.stderr
    assert "No game is played in this chat yet" in out  # help before any game
    assert "New game **hells-gate-1**: a sandbox game" in out
    assert "You now play soviet." in out and "bob now plays german." in out
    assert "**hells-gate-1** begins: Soviet (you) against German (bob)" in out
    assert "**hells-gate-1: turn 1, soviet-combat**" in out  # the post after start
    assert "[map image hells-gate-1-" in out  # the map went with it
    assert "Die for combat A1: 5" in out and "die 5: 1 hit" in out
    assert "Refused (rule 8.23): first apply 1 hit in A1" in out  # bob's `end`
    assert "[private to bob] " in out  # options are private
    assert "34id (34th Infantry Division) takes a hit" in out
    assert "Turn 1, soviet-movement phase." in out  # `end` as you: the phase is over
    assert "Deadline extended by 2 h: now" in out
    assert "(you now speak as bob)" in out and "Salt added to dice epoch" in out
    assert "The last" in out and "rolls:" in out
    assert done.stderr == ""  # the terminal logs only warnings: there were none
    # the default SQLite file in the working directory holds the game, played by the users
    store = Store(str(tmp_path / "pbem.db"))
    try:
        rows = store.log("hells-gate-1")
        users = {r.user for r in rows if r.kind == "order"}
        assert users == {f"terminal:{S.local_user_id('you')}", f"terminal:{S.local_user_id('bob')}"}
    finally:
        store.close()
    # a second run on the same file continues the same game
    again = serve_process(tmp_path, "status\n")
    assert again.returncode == 0 and "soviet-movement" in again.stdout


def test_serve_help_lists_every_variable(capsys):
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    for var in VARIABLES:
        assert var.name in out
    assert "--config FILE.toml" in out


def test_config_from_toml_and_environment(tmp_path):
    path = tmp_path / "pbem.toml"
    path.write_text(
        'DISCORD_TOKEN = "file-token"\n'
        "pbem_tick_seconds = 5\n"
        "[telegram]\n"
        'token = "123:abc"\n'
        'webhook_url = "https://bot.example.org/tg"\n'
        "[discord]\n"
        "sharded = true\n"
    )
    config = Config.load({"DISCORD_TOKEN": "env-token"}, path)
    assert config.discord_token == "env-token"  # the environment wins
    assert config.telegram_token == "123:abc" and config.flag("DISCORD_SHARDED")
    assert config.tick_seconds == 5 and config.leader_retry_seconds == 15
    assert config.env()["TELEGRAM_WEBHOOK_URL"] == "https://bot.example.org/tg"
    assert "env-token" not in repr(config) and "123:abc" not in repr(config)
    path.write_text("[telegram]\ntokn = 'x'\n")
    with pytest.raises(ConfigError, match="unknown setting"):
        read_toml(path)
    with pytest.raises(ConfigError, match="PBEM_TICK_SECONDS"):
        Config.load({"PBEM_TICK_SECONDS": "soon"})
    with pytest.raises(ConfigError, match="PBEM_OUTAGE_SECONDS"):
        Config.load({"PBEM_TICK_SECONDS": "60"})  # 120 s is no longer an outage
    bad = tmp_path / "bad.toml"
    bad.write_text("[telegram]\ntokn = 'x'\n")
    assert main(["serve", "--config", str(bad)]) == 2


def test_a_failing_start_logs_no_token_even_in_a_traceback(tmp_path):
    """A token-bearing config file, debug logs, and a Bot API server that is not there: each
    try of the start fails with a traceback of HTTP errors (serve waits for the network and
    tries again), no token appears anywhere, and SIGTERM meanwhile stops it cleanly."""
    token = "987654321:AAF-secret-token-for-the-redaction-test"
    config = tmp_path / "pbem.toml"
    config.write_text(
        f'[telegram]\ntoken = "{token}"\nbase_url = "http://127.0.0.1:9"\n'
        '[pbem]\nlog_level = "DEBUG"\n'
    )
    environ = {
        k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "DISCORD_", "TELEGRAM_"))
    }
    environ |= {"PYTHONPATH": str(ROOT), "PBEM_DB": "games.db"}
    logs = tmp_path / "stderr.log"
    with logs.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-m", "bots.cli", "serve", "--config", str(config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            cwd=tmp_path,
            env=environ,
        )
        try:
            deadline = time.monotonic() + 5 * TIMEOUT  # a ceiling only a hung start reaches
            while "next try in" not in logs.read_text() and process.poll() is None:
                assert time.monotonic() < deadline, logs.read_text()
                time.sleep(0.1)
            process.send_signal(signal.SIGTERM)
            out, _ = process.communicate(timeout=5 * TIMEOUT)
        finally:
            if process.poll() is None:
                process.kill()
    text = logs.read_text()
    assert process.returncode == 0, text  # stopped while waiting: no failure
    assert "could not reach the Telegram Bot API" in text and "level=ERROR" in text
    assert "Traceback" in text
    assert token not in text and "AAF-secret" not in text and token not in out


def test_the_real_bots_serve_in_one_loop_and_their_logs_hold_no_token(tmp_path):
    """Discord and Telegram (the real libraries, on the local fakes), the scheduler and the
    outbox sender in one loop; JSON logs at DEBUG; no token in them."""
    logs = io.StringIO()

    async def scenario():
        async with FakeTelegramAPI() as tg, FakeDiscord() as dc:
            alice = dc.user("alice")
            config = Config.load(
                {
                    "PBEM_DB": str(tmp_path / "games.db"),
                    "TELEGRAM_TOKEN": tg.token,
                    "TELEGRAM_BASE_URL": tg.root_url,
                    "DISCORD_TOKEN": dc.token,
                    "PBEM_LOG_FORMAT": "json",
                    "PBEM_LOG_LEVEL": "DEBUG",
                }
            )
            S.setup_logging(config, terminal=False, stream=logs)
            stop = asyncio.Event()
            ready = asyncio.Event()
            parts = {}

            def on_ready(what: dict) -> None:
                parts.update(what)
                ready.set()

            task = asyncio.create_task(S.serve(config, stop=stop, ready=on_ready))
            await asyncio.wait_for(ready.wait(), 15)
            assert set(parts["senders"]) == {"telegram", "discord"}
            assert parts["scheduler"].is_leader
            tg.push_message("/order new hells-gate", chat_id=-100, user_id=7)
            [call] = await tg.wait_for_call("sendMessage", chat_id=-100, timeout=300)
            assert "New game" in call.params["text"]
            await dc.wait_identified(timeout=300)
            await dc.send_message("new hells-gate", author=alice, mention_bot=True)
            [sent] = await dc.wait_for_sent(timeout=300)
            assert "New game" in sent.content
            stop.set()
            assert await asyncio.wait_for(task, 20) == 0
            return tg.token, dc.token

    try:
        tokens = asyncio.run(asyncio.wait_for(scenario(), TIMEOUT))
    finally:
        logging.getLogger().handlers.clear()
    text = logs.getvalue()
    records = [json.loads(line) for line in text.splitlines()]
    assert records and all({"ts", "level", "logger", "msg"} <= set(r) for r in records)
    messages = [r["msg"] for r in records]
    assert any(m.startswith("telegram started mode=polling") for m in messages)
    assert any(m.startswith("discord started") for m in messages)
    for token in tokens:
        assert token not in text


def test_the_terminal_gets_reminders_and_deadline_defaults(tmp_path):
    """serve in-process on the terminal with an injected clock: the scheduler's reminder and the
    default of a passed deadline reach the local chat, through the outbox."""
    from datetime import UTC, datetime

    from app import outage as D
    from bots.clock import FakeClock

    clock = FakeClock(datetime.now(UTC).replace(microsecond=0))
    out = io.StringIO()
    read_fd, write_fd = os.pipe()

    async def scenario():
        parts = {}
        ready = asyncio.Event()

        def on_ready(what):
            parts.update(what)
            ready.set()

        with os.fdopen(read_fd) as stdin, os.fdopen(write_fd, "w") as feed:
            config = Config.load({"PBEM_DB": str(tmp_path / "games.db")})
            task = asyncio.create_task(
                S.serve(config, stdin=stdin, stdout=out, clock=clock, ready=on_ready)
            )
            await asyncio.wait_for(ready.wait(), 15)
            feed.write("new hells-gate\njoin soviet\nas bob: join german\nstart\n")
            feed.flush()
            await _until(lambda: "Soviet (you) to move: turn 1, soviet-combat." in out.getvalue())
            store, scheduler = parts["store"], parts["scheduler"]
            for hours, seen in ((24, "Reminder: Soviet has 24 h left"), (24, "Done on Soviet")):
                clock.advance(hours=hours)
                D.heartbeat(store, clock)  # the ticks a jump of the clock skips: no outage
                await scheduler.run_once()
                await _until(lambda s=seen: s in out.getvalue())
            feed.close()  # the end of input: serve stops
            assert await asyncio.wait_for(task, 20) == 0

    asyncio.run(asyncio.wait_for(scenario(), TIMEOUT))
    text = out.getvalue()
    assert "The deadline for Soviet (you) passed" in text
    assert "- Deadline default for Soviet: end." in text
    assert "**hells-gate-1: turn 1, soviet-movement**" in text
    assert text.count("@you") >= 3  # the start, the reminder and the default ping the player


async def _until(predicate, timeout: float = 300.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.05)

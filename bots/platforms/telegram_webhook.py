"""Webhook mode of the Telegram adapter: a small aiohttp server receiving the updates Telegram
pushes (the secret token checked), and the URL registered with `setWebhook`."""

from __future__ import annotations

from typing import Any

from telegram import Update

from bots.platforms.telegram_config import TelegramApp, TelegramConfig
from bots.platforms.telegram_poll import UPDATES


async def serve_webhook(app: TelegramApp, cfg: TelegramConfig) -> Any:
    """Serve `cfg.webhook_url`'s path on `webhook_listen:webhook_port`, each update put on the
    application's queue; return the aiohttp runner (its `cleanup()` stops the server)."""
    from aiohttp import web  # a dependency of discord.py; only webhook mode needs it

    assert cfg.webhook_url
    path = "/" + cfg.webhook_url.split("://", 1)[-1].partition("/")[2]

    cfg.check()  # never without a secret
    secret = cfg.webhook_secret

    async def receive(request: web.Request) -> web.Response:
        if request.headers.get("X-Telegram-Bot-Api-Secret-Token") != secret:
            return web.Response(status=403)
        try:
            update = Update.de_json(await request.json(), app.bot)
        except (ValueError, TypeError, KeyError, AttributeError):  # a malformed body
            return web.Response(status=400)
        await app.update_queue.put(update)
        return web.Response()

    webapp = web.Application()
    webapp.router.add_post(path, receive)
    runner = web.AppRunner(webapp, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, cfg.webhook_listen, cfg.webhook_port).start()
    return runner


async def register_webhook(app: TelegramApp, cfg: TelegramConfig) -> None:
    """Tell Telegram to push the updates (messages and button presses) to `cfg.webhook_url`."""
    assert cfg.webhook_url
    await app.bot.set_webhook(
        cfg.webhook_url, allowed_updates=UPDATES, secret_token=cfg.webhook_secret
    )

"""End to end with the Borodino referee: a rally phase and a recovery phase played in a
Telegram group and in a Discord channel, through the REAL python-telegram-bot and discord.py
libraries against the local fakes (tests/e2e_support.py), with the real chat service, store,
outbox sender (the boxes image with the posts that end a Recovery Phase, the rally's and the
placements' posts text only) and dice committed per turn. The game is a
sandbox so that its creator, a moderator, can fix the dice."""

from __future__ import annotations

from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI


async def posted(w: E.World, chat, contains: str, since: int, image: bool = True) -> str:
    """The text of the post (with its image, if `image`) holding `contains`, sent after index
    `since`."""
    if isinstance(chat, E.TelegramChat):
        posts = await w.tg_posts(chat.chat_id, contains, since=since, photo=image)
        if image:
            return posts[-1].rendered or ""
        # the post, not the reply to the order (which refers to the order)
        posts = await w.until(
            lambda: [
                c
                for c in w.api.calls[since:]
                if c.ok
                and c.chat_id == chat.chat_id
                and contains in (c.rendered or "")
                and "reply_parameters" not in c.params
            ],
            f"the post with {contains!r}",
        )
        return posts[-1].rendered or ""
    await w.dc_posts(chat.channel_id, contains, since=since, image=image)

    def post() -> list:  # the post, not the reply to the order (a reply refers to the order;
        # it may come before or after the post: chats are handled concurrently)
        sent = [s for s in w.fake.sent[since:] if s.channel_id == chat.channel_id]
        return [s for s in sent if contains in s.content and s.reference is None]

    return (await w.until(post, f"the post with {contains!r}"))[-1].content


def mark(w: E.World) -> int:
    return len(w.api.calls) if w.api is not None else len(w.fake.sent)


async def rally_and_recovery(w: E.World, chat) -> None:
    a = await chat.say("alice", "new borodino sandbox")
    assert "a sandbox game of Borodino referee" in E.plain(a.public)
    game = w.game(*chat.key)
    await chat.say("alice", "join russian")
    assert "Both sides are taken" in E.plain((await chat.say("bob", "join french")).public)
    since = mark(w)
    await chat.say("alice", "start")
    await posted(w, chat, f"{game}: turn 1, activations", since)

    # -- an activation and its Rally phase: the bot rolls against the Disordered cohesion
    await chat.say("alice", "disorder odessa")
    await chat.say("alice", "disorder tarnopol")
    a = await chat.say("alice", "activate neverovsky")
    assert "Activation Phase of neverovsky" in E.plain(a.public)
    await chat.say("alice", "activated tarnopol fired")
    a = await chat.say("alice", "end")
    assert "may attempt: odessa " in E.plain(a.public)  # tarnopol fired (2.2)
    a = await chat.say("bob", "rally odessa")
    assert "Refused" in E.plain(a.public) and "odessa is not yours: the Russian player" in E.plain(
        a.public
    )
    assert "fixes the next die results: 2" in E.plain((await chat.say("alice", "dice 2")).public)
    since = mark(w)
    a = await chat.say("alice", "rally odessa")
    assert "rallies: die 2 <= cohesion 3 (2.6)" in E.plain(a.public)
    text = E.plain(await posted(w, chat, "rallies: die 2 <= cohesion 3", since, image=False))
    assert "What happened:" in text and "Russian boxes: Withdrawn: -" in text

    # -- routs, then turn 1's Recovery Phase: the Withdrawn Boxes move (5.1)
    await chat.say("alice", "rout simbirsk")
    await chat.say("bob", "rout 25e")
    since = mark(w)
    a = await chat.say("bob", "recovery")
    text = E.plain(await posted(w, chat, f"{game}: turn 2, activations", since))
    assert "Withdrawn Boxes to the Recovery Boxes (5.1): simbirsk, 25e" in text

    # -- turn 2's Recovery Phase: who goes first, a roll each, the placements
    await chat.say("alice", "dice 3 1 2 3")
    since = mark(w)
    a = await chat.say("alice", "recovery")
    said = E.plain(a.public)
    assert "Who goes first (3.8): Russian 3, French 1: Russian first." in said
    assert "simbirsk (Simbirsk Infantry Regiment) recovers: die 2 <= cohesion 2 (3.5)" in said
    text = E.plain(
        await posted(w, chat, "must decide: return the recovered unit simbirsk", since, image=False)
    )
    assert "Russian (" in text and "recovers: die 2" in text and "25e (25e Ligne) recovers" in text
    a = await chat.say("alice", "return simbirsk 0101")
    refusal = E.plain(a.public)
    assert "Refused (rule 4.2)" in refusal and "legal hexes for simbirsk: " in refusal
    a = await chat.say("alice", "return simbirsk 0702")
    assert "returns to the map at 0702, Disordered (4.1)" in E.plain(a.public)
    since = mark(w)
    await chat.say("bob", "return 25e 0302")
    text = E.plain(await posted(w, chat, f"{game}: turn 3, activations", since))
    assert "25e (25e Ligne) returns to the map at 0302" in text and "Losses: neverovsky" in text
    await w.drained()


def test_a_rally_phase_and_a_recovery_phase_in_a_telegram_group(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), E.now_clock(), telegram=api, label="bo-tg") as w,
        ):
            await rally_and_recovery(w, E.TelegramChat(w, E.TG_GROUP))
            photos = w.tg_photos(E.TG_GROUP)
            assert all(p.startswith(E.PNG_MAGIC) for p in photos)
            # the start's, and one with each new turn (after a Recovery Phase): none with the
            # rally's or the placements' posts
            assert len(photos) == 3

    E.run(scenario())


def test_a_rally_phase_and_a_recovery_phase_in_a_discord_channel(tmp_path):
    async def scenario():
        async with (
            FakeDiscord() as fake,
            E.World(str(tmp_path / "games.db"), E.now_clock(), discord=fake, label="bo-dc") as w,
        ):
            await rally_and_recovery(w, E.DiscordChat(w, fake.channel_id))

    E.run(scenario())

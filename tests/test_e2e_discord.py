"""End to end on Discord: the REAL discord.py bot (hybrid commands, mentions, DMs; no message
content intent) against a local fake gateway + REST server (tests/fakes/discord_api.py), in front
of the real chat service, game service, SQLite store, outbox sender and deadline scheduler, with
an injected clock (tests/e2e_support.py).

A whole short game in a channel (seats checked, an attack, the hit decided by the other player, a
phase end with its map, a refusal naming its rule, a reminder and a deadline default on the moved
clock, private answers: ephemeral for a slash command, a DM for a mention), then every command of
the order language, one by one."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord


def pings(sent, user: dict) -> bool:
    """The message pings the user: `<@id>` in its text and allowed as a mention."""
    allowed = [str(u) for u in (sent.allowed_mentions or {}).get("users", [])]
    return f"<@{user['id']}>" in sent.content and user["id"] in allowed


def test_a_whole_short_game_in_a_discord_channel(tmp_path):
    async def scenario():
        clock = E.now_clock()
        async with (
            FakeDiscord() as fake,
            E.World(str(tmp_path / "games.db"), clock, discord=fake) as w,
        ):
            channel = E.DiscordChat(w, fake.channel_id)
            alice, bob = fake.user("alice"), fake.user("bob")

            # -- the chat lifecycle, through every way of talking to the bot
            a = await channel.say("alice", "new hells-gate sandbox")  # @pbem new ...
            assert "New game hells-gate-1: a sandbox game" in a.public
            game = w.game(*channel.key)
            a = await channel.say("alice", "join soviet", via="slash")  # /order text:...
            assert "Alice now plays soviet" in a.public and a.seen[0].where == "chat"
            a = await channel.say("bob", "join german", via="order-mention")  # @pbem order ...
            assert "Both sides are taken" in a.public
            a = await channel.say("alice", "start", via="slash")
            assert "begins: Soviet (Alice) against German (Bob)" in a.public
            [post] = await w.dc_posts(fake.channel_id, f"{game}: turn 1, soviet-combat", image=True)
            assert pings(post, alice) and "Soviet (Alice) to move" in post.content

            # -- seat checks: nobody orders a side that is not his
            rows = w.store.count_rows(game)
            a = await channel.say("bob", "end", via="slash")  # a slash refusal: ephemeral
            assert "Refused (rule 4.6)" in a.private and "only the Soviet player" in a.private
            assert a.seen[0].where == "ephemeral" and not a.public
            a = await channel.say("bob", "attack A1 with 47rc")  # a mention: refused in public
            assert a.public.startswith("Refused")
            a = await channel.say("carol", "end")
            assert "Carol holds no seat in this game: a spectator" in a.public
            assert "Turn 1 of 8" in (await channel.say("carol", "status", via="slash")).public
            assert w.store.count_rows(game) == rows

            # -- an attack: the moderator fixes the die (a sandbox), the Soviet player attacks
            assert "fixes the next die results: 6" in (await channel.say("alice", "dice 6")).public
            since = len(fake.sent)
            a = await channel.say("alice", "attack A1 with 47rc", via="slash")
            assert "Attack on A1 by 47rc: 3:2" in a.public and "die 6: 1 hit" in a.public
            [post] = await w.dc_posts(
                fake.channel_id, "German (Bob) must decide", since=since, image=True
            )
            assert pings(post, bob) and "apply 1 hit in A1" in post.content

            # -- a refusal names its rule
            a = await channel.say("bob", "end")
            assert "Refused (rule 8.23): first apply 1 hit in A1" in a.public

            # -- private answers: ephemeral to a slash command, a DM to a mention
            a = await channel.say("bob", "options", via="slash")  # /options: his menu, buttons
            [seen] = a.seen
            assert seen.where == "ephemeral" and "German, turn 1" in a.private
            [menu] = [s for s in fake.sent if s.interaction_id == a.raw["id"]]
            assert menu.ephemeral and "losses retreat A2" in [b["label"] for b in menu.buttons]
            a = await channel.say("bob", "options")
            [seen] = a.seen
            assert seen.where == "dm" and "losses retreat A2" in a.private
            assert all(
                "losses retreat A2" not in s.content
                for s in fake.sent
                if s.kind == "channel" or (s.interaction_id and not s.ephemeral)
            )

            # -- the hit decided by the OTHER player
            a = await channel.say("bob", "retreat A2", via="order-mention")
            assert "34id (34th Infantry Division) retreats A1 → A2" in a.public

            # -- a phase end: the summary, the map (PNG bytes at Discord), the next player
            since = len(fake.sent)
            a = await channel.say("alice", "end", via="slash")
            assert "Soviet ends the soviet-combat phase" in a.public
            [post] = await w.dc_posts(
                fake.channel_id, "turn 1, soviet-movement", since=since, image=True
            )
            assert "What happened:" in post.content and "retreats A1 → A2" in post.content
            assert pings(post, alice)
            [(name, image)] = post.files
            assert name == f"{game}-{w.store.load(game, with_log=False).head_index}.png"
            assert image.startswith(E.PNG_MAGIC) and len(image) > 10_000

            # -- a reminder, 24 h before the deadline
            deadline = w.deadline(game)
            clock.set(deadline - timedelta(hours=24))
            since = len(fake.sent)
            await w.tick()
            [post] = await w.dc_posts(
                fake.channel_id, "Reminder: Soviet has 24 h left", since=since
            )
            assert pings(post, alice) and "to finish the soviet-movement phase" in post.content

            # -- the deadline passes: the default is applied and the chat told what was done
            clock.set(deadline + timedelta(minutes=1))  # just past it
            since = len(fake.sent)
            await w.tick()
            [post] = await w.dc_posts(
                fake.channel_id, "Done on Soviet's behalf", since=since, image=True
            )
            assert "The deadline for Soviet (Alice) passed" in post.content
            assert "- Deadline default for Soviet: move 5gtk" in post.content
            assert "German (Bob) to move: turn 1, german-combat" in post.content
            assert pings(post, bob)
            [applied] = [r for r in w.store.log(game) if r.key and r.key.startswith("deadline:")]
            assert applied.actor == "system" and applied.text == "default"

            # -- a DM to the bot speaks for the user's one game
            dm = E.DiscordChat(w, fake.channel_id)
            a = await dm.say("alice", "status", via="dm")
            assert a.seen[0].where == "dm" and "Turn 1 of 8" in a.text
            # DMs refused by the user: the channel is asked to allow them, without the content
            fake.dm_blocked.add(bob["id"])
            a = await channel.say("bob", "options")
            [seen] = a.seen
            assert seen.out.private and "units may act" in seen.out.text
            assert seen.where == "notice" and "please allow direct messages" in seen.text
            assert all("units may act" not in s.content for s in fake.sent)

            # -- the map, attached to the slash command's answer
            a = await channel.say("carol", "map", via="slash")
            assert a.images and a.images[0].startswith(E.PNG_MAGIC)
            await w.drained()  # every post of the game went out
            assert fake.unexpected == []

    E.run(scenario())


# ---------------------------------------------------------------- every command, one by one


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    loop = E.LoopFixture()
    try:
        fake = loop.enter(FakeDiscord())
        db = str(tmp_path_factory.mktemp("e2e-discord") / "games.db")
        world = loop.enter(E.World(db, E.now_clock(), discord=fake))
        t = E.Table(
            world, E.DiscordChat(world, fake.channel_id), E.DiscordChat(world, fake.thread_id)
        )
        loop.run(t.prepare())
        yield loop, t
        assert fake.unexpected == []
    finally:
        loop.close()


VIAS = ("slash", "mention", "order-mention")  # /order text:, @pbem <text>, @pbem order <text>


@pytest.mark.parametrize("case", E.CASES, ids=[c.id for c in E.CASES])
def test_every_command_reaches_the_service_through_discord(table, case):
    loop, t = table
    if case.text.split()[0] in ("map", "status", "help"):
        via = "slash"  # the short slash commands: /map, /status, /help
    elif case.text == "options":
        via = "mention"  # its text list (/options answers with buttons: tests/test_e2e_tap_to_play_discord.py)
    else:
        via = VIAS[E.CASES.index(case) % len(VIAS)]
    loop.run(E.run_case(t, case, via))

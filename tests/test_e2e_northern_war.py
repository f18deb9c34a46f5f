"""End to end for the block game: the REAL python-telegram-bot and discord.py libraries against
their local fakes (tests/e2e_support.py). Two players start the sample scenario in a group; each
gets his own map image and his block list by private message; a reconnaissance result reaches
the player who made it and nobody else; the turn goes on to the next turn's post with the
group's public map and each side's own map by DM."""

from __future__ import annotations

from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

GROUP = E.TG_GROUP
ALICE, BOB = E.TG_USERS["alice"].id, E.TG_USERS["bob"].id
RECON = {"sweden": "recon pskov", "coalition": "recon estonia"}  # next to the enemy at start


def to_move(w: E.World, game: str) -> str:
    system = w.service.system(game)
    return system.situation(w.service.state(game)).to_move[0]


def test_telegram_two_players_own_maps_block_lists_and_a_private_reconnaissance(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), E.now_clock(), telegram=api) as w,
        ):
            group = E.TelegramChat(w, GROUP)
            dms = {"sweden": E.TelegramChat(w, ALICE), "coalition": E.TelegramChat(w, BOB)}
            users = {"sweden": "alice", "coalition": "bob"}
            ids = {"sweden": ALICE, "coalition": BOB}
            assert "New game" in (await group.say("alice", "new northern-war")).public
            game = w.game(*group.key)
            await group.say("alice", "join sweden")
            await group.say("bob", "join coalition")
            await group.say("alice", "start")
            await w.drained()
            start = {s: w.tg_photos(ids[s]) for s in ids}
            public = w.tg_photos(GROUP)
            assert public and all(start[s] for s in ids)  # each his own map, by DM
            assert len({public[-1], start["sweden"][-1], start["coalition"][-1]}) == 3

            # -- each player's block list, in his private chat: his own blocks only
            mine = await dms["sweden"].say("alice", "blocks", via="plain")
            assert mine.seen[0].where == "dm" and "Charles XII [charles]" in mine.text
            assert "strength 4/4" in mine.text and "Peter" not in mine.text
            theirs = await dms["coalition"].say("bob", "blocks", via="plain")
            assert "Peter I [peter]" in theirs.text and "Charles" not in theirs.text

            # -- the first entry phase ends; the first player reconnoitres, privately
            await group.say("alice", "end")
            side = to_move(w, game)
            other = "coalition" if side == "sweden" else "sweden"
            a = await dms[side].say(users[side], RECON[side], via="plain")
            assert "Seen in turn 1" in a.text and a.seen[-1].private
            await w.drained()
            for chat_id in (GROUP, ids[other]):
                said = [c.rendered or "" for c in api.calls if c.ok and c.chat_id == chat_id]
                assert not any("Seen in turn" in t for t in said), chat_id
                assert any("reconnoitres" in t for t in said) or chat_id == ids[other]
            status = await group.say(users[other], "status")
            assert "strength" not in status.text

            # -- both end their actions: the next turn's post, the maps again
            since = len(api.calls)
            await dms[side].say(users[side], "end", via="plain")
            while to_move(w, game) == other and w.service.state(game).turn == 1:
                await group.say(users[other], "end")
            await w.drained()
            assert w.tg_photos(GROUP, since)
            assert all(w.tg_photos(ids[s], since) for s in ids)

    E.run(scenario())


def test_discord_two_players_get_their_own_maps_and_block_lists_by_dm(tmp_path):
    async def scenario():
        async with (
            FakeDiscord() as fake,
            E.World(str(tmp_path / "games.db"), E.now_clock(), discord=fake) as w,
        ):
            channel = E.DiscordChat(w, fake.channel_id)
            await channel.say("alice", "new northern-war")
            game = w.game(*channel.key)
            await channel.say("alice", "join sweden")
            await channel.say("bob", "join coalition")
            await channel.say("alice", "start")
            await channel.say("alice", "end")
            await w.drained()
            for name in ("alice", "bob"):
                uid = channel.user(name)["id"]
                dm_maps = [
                    data for s in fake.sent if s.kind == "dm" and s.recipient_id == uid
                    for _, data in s.files if data.startswith(E.PNG_MAGIC)
                ]  # fmt: skip
                assert len(dm_maps) >= 2, name  # the start's and the first turn's
            a = await channel.say("bob", "blocks", via="dm")
            assert a.seen[0].where == "dm" and "Peter I [peter]" in a.text
            assert "Charles XII" not in a.text
            a = await channel.say("alice", "blocks")  # asked in the channel: answered by DM
            assert a.seen[0].out.private and "Charles XII [charles]" in a.seen[0].out.text
            side = to_move(w, game)
            user = "alice" if side == "sweden" else "bob"
            a = await channel.say(user, RECON[side], via="dm")
            assert "Seen in turn 1" in a.text
            public = [s.content for s in fake.sent if s.kind == "channel"]
            assert not any("Seen in turn" in c for c in public)

    E.run(scenario())

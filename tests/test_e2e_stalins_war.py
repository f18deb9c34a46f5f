"""End to end, Stalin's War through the REAL python-telegram-bot and discord.py against the local
fakes: the deal and each hand by private message, the group sees only the public record (counts,
the cards played face up), a refusal cites its rule, a private message that cannot be delivered
gives the group notice, and a whole turn of five action rounds each."""

from __future__ import annotations

import re
import time

from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

CARD = re.compile(r"- #(\d+) ")
TRANSCRIPT: list[tuple[float, str]] = []


def hand_of(text: str) -> list[int]:
    return [int(n) for n in CARD.findall(text.split("Your hand")[-1])]


async def said(chat, user: str, text: str, via: str = "order"):
    TRANSCRIPT.append((time.monotonic(), f"{user}> {text}"))
    return await chat.say(user, text, via=via)


def transcript(api) -> str:
    """What each Telegram chat showed, in order, between the lines the players sent."""
    names = {str(u.id): n for n, u in E.TG_USERS.items()}
    lines = list(TRANSCRIPT)
    for c in api.calls:
        if c.ok and c.method in E.SENDS and (c.rendered or c.photo is not None):
            where = "group" if c.chat_id == E.TG_GROUP else f"DM to {names.get(str(c.chat_id))}"
            photo = " [image]" if c.photo is not None else ""
            lines.append(
                (c.at, f"  [{where}]{photo} " + (c.rendered or "").replace("\n", "\n    "))
            )
    return "\n".join(text for _, text in sorted(lines, key=lambda x: x[0]))


async def a_turn(
    chat, hands: dict[str, list[int]], via: str = "order", first: tuple[str, ...] = ()
) -> None:
    """Five action rounds each (or what is left of them after the actions `first` of round 1):
    a card for OPS or RP where one is held, else a 0-OPS round; a roll posted to the group."""
    players = {"axis": "alice", "soviet": "bob"}
    for rnd in range(1, 6):
        for side in first if rnd == 1 and first else ("axis", "soviet"):
            user = players[side]
            if hands[side] and rnd != 3:
                card = hands[side].pop(0)
                mode = "rp" if rnd == 2 else "ops"
                a = await said(chat, user, f"play {card} {mode}", via)
                assert f"plays #{card} " in a.public, a.public
                if "OPS)." in a.public and ": 0 OPS" not in a.public:
                    a = await said(chat, user, "roll 2d6 attack on Kiev", via)
                    assert "rolls 2d6 for attack on Kiev" in a.public
                    await said(chat, user, "end", via)
            else:
                a = await said(chat, user, "pass0 move", via)
                assert "0-OPS round, variant 1" in a.public


def test_a_turn_in_a_telegram_group_hands_by_private_message(tmp_path):
    async def scenario():
        async with (
            FakeTelegramAPI() as api,
            E.World(str(tmp_path / "games.db"), E.now_clock(), telegram=api) as w,
        ):
            group = E.TelegramChat(w, E.TG_GROUP)
            a = await said(group, "alice", "new stalins-war")
            assert "New game" in a.public
            await said(group, "alice", "join axis")
            await said(group, "bob", "join soviet")
            a = await said(group, "alice", "start")
            a = await said(group, "alice", "draw")
            [dm] = await w.tg_posts(E.TG_USERS["alice"].id, "Your hand")
            alice_hand = hand_of(dm.rendered)
            assert len(alice_hand) == 6 and "Your hand" not in a.public
            assert "draws 6 cards" in a.public
            a = await said(group, "bob", "draw")
            [dm] = await w.tg_posts(E.TG_USERS["bob"].id, "Your hand")
            bob_hand = hand_of(dm.rendered)
            assert len(bob_hand) == 6 and not any(f"#{n} " in a.public for n in bob_hand)
            a = await said(group, "bob", f"play {bob_hand[0]} ops")  # not his round
            assert "Refused (rule 5.4)" in a.text
            a = await said(group, "alice", "play 99 ops")
            assert "Refused (rule 5.5)" in a.text and "hand shows your cards" in a.text
            await a_turn(group, {"axis": sorted(alice_hand), "soviet": sorted(bob_hand)})
            assert "draw phase" in (await said(group, "carol", "status")).public
            public = "\n".join(c.rendered or "" for c in api.calls if c.chat_id == E.TG_GROUP)
            assert "Your hand" not in public
            # a roll asked in a private chat is posted to the group all the same
            dm = E.TelegramChat(w, E.TG_USERS["bob"].id)
            a = await said(dm, "bob", "roll 1d6 morale of the Kiev garrison")
            assert a.seen[0].where == "dm" and "rolls 1d6 for morale of the Kiev garrison" in a.text
            await w.tg_posts(E.TG_GROUP, "rolls 1d6 for morale of the Kiev garrison")
            # a private message that cannot be delivered: the group is told, without the hand
            api.block_private(E.TG_USERS["bob"].id)
            await said(group, "bob", "draw")  # the Soviet player decides first (4.2)
            since = len(api.calls)
            a = await said(group, "alice", "draw")  # then both draw: bob's hand cannot reach him
            [notice] = await w.tg_posts(E.TG_GROUP, "could not be delivered", since=since)
            assert "bob" in notice.rendered and "Your hand" not in notice.rendered
            assert all("Your hand" not in (c.rendered or "") for c in api.sent(None, E.TG_GROUP))
            [dm] = await w.tg_posts(E.TG_USERS["alice"].id, "the draw phase of turn 1")
            assert len(hand_of(dm.rendered)) == 6
            (tmp_path / "transcript.txt").write_text(transcript(api), "utf-8")

    E.run(scenario())


def test_a_discord_channel_sees_counts_and_the_cards_played_only(tmp_path):
    async def scenario():
        async with (
            FakeDiscord() as fake,
            E.World(str(tmp_path / "games.db"), E.now_clock(), discord=fake) as w,
        ):
            channel = E.DiscordChat(w, fake.channel_id)
            await channel.say("alice", "new stalins-war")
            await channel.say("alice", "join axis")
            await channel.say("bob", "join soviet")
            await channel.say("alice", "start")
            a = await channel.say("alice", "draw", via="slash")
            alice_hand = hand_of(a.private)
            assert len(alice_hand) == 6 and "Your hand" not in a.public
            a = await channel.say("bob", "draw", via="slash")
            bob_hand = hand_of(a.private)
            assert len(bob_hand) == 6 and "Your hand" not in a.public
            a = await channel.say("bob", "pass0 move", via="slash")
            assert "Refused (rule 5.4)" in a.private
            card = min(alice_hand)
            a = await channel.say("alice", f"play {card} ops")
            assert f"Axis plays #{card} " in a.public
            others = [n for n in alice_hand if n != card]
            assert not any(re.search(rf"#{n}\b", a.public) for n in others)
            if "OPS)." in a.public and ": 0 OPS" not in a.public:
                await channel.say("alice", "end")
            a = await channel.say("bob", "hand", via="slash")  # answered ephemerally
            assert a.seen[0].where == "ephemeral" and sorted(hand_of(a.private)) == sorted(bob_hand)
            a = await channel.say("carol", "hand", via="slash")
            assert "Your hand" not in a.text
            hands = {"axis": sorted(others), "soviet": sorted(bob_hand)}
            await a_turn(channel, hands, via="mention", first=("soviet",))
            since = len(fake.sent)
            await channel.say("bob", "draw")
            await channel.say("alice", "draw")  # both draw: bob's new hand by DM
            await w.until(
                lambda: [
                    x for x in fake.sent[since:] if x.kind == "dm" and "Your hand" in x.content
                ],
                "the Soviet hand by DM",
            )
            assert all("Your hand" not in x.content for x in fake.sent if x.kind == "channel")

    E.run(scenario())

"""Trust in the chat (issue 13, items 4-7) end to end: the REAL python-telegram-bot and
discord.py against their local fakes (tests/e2e_support.py), one game played from a Telegram
group and a Discord channel linked together (not a sandbox).

- the start's post carries epoch 1's commitment in both chats;
- after a moderator's `unseat`, `join` of the free seat is refused (from Discord, by the
  unseated player and by a spectator) with what to do instead; `status` shows the seat free;
  the moderator's `seat` by mention fills it;
- a rewind over a roll is proposed on Telegram, refused to the proposer, confirmed on Discord by
  the other side's player: both chats are told the discarded roll and the new commitment, and
  the attack given again rolls from epoch 2;
- a lone surrogate in a reason, sent through each platform's real client (JSON escapes it),
  gets an answer and is stored as U+FFFD; a message of too many lines is refused whole.
"""

from __future__ import annotations

import re

from adjudicator.hells_gate import grammar
from adjudicator.hells_gate import orders as O
from tests import e2e_support as E

GROUP = E.TG_GROUP


def first_attack(w: E.World, game: str) -> str:
    state = w.service.state(game)
    legal = w.service.rules(game).legal_orders(state, "soviet")
    attacks = [o for o in legal if isinstance(o, O.Attack)]
    return grammar.format_order(min(attacks, key=grammar.format_order))


def test_seats_rewinds_commitments_and_text_across_telegram_and_discord(tmp_path):
    async def scenario():
        clock = E.now_clock()
        async with E.both_platforms(tmp_path / "games.db", clock, images=False) as (api, fake, w):
            tg, dc = E.TelegramChat(w, GROUP), E.DiscordChat(w, fake.channel_id)
            a = await tg.say("alice", "new hells-gate")
            game = w.game(*tg.key)
            a = await tg.say("alice", "link")
            code = re.search(r"`?([A-Z0-9]{8})`?", a.public.split("Link code")[1]).group(1)
            a = await dc.say("bob", f"link {code}")
            assert "now follows" in a.public
            await tg.say("alice", "join soviet")
            a = await dc.say("bob", "join german")
            assert "now plays german" in a.public

            # 6. the start's post: epoch 1's commitment in both chats
            tg0, dc0 = len(api.calls), len(fake.sent)
            await tg.say("alice", "start")
            rec = w.service.record(game)
            line = f"Dice: epoch 1 (turn 1), commitment {rec.epoch_commitment}"
            await w.tg_posts(GROUP, line, since=tg0)
            await w.dc_posts(fake.channel_id, line, since=dc0)

            # 4. a free seat after the start: refused to anyone who joins, shown as free
            bob = E.user_id(dc, "bob")
            a = await tg.say("alice", "unseat german gone for a week")
            assert "no longer plays german" in a.public
            for who in ("bob", "carol"):  # the unseated player, a spectator
                a = await dc.say(who, "join german")
                assert a.public.startswith("Refused: the game has started: german is free")
                assert "who says seat german @USER" in a.public
            assert w.service.record(game).seats["german"] is None
            a = await dc.say("carol", "status", via="slash")
            assert "Free seat: German" in a.text
            a = await tg.say("alice", f"moderator add {E.user_id(dc, 'alice')}")
            assert "is now a moderator" in a.public  # alice moderates from Discord too
            a = await dc.say("alice", f"seat german {dc.mention('bob')} is back")
            assert "now plays german" in a.public
            assert w.service.record(game).seats["german"] == bob

            # 5. a rewind over a roll: proposed on Telegram, confirmed on Discord by German
            base = w.service.record(game).head_index
            attack = first_attack(w, game)
            a = await tg.say("alice", attack)
            assert "die" in a.public
            a = await tg.say("alice", f"rewind {base} the wrong hex")
            assert "proposed by" in a.public and "1 roll is discarded" in a.public
            await w.dc_posts(fake.channel_id, "proposed by")  # mirrored to Discord
            a = await tg.say("alice", "confirm rewind")
            assert "does not confirm it himself" in a.public
            tg0, dc0 = len(api.calls), len(fake.sent)
            a = await dc.say("bob", "confirm rewind")
            assert "confirmed by" in a.public
            rec = w.service.record(game)
            assert rec.epoch == 2
            told = f"commitment {rec.epoch_commitment}"
            [tg_post] = await w.tg_posts(GROUP, told, since=tg0)
            [dc_post] = await w.dc_posts(fake.channel_id, told, since=dc0)
            for text in (tg_post.rendered, dc_post.content):  # both chats: the roll, by names
                assert "by alice, confirmed by Bob. 1 roll is discarded: row" in text
            await tg.say("alice", attack)
            again = [r for r in w.store.log(game) if r.kind == "order"][-1]
            assert again.rolls[0]["epoch"] == 2 and again.rolls[0]["n"] == 1

            # 7. text is data, through both real clients
            a = await tg.say("alice", "pause \ud800 lunch")
            assert "paused" in a.public
            assert w.service.record(game).paused_why == "\ufffd lunch"
            a = await dc.say("alice", "resume \udfff back")
            assert "resumed" in a.public
            rows = w.store.count_rows(game)
            for chat in (tg, dc):  # 150 lines: over the line limit, refused whole
                a = await chat.say("carol", "\n".join(["units A1"] * 150))
                assert "Refused: the message has 150 lines; at most 100 are read" in a.public
            assert w.store.count_rows(game) == rows

    E.run(scenario())

"""Seats, identities and replies sized for a chat, end to end on both platforms: the REAL
python-telegram-bot and discord.py against their local fakes (tests/e2e_support.py), one game
played from a Telegram group and a Discord channel linked together.

- `seat SIDE <USER>` takes a mention (Telegram @username or a text mention; Discord <@id>), a
  user id, or a display name only one seen user bears (the reply says whom it chose); an
  unknown or ambiguous name is refused with the candidates and seats nobody.
- `whoami`; `identity link` (the code by DM) and `identity confirm CODE` on the other platform
  make one player of two accounts: the game's log records it before the linked account's first
  order, and the seat check counts it.
- `help` at most 15 lines for the asker's role; refusals quote at most 60 characters and
  suggest at most 3 commands; `options` grouped by unit in 15 lines; `units` by side; every
  message within the platform's limit, driven with the largest inputs the text bounds allow.
- `link NOPE1234` is an unknown code; bare `losses` takes the only step-loss answer (8.23);
  `preview` is refused exactly as the attack (4.6)."""

from __future__ import annotations

import re

import pytest

from adjudicator.core.commands import MAX_TEXT
from app import intext
from bots.platforms.common import DISCORD_LIMIT, TELEGRAM_LIMIT, utf16_len
from storage import chat_store
from tests import e2e_support as E
from tests.fakes.discord_api import FakeDiscord
from tests.fakes.telegram_api import FakeTelegramAPI

GROUP = E.TG_GROUP
DAVE = 7009  # a Telegram user with no @username: named by a text mention
HELP_LINES = 15


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A started sandbox game in the Telegram group (alice moderates and plays Soviet, bob
    German, carol watches), followed by the Discord channel (linked)."""
    loop = E.LoopFixture()
    try:
        api = loop.enter(FakeTelegramAPI())
        fake = loop.enter(FakeDiscord())
        db = str(tmp_path_factory.mktemp("e2e-replies") / "games.db")
        world = loop.enter(E.World(db, E.now_clock(), telegram=api, discord=fake, images=False))
        tg, dc = E.TelegramChat(world, GROUP), E.DiscordChat(world, fake.channel_id)

        async def prepare() -> tuple[str, int]:
            game = await E.started_game(world, tg)
            (out,) = await E.direct(world, tg, "alice", "link")
            code = re.search(r"`([A-Z0-9]{8})`", out.text).group(1)  # type: ignore[union-attr]
            (out,) = await E.direct(world, dc, "alice", f"link {code}")
            assert "now follows" in out.text
            (out,) = await E.direct(world, tg, "alice", f"moderator add {E.user_id(dc, 'alice')}")
            assert "is now a moderator" in out.text
            return game, world.store.load(game, with_log=False).head_index

        game, base = loop.run(prepare())
        yield loop, world, tg, dc, game, base
    finally:
        loop.close()


async def reset(world: E.World, tg: E.TelegramChat, base: int) -> None:
    """The game back at its first row (the moderator's rewind; nothing to rewind is fine) and
    the seats as they were."""
    await E.direct(world, tg, "alice", f"rewind {base} back to the start")
    for side, user in (("soviet", "alice"), ("german", "bob")):
        await E.direct(world, tg, "alice", f"seat {side} telegram:{E.TG_USERS[user].id}")


def seats(world: E.World, game: str) -> dict[str, str | None]:
    return world.store.load(game, with_log=False).seats


async def tg_say_mentioning(
    world: E.World, chat: E.TelegramChat, user: str, text: str, who: dict
) -> E.Answer:
    """`/order <text>` where the last word is a text mention of `who` (a Telegram user with no
    @username, picked from the member list): the entity carries the user, the text his name."""
    api, u = chat.api, E.TG_USERS[user]
    typed = f"/order {text}"
    sender = {"id": u.id, "is_bot": False, "first_name": u.first, "username": u.name}
    name = text.split()[-1]
    message = {
        "message_id": api._message_id(chat.chat_id),
        "date": 0,
        "chat": api._chat(chat.chat_id, None, "PBEM game", sender),
        "from": sender,
        "text": typed,
        "entities": [
            {"type": "bot_command", "offset": 0, "length": len("/order")},
            {"type": "text_mention", "offset": len(typed) - len(name), "length": len(name),
             "user": who},
        ],
    }  # fmt: skip
    since = len(api.calls)
    update = api.push_update({"message": message})
    mid = f"tg:{chat.chat_id}:{update['message']['message_id']}"
    incoming, outs = await world.recorder.answer(mid)
    return E.Answer(incoming, [await chat._seen(out, since) for out in outs], update)


# ---------------------------------------------------------------- seats


def test_seat_takes_a_mention_an_id_or_a_name_only_one_user_bears_telegram(table):
    loop, world, tg, _dc, game, base = table

    async def scenario():
        await reset(world, tg, base)
        bob = f"telegram:{E.TG_USERS['bob'].id}"
        for typed in ("seat german NAME", "seat german @unknown"):
            a = await tg.say("alice", typed)
            assert "Refused: no user the bot has seen is called" in a.public, a.public
            assert "mention" in a.public
            assert seats(world, game)["german"] == bob  # nothing seated: bob still plays
        a = await tg.say("alice", "seat german carl")  # a typo: the close name is offered
        assert "Did you mean carol (Telegram user 7003)?" in a.public
        # a display name one seen user bears: seated, and the reply says whom it chose
        a = await tg.say("alice", "seat german carol replaces bob")
        assert "carol now plays german, replacing bob" in a.public
        assert "Chosen by name: carol is carol (Telegram user 7003)." in a.public
        assert seats(world, game)["german"] == "telegram:7003"
        # a @username: no note needed
        a = await tg.say("alice", "seat german @bob")
        assert "bob now plays german, replacing carol" in a.public and "Chosen" not in a.public
        # a text mention (no @username): the entity's user
        api = tg.api
        api.push_message("/status", chat_id=GROUP, user_id=DAVE, user_name=None, first_name="Dave")
        await world.until(lambda: chat_store.user_names(world.store, [f"telegram:{DAVE}"]), "dave")
        dave = {"id": DAVE, "is_bot": False, "first_name": "Dave"}
        a = await tg_say_mentioning(world, tg, "alice", "seat german Dave", dave)
        assert "Dave now plays german, replacing bob" in a.public
        assert seats(world, game)["german"] == f"telegram:{DAVE}"
        # a user id, and the bare number on this platform
        a = await tg.say("alice", "seat german 7002")
        assert "bob now plays german" in a.public and seats(world, game)["german"] == bob

    loop.run(scenario())


def test_seat_refuses_a_name_two_users_bear_and_takes_discord_mentions(table):
    loop, world, tg, dc, game, base = table

    async def scenario():
        await reset(world, tg, base)
        await dc.say("carol", "status")  # Discord's Carol has spoken: two users called carol
        a = await dc.say("alice", "seat german carol")
        assert "Refused: 2 users are called 'carol'" in a.public, a.public
        assert "carol (Telegram user 7003)" in a.public
        assert f"Carol (Discord user {dc.user('carol')['id']})" in a.public
        assert seats(world, game)["german"] == f"telegram:{E.TG_USERS['bob'].id}"
        for mention in (dc.mention("carol"), f"<@!{dc.user('carol')['id']}>"):
            a = await dc.say("alice", f"seat german {mention} takes over")
            assert "Carol now plays german" in a.public, a.public
            assert seats(world, game)["german"] == E.user_id(dc, "carol")
            await E.direct(world, tg, "alice", "seat german @bob back")
        a = await dc.say("alice", f"moderator add {dc.mention('carol')} helps")
        assert "Carol is now a moderator" in a.public
        a = await dc.say("alice", "moderator remove Carol done")  # two carols: refused
        assert "2 users are called 'Carol'" in a.public
        await dc.say("alice", f"moderator remove {dc.mention('carol')} done")

    loop.run(scenario())


# ---------------------------------------------------------------- identities


def test_identity_link_by_dm_and_confirm_on_the_other_platform_makes_one_player(table):
    loop, world, tg, dc, game, base = table

    async def scenario():
        await reset(world, tg, base)
        a = await dc.say("bob", "whoami")
        assert "You are Bob (Discord user" in a.public and "you are a spectator" in a.public
        a = await dc.say("bob", "end")  # not linked yet: a spectator
        assert "holds no seat in this game" in a.public
        a = await tg.say("bob", "identity link")
        assert "I sent you a one-time code by private message" in a.public
        assert "identity confirm" not in a.public  # the code only in the DM
        code = re.search(r"identity confirm ([A-Z0-9]{8})", a.private).group(1)
        a = await tg.say("bob", f"identity confirm {code}")  # the same account: refused
        assert "confirm it from your account on the other platform" in a.public
        a = await dc.say("bob", "identity confirm NOPE1234", via="dm")
        assert "unknown code 'NOPE1234'" in a.text
        a = await dc.say("bob", f"identity confirm {code}", via="dm")
        assert "Linked: Bob (Discord user" in a.text and "bob (Telegram user 7002)" in a.text
        a = await dc.say("bob", "whoami")
        assert "Linked with bob (Telegram user 7002): one player." in a.public
        assert "you play German" in a.public
        a = await dc.say("bob", "whoami", via="dm")  # his private chat speaks for the game
        assert f"In {game}: you play German" in a.text
        # German's turn: bob plays it from Discord; the link is logged before his first order
        await E.direct(world, tg, "alice", "set phase german combat")
        head = world.store.load(game, with_log=False).head_index
        a = await dc.say("bob", "end")
        assert "are one player in this game" in a.public and "German ends" in a.public
        rows = world.store.log(game)[head + 1 :]
        link, order = rows[0], rows[1]
        assert link.kind == "moderation" and link.payload["action"] == "identity"
        assert link.payload == {**link.payload, "user": E.user_id(dc, "bob"), "as": "telegram:7002"}
        assert order.kind == "order" and order.user == E.user_id(dc, "bob")
        assert order.actor == "german"
        # written once per game: the next order from Discord adds no link row
        await E.direct(world, tg, "alice", "set phase german combat")
        n = len(world.store.log(game))
        a = await dc.say("bob", "end")
        assert "one player" not in a.public
        assert [r.kind for r in world.store.log(game)[n:]][:1] == ["order"]
        # still one seat: Discord's Carol is no player; the chain holds
        a = await dc.say("carol", "end")
        assert "holds no seat" in a.public
        a = await tg.say("alice", "audit")
        assert "OK: the chain holds" in a.public

    loop.run(scenario())


# ---------------------------------------------------------------- help and refusals


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_help_is_at_most_15_lines_for_the_askers_role(table, platform):
    loop, world, tg, dc, _game, base = table
    chat = tg if platform == "telegram" else dc

    async def scenario():
        await reset(world, tg, base)
        texts = {}
        for user in ("alice", "bob", "carol"):
            if platform == "discord" and user != "carol":
                await E.direct(world, tg, "alice", f"seat {_side(user)} {E.user_id(dc, user)}")
            a = await chat.say(user, "help")
            texts[user] = E.plain(a.public)
            assert len(a.public.splitlines()) <= HELP_LINES, a.public
            assert "90m" not in a.public and "Chat commands" not in a.public
        spectator, soviet, german = texts["carol"], texts["alice"], texts["bob"]
        assert "You are a spectator." in spectator
        assert "Moderator:" not in spectator and "Orders:" not in spectator
        assert "Sandbox:" not in spectator and "dice" not in spectator
        assert "You play Soviet and moderate this game." in soviet
        assert "Now (Soviet): attack, end, options" in soviet  # the phase
        assert "Sandbox: dice" in soviet  # the edits (place, flip, set) are for any game
        assert "Moderator: default, place, flip, set, audit" in soviet
        assert "You play German." in german and "Now (" not in german  # not his phase
        assert "Moderator:" not in german
        orders = {
            who: next(x for x in text.splitlines() if x.startswith("Orders:"))
            for who, text in (("soviet", soviet), ("german", german))
        }
        assert "rebuild" in orders["soviet"] and "rebuild" not in orders["german"]  # 12.16
        assert "breakout" in orders["german"] and "breakout" not in orders["soviet"]  # 12.17
        a = await chat.say("carol", "help all")
        assert "Chat commands:" in a.public and "set weather snow|mud" in a.public
        a = await chat.say("carol", "help join")
        assert a.public.startswith("Usage: join <SIDE>")
        a = await chat.say("carol", "help attack")
        assert "Usage: attack <HEX> with <UNIT>" in a.public
        a = await chat.say("carol", "help deadline")
        assert "48h" in a.public and "90m" not in a.public
        await reset(world, tg, base)

    loop.run(scenario())


def _side(user: str) -> str:
    return {"alice": "soviet", "bob": "german"}[user]


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_refusals_quote_60_characters_and_suggest_3_commands(table, platform):
    loop, world, tg, dc, _game, base = table
    chat = tg if platform == "telegram" else dc
    limit = 4000 if platform == "telegram" else 1900  # the longest text the user may send

    async def scenario():
        await reset(world, tg, base)
        junk = "x" * limit
        a = await chat.say("carol", junk)
        assert a.public.startswith("Refused: unknown command 'xxxx")
        assert len(a.public) < 200 and "x" * 61 not in a.public and "Commands:" not in a.public
        a = await chat.say("carol", "statsu")
        said = re.search(r"did you mean (.+)\?", a.public).group(1)  # type: ignore[union-attr]
        assert said.startswith("status") and len(said.split(" or ")) <= 3 and len(a.public) < 120
        a = await chat.say("alice", "attack " + "Q" * limit)
        assert "unknown hex 'qqq" in a.public and "q" * 61 not in a.public
        many = "\n".join(f"frob {n}" for n in range(intext.MAX_LINES))  # the most lines read
        a = await chat.say("alice", many)
        assert a.public.count("frob") <= 4 and "more lines" in a.public, a.public
        assert len(a.public) < 400
        more = "\n".join(f"frob {n}" for n in range(limit // 10))  # over the line limit
        a = await chat.say("alice", more)
        assert a.public == (
            f"Refused: the message has {limit // 10} lines; at most {intext.MAX_LINES} are read "
            "(one order a line). Send it in parts."
        )
        a = await chat.say("carol", "salt " + "s" * (MAX_TEXT + 50))
        assert "at most 200" in a.public and len(a.public) < 300

    loop.run(scenario())


# ---------------------------------------------------------------- options, units


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_options_grouped_by_unit_and_units_by_side(table, platform):
    loop, world, tg, dc, _game, base = table
    chat = tg if platform == "telegram" else dc

    async def scenario():
        await reset(world, tg, base)
        if platform == "discord":
            await E.direct(world, tg, "alice", f"seat soviet {E.user_id(dc, 'alice')}")
        a = await chat.say("alice", "options")
        lines = a.private.splitlines()
        assert len(lines) <= 15 and lines[0] == "Soviet, 14 units may act:", a.private
        assert "47rc (B1): attacks A1, B2" in lines
        a = await chat.say("alice", "options 47rc")
        lines = a.private.splitlines()
        assert len(lines) <= 15 and lines[0].startswith("47rc (B1): ")
        assert "attack A1 with 47rc" in E.plain(a.private).splitlines()
        assert all("47rc" in ln for ln in lines[1:-1])
        a = await chat.say("carol", "units")
        text = a.public
        assert text.index("Soviet (21 units):") < text.index("German (21 units):")
        soviet, german = text.split("German (21 units):")
        assert "C7: 20tk [2], 29tk [2], 48rc 3, 75rc 3" in soviet and "34id" not in soviet
        assert "D6: wiking 3, 5ss [1]" in german
        await reset(world, tg, base)

    loop.run(scenario())


# ---------------------------------------------------------------- rough edges


def test_link_with_an_unknown_code_says_unknown_code(table):
    loop, _world, tg, dc, _game, _base = table

    async def scenario():
        for chat in (tg, dc):
            a = await chat.say("alice", "link NOPE1234")
            assert "unknown code 'NOPE1234'" in a.public and "one game per chat" not in a.public

    loop.run(scenario())


def test_8_29_bare_losses_is_refused_with_the_answers_when_a_retreat_is_legal(table):
    """Rules 2 (a new game): 1 hit on the lone 34id, which may retreat: a bare `losses` does not
    say which answer, so it is refused with the legal answers, and then one of them is taken."""
    loop, world, tg, _dc, game, base = table

    async def scenario():
        await reset(world, tg, base)
        for user, text in E.HIT:  # 1 hit on 34id in A1 (or a retreat to A2 or B2)
            await E.direct(world, tg, user, text)
        rows = len(world.store.log(game))
        a = await tg.say("bob", "losses")
        assert "Refused (rule 8.29)" in a.text, a.text
        assert "write losses 34id or losses retreat A2 or losses retreat B2" in a.text, a.text
        assert len(world.store.log(game)) == rows  # nothing applied
        a = await tg.say("bob", "losses 34id")
        assert "34id (34th Infantry Division) takes a hit and is reduced" in a.public, a.public
        assert world.store.log(game)[-1].text == "losses 34id"

    loop.run(scenario())


def test_4_6_preview_is_refused_exactly_as_the_attack(table):
    loop, world, tg, _dc, _game, base = table

    async def scenario():
        await reset(world, tg, base)
        preview = await tg.say("bob", "preview attack C7 with 3pz")  # Soviet's combat phase
        attack = await tg.say("bob", "attack C7 with 3pz")
        assert "Refused (rule 4.6)" in preview.text
        assert preview.text == attack.text
        a = await tg.say("alice", "preview attack A1 with 47rc")  # her phase: the odds
        assert "Final column 3:2" in a.private
        a = await tg.say("alice", "preview attack D6 with 47rc")  # not adjacent: as the attack
        b = await tg.say("alice", "attack D6 with 47rc")
        assert a.text == b.text and a.text.startswith("Refused (rule ")

    loop.run(scenario())


# ---------------------------------------------------------------- message sizes

BIG_REASON = "r" * MAX_TEXT
COMMANDS = (
    "help", "help all", "help attack", "help set", "help moderator", "status", "units",
    "units soviet", "units german", "supply", "options", "options 47rc", "log", "log 1000",
    "rolls 1000", "audit", "deadline", "whoami", "link", "preview attack A1 with 47rc",
    f"salt {'s' * MAX_TEXT}", f"pause {BIG_REASON}", f"resume {BIG_REASON}",
    f"seat german @bob {BIG_REASON}", f"moderator add @carol {BIG_REASON}",
    f"moderator remove @carol {BIG_REASON}", f"rewind 0 {BIG_REASON}",
    "attack A1 with " + " ".join(["47rc"] * 300), "move " + "20tk " * 400,
    "status\n" * 200, "x" * 4000, "seat german " + "n" * 3000, "identity confirm " + "c" * 3000,
    "link " + "L" * 3000, "deadline " + "9" * 3000, "join " + "j" * 3000,
)  # fmt: skip


@pytest.mark.parametrize("platform", ["telegram", "discord"])
def test_every_message_is_within_the_platforms_limit(table, platform):
    """Each command with the largest inputs the text bounds allow (a reason or salt of
    MAX_TEXT characters, lines as long as a platform lets a user type, hundreds of words or
    lines), said by the moderator-player and a spectator: every reply fits one message of
    the platform, and so does every message the platform received."""
    loop, world, tg, dc, _game, base = table
    chat = tg if platform == "telegram" else dc
    limit, size = (TELEGRAM_LIMIT, utf16_len) if platform == "telegram" else (DISCORD_LIMIT, len)
    typed = 4096 if platform == "telegram" else 2000  # what a user may send at most

    async def scenario():
        await reset(world, tg, base)
        if platform == "discord":
            await E.direct(world, tg, "alice", f"seat soviet {E.user_id(dc, 'alice')}")
        for _ in range(3):  # a longer log: a few phases and rolls
            for text in ("dice 6", "attack A1 with 47rc", "end"):
                await E.direct(world, tg, "alice", text)
            await E.direct(world, tg, "alice", "set phase soviet combat")
        since_tg, since_dc = len(tg.api.calls), len(dc.fake.sent)
        for user in ("alice", "carol"):
            for text in COMMANDS:
                a = await chat.say(user, text[: typed - 10])
                for seen in a.seen:
                    assert seen.out.text and size(seen.out.text) <= limit, (text[:40], seen.out)
        if platform == "telegram":
            sent = [c.rendered or "" for c in tg.api.calls[since_tg:] if c.method in E.SENDS]
        else:
            sent = [s.content for s in dc.fake.sent[since_dc:]]
        assert sent and all(size(s) <= limit for s in sent)
        assert max(size(s) for s in sent) > limit // 4  # the big ones were driven indeed
        await reset(world, tg, base)

    loop.run(scenario())

"""Posts short on a phone: a whole seeded game of each system played through the chat service,
in English and in Russian, and every post and reply scanned. A hash shows its first 20 hex
characters; the whole value stands only in the post that opens its dice epoch (once), in
`status full` and in the audit; no `(s)`-style plural, no line that only says "none", no
bracket that holds a second sentence ("(…; event: Sample event: ….)"). A post's short head hash
is what `pbem audit --expect-head` and the audit check take back."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

import pytest

from adjudicator.stalins_war import texts
from adjudicator.stalins_war.state import EVENT
from app import post_queue
from app.hashes import SHORT, expect_head, parse_head
from app.i18n import language
from app.service import GameService
from bots.chat import ChatService
from bots.clock import FakeClock
from bots.demo import DemoSeeds, choose, legal_texts
from storage import Store
from tests.stalins_war.helpers import dealt
from tests.test_chat_service import Chat

GROUP = "-100888"
MODERATOR, FIRST, SECOND = 1, 2, 3
MOVES = 600  # a whole game of each system ends well before

SYSTEMS = {
    "hells-gate": ("soviet", "german"),
    "borodino": ("russian", "french"),
    "northern-war": ("sweden", "coalition"),
    "stalins-war": ("axis", "soviet"),
}
FULL = {"en": "status full", "ru": "статус полностью"}

HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")
# `1 row(s)`, `2 hit(s)`, `блок(ов)`: a word with a bracketed ending glued to it.
BRACKETS = re.compile(r"[A-Za-zА-Яа-яЁё]\((?:s|es|ies|а|ы|и|ов|ей|ях|ам)\)")
# "Salts received for epoch 1: none": a line saying there is nothing.
NONE_LINE = re.compile(r":\s*(?:none|нет|ничего)\.?\s*$", re.MULTILINE | re.IGNORECASE)
# "event: Sample event: …": a label said twice; "(… 2 OPS.)": a sentence ended inside a bracket.
TWICE = re.compile(r"\b(\w+): (?:\w+ ){0,2}\1:", re.IGNORECASE)
SENTENCE_IN_BRACKETS = re.compile(r"[a-zа-яё]\.\)")


@dataclass
class Game:
    """What the chats of a whole game received, and the game's log."""

    name: str
    lang: str
    replies: list[str] = field(default_factory=list)  # every answer to a message
    full: list[str] = field(default_factory=list)  # the answers to `status full`
    short: list[str] = field(default_factory=list)  # the answers to `status`
    posts: list[str] = field(default_factory=list)  # every outbox row: posts, private messages
    rows: list[dict] = field(default_factory=list)
    epochs: dict[int, str] = field(default_factory=dict)  # epoch -> its commitment
    seeds: list[str] = field(default_factory=list)  # every revealed seed
    over: bool = False


def play(system: str, lang: str, seed: int = 7) -> Game:
    store = Store(":memory:")
    try:
        service = GameService(store, seeds=DemoSeeds(seed))
        chat = ChatService(service, clock=FakeClock(), images=False)
        group = Chat(chat, "telegram", GROUP)
        private = {u: Chat(chat, "telegram", str(u), private=True) for u in (FIRST, SECOND)}
        game = Game("", lang)

        def say(where: Chat, user: int, text: str) -> list[str]:
            said = [o.text for o in where.say(user, text)]
            game.replies.extend(said)
            return said

        if lang == "ru":
            say(group, MODERATOR, "language ru")
            for u, c in private.items():
                say(c, u, "language ru")
        say(group, MODERATOR, f"new {system}")
        one, two = SYSTEMS[system]
        say(group, FIRST, f"join {one}")
        say(group, SECOND, f"join {two}")
        say(group, MODERATOR, "start")
        (game.name,) = [g.name for g in store.list_games()]
        users = {one: FIRST, two: SECOND}
        rng = random.Random(seed)
        asked = set()
        for _ in range(MOVES):
            state = service.state(game.name)
            sys_ = service.system(game.name)
            here = sys_.situation(state)
            if here.over:
                game.over = True
                break
            if here.turn not in asked:  # once a turn: both forms of status
                asked.add(here.turn)
                game.short += say(group, FIRST, "статус" if lang == "ru" else "status")
                game.full += say(group, FIRST, FULL[lang])
            side = here.to_move[0]
            text = choose(rng, legal_texts(sys_, state, side))
            where = private[users[side]] if sys_.hidden_information else group
            say(where, users[side], text)
        for question in ("status", "log 40", "rolls"):
            say(group, FIRST, question)
        game.full += say(group, FIRST, FULL[lang])
        game.posts = [r.outgoing.text for r in post_queue.rows(store)]
        game.rows = store.rows(game.name)
        for r in game.rows:
            if r["kind"] == "epoch":
                game.epochs[r["payload"]["epoch"]] = r["payload"]["commitment"]
            if r["kind"] == "reveal":
                game.seeds.append(r["payload"]["seed"])
            if r["kind"] == "reveal-hidden":
                game.seeds.append(r["payload"]["hidden_seed"])
        return game
    finally:
        store.close()


@pytest.fixture(scope="module", params=["en", "ru"])
def games(request) -> dict[str, Game]:
    return {system: play(system, request.param) for system in sorted(SYSTEMS)}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_whole_game_posts_no_whole_hash_but_where_it_belongs(games, system):
    game = games[system]
    assert game.over, f"{system}: the game did not end in {MOVES} orders"
    assert len(game.epochs) >= 2, game.epochs  # it crossed at least two dice epochs
    full = set(game.full)
    elsewhere = [s for s in game.replies if s not in full and HEX64.search(s)]
    assert not elsewhere, elsewhere[:2]
    commitments = set(game.epochs.values())
    for k, c in game.epochs.items():  # each epoch's commitment whole in one post: its opening
        opening = [p for p in game.posts if c in p]
        assert len(opening) == 1, (k, opening)
        assert re.search(rf"\b{k}\b", opening[0]), opening[0]
    stray = [m for p in game.posts for m in HEX64.findall(p) if m not in commitments]
    assert not stray, stray[:2]
    for seed in game.seeds:  # a revealed seed is told short; the audit gives it whole
        assert not any(seed in s for s in game.replies + game.posts)
        assert any(seed[:SHORT] in s for s in game.replies + game.posts), seed


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_status_is_short_and_status_full_gives_both_hashes_whole(games, system):
    game = games[system]
    assert len(game.short) >= 2 and len(game.full) >= 3
    for said in game.short:
        assert not HEX64.search(said), said
        assert re.search(rf"\b[0-9a-f]{{{SHORT}}}\b", said), said
    last = game.full[-1]
    assert game.rows[-1]["hash"] in last, last  # the head, whole, at the end of the game
    for said in game.full[:-1]:  # while the game runs: the open epoch's commitment, whole
        assert any(c in said for c in game.epochs.values()), said


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_no_post_or_reply_says_a_count_in_brackets_none_or_a_sentence_in_brackets(games, system):
    game = games[system]
    said = game.replies + game.posts
    for name, pattern in [
        ("bracketed plural", BRACKETS),
        ("'none' line", NONE_LINE),
        ("label said twice", TWICE),
        ("sentence in brackets", SENTENCE_IN_BRACKETS),
    ]:
        found = [m.group(0) + " in: " + s for s in said for m in [pattern.search(s)] if m]
        assert not found, (name, found[:2])
    if game.lang == "ru":  # the game was really played in Russian
        assert sum(bool(re.search("[а-я]", s)) for s in said) > len(said) * 0.9


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_13_3_a_posts_short_head_hash_is_checked_against_the_log(games, system):
    """What a player keeps from a post ("Log row N, head hash H", H of 20 characters, in the
    chat's language) is held by the log; cut shorter, it is refused."""
    game = games[system]
    kept = [
        line
        for p in game.posts
        for line in p.splitlines()
        if re.search(r"(?:head hash|хеш вершины) [0-9a-f]{20}\.$", line)
    ]
    assert len(kept) > 3, game.posts[:3]
    for line in (kept[0], kept[len(kept) // 2], kept[-1]):
        ok, said = expect_head(game.rows, line)
        assert ok, (line, said)
    with pytest.raises(ValueError, match="at least its first 20"):
        expect_head(game.rows, kept[-1][:-2])  # 19 characters


def test_11_a_card_played_as_an_event_tells_its_event_after_the_bracket_in_new_games():
    """A card played as an event (rule 11): its event text, a sentence of its own, follows the
    bracket in a game under rules version 2; a game under the first rules keeps the wording its
    log holds (replay compares it)."""
    sw, state, _ = dealt()
    card = sw.deck.card("soviet", 2)
    assert state.rules >= 2
    said = texts.played(sw.deck, state, "soviet", card, EVENT)
    assert str(said) == (
        "Soviet plays #2 Evacuate Industry as an event (count 0 (0, N/A); event RP USSR +2). "
        "Sample event: the Soviet player records 2 RP."
    )
    assert said.say(language("ru")).endswith("+2). Пример события: советский игрок отмечает 2 ОП.")
    state.rules = 1
    assert str(texts.played(sw.deck, state, "soviet", card, EVENT)) == (
        "Soviet plays #2 Evacuate Industry as an event (count 0 (0, N/A); event: Sample event: "
        "the Soviet player records 2 RP.; event RP USSR +2)."
    )


@pytest.mark.parametrize(
    ("kept", "index"),
    [
        ("Log row 57, head hash {h20}.", 57),
        ("Строка журнала 57, хеш вершины {h20}.", 57),
        ("Log: 58 rows, head hash {h20}.", 57),  # as status says it
        ("Журнал: строк 58, хеш вершины {h20}.", 57),
        ("{h20}", None),
        ("head hash {h20}…", None),
        ("Log row 57, head hash {h64}.", 57),  # the whole hash, as before
        ("{H64}", None),
    ],
)
def test_13_3_a_kept_head_is_read_whole_or_as_a_post_shows_it_in_either_language(kept, index):
    h = "3f2a9c01d4e87b6a5f10" + "ab" * 22
    text = kept.format(h20=h[:20], h64=h, H64=h.upper())
    assert parse_head(text) == (index, h[: 64 if "64" in kept else 20])


@pytest.mark.parametrize("kept", ["Log row 57, head hash 3f2a9c.", "3f2a9c01d4e87b6a5f1", "hello"])
def test_13_3_a_kept_head_shorter_than_20_characters_is_refused(kept):
    with pytest.raises(ValueError, match="first 20"):
        parse_head(kept)

"""Languages per chat and per user (issue 17): the stored choices, the `language` command and its
refusals, the order of resolution, and every Outgoing said in its chat's language when queued.

Driven through `ChatService.handle` with plain Incoming messages; the posts to a game's chats
are read from the outbox (said when written)."""

from __future__ import annotations

import itertools
import re
from datetime import UTC, datetime

import pytest

from adjudicator.core import registry
from adjudicator.core.i18n import Msg, say, t
from app import games, languages, names, post_queue
from app.i18n import language
from app.messages import Incoming, Outgoing
from app.service import GameService
from bots.chat import ChatService, fit
from bots.chat_language import code_of
from bots.clock import FakeClock
from storage import Store, chat_languages, chat_store
from tests.i18n_support import english_left

NOW = datetime(2030, 1, 1, tzinfo=UTC)
GROUP = "-100700"
OTHER = "-100701"
RU = language("ru")


class Chat:
    _ids = itertools.count(1)

    def __init__(self, service: ChatService, platform: str, chat_id: str, private=False):
        self.service, self.platform, self.chat_id, self.private = (
            service, platform, chat_id, private,
        )  # fmt: skip

    def say(self, user: int | str, text: str, **kw) -> list[Outgoing]:
        kw.setdefault("message_id", f"{self.platform}:{self.chat_id}:{next(self._ids)}")
        kw.setdefault("private", self.private)
        inc = Incoming(self.platform, self.chat_id, str(user), f"user{user}", text, **kw)
        return self.service.handle(inc)

    def text(self, user: int | str, text: str, **kw) -> str:
        (out,) = self.say(user, text, **kw)
        return out.text


@pytest.fixture
def store(tmp_path):
    s = Store(str(tmp_path / "games.db"))
    yield s
    s.close()


@pytest.fixture
def chat(store):
    return ChatService(GameService(store), clock=FakeClock(), images=False)


@pytest.fixture
def tg(chat):
    return Chat(chat, "telegram", GROUP)


def system_words() -> set[str]:
    """The systems' names and side ids (data, not texts of this package)."""
    found = set()
    for system in registry.systems():
        found |= {w.strip("'’s") for w in re.findall(r"[\w'’]+", system.name)} | {system.name}
        found |= {side.id for side in system.sides} | {system.id}
        found |= set(re.findall(r"[\w'’]+", system.name))
    return found


def dm(chat: ChatService, user: int) -> Chat:
    return Chat(chat, "telegram", str(user), private=True)


# ------------------------------------------------------------------ storage
def test_choices_are_stored_by_scope_and_a_locale_beside_them(db_url, stores):
    store = stores(db_url)
    chat_scope = chat_languages.chat_scope("telegram", GROUP)
    assert chat_languages.language_of(store, chat_scope) is None
    chat_languages.set_language(store, chat_scope, "ru", now=NOW)
    chat_languages.set_language(store, chat_scope, "en", now=NOW)  # a second choice replaces it
    chat_languages.remember_locale(store, "telegram:5", "ru-RU", now=NOW)
    chat_languages.set_language(store, chat_languages.user_scope("telegram:5"), "en", now=NOW)
    assert chat_languages.language_of(store, chat_scope) == "en"
    assert chat_languages.locale_of(store, "telegram:5") == "ru-RU"  # kept beside the choice
    assert chat_languages.choices(store, ["user:telegram:5", "user:nobody"]) == {
        "user:telegram:5": ("en", "ru-RU")
    }
    chat_languages.set_language(store, chat_scope, None, now=NOW)  # no choice: the defaults
    assert chat_languages.language_of(stores(db_url), chat_scope) is None  # another opening


# ------------------------------------------------------------------ resolution
def test_a_reply_in_a_group_takes_the_chat_then_the_speaker_then_english(store):
    def reply(locale):
        inc = Incoming("telegram", GROUP, "5", "u", "x", locale=locale)
        return languages.for_reply(store, inc).code

    assert (reply(None), reply("ru"), reply("de")) == ("en", "ru", "en")
    chat_languages.set_language(store, chat_languages.chat_scope("telegram", GROUP), "en", now=NOW)
    assert reply("ru") == "en"  # the chat's setting first


def test_a_post_takes_the_chat_setting_else_english_never_a_speakers_locale(store):
    post = Outgoing("telegram", GROUP, "x")
    assert languages.for_outgoing(store, post).code == "en"
    chat_languages.set_language(store, chat_languages.chat_scope("telegram", GROUP), "ru", now=NOW)
    assert languages.for_outgoing(store, post).code == "ru"
    assert languages.for_outgoing(store, Outgoing("telegram", OTHER, "x")).code == "en"


def test_a_private_message_takes_the_users_setting_then_his_last_locale(store):
    out = Outgoing("telegram", GROUP, "x", user_id="5", private=True)
    assert languages.for_outgoing(store, out).code == "en"
    chat_languages.remember_locale(store, "telegram:5", "ru", now=NOW)
    assert languages.for_outgoing(store, out).code == "ru"
    chat_languages.set_language(store, chat_languages.user_scope("telegram:5"), "en", now=NOW)
    assert languages.for_outgoing(store, out).code == "en"
    chat_languages.set_language(store, chat_languages.chat_scope("telegram", GROUP), "ru", now=NOW)
    assert languages.for_outgoing(store, out).code == "en"  # not the group's: his own


def test_language_words_name_only_languages_the_bot_speaks():
    assert [code_of(w) for w in ("ru", "RU", "русский", "English", "de", "")] == [
        "ru", "ru", "ru", "en", None, None,
    ]  # fmt: skip


# ------------------------------------------------------------------ the command
def test_language_alone_says_the_current_one_and_the_choices(tg):
    text = tg.text(1, "language")
    assert "This chat has no language set" in text and "`language ru` (Русский)" in text
    ru = tg.text(1, "язык", locale="ru")  # the alias; the speaker's locale answers
    assert ru.startswith("Язык этого чата не задан")
    assert english_left(ru, allowed={"English"}) == []  # each language by its own name


def test_language_ru_in_a_group_without_a_game_sets_the_chats_for_everyone(tg, store):
    text = tg.text(1, "language ru")
    assert text.startswith("Язык этого чата теперь — Русский")
    assert english_left(text) == []
    assert tg.text(2, "help").startswith("В этом чате пока не идёт игра")  # another user too
    assert english_left(tg.text(2, "help"), allowed=system_words()) == []
    assert tg.text(2, "language english").startswith("The language of this chat is now English")


def test_a_spectator_may_not_change_the_language_of_a_chat_with_a_game(tg):
    tg.say(1, "new hells-gate")
    text = tg.text(2, "language ru")
    assert text.startswith("Refused: only the moderators of the game")
    assert "user1" in text and "`language ru` in a private chat" in text
    assert tg.text(1, "language ru").startswith("Язык этого чата теперь")  # the moderator may
    said = tg.text(2, "language en")
    assert said.startswith("Отказано: язык этого чата задают только модераторы")
    assert english_left(said, allowed={"user1", "hg", "telegram"}) == []


def test_a_game_without_moderators_lets_its_players_set_it(tg, chat, store):
    """A game made without a creator (`pbem new` on the command line) and followed in a chat."""
    chat.service.new_game("solo", system="hells-gate")
    chat_store.bind(store, "telegram", GROUP, "solo", key=None, now=NOW)
    assert chat.service.record("solo").moderators == ()
    tg.say(2, "join german")
    refused = tg.text(3, "language ru")
    assert refused == (
        "Refused: the game solo has no moderator: only its players and its creator (user2) set "
        "the language of this chat."
    )
    assert tg.text(2, "language ru").startswith("Язык этого чата теперь")  # a seated player


def test_a_bad_language_is_refused_with_the_choices(tg):
    text = tg.text(1, "language klingon")
    assert text == (
        "Refused: say `language` to see the language here, or one of `language en` (English), "
        "`language ru` (Русский)."
    )


def test_language_in_a_private_chat_sets_the_users_own(chat, store):
    me = dm(chat, 5)
    assert me.text(5, "language").startswith("I write to you in English (the default)")
    assert me.text(5, "language", locale="ru").startswith(
        "Я пишу вам на языке: Русский (язык вашего приложения)"
    )
    assert me.text(5, "language ru").startswith("Теперь я пишу вам на языке: Русский")
    assert chat_languages.language_of(store, "user:telegram:5") == "ru"
    assert me.text(5, "language").startswith("Я пишу вам на языке: Русский (ваш выбор)")


def test_new_takes_the_creators_locale_as_the_chats_language(tg, chat, store):
    text = tg.text(1, "new hells-gate", locale="ru-RU")
    assert text.startswith("Новая игра **")
    assert languages.chat_code(store, "telegram", GROUP) == "ru"
    assert tg.text(2, "join german").count("Внимание") == 0  # a reply in the chat's language
    other = Chat(chat, "telegram", OTHER)
    other.say(3, "new hells-gate", locale="fr")  # a locale the bot does not speak
    assert languages.chat_code(store, "telegram", OTHER) is None


def test_help_lists_language(tg):
    tg.say(1, "new hells-gate")
    assert "language [ru | en]" in tg.text(1, "help all")
    assert tg.text(1, "help язык").startswith("Usage: language [ru | en]\nThe language of this")
    ru = tg.text(1, "help language", locale="ru")
    assert ru.startswith("Как сказать: язык [ru | en]\nЯзык этого чата")


# ------------------------------------------------------------------ said when queued
def test_posts_to_linked_chats_are_each_in_their_chats_language(store):
    chat = ChatService(GameService(store), clock=FakeClock())  # posts carry a map to draw
    ru, en = Chat(chat, "telegram", GROUP), Chat(chat, "discord", "880000000000000002")
    ru.say(1, "language ru")
    ru.say(1, "new hells-gate sandbox")
    game = chat_store.binding(store, "telegram", GROUP)
    ru.say(1, "join soviet")
    code = ru.text(1, "link").split("`")[1]
    assert en.text(2, f"link {code}").startswith(f"This chat now follows **{game}**")
    en.say(2, "join german")
    ru.say(1, "start")
    rows = post_queue.rows(store, game=game)
    posts = {r.outgoing.platform: r.outgoing for r in rows if r.outgoing.render}
    assert posts["telegram"].render["lang"] == "ru" and posts["discord"].render["lang"] == "en"
    assert "Dice: epoch 1 (turn 1)" in posts["discord"].text
    assert "Кубики: эпоха 1 (ход 1)" in posts["telegram"].text
    before = len(post_queue.rows(store, game=game))
    assert ru.text(1, "salt abc") == "В эпоху кубиков 1 добавлена соль: 'abc'."
    assert en.text(2, "salt xyz") == "Salt added to dice epoch 1: 'xyz'."
    to_en, to_ru = (r.outgoing for r in post_queue.rows(store, game=game)[before:])
    assert to_en.text == "**user1**: `salt abc`\nSalt added to dice epoch 1: 'abc'."
    assert to_ru.text == "**user2**: `salt xyz`\nВ эпоху кубиков 1 добавлена соль: 'xyz'."


def test_a_private_message_is_said_in_its_addressees_language(chat, store):
    chat_languages.set_language(store, "user:telegram:5", "ru", now=NOW)
    out = Outgoing("telegram", GROUP, t("**{game}** (only you see this): {text}", game="g",
                                        text="x"), user_id="5", private=True)  # fmt: skip
    post_queue.write(store, None, [out], now=NOW)
    [row] = post_queue.rows(store)
    assert row.outgoing.text == "**g** (видите только вы): x"


def test_pretty_keeps_a_msg_sayable(store):
    chat_store.remember_user(store, "telegram:5", "Вася", now=NOW)
    said = names.pretty(store, t("Refused: {message}", message="telegram:5 may not"))
    assert isinstance(said, Msg) and said == "Refused: Вася may not"
    assert say(said, RU) == "Отказано: Вася may not"


def test_fit_cuts_the_said_text_and_tells_it_in_the_language():
    text = "\n".join(f"строка {i}" for i in range(600))
    cut = fit(t("Refused: {message}", message=text), "discord", RU)
    assert cut.startswith("Отказано: строка 0") and len(cut) <= 2000
    assert cut.endswith("`варианты <ЧАСТЬ>`)") and "не показано" in cut


def test_the_drawer_gets_the_language_when_its_draw_takes_it(monkeypatch):
    seen = {}

    class Drawer:
        @staticmethod
        def draw(system, state, events, *, view, title, language):
            seen["language"] = language.code
            return b"png"

    class Old:
        @staticmethod
        def draw(system, state, events, *, view, title):
            seen["old"] = True
            return b"png"

    class System:
        drawer = "x"

        def situation(self, state):
            return type("S", (), {"over": False})()

        def view(self, state, viewer):
            return state

    for drawer in (Drawer, Old):
        monkeypatch.setattr(games, "import_module", lambda name, d=drawer: d)
        games.draw(System(), {}, [], None, "t", language=RU)
    assert seen == {"language": "ru", "old": True}


def test_a_receipt_keeps_its_text_sayable():
    text = t("Refused: {message}", message="x")
    back = languages.unkept(languages.kept(text))
    assert isinstance(back, Msg) and back == text and say(back, RU) == "Отказано: x"
    assert languages.unkept("plain {text}") == "plain {text}"  # a receipt stored before
    assert languages.unkept('{"other": 1}') == '{"other": 1}'


def test_the_local_terminal_speaks_the_language_its_chat_chose(tmp_path):
    from tests.test_serve import serve_process

    done = serve_process(tmp_path, "as bob\nlanguage ru\nas carol\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == [
        "(you now speak as bob)",  # before the choice: English
        "Язык этого чата теперь — Русский: ответы и сообщения здесь пишутся на нём.",
        "(теперь вы говорите как carol)",
    ]
    again = serve_process(tmp_path, "as dan\n")  # the choice is kept in the database
    assert again.stdout.startswith("(теперь вы говорите как dan)")

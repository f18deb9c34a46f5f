"""One player, two platforms: a Discord user and a Telegram user linked into one identity.

    code, expires = identities.new_code(store, "telegram:7001", now=now)   # sent to him by DM
    identities.confirm(store, "discord:123", code, now=now)                # said on Discord

A link is made by its owner only: `identity link` sends a one-time code to the asker's private
chat, and `identity confirm CODE` said by his account on the OTHER platform joins the two. From
then on, each account may act for the seats and roles of the other. In each game the link is
written in the log (a chained `moderation` row, action "identity", like a seat row) when the
linked account first acts there, before its first order; the seat and role checks of a change
(app.roles) count the accounts the game's log records as one with the speaker, so the audit
trail shows which account gave which order and why it was allowed.

The links themselves are rows of the service's one identity chain (storage/identity_chain.py:
who linked whom, how and when, each row hashed and chained to the one before). A link is
honoured only when its row is genuine (its own hash and its link to the row before hold) and
the whole chain held when last checked (once per process, and with every game's whole-log
check). A forged link (a row inserted without its place in the chain, an edited row, or a link
still in the old key/value table) is refused with a message naming the problem, logged for the
host, and never recorded into a game; while the chain is broken no link is honoured or made.

Decision: an account is linked to at most one account of the other platform (two platforms);
a new link of an account already linked is refused. There is no unlink. Codes live 30 minutes.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlalchemy.engine import Connection

from adjudicator.core.errors import Rejection
from adjudicator.core.i18n import t
from storage import GameTx, Store, chat_store, identity_chain

CODE_TTL = timedelta(minutes=30)
CODE_LENGTH = 8
_LEGACY = "identity:"  # the old state key of a link (migration 0009 moved them): never honoured
_CODE = "identity-code:"  # state key: a code -> {"user", "expires"}
_BY_KEY = "identity-code-key:"  # state key: the message that asked -> its code (redelivery)
_PLATFORMS = {"discord": "Discord", "telegram": "Telegram", "terminal": t("the terminal")}


def platform_name(user: str) -> str:
    return _PLATFORMS.get(user.partition(":")[0], user.partition(":")[0])


def partners(store: Store | Connection, user: str | None) -> list[str]:
    """The accounts linked with `user` (none, or one on the other platform); store: a store,
    or the connection of the caller's transaction."""
    if user is None:
        return []
    other, problem = identity_chain.link_of(store, user)
    return [other] if other is not None and problem is None else []


def accounts(store: Store, user: str | None) -> list[str]:
    """`user` and the accounts linked with it: one player."""
    return [] if user is None else [user, *partners(store, user)]


def new_code(
    store: Store, user: str, *, now: datetime, key: str | None = None
) -> tuple[str, datetime]:
    """A one-time code for `user` to confirm from his other account: (code, expires_at). A
    redelivered request (the same key) gets the same code."""
    if key is not None and (done := chat_store.get_state(store, _BY_KEY + key)):
        code = done[0]
        held = chat_store.get_state(store, _CODE + code)
        if held is not None:
            return code, datetime.fromisoformat(json.loads(held[0])["expires"])
    code = "".join(secrets.choice(chat_store.CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires = now + CODE_TTL
    doc = json.dumps({"user": user, "expires": expires.isoformat()})
    chat_store.set_state(store, _CODE + code, doc, now=now)
    if key is not None:
        chat_store.set_state(store, _BY_KEY + key, code, now=now)
    return code, expires


def confirm(store: Store, user: str, code: str, *, now: datetime) -> str:
    """Link `user` with the account that asked for `code`; that account. Rejection (rule None)
    when the code is unknown, used or expired, or names an account of the same platform, or
    either account is linked already."""
    code = chat_store.normalise_code(code)
    held = chat_store.get_state(store, _CODE + code)
    doc = json.loads(held[0]) if held else None
    if doc is None or doc.get("used"):
        if doc is not None and doc.get("used") == user:
            return str(doc["user"])  # a redelivered confirm
        raise Rejection(
            "unknown-identity-code",
            t(
                "unknown code {code}: say `identity link` to get a new one by private message",
                code=repr(code[:12]),
            ),
        )
    other = str(doc["user"])
    if datetime.fromisoformat(doc["expires"]) <= now:
        raise Rejection(
            "identity-code-expired",
            t("the code {code} has expired: say `identity link` again", code=code),
        )
    if other == user:
        raise Rejection(
            "same-account",
            t(
                "this is the account that asked for the code: confirm it from your account on the "
                "other platform"
            ),
        )
    if other.partition(":")[0] == user.partition(":")[0]:
        raise Rejection(
            "same-platform",
            t(
                "both accounts are on {platform}: a link joins one Discord and one "
                "Telegram account",
                platform=platform_name(user),
            ),
        )
    if (problem := identity_chain.broken(store)) is not None:
        raise _broken(problem)
    pair = {user: other, other: user}
    for who in (user, other):
        linked, problem = identity_chain.link_of(store, who)
        if linked is not None and (problem is not None or linked != pair[who]):
            raise Rejection(
                "already-linked",
                t(
                    "{user} is linked already (with {other}): one account per platform",
                    user=who,
                    other=linked,
                ),
            )
    if identity_chain.link_of(store, user) != (other, None):
        try:
            identity_chain.append_link(store.engine, user, other)
        except identity_chain.Broken as exc:
            raise _broken(str(exc)) from exc
    doc["used"] = user
    chat_store.set_state(store, _CODE + code, json.dumps(doc), now=now)
    return other


def _broken(problem: str) -> Rejection:
    return Rejection(
        "identity-chain-broken",
        t(
            "no identity link is made or honoured now: the service's chain of identity links "
            "is broken ({problem}); the host is told in the service's log",
            problem=problem,
        ),
    )


def _forged(user: str, other: str, problem: str) -> Rejection:
    return Rejection(
        "forged-identity-link",
        t(
            "{user} may not act as {other}: the link between them is not a genuine row of the "
            "service's identity chain ({problem}); it is not honoured, and the host is told",
            user=user,
            other=other,
            problem=problem,
        ),
    )


# -- in a game's log
def recorded(tx: GameTx, user: str) -> list[str]:
    """The accounts this game's log records as one player with `user`."""
    found = []
    for row in tx.rows_of_kind("moderation"):
        p = row.payload
        if p.get("action") == "identity" and user in (p.get("user"), p.get("as")):
            found.append(p["as"] if p["user"] == user else p["user"])
    return list(dict.fromkeys(found))


def _has_role(tx: GameTx, users: Iterable[str]) -> bool:
    wanted = set(users)
    return bool(wanted & set(tx.moderators())) or any(u in wanted for u in tx.seats().values())


def for_change(tx: GameTx, user: str | None, key: str | None) -> list[str]:
    """The accounts a change by `user` may act as in this game: those its log records as one
    with him, after writing the link row first when his linked account holds a seat or role
    here and he holds none (his first act here as that player)."""
    if user is None:
        return []
    known = recorded(tx, user)
    if _has_role(tx, [user, *known]):
        return known
    link, problem = identity_chain.link_row(tx.conn, user)
    if link is None:
        _refuse_legacy(tx, user)
        return known
    other = link["other"] if link["user"] == user else link["user"]
    if other not in known and _has_role(tx, [other]):
        if problem is not None:
            raise _forged(user, other, problem)
        payload = {
            "action": "identity",
            "user": user,
            "as": other,
            "why": "accounts linked by their owner (identity confirm)",
            "link_row": link["index"],  # its row in the service's identity chain
            "link_hash": link["hash"],
        }
        row_key = None if key is None else f"{key}:identity"
        tx.append(
            "moderation", "system", f"identity {user} {other}", payload, user=user, key=row_key
        )
        known.append(other)
    return known


def _refuse_legacy(tx: GameTx, user: str) -> None:
    """A link left in (or put into) the old key/value table is no row of the chain."""
    found = chat_store.get_state(tx.conn, _LEGACY + user)
    if found is not None and _has_role(tx, [found[0]]):
        raise _forged(user, found[0], t("it is stored outside the chain, in service_state"))


def identity_text(p: dict[str, str], by: str) -> str:
    return t(
        "{user} ({platform}) and {other} ({other_platform}) "
        "are one player in this game: their accounts are linked.",
        user=p["user"],
        platform=platform_name(p["user"]),
        other=p["as"],
        other_platform=platform_name(p["as"]),
    )


__all__ = [
    "CODE_TTL",
    "accounts",
    "confirm",
    "for_change",
    "identity_text",
    "new_code",
    "partners",
    "platform_name",
    "recorded",
]

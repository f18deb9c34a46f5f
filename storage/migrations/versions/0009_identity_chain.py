"""The identity links become a chained table (storage/identity_chain.py): `identitylink`, its
rows only ever inserted (its guards: storage/append_only.py, installed at the end of the run by
storage/migrations/env.py). The links kept until now in `service_state` ("identity:<account>" ->
the account linked with it, both ways) are moved into it, one chained row per pair (how
"moved"; who confirmed is taken from the used code when it is still there), oldest first, and
their keys deleted. A key whose other half is missing or names another account is not a link
pbem made: it is left where it is, and never honoured (app/identities.py says so).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 13:30:00
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

from storage import identity_chain

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_S = AutoString
_PARTNER = "identity:"
_CODE = "identity-code:"


def upgrade() -> None:
    op.create_table(
        "identitylink",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("action", _S(), nullable=False),
        sa.Column("user", _S(), nullable=False),
        sa.Column("other", _S(), nullable=False),
        sa.Column("how", _S(), nullable=False),
        sa.Column("created_at", _S(), nullable=False),
        sa.Column("prev_hash", _S(), nullable=False),
        sa.Column("hash", _S(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("index", name="uq_identitylink_index"),
    )
    op.create_index("ix_identitylink_user", "identitylink", ["user"])
    op.create_index("ix_identitylink_other", "identitylink", ["other"])
    _move_links(op.get_bind())


def _when(value: object) -> str:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if not isinstance(value, datetime):
        return datetime.now(UTC).isoformat(timespec="microseconds")
    if value.utcoffset() is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _move_links(conn: sa.engine.Connection) -> None:
    state = sa.table(
        "service_state",
        sa.column("key", sa.String),
        sa.column("value", sa.Text),
        sa.column("updated_at", sa.DateTime),
    )
    rows = conn.execute(sa.select(state.c.key, state.c.value, state.c.updated_at)).all()
    partner = {r.key[len(_PARTNER) :]: r for r in rows if r.key.startswith(_PARTNER)}
    confirmed = {}  # asker -> the account that confirmed his code
    for r in rows:
        if r.key.startswith(_CODE):
            try:
                doc = json.loads(r.value)
            except ValueError:
                continue
            if isinstance(doc, dict) and isinstance(doc.get("used"), str):
                confirmed[str(doc.get("user"))] = doc["used"]
    pairs = {}
    for account, r in partner.items():
        other = r.value
        back = partner.get(other)
        if other == account or back is None or back.value != account:
            continue  # one half of a link, or a link with itself: not pbem's
        asker, user = sorted((account, other))
        if confirmed.get(account) == other:
            asker, user = account, other
        elif confirmed.get(other) == account:
            asker, user = other, account
        when = max(_when(r.updated_at), _when(back.updated_at))
        pairs[frozenset((account, other))] = (when, user, asker)
    prev = None
    for when, user, asker in sorted(pairs.values()):
        prev = identity_chain.insert_link(conn, prev, user, asker, "moved", when)
        conn.execute(sa.delete(state).where(state.c.key.in_([_PARTNER + user, _PARTNER + asker])))


def downgrade() -> None:
    op.drop_index("ix_identitylink_other", "identitylink")
    op.drop_index("ix_identitylink_user", "identitylink")
    op.drop_table("identitylink")

"""Chats: bindings, link codes, the outbox, service state, chat users; the game's clock columns.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 05:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_S = AutoString
_T = UTCDateTime


def upgrade() -> None:
    op.create_table(
        "chat_binding",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", _S(), nullable=False),
        sa.Column("chat_id", _S(), nullable=False),
        sa.Column("game", _S(), nullable=False),
        sa.Column("created_at", _T(), nullable=False),
        sa.Column("created_key", _S(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("platform", "chat_id", name="uq_chat_binding_chat"),
    )
    with op.batch_alter_table("chat_binding", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_binding_game"), ["game"], unique=False)

    op.create_table(
        "link_code",
        sa.Column("code", _S(), nullable=False),
        sa.Column("game", _S(), nullable=False),
        sa.Column("created_at", _T(), nullable=False),
        sa.Column("expires_at", _T(), nullable=False),
        sa.Column("created_key", _S(), nullable=True),
        sa.Column("used_at", _T(), nullable=True),
        sa.Column("used_platform", _S(), nullable=True),
        sa.Column("used_chat_id", _S(), nullable=True),
        sa.PrimaryKeyConstraint("code"),
        sa.UniqueConstraint("created_key"),
    )
    with op.batch_alter_table("link_code", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_link_code_game"), ["game"], unique=False)

    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", _S(), nullable=True),
        sa.Column("platform", _S(), nullable=False),
        sa.Column("chat_id", _S(), nullable=True),
        sa.Column("user_id", _S(), nullable=True),
        sa.Column("lane", _S(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("image", sa.LargeBinary(), nullable=True),
        sa.Column("image_name", _S(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("mentions", sa.Text(), nullable=False),
        sa.Column("reply_to", _S(), nullable=True),
        sa.Column("fallback_chat_id", _S(), nullable=True),
        sa.Column("as_document", sa.Boolean(), nullable=False),
        sa.Column("created_at", _T(), nullable=False),
        sa.Column("status", _S(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("waits", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", _T(), nullable=False),
        sa.Column("sent_at", _T(), nullable=True),
        sa.Column("parts_sent", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("dedupe_key", _S(), nullable=True),
        sa.Column("claimed_by", _S(), nullable=True),
        sa.Column("claimed_until", _T(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("dedupe_key"),
    )
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_outbox_game"), ["game"], unique=False)
        batch_op.create_index(batch_op.f("ix_outbox_status"), ["status"], unique=False)

    op.create_table(
        "service_state",
        sa.Column("key", _S(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("updated_at", _T(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )

    op.create_table(
        "chat_user",
        sa.Column("user", _S(), nullable=False),
        sa.Column("platform", _S(), nullable=False),
        sa.Column("name", _S(), nullable=False),
        sa.Column("updated_at", _T(), nullable=False),
        sa.PrimaryKeyConstraint("user"),
    )
    with op.batch_alter_table("chat_user", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_chat_user_platform"), ["platform"], unique=False)

    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("started_at", _T(), nullable=True))
        batch_op.add_column(sa.Column("deadline_at", _T(), nullable=True))
        batch_op.add_column(sa.Column("deadline_kind", _S(), nullable=True))
        batch_op.add_column(
            sa.Column("phase_hours", sa.Integer(), nullable=False, server_default="48")
        )
        batch_op.add_column(
            sa.Column("decision_hours", sa.Integer(), nullable=False, server_default="12")
        )
        batch_op.add_column(
            sa.Column("reminder_hours", sa.Text(), nullable=False, server_default="[24, 1]")
        )
        batch_op.add_column(
            sa.Column("reminders_sent", sa.Text(), nullable=False, server_default="[]")
        )
        batch_op.add_column(
            sa.Column("clock_paused", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column("paused_remaining_s", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("last_image_index", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        for name in (
            "last_image_index",
            "paused_remaining_s",
            "clock_paused",
            "reminders_sent",
            "reminder_hours",
            "decision_hours",
            "phase_hours",
            "deadline_kind",
            "deadline_at",
            "started_at",
        ):
            batch_op.drop_column(name)
    with op.batch_alter_table("chat_user", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_user_platform"))
    op.drop_table("chat_user")
    op.drop_table("service_state")
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_outbox_status"))
        batch_op.drop_index(batch_op.f("ix_outbox_game"))
    op.drop_table("outbox")
    with op.batch_alter_table("link_code", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_link_code_game"))
    op.drop_table("link_code")
    with op.batch_alter_table("chat_binding", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_binding_game"))
    op.drop_table("chat_binding")

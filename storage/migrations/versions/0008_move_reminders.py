"""Reminders by private message: the players who asked for them (`remind on`), and the last
situation each was reminded of in each game, so that a turn is told once, even after a restart.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03 10:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_S = AutoString
_T = UTCDateTime


def upgrade() -> None:
    op.create_table(
        "move_reminder",
        sa.Column("user", _S(), nullable=False),
        sa.Column("since", _T(), nullable=False),
        sa.PrimaryKeyConstraint("user"),
    )
    op.create_table(
        "move_reminder_sent",
        sa.Column("game", _S(), nullable=False),
        sa.Column("user", _S(), nullable=False),
        sa.Column("situation", _S(), nullable=False),
        sa.Column("sent_at", _T(), nullable=False),
        sa.PrimaryKeyConstraint("game", "user"),
    )


def downgrade() -> None:
    op.drop_table("move_reminder_sent")
    op.drop_table("move_reminder")

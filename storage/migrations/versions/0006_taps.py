"""Playing by taps: the tokens behind buttons, select menus and callbacks, and the decision an
outbox post asks (its situation key and side), so that its buttons expire when it moves on.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 14:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_S = AutoString
_T = UTCDateTime


def upgrade() -> None:
    op.create_table(
        "tap_token",
        sa.Column("token", _S(), nullable=False),
        sa.Column("game", _S(), nullable=False),
        sa.Column("situation", _S(), nullable=False),
        sa.Column("side", _S(), nullable=False),
        sa.Column("kind", _S(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("prompt", _S(), nullable=True),
        sa.Column("created_at", _T(), nullable=False),
        sa.Column("used_at", _T(), nullable=True),
        sa.PrimaryKeyConstraint("token"),
    )
    op.create_index("ix_tap_token_game", "tap_token", ["game"])
    op.create_index("ix_tap_token_prompt", "tap_token", ["prompt"])
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("asks", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("asks")
    op.drop_index("ix_tap_token_prompt", "tap_token")
    op.drop_index("ix_tap_token_game", "tap_token")
    op.drop_table("tap_token")

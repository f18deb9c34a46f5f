"""Languages: the language chosen for a chat or by a user, and a user's platform locale.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString, UTCDateTime

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_S = AutoString
_T = UTCDateTime


def upgrade() -> None:
    op.create_table(
        "chat_language",
        sa.Column("scope", _S(), nullable=False),
        sa.Column("language", _S(), nullable=True),
        sa.Column("locale", _S(), nullable=True),
        sa.Column("updated_at", _T(), nullable=False),
        sa.PrimaryKeyConstraint("scope"),
    )


def downgrade() -> None:
    op.drop_table("chat_language")

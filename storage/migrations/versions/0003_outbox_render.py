"""The outbox's `render`: a map image drawn when its row is sent, off the message path.

A nullable JSON text (e.g. {"after": 12, "upto": 17, "title": "..."}): the sender draws the map
it describes before sending a row that has no image yet, and keeps the PNG in `image`.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01 09:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.add_column(sa.Column("render", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox", schema=None) as batch_op:
        batch_op.drop_column("render")

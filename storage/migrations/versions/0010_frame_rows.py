"""The rows where the game's last two phases ended (`game.frame_row`, `game.frame_before`), so
that the map of now is drawn from the snapshot and the rows since, not a replay of the log
(app/map_now.py). A game made before this revision has none until its phases end twice: its map
is drawn as before.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04 14:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # ALTER TABLE ADD COLUMN on both databases: the table is not rebuilt, its guards stay
    op.add_column("game", sa.Column("frame_row", sa.Integer(), nullable=True))
    op.add_column("game", sa.Column("frame_before", sa.Integer(), nullable=True))


def downgrade() -> None:
    # not a batch (a rebuilt table, which the other tables' keys refuse): SQLite 3.35 and on
    for column in ("frame_before", "frame_row"):
        op.execute(f"ALTER TABLE game DROP COLUMN {column}")

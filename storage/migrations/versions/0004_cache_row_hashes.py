"""Every authority is a cache of a chained row: the row hash each cache row comes from.

`seat.row_hash` (the row that gave the side), `moderator.row_hash` (the row that made him one),
`game.epoch_row_hash` (the last row that changed the dice bookkeeping), and an index of the log
by (game_id, hash) so the check on a read that grants a power is one lookup. An existing game's
new columns are filled from its chain (storage/caches.py derive); a game whose log does not even
parse is left unfilled, so its first check freezes it and the audit names the bad row.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 12:50:00
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("epoch_row_hash", sa.String(), nullable=True))
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.add_column(sa.Column("row_hash", sa.String(), nullable=True))
    with op.batch_alter_table("moderator", schema=None) as batch_op:
        batch_op.add_column(sa.Column("row_hash", sa.String(), nullable=True))
    with op.batch_alter_table("logentry", schema=None) as batch_op:
        batch_op.create_index("ix_logentry_game_hash", ["game_id", "hash"], unique=False)
    _fill()


def _fill() -> None:
    from storage.caches import derive

    conn = op.get_bind()
    for (game_id,) in conn.execute(sa.text("SELECT id FROM game")).all():
        rows = []
        q = sa.text('SELECT kind, payload, hash FROM logentry WHERE game_id = :g ORDER BY "index"')
        for kind, payload, digest in conn.execute(q, {"g": game_id}):
            try:
                rows.append({"kind": kind, "payload": json.loads(payload), "hash": digest})
            except (TypeError, ValueError):
                rows.append({"kind": kind, "payload": None, "hash": digest})
        if not rows:
            continue
        want = derive(rows)
        for side, (user, digest) in want["seats"].items():
            conn.execute(
                sa.text("UPDATE seat SET row_hash = :h WHERE game_id = :g AND side = :s"),
                {"h": digest, "g": game_id, "s": side},
            )
        conn.execute(
            sa.text("UPDATE seat SET row_hash = :h WHERE game_id = :g AND row_hash IS NULL"),
            {"h": rows[0]["hash"], "g": game_id},
        )
        for user, digest in want["moderators"].items():
            conn.execute(
                sa.text('UPDATE moderator SET row_hash = :h WHERE game_id = :g AND "user" = :u'),
                {"h": digest, "g": game_id, "u": user},
            )
        conn.execute(
            sa.text("UPDATE game SET epoch_row_hash = :h WHERE id = :g"),
            {"h": want["dice"], "g": game_id},
        )


def downgrade() -> None:
    with op.batch_alter_table("logentry", schema=None) as batch_op:
        batch_op.drop_index("ix_logentry_game_hash")
    with op.batch_alter_table("moderator", schema=None) as batch_op:
        batch_op.drop_column("row_hash")
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_column("row_hash")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("epoch_row_hash")

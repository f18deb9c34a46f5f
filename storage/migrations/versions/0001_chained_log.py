"""The schema of the chained log: games, seats, moderators, dice secrets, log rows.

The first migration: databases made by pbem 0.1 (tables created without Alembic) are refused by
storage.store.migrate with a message, since their games carry no chain and no committed dice.

Revision ID: 0001
Revises:
Create Date: 2026-11-30 03:34:31.930781
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlmodel.sql.sqltypes import AutoString

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", AutoString(), nullable=False),
        sa.Column("uid", AutoString(), nullable=False),
        sa.Column("game", AutoString(), nullable=False),
        sa.Column("scenario_text", sa.Text(), nullable=False),
        sa.Column("sandbox", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("snapshot", sa.Text(), nullable=False),
        sa.Column("head_index", sa.Integer(), nullable=False),
        sa.Column("head_hash", AutoString(), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("epoch_turn", sa.Integer(), nullable=True),
        sa.Column("epoch_commitment", AutoString(), nullable=True),
        sa.Column("epoch_next_n", sa.Integer(), nullable=False),
        sa.Column("salt_digest", AutoString(), nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("paused_why", AutoString(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("uid"),
    )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_name"), ["name"], unique=True)

    op.create_table(
        "dicesecret",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", AutoString(), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=False),
        sa.Column("seed", AutoString(), nullable=False),
        sa.Column("revealed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "kind", "epoch", name="uq_dicesecret_game_kind_epoch"),
    )
    with op.batch_alter_table("dicesecret", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_dicesecret_game_id"), ["game_id"], unique=False)

    op.create_table(
        "logentry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("kind", AutoString(), nullable=False),
        sa.Column("actor", AutoString(), nullable=False),
        sa.Column("user", AutoString(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("key", AutoString(), nullable=True),
        sa.Column("created_at", AutoString(), nullable=False),
        sa.Column("prev_hash", AutoString(), nullable=False),
        sa.Column("hash", AutoString(), nullable=False),
        sa.Column("epoch", sa.Integer(), nullable=True),
        sa.Column("secret", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "index", name="uq_logentry_game_index"),
        sa.UniqueConstraint("game_id", "key", name="uq_logentry_game_key"),
    )
    with op.batch_alter_table("logentry", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_logentry_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            "ix_logentry_game_kind_epoch", ["game_id", "kind", "epoch"], unique=False
        )

    op.create_table(
        "moderator",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user", AutoString(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "user", name="uq_moderator_game_user"),
    )
    with op.batch_alter_table("moderator", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_moderator_game_id"), ["game_id"], unique=False)

    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("side", AutoString(), nullable=False),
        sa.Column("user", AutoString(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "side", name="uq_seat_game_side"),
    )
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_game_id"))

    op.drop_table("seat")
    with op.batch_alter_table("moderator", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_moderator_game_id"))

    op.drop_table("moderator")
    with op.batch_alter_table("logentry", schema=None) as batch_op:
        batch_op.drop_index("ix_logentry_game_kind_epoch")
        batch_op.drop_index(batch_op.f("ix_logentry_game_id"))

    op.drop_table("logentry")
    with op.batch_alter_table("dicesecret", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_dicesecret_game_id"))

    op.drop_table("dicesecret")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_name"))

    op.drop_table("game")

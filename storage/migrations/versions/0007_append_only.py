"""The database keeps the chained tables append-only: the guards of storage/append_only.py
(triggers that refuse an UPDATE or DELETE of a log row, a changed or deleted seed, a game's
changed uid, system or scenario). Every later migration run installs them again too
(storage/migrations/env.py), since SQLite's batch mode rebuilds a table without its triggers.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 10:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage import append_only

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    append_only.install(op.get_bind())


def downgrade() -> None:
    conn = op.get_bind()
    append_only.lift(conn)
    if conn.dialect.name == "postgresql":
        for function in append_only.PG_FUNCTIONS:
            conn.exec_driver_sql(f"DROP FUNCTION IF EXISTS {function}()")

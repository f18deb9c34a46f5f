"""Alembic environment: the pbem schema (storage.models) on SQLite or PostgreSQL.

Run in code by storage.store.migrate (a connection is handed over in config.attributes), or by
hand: `alembic -c storage/migrations/alembic.ini -x url=sqlite:///pbem.db upgrade head`.
SQLite gets batch mode (render_as_batch): it cannot ALTER most things in place, and rebuilds a
table without its triggers: so every run that ends at or after the revision of the append-only
guards installs them again (storage/append_only.py), in the migration's own transaction.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import storage.chat_models  # the chat tables (migration 0002) on SQLModel.metadata too
import storage.models  # noqa: F401 - registers the tables on SQLModel.metadata
from storage import append_only

config = context.config
target_metadata = SQLModel.metadata


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url")
    url = url or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("no database: give -x url=... (or sqlalchemy.url in alembic.ini)")
    return url


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
        if _guarded():
            append_only.install(connection)


def _guarded() -> bool:
    """Whether the schema is now at or after the revision that made the append-only guards."""
    script = context.script
    for head in context.get_context().get_current_heads():
        for rev in script.iterate_revisions(head, "base"):
            if rev.revision == append_only.REVISION:
                return True
    return False


def run_offline() -> None:
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    engine = create_engine(_url())
    with engine.connect() as connection:
        _configure(connection)
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()

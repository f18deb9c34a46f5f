"""A host's edit behind pbem's back: the database refuses an UPDATE or DELETE of what is chained
(storage/append_only.py), so he drops the guards first, as anyone with the rights to do so
can, and then edits; the guards stay down, and the service's next check finds that too."""

from __future__ import annotations

import re

from sqlalchemy import text

from storage import Store, append_only

# what a guard keeps
GUARDED = re.compile(r"\b(logentry|dicesecret|uid|scenario_text|identitylink)\b")


def host_execute(store: Store, sql: str, **params) -> None:
    """Run `sql` (one transaction), dropping the append-only guards first when it edits what
    they keep (a seat or the game's snapshot needs no such step)."""
    with store.engine.begin() as conn:
        if GUARDED.search(sql):
            append_only.lift(conn)
        conn.execute(text(sql), params)


def restore_guards(store: Store) -> None:
    """The host puts the guards back as pbem made them (after an edit he undid, say)."""
    with store.engine.begin() as conn:
        append_only.install(conn)

"""The host's repair of a broken identity chain (storage/identity_chain.py):

    python -m storage.identity_repair --db DATABASE          # drop the rows from the first bad one
    python -m storage.identity_repair check --db DATABASE    # only say whether the chain holds

The rows from the first bad one on are dropped in one transaction that lifts and puts back the
table's guards; each is listed, and those players say `identity link` again.
"""

from __future__ import annotations

import argparse

from storage.identity_chain import identity_failure, repair
from storage.store import Store


def main(argv: list[str] | None = None) -> int:
    """`python -m storage.identity_repair [--db URL]` (the host); `check` only looks."""
    parser = argparse.ArgumentParser(prog="python -m storage.identity_repair")
    parser.add_argument("command", nargs="?", choices=["check", "repair"], default="repair")
    parser.add_argument("--db", default=None)
    args = parser.parse_args(argv)
    store = Store(args.db)
    try:
        with store.engine.begin() as conn:
            if args.command == "check":
                fail = identity_failure(conn)
                print("the identity chain holds" if fail is None else fail["problem"])
                return 0 if fail is None else 1
            dropped = repair(conn)
        print(f"{len(dropped)} identity rows dropped; the chain holds")
        for r in dropped:
            print(f"  row {r['index']}: {r['user']} with {r['other']} (say `identity link` again)")
        return 0
    finally:
        store.close()


if __name__ == "__main__":
    raise SystemExit(main())

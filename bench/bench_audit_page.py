"""How long the offline audit page takes to verify a whole Hell's Gate game in the browser.

    python bench/bench_audit_page.py [--seed N] [--loads N]

A demo game of Hell's Gate (bots/demo.py, played to its end) is exported as a player gets it
(`audit export`: the game over, every epoch and the hidden seed revealed), made into the page
(`audit page`), and opened --loads times in one headless Chromium (tests/browser.py: Debian's
`chromium`). Each load reads the time the page's own script measured (performance.now() around
decoding the export and verifying it: every row hash, seed, draw and hidden value), which the
page keeps in #verdict's data-ms. The figure is the median load; the first load is shown too (a
browser's first WebCrypto calls are slower). Target: under 200 ms. Not part of the test run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import audit
from bots.demo import run_demo
from storage import Store
from storage.audit.page import page_html
from tests.browser import Browser


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loads", type=int, default=7)
    args = ap.parse_args()
    store = Store(":memory:")
    result = run_demo(args.seed, store=store, write=lambda line: None)
    data, left_out, rows = audit.player_export(store, result.name)
    assert left_out is None, "the demo game should be over"
    print(f"Hell's Gate demo (seed {args.seed}): {result.orders} orders, {rows} log rows,"
          f" export {len(data) / 1024:.0f} KiB")  # fmt: skip
    times = []
    browser = Browser()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "audit.html"
            path.write_text(page_html(data), encoding="utf-8")
            for n in range(args.loads):
                page = browser.open(path)
                if not page.verdict.startswith("VERIFIED"):
                    raise SystemExit(f"the page did not verify: {page.verdict}")
                ms = float(page.evaluate("document.getElementById('verdict').dataset.ms"))
                checked = int(page.evaluate("document.getElementById('verdict').dataset.rows"))
                assert checked == rows and page.requests == [path.as_uri()], page.requests
                times.append(ms)
                print(f"  load {n + 1}: {ms:.1f} ms")
                page.close()
    finally:
        browser.close()
    median = statistics.median(times)
    print(f"first load {times[0]:.0f} ms; median of {len(times)} loads {median:.0f} ms")
    print(f"audit page: {rows} rows verified in {median:.0f} ms")


if __name__ == "__main__":
    main()

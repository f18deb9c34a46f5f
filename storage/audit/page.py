"""The offline audit page: one self-contained HTML file carrying an export and its verifier.

`page_html(export_bytes)` is the whole page: the export (base64, inside a non-executed script
block), the verifier `page.js` (read it: it is written to be read) and its styles inline, and a
Content Security Policy that forbids every connection (`default-src 'none'`) and runs only that
script (by its SHA-256). The page needs no network, no external script or font: opened from disk
it recomputes in the reader's browser, with WebCrypto, what docs/audit.md specifies, and
explains in its own words how (a player cannot open a repository's path).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from pathlib import Path

SCRIPT = Path(__file__).with_name("page.js")

STYLE = """
*, *::before, *::after { box-sizing: border-box; }
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 70em; padding: 0 1em; }
#result { padding: .6em .8em; border: 2px solid #888; margin: 1em 0; }
#result.ok { border-color: #2a7; background: #efe; } #result.bad { border-color: #c33; background: #fee; }
#plain { font-size: 1.1em; margin: 0 0 .5em; }
#verdict { font-size: 13px; margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
h1, #game, #head-check, td, .side h3 { overflow-wrap: anywhere; }  /* hashes, long names */
table { border-collapse: collapse; margin: .5em 0; max-width: 100%; } td, th { border: 1px solid #ccc; padding: 2px 6px; }
td { font-family: ui-monospace, monospace; font-size: 13px; } th { background: #eee; }
.side { display: inline-block; vertical-align: top; margin: 0 2em 1em 0; max-width: 100%; }
.bar span { display: inline-block; width: 1.5em; } .bar i { display: inline-block; height: .8em; background: #58a; }
input[type=text] { width: 100%; font-family: ui-monospace, monospace; }
label { display: inline-block; margin: 0 1em .3em 0; } select { max-width: 100%; }
details { margin: .5em 0 1em; } summary { cursor: pointer; font-weight: bold; }
@media (max-width: 40em) {
  body { margin: .8em auto; padding: 0 .6em; }
  table, tbody, tr { display: block; width: 100%; }
  table tr:first-child { display: none; }
  tr { border: 1px solid #ccc; margin: 0 0 .4em; padding: 2px 0; }
  td { display: inline-block; max-width: 100%; border: 0; padding: 0 6px; }
  .bar i { max-width: 45%; }
  td::before { content: attr(data-label) ": "; font-family: system-ui, sans-serif; color: #555; }
}
"""

TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
script-src 'sha256-{script_hash}'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Audit of {title}</title>
<style>{style}</style>
</head>
<body>
<h1>Audit of {title}</h1>
<p id="game"></p>
<div id="result">
<p id="plain">Checking the dice...</p>
<p id="verdict">Checking...</p>
</div>
<p id="more"></p>
<details>
<summary>How this page checks the dice</summary>
<p>Before the first die of a turn is rolled, the game posts a <b>commitment</b>: a fingerprint
(SHA-256) of that turn's secret random number, its <b>seed</b>. Every die of the turn is computed
from the seed, the game's id, the die's number in the turn and what it is rolled for (and any
salt the players added), so nobody can choose a roll afterwards: another seed would not match the
fingerprint posted in advance.</p>
<p>When the turn is over the seed is revealed. This page checks that it matches the fingerprint
posted before the first roll and recomputes every die from it. Rolls of the turn still in play
are in the page, their rows and commitment checked; they are marked "checkable after turn N":
their seed is revealed when that turn ends, so ask for a new page then. Hidden draws (cards,
hidden units) have a seed of their own, revealed when the game ends.</p>
<p>The log is a chain: each row carries a fingerprint of itself and of the row before it, so a
row changed, removed or inserted after it was posted breaks the chain at that row, and the page
names that row. A post's "head hash" is the fingerprint of the log up to that post: paste one
below to see that the log still holds it.</p>
<p>Everything runs in your own browser: the page needs no network and trusts no server. The code
that checks is the script at the end of this file, written to be read.</p>
</details>
<p id="timing"></p>
<h2>A head hash you saved</h2>
<p>Paste a post's "Log row N, head hash ..." (or the hash alone):</p>
<input type="text" id="head-input" autocomplete="off">
<p id="head-check"></p>
<h2>Commitments</h2>
<div id="commitments"></div>
<h2>Dice per side</h2>
<div id="statistics"></div>
<h2>Rolls</h2>
<label>side <select id="side-filter"></select></label>
<label>purpose <select id="purpose-filter"></select></label>
<div id="rolls"></div>
<p><button id="save" type="button">Save the export (.jsonl)</button></p>
<script type="application/x-pbem-audit+base64" id="export">
{export}
</script>
<script>{script}</script>
</body>
</html>
"""


def script_text() -> str:
    return SCRIPT.read_text(encoding="utf-8")


def page_html(export_bytes: bytes) -> str:
    """The page of one export (its bytes as written by storage.audit.write_export)."""
    script = script_text()
    if "</script" in script.lower():
        raise ValueError("the verifier must not contain a closing script tag")
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    try:
        header = json.loads(export_bytes.split(b"\n", 1)[0])
        title = f"{header.get('name')} ({header.get('game')})"
    except (ValueError, AttributeError):
        title = "an unreadable export"
    encoded = base64.b64encode(export_bytes).decode()
    lines = "\n".join(encoded[i : i + 100] for i in range(0, len(encoded), 100))
    return TEMPLATE.format(
        script_hash=digest,
        title=html.escape(title),
        style=STYLE,
        export=lines,
        script=script,
    )


def write_page(path: str | Path, export_bytes: bytes) -> None:
    """Write the page atomically."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(page_html(export_bytes), encoding="utf-8")
    tmp.replace(path)

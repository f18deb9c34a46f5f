"""The offline audit page: one self-contained HTML file carrying an export and its verifier.

`page_html(export_bytes)` is the whole page: the export (base64, inside a non-executed script
block), the verifier `page.js` (read it: it is written to be read) and its styles inline, and a
Content Security Policy that forbids every connection (`default-src 'none'`) and runs only that
script (by its SHA-256). The page needs no network, no external script or font: opened from disk
it recomputes in the reader's browser, with WebCrypto, what docs/audit.md specifies.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from pathlib import Path

SCRIPT = Path(__file__).with_name("page.js")

STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 70em; padding: 0 1em; }
#verdict { font-weight: bold; padding: .6em; border: 2px solid #888; white-space: pre-wrap; }
#verdict.ok { border-color: #2a7; background: #efe; } #verdict.bad { border-color: #c33; background: #fee; }
table { border-collapse: collapse; margin: .5em 0; } td, th { border: 1px solid #ccc; padding: 2px 6px; }
td { font-family: ui-monospace, monospace; font-size: 13px; } th { background: #eee; }
.side { display: inline-block; vertical-align: top; margin: 0 2em 1em 0; }
.bar span { display: inline-block; width: 1.5em; } .bar i { display: inline-block; height: .8em; background: #58a; }
input[type=text] { width: 100%; font-family: ui-monospace, monospace; }
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
<p>This page checks the game's log in your own browser: every row's hash, every seed against the
commitment posted before its first roll, every revealed roll, shuffle and draw, and once the game
has ended every hidden draw. It needs no network and trusts no server. How: docs/audit.md; the
code: the script at the end of this file.</p>
<div id="verdict">Checking...</div>
<p id="more"></p>
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

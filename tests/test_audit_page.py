"""The offline audit page (storage/audit/page.js, docs/audit.md) in headless Chromium, against the
server's verifier (`pbem audit --verify`): the same exports, the same verdicts, the same rows.

One browser for the module (tests/browser.py: the DevTools protocol over a pipe, every network
request recorded). The exports: a finished hidden duel (tests/systems/duel.py: d10 rolls, a hidden
shuffle and hidden draws revealed at the end) and the synthetic log of tests/test_audit_offline.py
(salts, a fixed roll, hidden values, an open epoch). Each tampering shows `FAILED at row N:` with
the row the server names.
"""

from __future__ import annotations

import base64
import copy
import json
import random
import re

import pytest

from adjudicator.core import registry
from app import audit
from app.service import GameService
from bots import cli
from bots.demo import DemoSeeds, choose, demo_uid, legal_texts
from storage import Store
from storage.audit import audit as server_audit
from storage.audit import chi2_sf, export_lines, parse_export
from storage.audit.page import page_html
from storage.chain import link
from storage.dice import CommittedDice, face_from_digest, roll_value, salt_digest
from tests import test_audit_offline as offline
from tests.browser import CHROMIUM, WAIT_FOR_VERDICT, Browser
from tests.systems import duel

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium (.ci/run installs it)")


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


@pytest.fixture(scope="module")
def finished_duel():
    """(header, rows) of a hidden duel played to its end."""
    registry.register(duel.SYSTEM)
    store = Store(":memory:")
    service = GameService(store)
    service.new_game("duel", system="hidden-duel")
    system = service.system("duel")
    while not (here := system.situation(service.state("duel"))).over:
        side = here.to_move[0]
        (reply,) = service.say("duel", side, legal_texts(system, service.state("duel"), side)[0])
        assert reply.ok, reply
    data, left_out, _ = audit.player_export(store, "duel")
    assert left_out is None  # the game is over: every epoch is revealed
    header, rows, _ = _parse(data)
    yield header, rows
    store.close()
    registry.unregister(duel.SYSTEM.id)


def _parse(data: bytes):
    header, rows = parse_export(data)
    return header, rows, data


def export_bytes(header: dict, rows: list[dict]) -> bytes:
    return ("\n".join(export_lines(header, rows)) + "\n").encode()


def relinked(header: dict, rows: list[dict]) -> tuple[dict, list[dict]]:
    """A forger's export: every hash recomputed, the header's head hash too."""
    link(rows)
    return header | {"head_hash": rows[-1]["hash"]}, rows


def verdicts(browser, tmp_path, name: str, header: dict, rows: list[dict], capsys):
    """(the page's verdict, the CLI's exit code and output) of one export."""
    data = export_bytes(header, rows)
    (tmp_path / f"{name}.jsonl").write_bytes(data)
    (tmp_path / f"{name}.html").write_text(page_html(data), encoding="utf-8")
    page = browser.open(tmp_path / f"{name}.html")
    assert page.requests == [(tmp_path / f"{name}.html").resolve().as_uri()], page.requests
    page.close()
    capsys.readouterr()
    code = cli.main(["audit", "--verify", str(tmp_path / f"{name}.jsonl")])
    return page.verdict, code, capsys.readouterr().out


def first_roll_row(rows, hidden=False) -> int:
    return next(
        k
        for k, r in enumerate(rows)
        if r["kind"] == "order"
        and any(bool(x.get("hidden")) == hidden for x in r["payload"].get("rolls", []))
    )


# ---------------------------------------------------------------- the verdicts


def test_a_finished_game_verifies_in_the_page_and_on_the_command_line(
    browser, finished_duel, tmp_path, capsys
):
    header, rows = finished_duel
    verdict, code, out = verdicts(browser, tmp_path, "clean", header, rows, capsys)
    assert verdict.startswith("VERIFIED: 26 rows"), verdict
    assert "3 revealed seeds match" in verdict and "hidden seed is revealed" in verdict
    assert code == 0 and "OK: the chain holds" in out


def test_the_page_shows_commitments_statistics_and_rolls(browser, finished_duel, tmp_path):
    header, rows = finished_duel
    (tmp_path / "p.html").write_text(page_html(export_bytes(header, rows)), encoding="utf-8")
    page = browser.open(tmp_path / "p.html")
    commitments = page.text("commitments")
    for k in (1, 2, 3):
        epoch_row = next(r for r in rows if r["kind"] == "epoch" and r["payload"]["epoch"] == k)
        assert epoch_row["payload"]["commitment"] in commitments
        assert epoch_row["created_at"] in commitments  # when it was posted
    stats = page.text("statistics")
    assert "north: d10, 3 rolls" in stats and "south: d10, 3 rolls" in stats
    assert "expected 0.3" in stats and "p = " in stats
    table = page.evaluate("document.querySelectorAll('#rolls tr').length - 1")
    drawn = sum(len(r["payload"].get("rolls", [])) for r in rows if r["kind"] == "order")
    assert table == drawn
    page.evaluate(
        "(() => { const s = document.getElementById('side-filter'); s.value = 'south';"
        " s.onchange(); const p = document.getElementById('purpose-filter'); p.value = 'duel';"
        " p.onchange(); })()"
    )
    shown = page.evaluate(
        "[...document.querySelectorAll('#rolls tr')].slice(1).map(r => r.cells[1].textContent"
        " + '/' + r.cells[2].textContent)"
    )
    assert shown == ["south/duel south"] * 3
    page.close()


@pytest.mark.parametrize(
    "tamper",
    ["edited roll", "edited payload", "deleted row", "swapped rows", "wrong seed", "hidden draw"],
)
def test_each_tampering_fails_at_the_same_row_in_the_page_and_the_cli(
    browser, finished_duel, tmp_path, capsys, tamper
):
    header, rows = copy.deepcopy(finished_duel)
    if tamper == "edited roll":  # rechained: only recomputing the roll finds it
        k = first_roll_row(rows)
        roll = rows[k]["payload"]["rolls"][0]
        roll["value"] = roll["value"] % 10 + 1
        header, rows = relinked(header, rows)
    elif tamper == "edited payload":
        k = 4
        rows[k]["payload"]["events"][0]["text"] = "North plays the 9, honest."
    elif tamper == "deleted row":
        k = 11
        del rows[k]
    elif tamper == "swapped rows":
        k = 13
        rows[k], rows[k + 1] = rows[k + 1], rows[k]
    elif tamper == "wrong seed":  # rechained: only the commitment finds it
        k = next(i for i, r in enumerate(rows) if r["kind"] == "reveal")
        rows[k]["payload"]["seed"] = "ab" * 32
        header, rows = relinked(header, rows)
    else:  # a disclosed hidden draw changed with a matching commitment: only the seed finds it
        k = first_roll_row(rows, hidden=True)
        from storage.dice import hidden_commit

        record = next(r for r in rows[k]["payload"]["rolls"] if r["hidden"])
        entry = next(e for e in rows[k]["secret"] if e["commitment"] == record["commitment"])
        forged, salt = hidden_commit(entry["value"] % record["faces"] + 1)
        entry.update(value=entry["value"] % record["faces"] + 1, salt=salt, commitment=forged)
        record["commitment"] = forged
        header, rows = relinked(header, rows)
    verdict, code, out = verdicts(browser, tmp_path, tamper.replace(" ", "-"), header, rows, capsys)
    assert verdict.startswith(f"FAILED at row {k}:"), verdict
    assert code == 1 and f"FAILED at row {k}:" in out, out


def _server_verdict(data: bytes) -> str:
    report = server_audit(*parse_export(data))
    if report.ok:
        return "VERIFIED"
    index = report.first_failure["index"]
    return "FAILED in the header" if index is None else f"FAILED at row {index}"


def test_random_byte_changes_fail_at_the_same_row_in_the_page_and_the_server(
    browser, finished_duel, tmp_path
):
    """60 exports, each with one byte of one line (header, chained field, hash, secret) changed:
    the page's verifier and the server's name the same row (or the header)."""
    header, rows = finished_duel
    data = export_bytes(header, rows)
    (tmp_path / "b.html").write_text(page_html(data), encoding="utf-8")
    page = browser.open(tmp_path / "b.html")
    rng = random.Random(1616)
    lines = data.split(b"\n")[:-1]
    tampered = []
    for _ in range(60):
        k = rng.randrange(len(lines))
        at = rng.randrange(len(lines[k]))
        new = rng.choice([c for c in b"0123456789abcdef:,{} x" if c != lines[k][at]])
        line = lines[k][:at] + bytes([new]) + lines[k][at + 1 :]
        tampered.append(b"\n".join([*lines[:k], line, *lines[k + 1 :]]) + b"\n")
    expected = [_server_verdict(t) for t in tampered]
    script = """
    (async (exports) => {
      const A = globalThis.pbemAudit, out = [];
      for (const b64 of exports) {
        const text = atob(b64), bytes = new Uint8Array(text.length);
        for (let k = 0; k < text.length; k++) bytes[k] = text.charCodeAt(k);
        const [header, rows] = A.readExport(bytes);
        out.push(A.verdictText(await A.audit(header, rows), header));
      }
      return out;
    })(EXPORTS)
    """
    b64 = json.dumps([base64.b64encode(t).decode() for t in tampered])
    found = page.evaluate(script.replace("EXPORTS", b64))
    assert [v.split(":")[0] for v in found] == expected
    assert sum(v.startswith("FAILED at row") for v in expected) > 40  # most lines are rows
    page.close()


def test_the_synthetic_log_gives_the_same_rows_as_the_server(browser, tmp_path, capsys):
    """The offline suite's log (salts, a fixed roll, hidden values, an open epoch), clean and
    with a rechained forged roll, a wrong hidden seed and a salt moved after a roll."""
    header, rows, _ = offline.build()
    verdict, _, out = verdicts(browser, tmp_path, "synthetic", header, copy.deepcopy(rows), capsys)
    assert verdict.startswith("VERIFIED") and "epoch 3 (turn 3) is open" in verdict, verdict
    assert "OK: the chain holds" in out
    k = next(i for i, r in enumerate(rows) if r["kind"] == "reveal-hidden")
    forged = copy.deepcopy(rows)
    forged[k]["payload"]["hidden_seed"] = "cd" * 32
    h, forged = relinked(dict(header), forged)
    assert audit.check(h, forged)[2].first_failure["index"] == k
    verdict, code, out = verdicts(browser, tmp_path, "hidden-seed", h, forged, capsys)
    assert code == 1
    assert verdict.startswith(f"FAILED at row {k}:") and f"FAILED at row {k}:" in out, verdict


def test_a_pasted_head_hash_is_checked_at_its_row(browser, finished_duel, tmp_path):
    header, rows = finished_duel
    (tmp_path / "h.html").write_text(page_html(export_bytes(header, rows)), encoding="utf-8")
    page = browser.open(tmp_path / "h.html")

    def check(text: str) -> str:
        page.evaluate(
            f"(() => {{ const i = document.getElementById('head-input'); i.value = {json.dumps(text)};"
            " i.oninput(); })()"
        )
        return page.text("head-check")

    assert check(f"Log row 7, head hash {rows[7]['hash']}.").startswith("HELD: ")
    assert "at row 7" in check(rows[7]["hash"])
    assert check(f"Log row 8, head hash {rows[7]['hash']}.").startswith("NOT HELD: row 8")
    assert check("head hash " + "e" * 64).startswith("NOT HELD: no row")
    # as a post shows it: the first 20 hex characters, in English or in Russian
    assert check(f"Log row 7, head hash {rows[7]['hash'][:20]}.").startswith("HELD: ")
    assert check(f"Строка журнала 7, хеш вершины {rows[7]['hash'][:20]}.").startswith("HELD: ")
    assert check(f"Log row 8, head hash {rows[7]['hash'][:20]}.").startswith("NOT HELD: row 8")
    assert "at row 7" in check(rows[7]["hash"][:20])
    assert "at least its first 20" in check(f"Log row 7, head hash {rows[7]['hash'][:19]}.")
    page.close()


def test_a_browser_without_uint8array_frombase64_verifies_the_same(
    browser, finished_duel, tmp_path
):
    header, rows = finished_duel
    (tmp_path / "o.html").write_text(page_html(export_bytes(header, rows)), encoding="utf-8")
    page = browser.open(tmp_path / "o.html", before="delete Uint8Array.fromBase64;")
    assert page.verdict.startswith("VERIFIED: 26 rows"), page.verdict
    assert page.evaluate("typeof Uint8Array.fromBase64") == "undefined"
    page.close()


def test_without_webcrypto_the_page_says_so_instead_of_a_verdict(browser, finished_duel, tmp_path):
    header, rows = finished_duel
    (tmp_path / "n.html").write_text(page_html(export_bytes(header, rows)), encoding="utf-8")
    page = browser.open(
        tmp_path / "n.html",
        before="Object.defineProperty(globalThis, 'crypto', {value: undefined});",
    )
    assert page.verdict.startswith("NO WEBCRYPTO: this browser offers no WebCrypto")
    page.close()


def test_the_network_recorder_sees_a_request_when_a_page_makes_one(browser, tmp_path):
    """The control of the no-request checks above: a page that fetches is caught (and the
    request fails, offline)."""
    (tmp_path / "net.html").write_text(
        "<div id=verdict></div><script>fetch('http://127.0.0.1:9/x').catch(() => 0)"
        ".finally(() => { document.getElementById('verdict').textContent = 'FAILED'; });"
        "</script>",
        encoding="utf-8",
    )
    page = browser.open(tmp_path / "net.html")
    assert "http://127.0.0.1:9/x" in page.requests
    page.close()


# ---------------------------------------------------------------- the roll function, both sides

ALPHABET = "abc XYZ|\\\"'\n\t\u0001é€🎲ß/{}[]:,"


def _text(rng: random.Random, most: int = 12) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, most)))


def _cases(rng: random.Random, count: int) -> list[dict]:
    sizes = [1, 2, 3, 6, 10, 20, 100, 129, 255, 256, 257, 1000, 32769, 65535, 65536]
    out = []
    for i in range(count):
        out.append(
            {
                "seed": rng.randbytes(32).hex(),
                "uid": rng.randbytes(16).hex(),
                "epoch": rng.randint(1, 40),
                "n": rng.randint(1, 3000),
                "purpose": _text(rng) if i % 4 else f"combat C{rng.randint(1, 30)}",
                "salts": [_text(rng) for _ in range(rng.randint(0, 3))],
                "faces": rng.choice(sizes) if i % 3 else rng.randint(1, 65536),
                "items": list(range(rng.randint(1, 12))),
            }
        )
    return out


def test_the_page_and_the_server_draw_the_same_for_random_cases(browser, finished_duel, tmp_path):
    """Random seeds, salts, purposes and die sizes: a die, a shuffle and a pick from the
    epoch's seed, the same from a hidden seed; the salt digest; rejected digests."""
    header, rows = finished_duel
    (tmp_path / "r.html").write_text(page_html(export_bytes(header, rows)), encoding="utf-8")
    page = browser.open(tmp_path / "r.html")
    cases = _cases(random.Random(16), 200)
    expected = []
    for c in cases:
        dig = salt_digest(c["salts"])
        hidden_seed = c["seed"][::-1]
        public = CommittedDice(c["seed"], c["uid"], c["epoch"], c["n"], dig)
        hidden = CommittedDice(c["seed"], c["uid"], c["epoch"], c["n"], dig, hidden_seed)
        expected.append(
            {
                "digest": dig,
                "die": roll_value(c["seed"], c["uid"], c["epoch"], c["n"], c["purpose"], dig,
                                  c["faces"]),
                "shuffle": public.shuffle(c["items"], c["purpose"]),
                "pick": public.pick(c["items"], c["purpose"]),
                "hidden": hidden.shuffle(c["items"], c["purpose"], hidden=True)
                + [hidden.pick(c["items"], c["purpose"], hidden=True)],
            }
        )  # fmt: skip
    script = """
    (async (cases) => {
      const A = globalThis.pbemAudit, out = [];
      for (const c of cases) {
        const digest = await A.saltDigestOf(c.salts);
        const die = await A.rollValue(c.seed, c.uid, c.epoch, c.n, c.purpose, digest, c.faces);
        const pub = new A.Draws(c.seed, c.uid, c.epoch, c.n, digest);
        const shuffle = await pub.shuffle(c.items, c.purpose);
        const pick = await pub.pick(c.items, c.purpose);
        const seed = c.seed.split("").reverse().join("");
        const hid = new A.Draws(seed, c.uid, c.epoch, c.n, digest);
        const hidden = [...await hid.shuffle(c.items, c.purpose), await hid.pick(c.items, c.purpose)];
        out.push({ digest, die, shuffle, pick, hidden });
      }
      return out;
    })(CASES)
    """
    found = page.evaluate(script.replace("CASES", json.dumps(cases)))
    assert found == expected
    digests = [[255] * 32, [252] * 31 + [251], [0] * 32, [255] * 30 + [1, 0], [7] + [255] * 31]
    for faces in (6, 129, 256, 257, 32769, 65536):
        js = page.evaluate(
            f"{json.dumps(digests)}.map(d => globalThis.pbemAudit.faceFromDigest(d, {faces}))"
        )
        assert js == [face_from_digest(bytes(d), faces) for d in digests], faces
    chi = [(x, df) for df in (1, 2, 5, 9, 19, 99) for x in (0.5, 3.0, df * 1.0, df * 2.5)]
    js = page.evaluate(f"{json.dumps(chi)}.map(([x, df]) => globalThis.pbemAudit.chi2sf(x, df))")
    assert js == pytest.approx([chi2_sf(x, df) for x, df in chi], abs=1e-6)  # erfc to 1.2e-7
    page.close()


def test_the_cli_refuses_a_missing_a_malformed_and_a_truncated_file(
    finished_duel, tmp_path, capsys
):
    header, rows = finished_duel
    data = export_bytes(header, rows)
    (tmp_path / "cut.jsonl").write_bytes(data[: len(data) // 2])
    (tmp_path / "short.jsonl").write_bytes(b"\n".join(data.split(b"\n")[:10]) + b"\n")
    (tmp_path / "junk.jsonl").write_bytes(b"this is no export\n")
    (tmp_path / "other.jsonl").write_bytes(b'{"format":"something-else/2"}\n')
    expected = {
        "missing.jsonl": "no such file",
        "cut.jsonl": "is truncated: its last line",
        "short.jsonl": "is truncated: the header says 26 rows, the file holds only 9",
        "junk.jsonl": "is not a pbem audit export",
        "other.jsonl": "is not a pbem audit export",
    }
    for name, message in expected.items():
        code = cli.main(["audit", "--verify", str(tmp_path / name), "--html", str(tmp_path / "x")])
        out, err = capsys.readouterr()
        assert code == 1 and out == "" and message in err and len(err.splitlines()) == 1, err
        assert "Audit of game" not in err and not (tmp_path / "x").exists()


def test_a_failed_chain_shows_no_statistics_of_the_rows_after_it(finished_duel, tmp_path, capsys):
    header, rows = copy.deepcopy(finished_duel)
    rows[11]["payload"]["rolls"][0]["value"] = 1 + rows[11]["payload"]["rolls"][0]["value"] % 10
    (tmp_path / "t.jsonl").write_bytes(export_bytes(header, rows))
    assert cli.main(["audit", "--verify", str(tmp_path / "t.jsonl")]) == 1
    out = capsys.readouterr().out
    assert "FAILED at row 11:" in out
    assert "Only rows 0-10 are counted, before the failure: nothing from row 11 on" in out
    counted = re.search(r"^  all\s+(\d+)", out, re.MULTILINE)
    assert counted and int(counted.group(1)) == 2  # the d10 rolls of rows 3 and 6 only


def test_pbem_audit_html_writes_the_same_page_from_the_database_and_from_an_export(
    browser, finished_duel, tmp_path, capsys
):
    """`pbem audit NAME --html` (the operator's whole log, its open epoch pending) and `pbem audit
    --verify FILE --html` of that game's export write the same page, which verifies. (The
    finished_duel fixture keeps the duel registered.)"""
    db = str(tmp_path / "g.db")
    store = Store(db)
    service = GameService(store)
    service.new_game("g", system="hidden-duel")
    for side, text in [("north", "draw"), ("north", "roll"), ("north", "play")]:
        assert service.say("g", side, text)[0].ok
    store.close()
    one, two, export = tmp_path / "one.html", tmp_path / "two.html", tmp_path / "g.jsonl"
    assert cli.main(["audit", "g", "--db", db, "--export", str(export), "--html", str(one)]) == 0
    assert cli.main(["audit", "--verify", str(export), "--html", str(two)]) == 0
    assert "Wrote the audit page to" in capsys.readouterr().out
    assert one.read_bytes() == two.read_bytes()
    page = browser.open(one)
    assert page.verdict.startswith("VERIFIED") and "epoch 1 (turn 1) is open" in page.verdict
    assert "sealed until the game ends" in page.verdict and page.requests == [one.as_uri()]
    assert "checkable after turn 1 (its seed is revealed when the epoch closes)" in page.text(
        "rolls"
    )
    page.close()


# ---------------------------------------------------------------- a game in play, on a phone

PHONE, DESKTOP = 390, 1366

OVERFLOW = """
(() => {
  const width = window.innerWidth, doc = document.documentElement;
  const beyond = [...document.querySelectorAll("body *")]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > width + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} right ${e.getBoundingClientRect().right}`);
  return { width, scroll: doc.scrollWidth, beyond };
})()
"""


@pytest.fixture(scope="module")
def hells_gate_in_play():
    """(the export's bytes, its open epoch, rows) of a Hell's Gate game in its second turn with
    rolls in that turn's open epoch: what `audit page` gives a player right after a roll."""
    store = Store(":memory:")
    service = GameService(store, seeds=DemoSeeds(7), uids=lambda: demo_uid(7, "hg"))
    service.new_game("hg", system="hells-gate")
    system = service.system("hg")
    rng = random.Random(7)
    for _ in range(2000):
        data, still_open, _ = audit.player_export(store, "hg")
        rows = parse_export(data)[1]
        opened = (
            [r for r in rows[still_open.row :] if r["payload"].get("rolls")] if still_open else []
        )
        if still_open and still_open.turn == 2 and len(opened) >= 2:
            break
        side = system.situation(service.state("hg")).to_move[0]
        (reply, *_) = service.say(
            "hg", side, choose(rng, legal_texts(system, service.state("hg"), side))
        )
        assert reply.ok, reply
    else:
        raise AssertionError("no rolls in turn 2")
    yield data, still_open, rows
    store.close()


def _at_width(browser, path, width: int):
    """The page opened width CSS pixels wide (a phone: 390), scaled 1:1 as a phone shows it."""
    page = browser.open("about:blank", wait=False)
    page.call(
        "Emulation.setDeviceMetricsOverride",
        width=width, height=844, deviceScaleFactor=1, mobile=width < 600,
    )  # fmt: skip
    page.call("Page.navigate", url=path.resolve().as_uri())
    browser.wait_for("Page.loadEventFired", page)
    page.verdict = page.evaluate(WAIT_FOR_VERDICT)
    return page


@pytest.mark.parametrize("width", [PHONE, DESKTOP])
def test_the_open_epochs_rows_are_in_the_page_and_nothing_overflows_the_screen(
    browser, hells_gate_in_play, tmp_path, width
):
    """Right after a roll: the page holds every row, the open epoch's too (the chain to the last
    row, its commitment posted before its first roll), its rolls marked checkable after the
    turn; the plain verdict first; nothing wider than a phone's 390 px or a laptop's screen."""
    data, still_open, rows = hells_gate_in_play
    assert still_open.turn == 2 and rows[still_open.row]["kind"] == "epoch"
    path = tmp_path / f"play-{width}.html"
    path.write_text(page_html(data), encoding="utf-8")
    page = _at_width(browser, path, width)
    assert page.verdict.startswith(f"VERIFIED: {len(rows)} rows"), page.verdict
    assert f"head hash {rows[-1]['hash']}" in page.verdict  # the chain holds to the last row
    assert f"epoch {still_open.epoch} (turn 2) is open" in page.verdict
    assert f"commitment was posted at row {still_open.row}, before its first roll" in page.verdict
    plain = page.text("plain")
    assert plain.startswith(
        "Every die in this game so far was fixed before it was rolled and is recorded unchanged."
    )
    assert "can be recomputed after turn 2" in plain and "docs/" not in page.text("result")
    explained = page.evaluate("document.querySelector('details').textContent")
    assert "commitment" in explained and "docs/audit.md" not in explained
    statuses = page.evaluate(
        "[...document.querySelectorAll('#rolls tr')].slice(1).map(r => [+r.cells[0].textContent,"
        " r.cells[7].textContent])"
    )
    pending = [status for row, status in statuses if row > still_open.row]
    assert pending and all(s.startswith("checkable after turn 2") for s in pending), pending
    assert all(s.startswith("recomputed") for row, s in statuses if row < still_open.row)
    assert "not yet: checkable after turn 2" in page.text("commitments")
    page.evaluate("document.querySelector('details').open = true")  # the explanation too
    laid = page.evaluate(OVERFLOW)
    assert laid["width"] == width and laid["scroll"] <= width, laid
    assert laid["beyond"] == [], laid["beyond"][:5]
    page.close()


def test_an_edit_in_the_open_epoch_fails_at_its_row(browser, hells_gate_in_play, tmp_path):
    """The open epoch's rows are chained like every other: a roll changed in it (and its hash
    with it) fails at that row, and so does a salt moved after the epoch's first roll."""
    data, still_open, _ = hells_gate_in_play
    header, rows = parse_export(data)
    k = next(i for i in range(still_open.row, len(rows)) if rows[i]["payload"].get("rolls"))
    edited = copy.deepcopy(rows)
    edited[k]["payload"]["rolls"][0]["value"] = edited[k]["payload"]["rolls"][0]["value"] % 6 + 1
    (tmp_path / "e.html").write_text(page_html(export_bytes(header, edited)), encoding="utf-8")
    page = browser.open(tmp_path / "e.html")
    assert page.verdict.startswith(f"FAILED at row {k}:"), page.verdict
    assert page.text("plain").startswith(f"This log does NOT check out at row {k}")
    page.close()
    salted = copy.deepcopy(rows)
    salt = {
        **salted[k],
        "kind": "salt",
        "actor": "x",
        "payload": {"epoch": still_open.epoch, "salt": "late"},
    }
    salted.insert(k + 1, salt)
    for i, r in enumerate(salted):
        r["index"] = i
    h, salted = relinked(dict(header) | {"rows": len(salted)}, salted)
    (tmp_path / "s.html").write_text(page_html(export_bytes(h, salted)), encoding="utf-8")
    page = browser.open(tmp_path / "s.html")
    assert page.verdict.startswith(f"FAILED at row {k + 1}: salt after epoch"), page.verdict
    page.close()

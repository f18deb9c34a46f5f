"""Headless Chromium driven over the DevTools protocol, with nothing but the standard library.

Debian's `chromium` (installed by .ci/run; never downloaded at run time) is started with
`--remote-debugging-pipe`: the protocol's JSON messages, each ended by a NUL byte, go to the
browser on file descriptor 3 and come back on 4. One Browser per test module (it starts in about a
second); each `open` is a fresh page whose every network request is recorded (`Network.
requestWillBeSent`, and `Fetch` fails any request that is not the page itself, so a page that
tries the network is both caught and kept offline).

`Browser.open(url)` loads the page and waits, inside the browser, until `#verdict` holds a
verdict; `evaluate(expression)` runs a script (awaiting its promise) and returns its JSON value.
No sleeps: every wait is for a protocol answer or for the page's own promise.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

WAIT_FOR_VERDICT = """
new Promise((resolve) => {
  const verdict = () => (document.getElementById("verdict") || {}).textContent || "";
  const done = () => /^(VERIFIED|FAILED|NO WEBCRYPTO)/.test(verdict());
  if (done()) return resolve(verdict());
  new MutationObserver((_, obs) => { if (done()) { obs.disconnect(); resolve(verdict()); } })
    .observe(document.documentElement, { subtree: true, childList: true, characterData: true });
})
"""


class BrowserError(RuntimeError):
    pass


@dataclass
class Page:
    browser: Browser
    session: str
    requests: list[str] = field(default_factory=list)  # every URL the page asked for

    def call(self, method: str, **params):
        return self.browser.call(method, params, session=self.session, page=self)

    def evaluate(self, expression: str):
        found = self.call(
            "Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True
        )
        if "exceptionDetails" in found:
            raise BrowserError(json.dumps(found["exceptionDetails"])[:2000])
        return found["result"].get("value")

    def text(self, element_id: str) -> str:
        return self.evaluate(f"document.getElementById({json.dumps(element_id)}).textContent")

    def close(self) -> None:
        self.browser.call("Target.closeTarget", {"targetId": self.target})

    target: str = ""
    verdict: str = ""  # the text of #verdict once it held a verdict


class Browser:
    def __init__(self) -> None:
        if CHROMIUM is None:
            raise BrowserError("no chromium: apt-get install chromium chromium-driver")
        self.profile = tempfile.mkdtemp(prefix="pbem-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        os.set_inheritable(to_browser_r, True)
        os.set_inheritable(from_browser_w, True)

        def fds() -> None:  # the child's fd 3 reads commands, fd 4 writes answers
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.proc = subprocess.Popen(
            [
                CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--remote-debugging-pipe", f"--user-data-dir={self.profile}", "--no-first-run",
                "--no-default-browser-check", "--disable-background-networking",
                "--disable-extensions", "--disable-sync", "--disable-component-update",
                "--disable-dev-shm-usage", "about:blank",
            ],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False,  # noqa: PLW1509 (only os.dup2 runs in the child)
        )  # fmt: skip
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next_id = 0
        self._buffer = b""

    # -- the protocol
    def _send(self, message: dict) -> None:
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")

    def _receive(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise BrowserError("chromium closed the protocol pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, params: dict | None = None, session: str | None = None, page=None):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        self._send(message)
        while True:
            got = self._receive()
            if got.get("id") == self._next_id:
                if "error" in got:
                    raise BrowserError(f"{method}: {got['error']}")
                return got.get("result", {})
            self._event(got, page)

    def _event(self, got: dict, page: Page | None) -> None:
        if page is None or got.get("sessionId") != page.session:
            return
        method, params = got.get("method"), got.get("params", {})
        if method == "Network.requestWillBeSent":
            page.requests.append(params["request"]["url"])
        elif method == "Fetch.requestPaused":  # anything but the page itself stays offline
            self._send(
                {
                    "id": 0,
                    "method": "Fetch.failRequest",
                    "params": {"requestId": params["requestId"], "errorReason": "BlockedByClient"},
                    "sessionId": page.session,
                }
            )

    def wait_for(self, method: str, page: Page) -> dict:
        """The next event `method` of the page (the events before it are handled as usual)."""
        while True:
            got = self._receive()
            self._event(got, page)
            if got.get("method") == method and got.get("sessionId") == page.session:
                return got.get("params", {})

    # -- pages
    def open(self, path: Path | str, *, before: str | None = None, wait: bool = True) -> Page:
        """A new page at a file (or URL), every request recorded; `before`: a script run before
        the page's own (to take WebCrypto away, say). Returns once #verdict holds a verdict."""
        url = (
            Path(path).resolve().as_uri()
            if not str(path).startswith(("file:", "about:"))
            else str(path)
        )
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
            "sessionId"
        ]
        page = Page(self, session, target=target)
        page.call("Network.enable")
        page.call("Page.enable")
        page.call("Runtime.enable")
        page.call("Fetch.enable", patterns=[{"urlPattern": "http*"}, {"urlPattern": "ws*"}])
        if before:
            page.call("Page.addScriptToEvaluateOnNewDocument", source=before)
        page.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired", page)
        if wait:
            page.verdict = page.evaluate(WAIT_FOR_VERDICT)
        return page

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except BrowserError:
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)


__all__ = ["CHROMIUM", "Browser", "BrowserError", "Page"]

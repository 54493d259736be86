"""The other web engines players use (issue 32 item 10): Firefox ESR through
WebDriver BiDi and WebKitGTK through WebKitWebDriver — Debian's packages, with
drivers that install offline — behind one small interface, ``Engine``, that
``gamekit``'s helpers can use as they use a Playwright page (``evaluate``).

- **Firefox**: ``firefox --headless --remote-debugging-port=0`` serves WebDriver
  BiDi itself (no geckodriver: PyPI has none, and Selenium would download one);
  :class:`Firefox` speaks it over one websocket (``websocket-client``, which
  Selenium brings): a session, a tab at 360×640 as a phone's, navigate,
  evaluate, taps by a touch pointer. What the browser prints is drained by a thread (a full pipe would
  stall it); its port is read from its own line "WebDriver BiDi listening on".
- **WebKitGTK**: ``WebKitWebDriver`` (apt ``webkit2gtk-driver``) drives
  MiniBrowser (shipped with ``libwebkit2gtk-4.1-0``) through Selenium. The GTK
  MiniBrowser has no headless mode, so it runs on its own Xvfb display (apt
  ``xvfb``; ``-displayfd`` picks a free one), 1280×800 as a desktop's, clicked
  with a mouse.

Waiting is the page's own polling of a condition (as Playwright's
``wait_for_function``), never a sleep.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox") or "/usr/bin/firefox-esr"
WEBKIT_DRIVER = shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
XVFB = shutil.which("Xvfb") or "/usr/bin/Xvfb"
START_S = 60.0          # a browser up and talking
PACE_MS = 40            # between taps: a fast player's pace (as tests/e2e/test_fast_taps.py)

# ``expr`` a function (called, awaited) or a value, as Playwright's evaluate takes
# it; the answer as JSON text (the same in both protocols)
_RUN = ("(async () => { const f = (%s); const v = typeof f === 'function' ? await f() : await f;"
        " return JSON.stringify(v === undefined ? null : v); })()")
# the page polls ``cond`` every 50 ms until it is truthy or ``ms`` have passed
_POLL = ("() => new Promise(done => { const t0 = performance.now(); (function look() {"
         " let v = null; try { v = (%s); } catch (e) { v = null; }"
         " if (v) return done(true); if (performance.now() - t0 > %d) return done(false);"
         " setTimeout(look, 50); })(); })")


class EngineError(AssertionError):
    """The engine said no (a script's exception, a protocol error, a wait run out)."""


class Engine:
    """A page in another engine: ``go(url)``, ``evaluate(expr)``, ``wait(cond)``,
    ``taps(points)`` (a real pointer's press and release at each viewport point,
    :data:`PACE_MS` apart, in one command: a touch in Firefox, a mouse in
    WebKit), ``close()``."""

    name = "engine"

    def go(self, url: str) -> None:
        raise NotImplementedError

    def evaluate(self, expr: str):
        return json.loads(self._run(_RUN % expr))

    def wait(self, cond: str, timeout_s: float = 60.0) -> None:
        if not self.evaluate(_POLL % (cond, int(timeout_s * 1000))):
            state = self.evaluate("({url: location.href, state: document.body && document.body.dataset.state,"
                                  " mode: document.body && document.body.dataset.mode,"
                                  " error: (document.querySelector('.py-error') || {}).textContent})")
            raise EngineError(f"{self.name}: not within {timeout_s} s: {cond}; the page: {state}")

    def taps(self, points: list[tuple[float, float]]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _run(self, script: str) -> str:
        raise NotImplementedError


class Firefox(Engine):
    """Firefox ESR headless, one tab, spoken to in WebDriver BiDi."""

    name = "firefox"

    def __init__(self, width: int = 360, height: int = 640) -> None:
        import websocket  # websocket-client

        self.profile = tempfile.mkdtemp(prefix="kosynka-ff-")
        self.proc = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--profile", self.profile,
             "--remote-debugging-port=0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.said: list[str] = []
        found = threading.Event()
        self.ws_url = ""

        def drain() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.said.append(line.rstrip())
                m = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
                if m:
                    self.ws_url = m.group(1)
                    found.set()
            found.set()                       # the browser is gone: say so below

        threading.Thread(target=drain, daemon=True, name="firefox-stderr").start()
        self.ws = None
        self.n = 0
        try:
            if not found.wait(START_S) or not self.ws_url:
                raise EngineError(f"Firefox did not start WebDriver BiDi: {self.said[-10:]}")
            self.ws = websocket.create_connection(self.ws_url + "/session", timeout=START_S + 60,
                                                 suppress_origin=True)  # Firefox refuses an Origin
            self.send("session.new", {"capabilities": {}})
            self.context = self.send("browsingContext.getTree", {})["contexts"][0]["context"]
            self.send("browsingContext.setViewport", {"context": self.context, "devicePixelRatio": 2,
                                                      "viewport": {"width": width, "height": height}})
        except BaseException:
            self.close()
            raise

    def send(self, method: str, params: dict) -> dict:
        self.n += 1
        self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") != self.n:
                continue                      # an event (none is subscribed to)
            if msg.get("type") == "error":
                raise EngineError(f"firefox: {method}: {msg.get('error')}: {msg.get('message')}")
            result: dict = msg["result"]
            return result

    def go(self, url: str) -> None:
        self.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def _run(self, script: str) -> str:
        r = self.send("script.evaluate", {"expression": script, "awaitPromise": True,
                                          "target": {"context": self.context}})
        if r["type"] == "exception":
            raise EngineError(f"firefox: {r['exceptionDetails'].get('text')}")
        return str(r["result"]["value"])

    def taps(self, points: list[tuple[float, float]]) -> None:
        steps: list[dict] = []
        for x, y in points:
            steps += [{"type": "pointerMove", "x": round(x), "y": round(y)},
                      {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0},
                      {"type": "pause", "duration": PACE_MS}]
        self.send("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "touch"},
            "actions": steps}]})

    def close(self) -> None:
        try:
            if self.ws is not None:
                try:
                    self.send("browser.close", {})
                except Exception:
                    pass                      # (the browser is stopped below anyway)
                self.ws.close()
        finally:
            if self.proc.poll() is None:
                self.proc.terminate()
                try:
                    self.proc.wait(20)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            shutil.rmtree(self.profile, ignore_errors=True)


class WebKit(Engine):
    """WebKitGTK's MiniBrowser on its own Xvfb display, through WebKitWebDriver
    and Selenium."""

    name = "webkit"

    def __init__(self, width: int = 1280, height: int = 800) -> None:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service

        self.driver = None
        read, write = os.pipe()
        self.xvfb = subprocess.Popen([XVFB, "-displayfd", str(write), "-screen", "0",
                                      f"{width}x{height}x24", "-nolisten", "tcp"],
                                     pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        try:
            with os.fdopen(read) as said:
                display = said.readline().strip()   # Xvfb writes it once it is up
            if not display:
                raise EngineError("Xvfb did not start")
            options = Options()
            options.binary_location = MINIBROWSER
            options.add_argument("--automation")
            service = Service(executable_path=WEBKIT_DRIVER,
                              env={**os.environ, "DISPLAY": ":" + display})
            self.driver = webdriver.WebKitGTK(options=options, service=service)
            self.driver.set_window_rect(0, 0, width, height)
            self.driver.set_script_timeout(START_S + 60)
        except BaseException:
            self.close()
            raise

    def go(self, url: str) -> None:
        assert self.driver is not None
        self.driver.get(url)

    def _run(self, script: str) -> str:
        assert self.driver is not None
        answer = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            f" ({script}).then(done, e => done(JSON.stringify({{__error: String(e)}})));")
        if isinstance(answer, str) and answer.startswith('{"__error"'):
            raise EngineError(f"webkit: {json.loads(answer)['__error']}")
        return str(answer)

    def taps(self, points: list[tuple[float, float]]) -> None:
        from selenium.webdriver.common.actions.action_builder import ActionBuilder

        assert self.driver is not None
        actions = ActionBuilder(self.driver)
        for x, y in points:
            actions.pointer_action.move_to_location(round(x), round(y)).click().pause(PACE_MS / 1000)
        actions.perform()

    def close(self) -> None:
        try:
            if self.driver is not None:
                self.driver.quit()
        finally:
            self.xvfb.terminate()
            self.xvfb.wait()


def available() -> dict[str, str | None]:
    """Why an engine cannot run here (None: it can)."""
    def missing(*paths: str) -> str | None:
        gone = [p for p in paths if not Path(p).is_file()]
        return f"not installed: {', '.join(gone)}" if gone else None

    return {"firefox": missing(FIREFOX), "webkit": missing(WEBKIT_DRIVER, MINIBROWSER, XVFB)}
